"""Locating the changed word of a one-word change: tokens with punctuation kept, and the substituted token.

This is not the word unit of Jaccard (that is :mod:`clsd_format.text_measures`, the paper's
CountVectorizer words, which drop punctuation and one-letter words). To find *where* a distractor
differs from its original, every token counts: runs of letters/digits that may contain internal
hyphens or apostrophes ("Grande-Bretagne", "подвір'я", "don't"; "7,2" is two words and a comma), with each
other non-space character a token of its own. Given a language whose rules cut an elided word off at its
apostrophe, it is a word of its own (French "l'" and "Union", Italian "dell'" and "anno":
:mod:`clsd_format.apostrophes`); without a language, "l'Union" is one token. On the released annotation files this
tokenisation (read without a language) finds the annotated one-token swaps (all but two of 970) and nothing the
annotators described as more than one change.

Words are :mod:`clsd_format.words`'s: a word keeps its combining marks (a Hindi vowel sign does not end it),
and given the language, a text of a script without spaces is cut by its segmenter (a changed Chinese word is
marked alone, not its whole clause). Without a language, a text is read as written with spaces.
"""

from __future__ import annotations

import difflib

from clsd_format.words import token_spans

JOINERS = "-"  # inner hyphens join a word ("Grande-Bretagne"); apostrophes as the language writes them


def token_offsets(text: str, language: str | None = None) -> list[tuple[int, int]]:
    """(start, end) of each token in order (see the module docstring)."""
    return token_spans(text, language, JOINERS)


def tokens(text: str, language: str | None = None) -> list[str]:
    """Tokens in order, case kept (for locating a changed word)."""
    return [text[start:end] for start, end in token_offsets(text, language)]


def single_substitution(original: str, changed: str, language: str | None = None) -> tuple[int, str, str] | None:
    """(position, old token, new token) when the two differ by exactly one substituted token."""
    ta, tb = tokens(original, language), tokens(changed, language)
    if len(ta) != len(tb):
        return None
    diff = [i for i, (x, y) in enumerate(zip(ta, tb, strict=True)) if x != y]
    if len(diff) != 1:
        return None
    i = diff[0]
    return i, ta[i], tb[i]


def changed_span(original: str, changed: str, language: str | None = None) -> tuple[int, str, str]:
    """(position in the original, old tokens, new tokens) of the first differing stretch, for any kind of edit.

    A substitution gives one token each side; an addition an empty old side. Identical texts: (-1, "", "").
    """
    ta, tb = tokens(original, language), tokens(changed, language)
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=ta, b=tb, autojunk=False).get_opcodes():
        if tag != "equal":
            return i1, " ".join(ta[i1:i2]), " ".join(tb[j1:j2])
    return -1, "", ""


def changed_spans(original: str, changed: str, language: str | None = None) -> list[tuple[int, int]]:
    """Character (start, end) of each run of tokens of ``changed`` that is not in ``original`` at its place."""
    ta, offsets = tokens(original, language), token_offsets(changed, language)
    tb = [changed[start:end] for start, end in offsets]
    return [
        (offsets[j1][0], offsets[j2 - 1][1])
        for tag, _, _, j1, j2 in difflib.SequenceMatcher(a=ta, b=tb, autojunk=False).get_opcodes()
        if tag != "equal" and j2 > j1
    ]


def marked_changes(original: str, changed: str, mark: tuple[str, str] = ("**", "**"), language: str | None = None) -> str:
    """``changed`` with the tokens that are not in ``original`` at their place wrapped in ``mark`` (the paper colours them)."""
    out, position = [], 0
    for start, end in changed_spans(original, changed, language):
        out += [changed[position:start], mark[0], changed[start:end], mark[1]]
        position = end
    return "".join(out) + changed[position:]
