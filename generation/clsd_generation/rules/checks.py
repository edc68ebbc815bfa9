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

An edit may have taken in the word before it (French "l'Union" -> "la République": the rule's edit plus the
rewritten article, see :mod:`clsd_generation.rules.elision`); checks 2-4 then compare the rule's own tokens, and
the rewritten words need only be whole tokens. Then the final text is checked (:func:`final_text_fault`):

6. ``same meaning``: equal to the original once case and accents are folded ("Etat" / "État", "Orban" /
   "Orbán" are one word spelt two ways), or a one-noun swap between a compound and its head
   ("Abgeordnete" / "Europaabgeordnete": either can still translate the source);
7. ``elision``: more elision or contraction errors than the original ("l'République", "de octobre").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from clsd_format.tagging import UNTAGGED, TaggedSentence, Token
from clsd_generation.rules.elision import fold
from clsd_generation.rules.entities import shape
from clsd_generation.rules.lexicon import Edit, LanguageRules

SAME_TAGS, SAME_SHAPE, NEGATION, CALENDAR = "same tags", "same shape", "negation", "calendar"
_NOMINAL = ("NOUN", "PROPN")
_PUNCTUATION = ".,;:!?\"'()«»„“”"
HEAD_MIN = 4  # a compound's head is at least this long ("Abgeordnete" in "Europaabgeordnete"); "Rat" / "Beirat" too short to tell


@dataclass(frozen=True)
class Prepared:
    """An edit ready to apply: ``lead`` original tokens before the rule's own edit taken in, ``lead_chars`` of new text for them."""

    edit: Edit
    lead: int
    lead_chars: int


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
        nominal = all(t.upos in _NOMINAL for t in (*old, *new)) or all(t.upos == UNTAGGED for t in (*old, *new))
        return len(old) == len(new) == 1 and nominal  # untagged: a language read as words alone (WordTagger)
    if kind == SAME_SHAPE:
        return bool(new) and shape(original, edit[0], edit[1]) == shape(retagged, offset, offset + len(new))
    if kind == NEGATION:
        return _negation_core(old, rules) == _negation_core(new, rules) and [t.text.casefold() for t in old] != [
            t.text.casefold() for t in new
        ]
    raise ValueError(kind)


def check(
    original: TaggedSentence,
    edit: Edit,
    kind: str,
    retagged: TaggedSentence,
    rules: LanguageRules,
    lead: int = 0,
    lead_chars: int = 0,
) -> str | None:
    """None when the candidate passes, else the reason it is dropped (``lead``: see :class:`Prepared`)."""
    if splits_a_name(original, edit):
        return "part of a name"
    start, end, text = edit
    left = original.tokens[start].start
    core = left + lead_chars  # where the rule's own new text begins
    right = left + len(text)  # where the original's suffix begins in the candidate
    if any(t.start < edge < t.end for t in retagged.tokens for edge in (left, core, right)):
        return "not whole tokens"
    before = [t for t in retagged.tokens if t.end <= left]
    middle = [t for t in retagged.tokens if core <= t.start and t.end <= right]
    after = [t for t in retagged.tokens if t.start >= right]
    if not (_same(before, original.tokens[:start]) and _same(after, original.tokens[end:])):
        return "tags changed outside the edit"
    offset = len(before) + len([t for t in retagged.tokens if left <= t.start and t.end <= core])
    core_edit = (start + lead, end, text[lead_chars:])
    if not _edit_matches(original.tokens[start + lead : end], middle, kind, rules, original, retagged, core_edit, offset):
        return "tags of the edit differ"
    return None


def _compound_and_head(old: str, new: str) -> bool:
    """One word is the other with something put in front ("Vorschläge" / "Gesetzesvorschläge")."""
    short, long = sorted((fold(old), fold(new)), key=len)
    return len(short) >= HEAD_MIN and long != short and long.endswith(short)


def final_text_fault(original: TaggedSentence, text: str, rules: LanguageRules) -> str | None:
    """What the finished candidate must not be, whatever rule made it (checks 6 and 7 of the module docstring)."""
    if " ".join(fold(text).split()) == " ".join(fold(original.text).split()):
        return "same meaning"
    before, after = Counter(original.text.split()), Counter(text.split())
    removed, added = list((before - after).elements()), list((after - before).elements())
    if len(added) == len(removed) == 1:
        old, new = removed[0].strip(_PUNCTUATION), added[0].strip(_PUNCTUATION)
        nominal = any(t.text == old and t.upos in _NOMINAL for t in original.tokens)  # not "einen"/"keinen", "légal"/"illégal"
        if nominal and _compound_and_head(old, new):
            return "same meaning"
    if rules.edge_faults is not None and rules.edge_faults(text) > rules.edge_faults(original.text):
        return "elision"
    return None
