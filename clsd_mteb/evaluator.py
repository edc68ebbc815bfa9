"""The CLSD evaluator: encode each distinct text of a split once, score every row, keep the cosines.

It joins the two halves that live apart: how texts become vectors (:mod:`clsd_mteb.encoding`) and
how vectors become scores (:mod:`clsd_mteb.metrics`), as mteb keeps its retrieval evaluator beside
its retrieval metrics. Distinct texts are sorted before encoding, so the row order changes no array
the cosines come from.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from clsd_format import schema
from clsd_mteb.encoding import raw_embeddings
from clsd_mteb.metrics import distinct_unit_vectors, score_rows, target_ranks
from clsd_mteb.reranking import distinct_pairs, is_cross_encoder, predict_pairs, score_matrix

if TYPE_CHECKING:
    from datasets import Dataset
    from mteb.abstasks.task_metadata import TaskMetadata
    from mteb.models import CrossEncoderProtocol, EncoderProtocol
    from mteb.timing import TimingContext, TimingStack
    from mteb.types import EncodeKwargs

# Bumped whenever a change can alter a score, so stored results of older code are never reused
# (clsd_mteb.run). 1: the first release; 2: exact ties (one matrix), batch-invariant encoding, pooled_recall_at_1;
# 3: the requested batches by default, one text per batch only in exact mode, torch threads left alone;
# 4: a served embedding kept as the float64 numbers sent, rows near float64's ends normalised exactly.
EVALUATOR_VERSION = 4
EVALUATOR_VERSION_KEY = "clsd_evaluator_version"


@dataclass
class CLSDPredictions:
    """Per-row cosines: column 0 is cos(S, T), columns 1.. the distractor slots (NaN where a row has fewer).

    ``pooled_hits`` says, per row, whether T strictly beats every other candidate text of the split.
    """

    ids: list[str]
    cosines: np.ndarray
    pooled_hits: np.ndarray | None = None
    # what the matrix holds, the key of its rows in the prediction file: a cross-encoder's are "scores"
    score_name: str = "cosines"

    @property
    def ranks(self) -> np.ndarray:
        return target_ranks(self.cosines)

    def hits(self) -> dict[str, bool]:
        """Per row id, whether T is ranked first (a tie with a distractor is a miss)."""
        return dict(zip(map(str, self.ids), (self.ranks == 1).tolist(), strict=True))

    def to_records(self) -> list[dict[str, Any]]:
        """JSON-ready rows for mteb's prediction file: id, the cosines or scores (T first), the rank of T, the pooled hit."""
        ranks = self.ranks
        pooled = [None] * len(self.ids) if self.pooled_hits is None else self.pooled_hits.tolist()
        return [
            {
                "id": row_id,
                self.score_name: [float(c) for c in row if not np.isnan(c)],
                "rank": int(rank),
                **({} if hit is None else {"pooled_hit": bool(hit)}),
            }
            for row_id, row, rank, hit in zip(self.ids, self.cosines, ranks, pooled, strict=True)
        ]


