"""Surface measures between two sentences: the project's one word tokeniser, Jaccard and edit similarity.

Both are defined as the paper's authors computed them (their notebook, read for definitions):

* **Words** are scikit-learn ``CountVectorizer``'s default tokens: the text lower-cased, then every
  run of two or more word characters (regex ``(?u)\\b\\w\\w+\\b``). One-character words ("a", "à",
  "3") and punctuation are not words. The pattern is used directly so that this dependency-light
  package does not need scikit-learn; a test checks it against ``CountVectorizer(binary=True)``'s
  vocabulary on the whole release. It runs on the ``regex`` module, whose ``\\w`` keeps a word's
  combining marks (Hindi vowel signs, Arabic harakat), where ``re``'s cuts the word there; and given
  the language (any code :mod:`clsd_format.languages` reads), a text of a script without spaces
  (Chinese, Japanese, Thai, ...) is cut by its segmenter, every word it finds counting
  (:func:`clsd_format.words.paper_words`). Without a language, a text is read as written with spaces.
* **Jaccard** is the size of the intersection of the two word sets over the size of their union
  (``CountVectorizer(binary=True)`` plus scikit-learn's Jaccard metric). Two texts without any word count as identical (1.0).
  Both texts are read as compared (:func:`clsd_format.invisible.comparable`: NFKC, without default-ignorable and bidi
  control characters), so a soft hyphen or fullwidth digits make no other word; on the release this moves one
  sentence's intra-distractor Jaccard (a spacing acute accent used as an apostrophe) and no figure at two decimals.
* **Edit similarity** is python-Levenshtein's ``ratio``: the normalised *indel* similarity
  1 - (insertions + deletions) / (len(a) + len(b)), computed with rapidfuzz. It is not
  1 - Levenshtein distance / max length (a substitution costs 2 here, 1 there).
* **Bins** of edit similarity are the paper's: 0.9-1.0 (1.0 included), 0.8-0.9, 0.7-0.8, 0.6-0.7,
  0.3-0.6, each including its lower edge; a 0.0-0.3 bin exists for data that has such pairs (the
  release has none), so every pair falls in exactly one bin.

Generation (validation bounds, dataset card) and analysis (Jaccard statistics, Levenshtein bins)
both import from here, so the same pair gets the same number everywhere.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from rapidfuzz.distance import Indel

from clsd_format.invisible import comparable
from clsd_format.words import paper_words

# CountVectorizer's default token_pattern, applied after lower-casing (its default lowercase=True).
WORD_PATTERN = r"(?u)\b\w\w+\b"

# (label, lower edge inclusive, upper edge exclusive); the top bin also holds 1.0.
SIMILARITY_BINS: tuple[tuple[str, float, float], ...] = (
    ("0.9-1.0", 0.9, float("inf")),
    ("0.8-0.9", 0.8, 0.9),
    ("0.7-0.8", 0.7, 0.8),
    ("0.6-0.7", 0.6, 0.7),
    ("0.3-0.6", 0.3, 0.6),
    ("0.0-0.3", float("-inf"), 0.3),
)
PAPER_BIN_LABELS: tuple[str, ...] = tuple(label for label, _, _ in SIMILARITY_BINS[:5])
LOW_BIN_LABEL = SIMILARITY_BINS[5][0]


# The text's words in order (lower-cased; two or more word characters each, or a segmenter's words for a
# language written without spaces): the function itself, so the hot path is one call.
words = paper_words


def word_set(text: str, language: str | None = None) -> set[str]:
    """The text's distinct words: the unit of Jaccard similarity."""
    return set(paper_words(text, language))


def jaccard(a: str, b: str, language: str | None = None) -> float:
    """Word-level Jaccard similarity of two texts (in ``language``), read as compared (:func:`comparable`); 1.0 when
    neither has a word."""
    first, second = word_set(comparable(a), language), word_set(comparable(b), language)
    union = first | second
    return len(first & second) / len(union) if union else 1.0


def mean_jaccard_to_others(texts: Sequence[str], language: str | None = None) -> list[float]:
    """For each text, its mean Jaccard to every other text of the group (the paper's intra-distractor measure).

    Groups of fewer than two texts have no "others": an empty list.
    """
    if len(texts) < 2:
        return []
    sets = [word_set(comparable(t), language) for t in texts]
    pair = {}
    for i, j in itertools.combinations(range(len(sets)), 2):
        union = sets[i] | sets[j]
        pair[(i, j)] = pair[(j, i)] = len(sets[i] & sets[j]) / len(union) if union else 1.0
    return [sum(pair[(i, j)] for j in range(len(sets)) if j != i) / (len(sets) - 1) for i in range(len(sets))]


def edit_similarity(a: str, b: str) -> float:
    """Normalised indel similarity on characters (python-Levenshtein's ``ratio``), in [0, 1]."""
    return float(Indel.normalized_similarity(a, b))


def similarity_bin(similarity: float) -> str:
    """The label of the bin holding an edit similarity."""
    for label, low, high in SIMILARITY_BINS:
        if low <= similarity < high:
            return label
    raise ValueError(f"similarity {similarity!r} falls in no bin (NaN?)")


def bin_labels(labels_present: Iterable[str]) -> list[str]:
    """The bins to show, in order: the paper's five, plus 0.0-0.3 only when some pair falls there."""
    return [*PAPER_BIN_LABELS, LOW_BIN_LABEL] if LOW_BIN_LABEL in set(labels_present) else list(PAPER_BIN_LABELS)
