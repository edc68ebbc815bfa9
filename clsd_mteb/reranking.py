"""How (S, candidate) pairs reach a cross-encoder: the reranker's side of the CLSD evaluator.

A cross-encoder (mteb's ``CrossEncoderProtocol``: a ``predict`` over two loaders of texts, one pair
per position) gives one relevance score per pair instead of one vector per text. CLSD's five
candidates per source are exactly what a reranker sees after first-stage retrieval, so the task
scores it on the same rows, and this module turns its answers into the same (n_rows, 1 + n_slots)
matrix the embedding path builds from cosines (T in column 0, NaN where a row has fewer
distractors). Every metric then comes from :func:`clsd_mteb.metrics.clsd_metrics`, the one scoring
path: exact ties are misses, P@1, MRR, mean rank, win rates.

**Exact ties.** Every distinct (S, candidate) pair of texts is scored once and read wherever it
occurs, so a distractor whose text equals T has T's score bit for bit and is a tie, as identical
vectors are in the embedding path. Pairs go to the model sorted, so the row order changes nothing.

**Batches.** Pairs go in the batches the caller asks for (mteb's ``encode_kwargs``); exact mode
(``clsd evaluate --exact``) sends one pair per batch unless the model declares
``batch_invariant = True``, as :mod:`clsd_mteb.encoding` does for texts.

**What differs from embeddings, said in the result.** A score is the model's own unit (a logit, a
probability), not a cosine: the margin is stored as ``mean_score_margin``, never ``mean_margin``.
Pooled recall (S against every candidate of the split) would need N x 5N pairs and is not computed;
``clsd_pooled_recall_computed = 0`` says so (see :func:`cross_encoder_record`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from clsd_format.errors import EmbeddingError
from clsd_mteb.encoding import encodes_one_by_one, requested_batch_size, to_numpy

if TYPE_CHECKING:
    from mteb.abstasks.task_metadata import TaskMetadata
    from mteb.models import CrossEncoderProtocol
    from mteb.types import EncodeKwargs

# Stored beside a cross-encoder's scores (numbers, as mteb's score entries hold):
CROSS_ENCODER_KEY = "clsd_cross_encoder"  # 1: the scores are a cross-encoder's relevance scores, not cosines
POOLED_COMPUTED_KEY = "clsd_pooled_recall_computed"  # 0: pooled_recall_at_1 was not computed
SCORE_MARGIN_KEY = "mean_score_margin"  # mean of score(S, T) - max_d score(S, d), in the model's own units
COSINE_MARGIN_KEY = "mean_margin"


def is_cross_encoder(model: object) -> bool:
    """Whether ``model`` is scored pair by pair: it has mteb's ``predict`` and no ``encode``."""
    from mteb.models import CrossEncoderProtocol, EncoderProtocol

    return isinstance(model, CrossEncoderProtocol) and not isinstance(model, EncoderProtocol)


def cross_encoder_record() -> dict[str, int]:
    """What a cross-encoder's result says about itself: scores are not cosines, pooled recall is absent."""
    return {CROSS_ENCODER_KEY: 1, POOLED_COMPUTED_KEY: 0}


def rename_margin(scores: dict[str, float]) -> dict[str, float]:
    """``clsd_metrics`` output with the margin named in model score units (``mean_score_margin``)."""
    return {SCORE_MARGIN_KEY if key == COSINE_MARGIN_KEY else key: value for key, value in scores.items()}


def distinct_pairs(
    sources: Sequence[str], targets: Sequence[str], distractor_lists: Sequence[Sequence[str]]
) -> list[tuple[str, str]]:
    """Every distinct (S, candidate) pair of the rows, sorted: what the model scores, each pair once."""
    pairs = {(s, t) for s, t in zip(sources, targets, strict=True)}
    pairs.update((s, d) for s, ds in zip(sources, distractor_lists, strict=True) for d in ds)
    return sorted(pairs)


