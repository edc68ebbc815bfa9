"""CLSD evaluator: encode each distinct text once, score candidates by cosine, compute P@1 and friends.

Metric definitions (all from one cosine matrix, plain numpy):

* rank of T = 1 + number of distractors d with cos(S, d) >= cos(S, T). A tie therefore ranks T below
  the distractor: ties count as misses, as in the paper.
* ``precision_at_1`` (main score) = share of rows with rank 1; ``mrr`` = mean of 1 / rank;
  ``mean_rank`` = mean rank of T; ``mean_margin`` = mean of cos(S, T) - max_d cos(S, d);
  ``distractor_<i>_win_rate`` = share of rows (having slot i) where distractor i ties or beats T;
  ``num_rows``.
* ``pooled_recall_at_1``: share of rows where T strictly beats *every* candidate text of the split
  (the targets of all rows and all their distractors, the row's own T taken out once). This is the
  candidate set of mteb's own ``CrossLingualSemanticDiscrimination*`` retrieval tasks (one corpus per
  direction), scored from the same embeddings with CLSD's tie rule: the candidates form a multiset, so
  if T's text (or vector) occurs anywhere else in the split, as another row's target or as a
  distractor, T ties with it and the row is a miss.

Why the numbers are exact (same data, model and settings give the same bits, whatever the row order
or what ran before):

* **Batches as the user asks, exactness on request.** By default texts are encoded in the batches the
  caller asks for (mteb's ``encode_kwargs={"batch_size": ...}``, ``clsd evaluate --batch-size``), on
  whatever threads and device the caller's torch uses: this module never changes them. An encoder's
  output for a text can depend, in the last bits, on the other texts of its batch (padding, and matrix
  kernels chosen by batch shape: about 2e-7 on all-MiniLM-L6-v2), so two batch sizes can disagree on a
  row whose distractor and T are that close. ``exact=True`` (``clsd evaluate --exact``) encodes each
  text in a batch of its own, which makes every vector a function of its text alone and every score
  independent of the batch size, at the price of speed (``docs/benchmarks.md``). An encoder whose
  vectors never depend on the batch declares ``batch_invariant = True`` and gets the requested batches
  in both modes. The result records the mode and the batch size (:func:`encoding_record`).
* **One cosine per distinct pair of vectors.** Texts are deduplicated, then their vectors (identical
  texts, or different texts the model maps to the same bits, share one vector). Every cosine of a row
  (T, its distractors and, for the pooled metric, every candidate of the split) is read from one
  matrix of distinct source vectors by distinct candidate vectors. Identical vectors are one column,
  so a distractor identical to T has bit-for-bit the cosine of T and is a tie, never a lucky hit.
* Order-free arithmetic: distinct texts are sorted, so row order changes no array the cosines come
  from, and means are taken over an exactly rounded sum (``math.fsum``), which no order changes.

The matrix holds every (distinct source, distinct candidate) cosine, which the pooled metric needs
anyway: on WMT19 DE-FR (1,473 rows, 8,837 distinct texts) 0.9 s, about 0.1% of the evaluation
(``benchmarks/pooled_metric_cost.py``).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from clsd_format import defaults, schema
from clsd_format.errors import EmbeddingError

if TYPE_CHECKING:
    from datasets import Dataset
    from mteb.abstasks.task_metadata import TaskMetadata
    from mteb.models import EncoderProtocol
    from mteb.timing import TimingStack
    from mteb.types import EncodeKwargs

logger = logging.getLogger(__name__)

# Bumped whenever a change can alter a score, so stored results of older code are never reused
# (clsd_mteb.run). 1: the first release; 2: exact ties (one matrix), batch-invariant encoding, pooled_recall_at_1;
# 3: the requested batches by default, one text per batch only in exact mode, torch threads left alone.
EVALUATOR_VERSION = 3
EVALUATOR_VERSION_KEY = "clsd_evaluator_version"
# How the vectors were made, stored beside every score (numbers, as mteb's score entries hold):
EXACT_KEY = "clsd_exact"  # 1: one text per batch (exact mode), 0: the requested batches
BATCH_SIZE_KEY = "clsd_batch_size"  # the batch size asked for

# Cap on the cosine block held in memory at once (float64 entries): 2**24 = 128 MiB.
_BLOCK_ENTRIES = 2**24


@dataclass
class CLSDPredictions:
    """Per-row cosines: column 0 is cos(S, T), columns 1.. the distractor slots (NaN where a row has fewer).

    ``pooled_hits`` says, per row, whether T strictly beats every other candidate text of the split.
    """

    ids: list[str]
    cosines: np.ndarray
    pooled_hits: np.ndarray | None = None

    @property
    def ranks(self) -> np.ndarray:
        return target_ranks(self.cosines)

    def to_records(self) -> list[dict[str, Any]]:
        """JSON-ready rows for mteb's prediction file: id, the cosines (T first), the rank of T, the pooled hit."""
        ranks = self.ranks
        pooled = [None] * len(self.ids) if self.pooled_hits is None else self.pooled_hits.tolist()
        return [
            {
                "id": row_id,
                "cosines": [float(c) for c in row if not np.isnan(c)],
                "rank": int(rank),
                **({} if hit is None else {"pooled_hit": bool(hit)}),
            }
            for row_id, row, rank, hit in zip(self.ids, self.cosines, ranks, pooled, strict=True)
        ]


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
    """Mean by an exactly rounded sum (``math.fsum``): the same bits in any row order, unlike a float sum."""
    return math.fsum(values.astype(np.float64).tolist()) / len(values)


