"""Surface measures between sentences: the one definition of a 'word' and of edit similarity.

Words are what :data:`WORD` matches: runs of letters/digits that may contain internal hyphens or
apostrophes ("Grande-Bretagne", "l'Union", "7,2" is two words and a comma), with each other
non-space character (punctuation) a token of its own. On the released annotation files this
tokenisation finds the annotated one-token swaps (all but two of 970) and nothing the annotators
described as more than one change, which is why it is used for the one-word analysis too.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from rapidfuzz.distance import Levenshtein

WORD = re.compile(r"\w+(?:[-'’]\w+)*|[^\w\s]")


def tokens(text: str) -> list[str]:
    """Tokens in order, case kept (for locating a changed word)."""
    return WORD.findall(text)


def word_set(text: str) -> set[str]:
    """Lower-cased words without punctuation (for Jaccard)."""
    return {t.lower() for t in WORD.findall(text) if t[0].isalnum() or t[0] == "_"}


def jaccard(a: str, b: str) -> float:
    """Word-level Jaccard similarity |A∩B| / |A∪B|; two texts without words count as identical."""
    sa, sb = word_set(a), word_set(b)
    union = sa | sb
    return 1.0 if not union else len(sa & sb) / len(union)


def mean_pairwise_jaccard(texts: Sequence[str]) -> float | None:
    """Mean Jaccard over all pairs of texts (the distractors of one row); None below two texts."""
    pairs = list(itertools.combinations(texts, 2))
    return None if not pairs else sum(jaccard(a, b) for a, b in pairs) / len(pairs)


def levenshtein_similarity(a: str, b: str) -> float:
    """1 - Levenshtein distance / length of the longer string, on characters (rapidfuzz)."""
    return float(Levenshtein.normalized_similarity(a, b))


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
