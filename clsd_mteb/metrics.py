"""CLSD's metrics, in plain numpy: from unit vectors to cosines, from cosines to scores.

Definitions (all from one cosine matrix):

* rank of T = 1 + number of distractors d with cos(S, d) >= cos(S, T). A tie therefore ranks T below
  the distractor: ties count as misses, as in the paper.
* ``precision_at_1`` (main score) = share of rows with rank 1; ``mrr`` = mean of 1 / rank;
  ``mean_rank`` = mean rank of T; ``mean_margin`` = mean of cos(S, T) - max_d cos(S, d);
  ``distractor_<i>_win_rate`` = share of rows (having slot i) where distractor i ties or beats T;
  ``num_rows``; ``precision_at_1_ci_low`` / ``precision_at_1_ci_high``: the 95% Wilson interval of
  ``precision_at_1`` from the same per-row hits (:mod:`clsd_mteb.confidence`).
* ``chance_precision_at_1``: the P@1 of guessing, the mean over rows of 1 / (1 + the row's distractors)
  (20% with four distractors): what a model must beat to be told from guessing.
* ``pooled_recall_at_1``: share of rows where T strictly beats *every* candidate text of the split
  (the targets of all rows and all their distractors, the row's own T taken out once). This is the
  candidate set of mteb's own ``CrossLingualSemanticDiscrimination*`` retrieval tasks (one corpus per
  direction), scored from the same embeddings with CLSD's tie rule: the candidates form a multiset, so
  if T's text (or vector) occurs anywhere else in the split, as another row's target or as a
  distractor, T ties with it and the row is a miss.

Why the numbers are exact:

* **One cosine per distinct pair of vectors.** Vectors are deduplicated (identical texts, or different
  texts the model maps to the same bits, share one vector). Every cosine of a row (T, its distractors
  and, for the pooled metric, every candidate of the split) is read from one matrix of distinct source
  vectors by distinct candidate vectors. Identical vectors are one column, so a distractor identical
  to T has bit-for-bit the cosine of T and is a tie, never a lucky hit.
* **Order-free arithmetic.** Means are taken over an exactly rounded sum (``math.fsum``), which no row
  order changes.

The matrix holds every (distinct source, distinct candidate) cosine, which the pooled metric needs
anyway; it is computed in blocks of source vectors to bound memory.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from clsd_format.errors import EmbeddingError
from clsd_mteb.confidence import CHANCE, interval_scores

# Cap on the cosine block held in memory at once (float64 entries): 2**24 = 128 MiB.
_BLOCK_ENTRIES = 2**24


def distractor_wins(cosines: np.ndarray) -> np.ndarray:
    """(n_rows, n_slots) booleans: the slot's distractor ties or beats T (an empty, NaN slot never does).

    The one definition of a successful distractor: ranks, win rates and the analyses all read it.
    """
    with np.errstate(invalid="ignore"):
        return np.nan_to_num(cosines[:, 1:], nan=-np.inf) >= cosines[:, :1]


def target_ranks(cosines: np.ndarray) -> np.ndarray:
    """Rank of T per row, ties counted against T."""
    return 1 + distractor_wins(cosines).sum(axis=1)


def _exact_mean(values: np.ndarray) -> float:
    """Mean by an exactly rounded sum (``math.fsum``): the same bits in any row order, unlike a float sum.

    Finite values always have a finite mean, but their sum may be beyond float64 (two margins of 1e308):
    then the sum is taken at a power-of-two scale, which is exact, and the mean scaled back.
    """
    floats = values.astype(np.float64).tolist()
    try:
        return math.fsum(floats) / len(floats)
    except OverflowError:
        shift = len(floats).bit_length()
        return math.ldexp(math.fsum(math.ldexp(v, -shift) for v in floats) / len(floats), shift)


def clsd_metrics(cosines: np.ndarray, pooled_hits: np.ndarray | None = None) -> dict[str, float]:
    """All CLSD metrics from an (n_rows, 1 + n_slots) cosine matrix (and the pooled hits); see the module docstring."""
    if cosines.ndim != 2 or cosines.shape[1] < 2 or cosines.shape[0] == 0:
        raise ValueError(f"expected an (n_rows >= 1, 1 + n_distractors >= 2) matrix, got shape {cosines.shape}")
    ranks = target_ranks(cosines)
    distractors = cosines[:, 1:]
    present = ~np.isnan(distractors)
    scores: dict[str, float] = {
        "precision_at_1": _exact_mean(ranks == 1),
        **interval_scores(ranks == 1),
        "mrr": _exact_mean(1.0 / ranks),
        "mean_rank": _exact_mean(ranks),
        "mean_margin": _exact_mean(cosines[:, 0] - np.nanmax(distractors, axis=1)),
        CHANCE: _exact_mean(1.0 / (1 + present.sum(axis=1))),
    }
    wins = distractor_wins(cosines)
    for slot in range(distractors.shape[1]):
        scores[f"distractor_{slot + 1}_win_rate"] = _exact_mean(wins[present[:, slot], slot])
    if pooled_hits is not None:
        if pooled_hits.shape != (cosines.shape[0],):
            raise ValueError(f"pooled_hits has shape {pooled_hits.shape}, expected ({cosines.shape[0]},)")
        scores["pooled_recall_at_1"] = _exact_mean(pooled_hits)
    scores["num_rows"] = int(cosines.shape[0])
    for key, value in scores.items():  # what is stored is a number JSON holds: never NaN or an infinity
        if not math.isfinite(value):
            raise EmbeddingError(f"CLSD metric {key} came out as {value}; refusing to store it (are the scores finite?)")
    return scores


def check_scorable(embeddings: np.ndarray, texts: Sequence[str], where: str) -> None:
    """Raises on unscorable vectors of ``embeddings`` ((len(texts), dim), checked by the caller): NaN, inf, all zero."""
    finite = np.isfinite(embeddings).all(axis=1)
    if not finite.all():
        bad = int(np.flatnonzero(~finite)[0])
        raise EmbeddingError(
            f"{where}: model returned NaN or inf for {int((~finite).sum())} of {len(texts)} texts, "
            f"e.g. {texts[bad]!r}; refusing to score."
        )
    zero = ~(embeddings != 0).any(axis=1)
    if zero.any():
        bad = int(np.flatnonzero(zero)[0])
        raise EmbeddingError(
            f"{where}: model returned an all-zero vector for {int(zero.sum())} of {len(texts)} texts, "
            f"e.g. {texts[bad]!r}; cosine is undefined, refusing to score."
        )


def _scaled_rows(embeddings: np.ndarray) -> np.ndarray:
    """Each row times the power of two that brings its largest entry into [0.5, 1): exact (``ldexp``, even for a
    subnormal row, whose factor float64 cannot hold), and every row's length then fits float64."""
    _, exponents = np.frexp(np.abs(embeddings).max(axis=1, initial=0.0))
    return np.ldexp(embeddings, -exponents[:, None])


