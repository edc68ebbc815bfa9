"""The automatic checks every rule distractor passes before it is kept (what a tagger can check of the paper's criteria).

The candidate is re-tagged, then:

1. ``part of a name``: the edit covers every name it touches wholly (no "Wall Dow");
2. ``not whole tokens``: the re-tagged candidate has token boundaries exactly where the edit starts and ends;
3. ``tags changed outside the edit``: every token before and after the edit has the same text and tag as in
   the original (a swap that makes the tagger read its neighbours differently broke the grammar);
4. ``tags of the edit differ``: the new tokens match the replaced ones: the same tags and inflection slot
   (one-word swaps; a month or weekday stays a noun or proper noun), the same shape (names and exchanged
   names), or the same words and tags once the negation words are set aside (negation);
5. ``same as original`` / ``duplicate``: done by the generator against the original and the other distractors.
"""

from __future__ import annotations

from collections.abc import Sequence

from clsd_format.tagging import TaggedSentence, Token
from clsd_generation.rules.entities import shape
from clsd_generation.rules.lexicon import Edit, LanguageRules

SAME_TAGS, SAME_SHAPE, NEGATION, CALENDAR = "same tags", "same shape", "negation", "calendar"
_NOMINAL = ("NOUN", "PROPN")


def splits_a_name(original: TaggedSentence, edit: Edit) -> bool:
    start, end, _ = edit
    return any(name.start < end and start < name.end and not (start <= name.start and name.end <= end) for name in original.names)


def _same(a: Sequence[Token], b: Sequence[Token]) -> bool:
    return len(a) == len(b) and all(x.text == y.text and x.tag == y.tag for x, y in zip(a, b, strict=True))


def _negation_core(tokens: Sequence[Token], rules: LanguageRules) -> list[tuple[str, str]]:
    """The tokens that are not negation words, with negative determiners mapped to positive ones."""
    positive = set(rules.negation_pairs.values())
    core = []
    for token in tokens:
        word = token.text.casefold()
        if word in rules.negation_words:
            continue
        word = rules.negation_pairs.get(word, word)
        core.append((word, "*" if word in positive else token.tag))  # "keinen" (PIAT) stands for "einen" (ART)
    return core


def _edit_matches(
    old: Sequence[Token],
    new: Sequence[Token],
    kind: str,
    rules: LanguageRules,
    original: TaggedSentence,
    retagged: TaggedSentence,
    edit: Edit,
    offset: int,
) -> bool:
    if kind == SAME_TAGS:
        return len(old) == len(new) and all(o.tag == n.tag and o.slot == n.slot for o, n in zip(old, new, strict=True))
    if kind == CALENDAR:  # a weekday for a weekday: taggers call the same word a noun or a proper noun by position
        return len(old) == len(new) == 1 and old[0].upos in _NOMINAL and new[0].upos in _NOMINAL
    if kind == SAME_SHAPE:
        return bool(new) and shape(original, edit[0], edit[1]) == shape(retagged, offset, offset + len(new))
    if kind == NEGATION:
        return _negation_core(old, rules) == _negation_core(new, rules) and [t.text.casefold() for t in old] != [
            t.text.casefold() for t in new
        ]
    raise ValueError(kind)


def check(original: TaggedSentence, edit: Edit, kind: str, retagged: TaggedSentence, rules: LanguageRules) -> str | None:
    """None when the candidate passes, else the reason it is dropped."""
    if splits_a_name(original, edit):
        return "part of a name"
    start, end, text = edit
    left = original.tokens[start].start
    right = left + len(text)  # where the original's suffix begins in the candidate
    if any(t.start < left < t.end or t.start < right < t.end for t in retagged.tokens):
        return "not whole tokens"
    before = [t for t in retagged.tokens if t.end <= left]
    middle = [t for t in retagged.tokens if left <= t.start and t.end <= right]
    after = [t for t in retagged.tokens if t.start >= right]
    if not (_same(before, original.tokens[:start]) and _same(after, original.tokens[end:])):
        return "tags changed outside the edit"
    if not _edit_matches(original.tokens[start:end], middle, kind, rules, original, retagged, edit, len(before)):
        return "tags of the edit differ"
    return None
