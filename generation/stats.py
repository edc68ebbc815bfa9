"""Measured facts about generated distractors, for the dataset card and the final report.

The same two measures as the paper: word-level Jaccard between original and distractor (the paper:
mean 0.47, sd 0.17) and the normalised Levenshtein similarity in the paper's bins.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass

from rapidfuzz.distance import Levenshtein

from clsd_generation.validation import jaccard

# (low, high) inclusive of low; the paper's bins plus one for everything below 0.3.
LEVENSHTEIN_BINS: tuple[tuple[float, float], ...] = ((0.9, 1.0), (0.8, 0.9), (0.7, 0.8), (0.6, 0.7), (0.3, 0.6), (0.0, 0.3))


@dataclass(frozen=True)
class SimilarityStats:
    pairs: int
    jaccard_mean: float
    jaccard_sd: float
    levenshtein_histogram: list[tuple[str, int, float]]  # (bin label, count, share)


def similarity_stats(pairs: Iterable[tuple[str, str]]) -> SimilarityStats:
    """``pairs``: (original, distractor)."""
    jaccards: list[float] = []
    counts = [0] * len(LEVENSHTEIN_BINS)
    for original, distractor in pairs:
        jaccards.append(jaccard(original, distractor))
        similarity = Levenshtein.normalized_similarity(original, distractor)
        for index, (low, high) in enumerate(LEVENSHTEIN_BINS):
            if low <= similarity < high or (high == 1.0 and similarity == 1.0):
                counts[index] += 1
                break
    total = len(jaccards)
    histogram = [(f"{low:.1f}-{high:.1f}", n, n / total if total else 0.0) for (low, high), n in zip(LEVENSHTEIN_BINS, counts, strict=True)]
    return SimilarityStats(
        pairs=total,
        jaccard_mean=statistics.fmean(jaccards) if jaccards else float("nan"),
        jaccard_sd=statistics.stdev(jaccards) if len(jaccards) > 1 else float("nan"),
        levenshtein_histogram=histogram,
    )