class CLSDEvaluator:
    """Scores one split of a CLSD dataset with one model.

    Every distinct text of the split is encoded once, all with the ``query`` prompt type: source,
    target and distractors play symmetric roles, so a model with asymmetric prompts (e5's
    ``query: `` / ``passage: ``) must see the same prompt on every sentence, as in the paper.
    ``exact``: one text per batch, so no vector depends on the batch size (:mod:`clsd_mteb.encoding`).
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

    @property
    def _where(self) -> str:
        """This split, as an error names it."""
        return f"{self.task_metadata.name} ({self.hf_subset}/{self.hf_split})"

    def _timed(self, timer: TimingStack, phase: str, message: str | None = None) -> TimingContext:
        """mteb's timing of one phase on this split (an embedding model's and a cross-encoder's alike)."""
        return timer(phase, split=self.hf_split, subset=self.hf_subset, log_message=message)

    def _model_call(self, encode_kwargs: EncodeKwargs) -> dict[str, Any]:
        """What the model's encode or predict call is told of this split, the same for both kinds of model."""
        split = {"task_metadata": self.task_metadata, "hf_split": self.hf_split, "hf_subset": self.hf_subset}
        return {**split, "encode_kwargs": encode_kwargs, "exact": self.exact}

    def columns(self) -> tuple[list[str], list[str], list[list[str]]]:
        """The split's sources, targets and distractor lists, row by row."""
        return self.dataset[schema.SOURCE], self.dataset[schema.TARGET], self.dataset[schema.DISTRACTORS]

    def __call__(
        self,
        model: EncoderProtocol | CrossEncoderProtocol,
        *,
        encode_kwargs: EncodeKwargs,
        num_proc: int | None = None,
    ) -> CLSDPredictions:
        from mteb.timing import TimingStack

        timer = self.timer or TimingStack()
        if is_cross_encoder(model):
            return self.score_pairs(cast("CrossEncoderProtocol", model), encode_kwargs=encode_kwargs, timer=timer)
        model = cast("EncoderProtocol", model)
        sources, targets, distractor_lists = self.columns()
        unique = sorted({*sources, *targets, *(d for ds in distractor_lists for d in ds)})
        with self._timed(timer, "Encoding", f"CLSD: encoding {len(unique)} distinct texts"):
            raw = raw_embeddings(model, unique, num_proc=num_proc, **self._model_call(encode_kwargs))
        with self._timed(timer, "Scoring"):
            cosines, pooled_hits = score_texts(raw, unique, sources, targets, distractor_lists, self._where)
        return CLSDPredictions(ids=list(self.dataset[schema.ID]), cosines=cosines, pooled_hits=pooled_hits)

    def score_pairs(self, model: CrossEncoderProtocol, *, encode_kwargs: EncodeKwargs, timer: TimingStack) -> CLSDPredictions:
        """A cross-encoder's scores of every row's candidates, in the cosines' place (:mod:`clsd_mteb.reranking`)."""
        sources, targets, distractor_lists = self.columns()
        pairs = distinct_pairs(sources, targets, distractor_lists)
        with self._timed(timer, "Encoding", f"CLSD: scoring {len(pairs)} distinct (source, candidate) pairs"):
            values = predict_pairs(model, pairs, **self._model_call(encode_kwargs))
        scores = score_matrix(dict(zip(pairs, values.tolist(), strict=True)), sources, targets, distractor_lists, self._where)
        return CLSDPredictions(ids=list(self.dataset[schema.ID]), cosines=scores, score_name="scores")


def score_texts(
    raw: np.ndarray,
    unique: Sequence[str],
    sources: Sequence[str],
    targets: Sequence[str],
    distractor_lists: Sequence[Sequence[str]],
    where: str,
) -> tuple[np.ndarray, np.ndarray]:
    """Per-row cosines (T first, NaN for missing slots) and pooled hits, from the raw vectors of the distinct texts.

    ``raw[i]`` is the model's vector of ``unique[i]``; every text of the rows is among ``unique``.
    Identical vectors become one (:func:`clsd_mteb.metrics.distinct_unit_vectors`), so ties are exact.
    The one scoring path of both evaluators: mteb's and sentence-transformers'.
    """
    unit, vector_of_text = distinct_unit_vectors(raw, unique, where)
    vector = dict(zip(unique, vector_of_text.tolist(), strict=True))
    n_slots = max(len(ds) for ds in distractor_lists)
    candidates = np.full((len(sources), 1 + n_slots), -1, dtype=np.int64)
    candidates[:, 0] = [vector[t] for t in targets]
    for row, ds in enumerate(distractor_lists):
        candidates[row, 1 : 1 + len(ds)] = [vector[d] for d in ds]
    return score_rows(unit, np.array([vector[s] for s in sources], dtype=np.int64), candidates)