def clsd_metrics(cosines: np.ndarray, pooled_hits: np.ndarray | None = None) -> dict[str, float]:
    """All CLSD metrics from an (n_rows, 1 + n_slots) cosine matrix (and the pooled hits); see the module docstring."""
    if cosines.ndim != 2 or cosines.shape[1] < 2 or cosines.shape[0] == 0:
        raise ValueError(f"expected an (n_rows >= 1, 1 + n_distractors >= 2) matrix, got shape {cosines.shape}")
    ranks = target_ranks(cosines)
    distractors = cosines[:, 1:]
    present = ~np.isnan(distractors)
    scores: dict[str, float] = {
        "precision_at_1": _exact_mean(ranks == 1),
        "mrr": _exact_mean(1.0 / ranks),
        "mean_rank": _exact_mean(ranks),
        "mean_margin": _exact_mean(cosines[:, 0] - np.nanmax(distractors, axis=1)),
    }
    wins = distractor_wins(cosines)
    for slot in range(distractors.shape[1]):
        scores[f"distractor_{slot + 1}_win_rate"] = _exact_mean(wins[present[:, slot], slot])
    if pooled_hits is not None:
        if pooled_hits.shape != (cosines.shape[0],):
            raise ValueError(f"pooled_hits has shape {pooled_hits.shape}, expected ({cosines.shape[0]},)")
        scores["pooled_recall_at_1"] = _exact_mean(pooled_hits)
    scores["num_rows"] = int(cosines.shape[0])
    return scores


def _check_finite_nonzero(embeddings: np.ndarray, texts: Sequence[str], where: str) -> np.ndarray:
    """The norms of ``embeddings`` ((len(texts), dim), checked by the caller); raises on unscorable vectors."""
    finite = np.isfinite(embeddings).all(axis=1)
    if not finite.all():
        bad = int(np.flatnonzero(~finite)[0])
        raise EmbeddingError(
            f"{where}: model returned NaN or inf for {int((~finite).sum())} of {len(texts)} texts, "
            f"e.g. {texts[bad]!r}; refusing to score."
        )
    norms = np.linalg.norm(embeddings, axis=1)
    zero = norms == 0
    if zero.any():
        bad = int(np.flatnonzero(zero)[0])
        raise EmbeddingError(
            f"{where}: model returned an all-zero vector for {int(zero.sum())} of {len(texts)} texts, "
            f"e.g. {texts[bad]!r}; cosine is undefined, refusing to score."
        )
    return norms


