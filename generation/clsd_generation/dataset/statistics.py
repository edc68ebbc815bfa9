"""Measured facts about generated distractors, for the dataset card and the final report.

The paper's two surface measures, from :mod:`clsd_format.text_measures` (the project's one
definition of each): word-level Jaccard between original and distractor (on the release: mean 0.516,
sd 0.190; the paper's "0.47 / 0.17" is a different statistic, the mean Jaccard of a distractor to the
other distractors of the same sentence, given here too), and the normalised indel similarity
(python-Levenshtein's ``ratio``) in the paper's bins.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from clsd_format.text_measures import bin_labels, edit_similarity, jaccard, mean_jaccard_to_others, similarity_bin


@dataclass(frozen=True)
class SimilarityStats:
    pairs: int
    jaccard_mean: float  # original vs distractor
    jaccard_sd: float
    intra_jaccard_mean: float  # each distractor vs the other distractors of its sentence (the paper's 0.47)
    intra_jaccard_sd: float
    levenshtein_histogram: list[tuple[str, int, float]]  # (bin label, count, share)


def _mean_sd(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values) if values else float("nan")
    return mean, statistics.stdev(values) if len(values) > 1 else float("nan")


def similarity_stats(groups: Iterable[tuple[str, Sequence[str]]]) -> SimilarityStats:
    """``groups``: (original, its distractors), one per generated sentence."""
    jaccards: list[float] = []
    intra: list[float] = []
    counts: Counter[str] = Counter()
    for original, distractors in groups:
        intra.extend(mean_jaccard_to_others(distractors))
        for distractor in distractors:
            jaccards.append(jaccard(original, distractor))
            counts[similarity_bin(edit_similarity(original, distractor))] += 1
    total = len(jaccards)
    histogram = [(label, counts[label], counts[label] / total if total else 0.0) for label in bin_labels(counts)]
    (j_mean, j_sd), (i_mean, i_sd) = _mean_sd(jaccards), _mean_sd(intra)
    return SimilarityStats(total, j_mean, j_sd, i_mean, i_sd, histogram)
