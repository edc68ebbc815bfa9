"""CLSD inside a sentence-transformers CrossEncoder training loop: :class:`CLSDCrossEncoderEvaluator`.

The reranker's twin of :class:`clsd_mteb.st_evaluator.CLSDSentenceEvaluator` (both are
:class:`clsd_mteb.st_evaluation.CLSDRowsEvaluator`): it takes a
``CrossEncoder`` directly (``CrossEncoderTrainer(evaluator=...)``) and scores the rows' distinct
(S, candidate) pairs with ``predict``. The numbers come from the code ``clsd evaluate`` uses for a
cross-encoder (:mod:`clsd_mteb.reranking`, :func:`clsd_mteb.metrics.clsd_metrics`): a tie between T
and a distractor is a miss, which sentence-transformers' own ``CrossEncoderRerankingEvaluator`` (MRR@k,
ties decided by sort order) does not do. The margin is ``mean_score_margin``, in the model's own
score units (after its activation), never a cosine.

Importing this module imports sentence-transformers (and torch).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from clsd_mteb.metrics import clsd_metrics
from clsd_mteb.reranking import SCORE_MARGIN_KEY, distinct_pairs, rename_margin, score_matrix
from clsd_mteb.st_evaluation import CLSDRowsEvaluator

if TYPE_CHECKING:
    from sentence_transformers import CrossEncoder

# The metrics reported, under their names in clsd evaluate's results for a cross-encoder.
METRICS: tuple[str, ...] = ("precision_at_1", "mrr", SCORE_MARGIN_KEY)


class CLSDCrossEncoderEvaluator(CLSDRowsEvaluator):
    """P@1, MRR and mean score margin of a ``CrossEncoder`` on CLSD rows (source, target, distractors).

    Arguments, ``from_rows`` and ``from_task`` as :class:`~clsd_mteb.st_evaluation.CLSDRowsEvaluator`
    (``batch_size``: pairs per ``predict`` batch; ``1`` makes every score a function of its pair
    alone, as ``clsd evaluate --exact`` does). Metrics come back as ``{name}_precision_at_1`` (the
    primary metric), ``{name}_mrr`` and ``{name}_mean_score_margin``.

    In training: ``CrossEncoderTrainer(model=..., args=..., train_dataset=..., loss=...,
    evaluator=CLSDCrossEncoderEvaluator.from_task("CLSD-WMT21-DE-FR-PivotEN", data_dir=...))``.
    """

    metrics: ClassVar[tuple[str, ...]] = METRICS
    csv_stem: ClassVar[str] = "clsd_reranking_evaluation"

    def scores(self, model: CrossEncoder) -> Mapping[str, float]:
        """Every distinct (S, candidate) pair scored once, then ranked as in ``clsd evaluate``."""
        pairs = distinct_pairs(self.sources, self.targets, self.distractors)
        values = self.predict_pairs(model, pairs)
        pair_score = dict(zip(pairs, values.tolist(), strict=True))
        return rename_margin(clsd_metrics(score_matrix(pair_score, self.sources, self.targets, self.distractors)))

    def predict_pairs(self, model: CrossEncoder, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        """(len(pairs),) float64 scores; NaN or inf is refused, as in ``clsd evaluate``."""
        values = np.asarray(
            model.predict(
                list(pairs), batch_size=self.batch_size, show_progress_bar=self.show_progress_bar, convert_to_numpy=True
            ),
            dtype=np.float64,
        ).reshape(-1)
        if values.shape != (len(pairs),) or not np.isfinite(values).all():
            raise ValueError(
                f"{self.name or 'CLSD'}: the cross-encoder gave {values.size} scores for {len(pairs)} pairs, or NaN/inf"
            )
        return values
