"""Which rule made a stored distractor, and does it pass the automatic checks: read back from the two texts.

The checkpoint stores distractor texts, not the rule behind each; ``clsd sample`` needs both for its
sheet. This module re-tags original and distractor, finds the changed tokens (widened to whole names),
names the rule that changes such tokens, and runs the same check as generation. It works from the
texts alone, so it also re-checks an old run, or one made with other rules.
"""

from __future__ import annotations

import re

from clsd_format.tagging import TaggedSentence
from clsd_generation.rules import CHECK_KIND
from clsd_generation.rules.checks import check
from clsd_generation.rules.common import apply_edit
from clsd_generation.rules.lexicon import Edit, LanguageRules

_NUMBER = re.compile(r"[-+\u2212]?\d[\d.,]*%?")


def changed_edit(original: TaggedSentence, distractor: TaggedSentence) -> tuple[Edit, list[str]] | None:
    """The smallest edit of whole tokens (and whole names) that turns the original into the distractor,
    with the distractor's tokens in its place; None when the token texts are the same."""
    old, new = [t.text for t in original.tokens], [t.text for t in distractor.tokens]
    prefix = 0
    while prefix < min(len(old), len(new)) and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < min(len(old), len(new)) - prefix and old[-1 - suffix] == new[-1 - suffix]:
        suffix += 1
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
    names = [n for n in original.names if start <= n.start and n.end <= end]
    if names:
        return "roles" if len(names) > 1 else "names"
    if len(old) == 1:
        word = old[0]
        if _NUMBER.fullmatch(word):
            return "numbers"
        if word in {m.casefold() for m in rules.months}:
            return "months"
        if word in {d.casefold() for d in rules.weekdays}:
            return "weekdays"
        if original.tokens[start].upos == "NOUN":
            return "nouns"
    return "other"


def explain(original: TaggedSentence, distractor: TaggedSentence, rules: LanguageRules) -> tuple[str, str | None]:
    """(rule, None) when the distractor passes the automatic checks, else (rule, the reason it fails)."""
    if original.text.casefold() == distractor.text.casefold():
        return ("other", "same as original")
    found = changed_edit(original, distractor)
    if found is None:
        return ("other", "not whole tokens")
    edit, new = found
    rule = rule_of(original, edit, new, rules)
    if rule == "other":
        return (rule, "no rule makes this change")
    return (rule, check(original, edit, CHECK_KIND[rule], distractor, rules))
