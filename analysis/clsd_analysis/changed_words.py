"""Locating the changed word of a one-word change: tokens with punctuation kept, and the substituted token.

This is not the word unit of Jaccard (that is :mod:`clsd_format.text_measures`, the paper's
CountVectorizer words, which drop punctuation and one-letter words). To find *where* a distractor
differs from its original, every token counts: runs of letters/digits that may contain internal
hyphens or apostrophes ("Grande-Bretagne", "l'Union"; "7,2" is two words and a comma), with each
other non-space character a token of its own. On the released annotation files this tokenisation
finds the annotated one-token swaps (all but two of 970) and nothing the annotators described as
more than one change.
"""

from __future__ import annotations

import difflib
import re

WORD = re.compile(r"\w+(?:[-'’]\w+)*|[^\w\s]")


def tokens(text: str) -> list[str]:
    """Tokens in order, case kept (for locating a changed word)."""
    return WORD.findall(text)


def single_substitution(original: str, changed: str) -> tuple[int, str, str] | None:
    """(position, old token, new token) when the two differ by exactly one substituted token."""
    ta, tb = tokens(original), tokens(changed)
    if len(ta) != len(tb):
        return None
    diff = [i for i, (x, y) in enumerate(zip(ta, tb, strict=True)) if x != y]
    if len(diff) != 1:
        return None
    i = diff[0]
    return i, ta[i], tb[i]


def changed_span(original: str, changed: str) -> tuple[int, str, str]:
    """(position in the original, old tokens, new tokens) of the first differing stretch, for any kind of edit.

    A substitution gives one token each side; an addition an empty old side. Identical texts: (-1, "", "").
    """
    ta, tb = tokens(original), tokens(changed)
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=ta, b=tb, autojunk=False).get_opcodes():
        if tag != "equal":
            return i1, " ".join(ta[i1:i2]), " ".join(tb[j1:j2])
    return -1, "", ""


def changed_spans(original: str, changed: str) -> list[tuple[int, int]]:
    """Character (start, end) of each run of tokens of ``changed`` that is not in ``original`` at its place."""
    ta, tb = tokens(original), tokens(changed)
    spans = [
        (j1, j2) for tag, _, _, j1, j2 in difflib.SequenceMatcher(a=ta, b=tb, autojunk=False).get_opcodes() if tag != "equal"
    ]
    return _token_offsets(changed, tb, spans)


def marked_changes(original: str, changed: str, mark: tuple[str, str] = ("**", "**")) -> str:
    """``changed`` with the tokens that are not in ``original`` at their place wrapped in ``mark`` (the paper colours them)."""
    out, position = [], 0
    for start, end in changed_spans(original, changed):
        out += [changed[position:start], mark[0], changed[start:end], mark[1]]
        position = end
    return "".join(out) + changed[position:]


def _token_offsets(text: str, toks: list[str], spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Character (start, end) of each token span, found left to right in ``text``."""
    starts, cursor = [], 0
    for token in toks:
        cursor = text.index(token, cursor)
        starts.append((cursor, cursor + len(token)))
        cursor += len(token)
    return [(starts[j1][0], starts[j2 - 1][1]) for j1, j2 in spans if j2 > j1]