def _normalise(embeddings: np.ndarray, texts: Sequence[str], where: str) -> np.ndarray:
    """Unit rows; ``embeddings`` is already (len(texts), dim), checked by the caller."""
    return embeddings / _check_finite_nonzero(embeddings, texts, where)[:, None]


def encodes_one_by_one(model: Any, exact: bool) -> bool:
    """Whether texts go to the model one per batch: exact mode, for a model that does not declare itself batch-invariant."""
    return exact and not getattr(model, "batch_invariant", False)


def requested_batch_size(encode_kwargs: EncodeKwargs | dict[str, Any] | None) -> int:
    """The batch size the caller asked for in mteb's ``encode_kwargs``, else mteb's default."""
    return int((encode_kwargs or {}).get("batch_size") or defaults.BATCH_SIZE)


def encoding_record(exact: bool, encode_kwargs: EncodeKwargs | dict[str, Any] | None) -> dict[str, int]:
    """What a stored score says about how its vectors were made; a stored result is reused only when it matches."""
    return {EXACT_KEY: int(exact), BATCH_SIZE_KEY: requested_batch_size(encode_kwargs)}


def _raw_embeddings(
    model: EncoderProtocol,
    texts: Sequence[str],
    *,
    task_metadata: TaskMetadata,
    hf_split: str,
    hf_subset: str,
    encode_kwargs: EncodeKwargs | None,
    num_proc: int | None,
    exact: bool,
) -> np.ndarray:
    """(len(texts), dim) float64 vectors as the model returns them, in the order of ``texts``."""
    from datasets import Dataset
    from mteb.types import PromptType
    from torch.utils.data import DataLoader

    kwargs: dict[str, Any] = {**(encode_kwargs or {}), "batch_size": requested_batch_size(encode_kwargs)}
    if encodes_one_by_one(model, exact):
        # one text per batch: what a text's vector is must not depend on the other texts of its batch
        kwargs["batch_size"] = 1
    # Longest first (ties by text, so the order depends on nothing but the texts): an encoder that
    # takes the loader batch by batch then pads each batch to similar lengths.
    order = sorted(range(len(texts)), key=lambda i: (-len(texts[i]), texts[i]))
    # Plain text batches ({"text": [...]}), the loader mteb's create_dataloader builds for a text
    # column; the prompt type reaches the model through encode(), where encoders apply prompts.
    loader = DataLoader(
        Dataset.from_dict({"text": [texts[i] for i in order]}),
        batch_size=kwargs["batch_size"],
        num_workers=num_proc if num_proc is not None and num_proc > 1 else 0,
    )
    embeddings = model.encode(
        loader,
        task_metadata=task_metadata,
        hf_split=hf_split,
        hf_subset=hf_subset,
        prompt_type=PromptType.query,
        **kwargs,
    )
    sorted_embeddings = np.asarray(_to_numpy(embeddings), dtype=np.float64)
    if sorted_embeddings.ndim != 2 or sorted_embeddings.shape[0] != len(texts):
        raise EmbeddingError(f"{task_metadata.name}: model returned shape {sorted_embeddings.shape} for {len(texts)} texts")
    result = np.empty_like(sorted_embeddings)
    result[order] = sorted_embeddings
    return result


def encode_texts(
    model: EncoderProtocol,
    texts: Sequence[str],
    *,
    task_metadata: TaskMetadata,
    hf_split: str = schema.HUB_SPLIT,
    hf_subset: str = "default",
    encode_kwargs: EncodeKwargs | None = None,
    num_proc: int | None = None,
    exact: bool = False,
) -> np.ndarray:
    """Unit-length embeddings of ``texts`` (distinct), all encoded with the ``query`` prompt type.

    The one encoding path of the project: the evaluator and the analyses both use it, so a model
    sees exactly the same input in both. ``exact``: one text per batch (module docstring).
    Raises :class:`EmbeddingError` on NaN, inf or zero vectors.
    """
    raw = _raw_embeddings(
        model,
        texts,
        task_metadata=task_metadata,
        hf_split=hf_split,
        hf_subset=hf_subset,
        encode_kwargs=encode_kwargs,
        num_proc=num_proc,
        exact=exact,
    )
    return _normalise(raw, texts, f"{task_metadata.name} ({hf_subset}/{hf_split})")