def unit_rows(embeddings: np.ndarray, texts: Sequence[str], where: str) -> np.ndarray:
    """Unit rows; ``embeddings`` is already (len(texts), dim), checked by the caller.

    Lengths are taken of scaled rows (:func:`_scaled_rows`): ``[1e200, 1e200]`` and ``[1e-200, 1e-200]`` have unit
    vectors too, and an ordinary row's unit vector keeps the bits it has without the scaling.
    """
    check_scorable(embeddings, texts, where)
    scaled = _scaled_rows(embeddings)
    return scaled / np.linalg.norm(scaled, axis=1)[:, None]


def distinct_unit_vectors(raw: np.ndarray, texts: Sequence[str], where: str) -> tuple[np.ndarray, np.ndarray]:
    """Unit vectors of the distinct rows of ``raw`` and, per text, the index of its vector.

    Rows with identical bits (identical texts, or texts the model cannot tell apart) become one
    vector, so everything computed from them is identical by construction, not by luck of arithmetic.
    """
    check_scorable(raw, texts, where)
    distinct, inverse = np.unique(np.ascontiguousarray(raw), axis=0, return_inverse=True)
    return unit_rows(distinct, texts, where), np.asarray(inverse).reshape(-1)


def score_rows(unit: np.ndarray, sources: np.ndarray, candidates: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Cosines of each row's candidates and its pooled hit, all read from one matrix product.

    ``unit``: distinct unit vectors; ``sources``: (n,) vector index of each row's S; ``candidates``:
    (n, 1 + k) vector indices of T then the distractor slots, -1 where a row has fewer. The matrix is
    distinct source vectors x distinct candidate vectors (in blocks of source vectors, to bound memory).
    """
    source_ids, source_of_row = np.unique(sources, return_inverse=True)
    present = candidates >= 0
    candidate_ids, counts = np.unique(candidates[present], return_counts=True)
    columns = np.where(present, np.searchsorted(candidate_ids, np.where(present, candidates, candidate_ids[0])), -1)
    target_columns = columns[:, 0]
    cosines = np.full(candidates.shape, np.nan)
    pooled_hits = np.zeros(len(sources), dtype=bool)
    candidate_vectors = unit[candidate_ids]
    block = max(1, _BLOCK_ENTRIES // len(candidate_ids))
    for start in range(0, len(source_ids), block):
        matrix = unit[source_ids[start : start + block]] @ candidate_vectors.T
        np.clip(matrix, -1.0, 1.0, out=matrix)
        rows = np.flatnonzero((source_of_row >= start) & (source_of_row < start + block))
        local = source_of_row[rows] - start
        row_columns = columns[rows]
        cosines[rows] = np.where(present[rows], matrix[local[:, None], np.maximum(row_columns, 0)], np.nan)
        # best other candidate per source vector: the top value, or the runner-up where the top is T itself
        top = matrix.argmax(axis=1)
        top_value = matrix[np.arange(len(matrix)), top]
        matrix[np.arange(len(matrix)), top] = -np.inf
        runner_up = matrix.max(axis=1)  # -inf where T is the only candidate
        best_other = np.where(top[local] == target_columns[rows], runner_up[local], top_value[local])
        pooled_hits[rows] = (counts[target_columns[rows]] == 1) & (cosines[rows, 0] > best_other)
    return cosines, pooled_hits
