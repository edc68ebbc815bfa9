"""Characters a reader does not see, the one form in which texts are compared, and what a distractor may keep of them.

A copy of a sentence is still a copy when an LLM wrote a zero-width space, a soft hyphen, a joiner, a variation
selector or a bidi mark into it, or wrote its digits fullwidth: a model that encodes the text sees a different
string, a reader sees the same sentence. So every comparison of a candidate with the original and with the other
candidates reads :func:`comparable`: the text without the characters Unicode declares invisible, then NFKC
(compatibility forms folded: "２０" is "20", "ﬁ" is "fi").

The invisible characters are those of two Unicode properties, read from the ``regex`` module's tables (no list kept
here): ``Default_Ignorable_Code_Point`` (zero-width space, ZWNJ, ZWJ, word joiner, soft hyphen, variation selectors,
the byte order mark, Hangul fillers, ...) and ``Bidi_Control`` (LRM, RLM, ALM, embeddings, overrides, isolates).

What a built dataset holds follows :func:`keep_invisible_of`: a distractor keeps such a character only when the
original uses that same character. Joiners carry meaning in some scripts (ZWNJ in Persian "می‌خواهم", ZWJ and ZWNJ in
Indic conjuncts, ZWJ in emoji sequences), so a distractor of an original that writes them keeps them; a distractor
of an original without them gets none, so no invisible difference tells a model which text is the translation.
"""

from __future__ import annotations

import unicodedata

import regex

INVISIBLE = regex.compile(r"[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}]")


def without_invisible(text: str) -> str:
    """``text`` without any default-ignorable or bidi control character."""
    return INVISIBLE.sub("", text) if INVISIBLE.search(text) else text


def comparable(text: str) -> str:
    """The form in which two texts are compared: invisible characters removed, then NFKC.

    They are removed first so that NFKC composes across them (an "e", a combining grapheme joiner and an acute accent
    compose to "é"), and again after, as a compatibility form may map to one (the halfwidth Hangul filler).
    """
    return without_invisible(unicodedata.normalize("NFKC", without_invisible(text)))


def keep_invisible_of(distractor: str, original: str) -> str:
    """``distractor`` without the invisible characters ``original`` does not use itself.

    The rule is by character, not by place: a ZWNJ is kept anywhere in a distractor of an original that writes one
    (a replaced Persian word may need its own), and dropped from a distractor of an original that writes none, even
    where the distractor's spelling would want it: the original's own spelling does without, and a character only the
    distractors hold would tell them from the translation.
    """
    if not INVISIBLE.search(distractor):
        return distractor
    used = set(INVISIBLE.findall(original))
    return INVISIBLE.sub(lambda found: found.group(0) if found.group(0) in used else "", distractor)