def score_matrix(
    pair_score: dict[tuple[str, str], float],
    sources: Sequence[str],
    targets: Sequence[str],
    distractor_lists: Sequence[Sequence[str]],
    where: str = "cross-encoder",
) -> np.ndarray:
    """(n_rows, 1 + n_slots) scores: T first, then the distractor slots, NaN where a row has fewer.

    Scores are finite, but a server may answer 1e308 for one candidate and -1e308 for another: their
    difference, the row's margin, is beyond float64. Such a row is refused here (naming its source),
    so no metric is ever stored as infinity.
    """
    n_slots = max(len(ds) for ds in distractor_lists)
    scores = np.full((len(sources), 1 + n_slots), np.nan)
    for row, (s, t, ds) in enumerate(zip(sources, targets, distractor_lists, strict=True)):
        scores[row, 0] = pair_score[(s, t)]
        scores[row, 1 : 1 + len(ds)] = [pair_score[(s, d)] for d in ds]
    with np.errstate(over="ignore", invalid="ignore"):
        spread = np.nanmax(scores, axis=1) - np.nanmin(scores, axis=1)
    beyond = ~np.isfinite(spread)
    if beyond.any():
        row = int(np.flatnonzero(beyond)[0])
        raise EmbeddingError(
            f"{where}: cross-encoder scores of {int(beyond.sum())} of {len(sources)} rows differ by more than float64 "
            f"holds, e.g. {scores[row, 0]:g} for the target of {sources[row]!r}; refusing to score."
        )
    return scores


def predict_pairs(
    model: CrossEncoderProtocol,
    pairs: Sequence[tuple[str, str]],
    *,
    task_metadata: TaskMetadata,
    hf_split: str,
    hf_subset: str,
    encode_kwargs: EncodeKwargs | dict[str, Any] | None,
    exact: bool,
) -> np.ndarray:
    """(len(pairs),) float64 scores from ``model.predict``, in the order of ``pairs``; raises on NaN or inf.

    Both loaders get the same batch size, so batch i of the first holds the queries of batch i of the
    second (what mteb's ``CrossEncoderWrapper`` expects). Every pair gets the ``query`` prompt type,
    as every text does in the embedding path.
    """
    from datasets import Dataset
    from mteb.types import PromptType
    from torch.utils.data import DataLoader

    kwargs: dict[str, Any] = {**(encode_kwargs or {}), "batch_size": requested_batch_size(encode_kwargs)}
    if encodes_one_by_one(model, exact):
        kwargs["batch_size"] = 1  # a pair's score must not depend on the other pairs of its batch
    sources, candidates = [pair[0] for pair in pairs], [pair[1] for pair in pairs]
    # the sources as mteb's query loaders hold them: "text" and "query" (mteb's own rerankers read "query")
    loaders = [
        DataLoader(Dataset.from_dict(columns), batch_size=kwargs["batch_size"])
        for columns in ({"text": sources, "query": sources}, {"text": candidates})
    ]
    kwargs.setdefault("show_progress_bar", False)
    answer = model.predict(
        loaders[0],
        loaders[1],
        task_metadata=task_metadata,
        hf_split=hf_split,
        hf_subset=hf_subset,
        prompt_type=PromptType.query,
        **kwargs,
    )
    scores = np.asarray(to_numpy(answer), dtype=np.float64).reshape(-1)
    where = f"{task_metadata.name} ({hf_subset}/{hf_split})"
    if scores.shape != (len(pairs),):
        raise EmbeddingError(f"{where}: cross-encoder returned {scores.size} scores for {len(pairs)} pairs")
    finite = np.isfinite(scores)
    if not finite.all():
        bad = pairs[int(np.flatnonzero(~finite)[0])]
        raise EmbeddingError(
            f"{where}: cross-encoder returned NaN or inf for {int((~finite).sum())} of {len(pairs)} pairs, "
            f"e.g. {bad!r}; refusing to score."
        )
    return scores
