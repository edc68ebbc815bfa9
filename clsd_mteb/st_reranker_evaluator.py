"""CLSD inside a sentence-transformers CrossEncoder training loop: :class:`CLSDCrossEncoderEvaluator`.

The reranker's twin of :class:`clsd_mteb.st_evaluator.CLSDSentenceEvaluator`: it takes a
``CrossEncoder`` directly (``CrossEncoderTrainer(evaluator=...)``) and scores the rows' distinct
(S, candidate) pairs with ``predict``. The numbers come from the code ``clsd evaluate`` uses for a
cross-encoder (:mod:`clsd_mteb.reranking`, :func:`clsd_mteb.metrics.clsd_metrics`): a tie between T
and a distractor is a miss, which sentence-transformers' own ``CrossEncoderRerankingEvaluator`` (MRR@k,
ties decided by sort order) does not do. The margin is ``mean_score_margin``, in the model's own
score units (after its activation), never a cosine.

Importing this module imports sentence-transformers (and torch).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from clsd_mteb.metrics import clsd_metrics
from clsd_mteb.reranking import SCORE_MARGIN_KEY, distinct_pairs, rename_margin, score_matrix
from clsd_mteb.st_evaluator import CLSDSentenceEvaluator

if TYPE_CHECKING:
    from sentence_transformers import CrossEncoder

logger = logging.getLogger(__name__)

# The metrics reported, under their names in clsd evaluate's results for a cross-encoder.
METRICS: tuple[str, ...] = ("precision_at_1", "mrr", SCORE_MARGIN_KEY)


class CLSDCrossEncoderEvaluator(CLSDSentenceEvaluator):
    """P@1, MRR and mean score margin of a ``CrossEncoder`` on CLSD rows (source, target, distractors).

    Arguments, ``from_rows`` and ``from_task`` as :class:`~clsd_mteb.st_evaluator.CLSDSentenceEvaluator`
    (``batch_size``: pairs per ``predict`` batch; ``1`` makes every score a function of its pair
    alone, as ``clsd evaluate --exact`` does). Metrics come back as ``{name}_precision_at_1`` (the
    primary metric), ``{name}_mrr`` and ``{name}_mean_score_margin``.

    In training: ``CrossEncoderTrainer(model=..., args=..., train_dataset=..., loss=...,
    evaluator=CLSDCrossEncoderEvaluator.from_task("CLSD-WMT21-DE-FR-PivotEN", data_dir=...))``.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if kwargs.pop("truncate_dim", None) is not None:
            raise ValueError("truncate_dim applies to embeddings; a cross-encoder gives one score per pair")
        super().__init__(*args, **kwargs)
        self.csv_file = "clsd_reranking_evaluation" + (f"_{self.name}" if self.name else "") + "_results.csv"
        self.csv_headers = ["epoch", "steps", *METRICS]

    def __call__(  # type: ignore[override]  # s-t's cross-encoder evaluators take a CrossEncoder
        self, model: CrossEncoder, output_path: str | None = None, epoch: int = -1, steps: int = -1
    ) -> dict[str, float]:
        """Score every distinct pair, compute the metrics and return them (prefixed by ``name``)."""
        where = f" in epoch {epoch} after {steps} steps" if epoch != -1 and steps != -1 else ""
        logger.info(f"CLSDCrossEncoderEvaluator: evaluating the model on {self.name or 'CLSD'}{where}")
        pairs = distinct_pairs(self.sources, self.targets, self.distractors)
        values = self.predict_pairs(model, pairs)
        scores = score_matrix(dict(zip(pairs, values.tolist(), strict=True)), self.sources, self.targets, self.distractors)
        all_metrics = rename_margin(clsd_metrics(scores))
        metrics = {key: float(all_metrics[key]) for key in METRICS}
        for key, value in metrics.items():
            logger.info(f"{key}: {value:.4f}")
        if output_path is not None and self.write_csv:
            self._append_csv(output_path, epoch, steps, metrics)
        metrics = self.prefix_name_to_metrics(metrics, self.name)
        self.store_metrics_in_model_card_data(model, metrics, epoch, steps)
        return metrics

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
