"""Does a stored distractor pass the automatic checks, and (where the run did not store it) which rule made it.

``clsd check-sample`` re-checks each sampled distractor of a rule run: this module re-tags original and
distractor, finds the changed tokens (widened to whole names) and runs the same check as generation,
for the rule the checkpoint stored. For a run that stored no rules (made by an earlier version) or any
other pair of texts, the rule is read back from the change itself (:func:`rule_of`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from clsd_format.tagging import TaggedSentence
from clsd_generation.rules.any_language import apply_edit
from clsd_generation.rules.checks import check, final_text_fault
from clsd_generation.rules.elision import EDGE_WORDS
from clsd_generation.rules.lexicon import Edit, LanguageRules
from clsd_generation.rules.registry import RULE_BY_NAME

_NUMBER = re.compile(r"[-+\u2212]?\d[\d.,]*%?")


def _shared_start(first: Sequence[str], second: Sequence[str]) -> int:
    """How many leading tokens the two sequences have in common."""
    return next((i for i, (a, b) in enumerate(zip(first, second, strict=False)) if a != b), min(len(first), len(second)))


def changed_edit(original: TaggedSentence, distractor: TaggedSentence) -> tuple[Edit, list[str]] | None:
    """The smallest edit of whole tokens (and whole names) that turns the original into the distractor,
    with the distractor's tokens in its place; None when the token texts are the same."""
    old, new = [t.text for t in original.tokens], [t.text for t in distractor.tokens]
    prefix = _shared_start(old, new)
    suffix = _shared_start(old[prefix:][::-1], new[prefix:][::-1])
    start, end, new_end = prefix, len(old) - suffix, len(new) - suffix
    if start == end and start == new_end:
        return None
    for name in original.names:  # a name touched in part is widened to the whole name, as the rules edit it
        if name.start < end and start < name.end:
            new_end += max(name.end - end, 0)  # the common prefix and suffix let both sides widen alike
            start, end = min(start, name.start), max(end, name.end)
    options = [(start, end, start, new_end)]
    if start == end or start == new_end:  # an insertion or deletion: attach it to a whole neighbouring token
        options = [
            (start, end + 1, start, new_end + 1),
            (start - 1, end, start - 1, new_end),
            (start - 1, end + 1, start - 1, new_end + 1),
        ]
    for old_start, old_end, new_start, new_stop in options:
        if 0 <= old_start < old_end <= len(old) and 0 <= new_start and new_stop <= len(new):
            text = (
                distractor.text[distractor.tokens[new_start].start : distractor.tokens[new_stop - 1].end]
                if new_stop > new_start
                else ""
            )
            if apply_edit(original, (old_start, old_end, text)) == distractor.text:
                return (old_start, old_end, text), new[new_start:new_stop]
    return None


def rule_of(original: TaggedSentence, edit: Edit, new: list[str], rules: LanguageRules) -> str:
    """The rule that makes this kind of change ("other" when none does)."""
    start, end, _ = edit
    old = [t.text.casefold() for t in original.tokens[start:end]]
    opposite = {a.casefold(): b.casefold() for a, b in rules.antonyms} | {b.casefold(): a.casefold() for a, b in rules.antonyms}
    if len(old) == 1 and len(new) == 1 and opposite.get(old[0]) == new[0].casefold():
        return "antonyms"  # before negation: "plus" -> "moins" is an opposite, though "plus" ends "ne ... plus"
    negation = rules.negation_words | set(rules.negation_pairs)
    if any(w in negation for w in old) or any(w.casefold() in negation for w in new):
        return "negation"
    if len(old) == 1 and old[0] in {
        m.casefold() for forms in rules.month_forms for m in forms
    }:  # before names: "April" may be tagged as one
        return "months"
    if len(old) == 1 and old[0] in {d.casefold() for forms in rules.weekday_forms for d in forms}:
        return "weekdays"
    names = [n for n in original.names if start <= n.start and n.end <= end]
    if names:
        return "roles" if len(names) > 1 else "names"
    if len(old) == 1:
        if _NUMBER.fullmatch(old[0]):
            return "numbers"
        if original.tokens[start].upos == "NOUN":
            return "nouns"
    return "other"


def _lead(original: TaggedSentence, edit: Edit, new: list[str]) -> tuple[int, int, int]:
    """How many leading tokens of an edit are a rewritten article or preposition (French "l'" -> "la"), old and new,
    and the characters of new text they take: the rule's own change starts after them."""
    start, end, text = edit
    old = [t.text.casefold() for t in original.tokens[start:end]]
    lead_old = next((i for i, word in enumerate(old) if word not in EDGE_WORDS), len(old))
    lead_new = next((i for i, word in enumerate(new) if word.casefold() not in EDGE_WORDS), len(new))
    if not (0 < lead_old < len(old) and 0 < lead_new < len(new)):
        return 0, 0, 0
    core = new[lead_new]
    return lead_old, lead_new, text.index(core)


def _checked(
    original: TaggedSentence,
    distractor: TaggedSentence,
    rules: LanguageRules,
    edit: Edit,
    new: list[str],
    lead: tuple[int, int, int],
    known_rule: str | None = None,
) -> tuple[str, str | None]:
    start, end, text = edit
    lead_old, lead_new, lead_chars = lead
    rule = known_rule or rule_of(original, (start + lead_old, end, text[lead_chars:]), new[lead_new:], rules)
    if rule == "other":
        return (rule, "no rule makes this change")
    return (rule, check(original, edit, RULE_BY_NAME[rule].check, distractor, rules, lead_old, lead_chars))


def explain(
    original: TaggedSentence, distractor: TaggedSentence, rules: LanguageRules, known_rule: str | None = None
) -> tuple[str, str | None]:
    """(rule, None) when the distractor passes the automatic checks, else (rule, the reason it fails).

    ``known_rule``: the rule that made the distractor, as the checkpoint stored it; None reads it from the change.

    A change that starts with a rewritten article (French "l'ancien" -> "le nouveau") is read both ways: as one
    edit, and as the article's new form followed by the rule's edit; the reading that passes is the answer.
    """
    if original.text.casefold() == distractor.text.casefold():
        return (known_rule or "other", "same as original")
    found = changed_edit(original, distractor)
    if found is None:
        return (known_rule or "other", "not whole tokens")
    edit, new = found
    rule, reason = _checked(original, distractor, rules, edit, new, (0, 0, 0), known_rule)
    if reason is not None and rules.repair_edit is not None:
        lead = _lead(original, edit, new)
        if lead[0]:
            rule, reason = min(
                [(rule, reason), _checked(original, distractor, rules, edit, new, lead, known_rule)],
                key=lambda r: r[1] is not None,
            )
    return (rule, reason or final_text_fault(original, distractor.text, rules))