def distinct_unit_vectors(raw: np.ndarray, texts: Sequence[str], where: str) -> tuple[np.ndarray, np.ndarray]:
    """Unit vectors of the distinct rows of ``raw`` and, per text, the index of its vector.

    Rows with identical bits (identical texts, or texts the model cannot tell apart) become one
    vector, so everything computed from them is identical by construction, not by luck of arithmetic.
    """
    _check_finite_nonzero(raw, texts, where)
    distinct, inverse = np.unique(np.ascontiguousarray(raw), axis=0, return_inverse=True)
    return _normalise(distinct, texts, where), np.asarray(inverse).reshape(-1)


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


class CLSDEvaluator:
    """Scores one split of a CLSD dataset with one model.

    Every distinct text of the split is encoded once, all with the ``query`` prompt type: source,
    target and distractors play symmetric roles, so a model with asymmetric prompts (e5's
    ``query: `` / ``passage: ``) must see the same prompt on every sentence, as in the paper.
    ``exact``: one text per batch, so no vector depends on the batch size (module docstring).
    """

    def __init__(
        self,
        dataset: Dataset,
        *,
        task_metadata: TaskMetadata,
        hf_split: str,
        hf_subset: str,
        timer: TimingStack | None = None,
        exact: bool = False,
    ) -> None:
        self.dataset = dataset
        self.task_metadata = task_metadata
        self.hf_split = hf_split
        self.hf_subset = hf_subset
        self.timer = timer
        self.exact = exact

    def __call__(
        self,
        model: EncoderProtocol,
        *,
        encode_kwargs: EncodeKwargs,
        num_proc: int | None = None,
    ) -> CLSDPredictions:
        from mteb.timing import TimingStack

        timer = self.timer or TimingStack()
        sources: list[str] = self.dataset[schema.SOURCE]
        targets: list[str] = self.dataset[schema.TARGET]
        distractor_lists: list[list[str]] = self.dataset[schema.DISTRACTORS]
        unique = sorted({*sources, *targets, *(d for ds in distractor_lists for d in ds)})
        where = f"{self.task_metadata.name} ({self.hf_subset}/{self.hf_split})"

        with timer(
            "Encoding",
            split=self.hf_split,
            subset=self.hf_subset,
            log_message=f"CLSD: encoding {len(unique)} distinct texts",
        ):
            raw = _raw_embeddings(
                model,
                unique,
                task_metadata=self.task_metadata,
                hf_split=self.hf_split,
                hf_subset=self.hf_subset,
                encode_kwargs=encode_kwargs,
                num_proc=num_proc,
                exact=self.exact,
            )

        with timer("Scoring", split=self.hf_split, subset=self.hf_subset):
            unit, vector_of_text = distinct_unit_vectors(raw, unique, where)
            vector = dict(zip(unique, vector_of_text.tolist(), strict=True))
            n_slots = max(len(ds) for ds in distractor_lists)
            candidates = np.full((len(sources), 1 + n_slots), -1, dtype=np.int64)
            candidates[:, 0] = [vector[t] for t in targets]
            for row, ds in enumerate(distractor_lists):
                candidates[row, 1 : 1 + len(ds)] = [vector[d] for d in ds]
            cosines, pooled_hits = score_rows(unit, np.array([vector[s] for s in sources], dtype=np.int64), candidates)
        return CLSDPredictions(ids=list(self.dataset[schema.ID]), cosines=cosines, pooled_hits=pooled_hits)


def _to_numpy(embeddings: Any) -> np.ndarray:
    if hasattr(embeddings, "detach"):  # torch tensor, without importing torch here
        embeddings = embeddings.detach().float().cpu().numpy()
    return np.asarray(embeddings)
