"""What the two sentence-transformers evaluators of CLSD share: :class:`CLSDRowsEvaluator`.

:class:`clsd_mteb.st_evaluator.CLSDSentenceEvaluator` (a ``SentenceTransformer``, scored by cosine)
and :class:`clsd_mteb.st_reranker_evaluator.CLSDCrossEncoderEvaluator` (a ``CrossEncoder``, scored by
``predict``) differ only in how a model turns the rows into the (n_rows, 1 + n_slots) score matrix
that :func:`clsd_mteb.metrics.clsd_metrics` reads. The rows, their checks, ``from_rows`` and
``from_task``, the call sentence-transformers' trainers make, the CSV and the model card are written
here once; a subclass writes :meth:`CLSDRowsEvaluator.scores` and names its metrics and CSV file.

Importing this module imports sentence-transformers (and torch).
"""

from __future__ import annotations

import csv
import logging
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

try:  # sentence-transformers >= 6 (the old path still works there, with a deprecation warning)
    from sentence_transformers.base.evaluation import SentenceEvaluator
except ImportError:  # pragma: no cover - sentence-transformers 5
    from sentence_transformers.evaluation import SentenceEvaluator  # type: ignore[no-redef]

from clsd_format import schema

if TYPE_CHECKING:
    from typing import Self  # Python 3.11; the package supports 3.10, where annotations stay strings

    from clsd_mteb.abstask import AbsTaskCLSD

logger = logging.getLogger(__name__)


class CLSDRowsEvaluator(SentenceEvaluator):
    """CLSD rows (source, target, distractors) and the metrics of a model on them, sentence-transformers style.

    Args:
        sources, targets: one per row.
        distractors: a list of distractors per row (rows may hold different numbers).
        name: prefix of the metric names (:meth:`from_task` uses the task name).
        batch_size: texts (or pairs) per model call; ``1`` makes every score a function of its own
            input alone, as ``clsd evaluate --exact`` does; larger batches can change the last bits.
        show_progress_bar, write_csv: as in sentence-transformers' own evaluators (``write_csv``:
            append the metrics to ``{csv_stem}_{name}_results.csv`` in the trainer's output folder).
    """

    metrics: ClassVar[tuple[str, ...]]  # what is reported, under its name in clsd evaluate's results
    csv_stem: ClassVar[str]  # the CSV file's name before ``_{name}_results.csv``

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
        self.primary_metric = "precision_at_1"
        self.csv_file = self.csv_stem + (f"_{name}" if name else "") + "_results.csv"
        self.csv_headers = ["epoch", "steps", *self.metrics]

    @classmethod
    def from_rows(cls, rows: Iterable[Mapping[str, Any]], **kwargs: Any) -> Self:
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
    ) -> Self:
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

    def scores(self, model: Any) -> Mapping[str, float]:
        """Every metric of ``model`` on the rows, under its name in clsd evaluate's results."""
        raise NotImplementedError

    def __call__(self, model: Any, output_path: str | None = None, epoch: int = -1, steps: int = -1) -> dict[str, float]:
        """Score the rows and return :attr:`metrics` (prefixed by ``name``); stored in the model card data too."""
        where = f" in epoch {epoch} after {steps} steps" if epoch != -1 and steps != -1 else ""
        logger.info(f"{type(self).__name__}: evaluating the model on {self.name or 'CLSD'}{where}")
        scores = self.scores(model)
        metrics = {key: float(scores[key]) for key in self.metrics}
        for key, value in metrics.items():
            logger.info(f"{key}: {value:.4f}")
        if output_path is not None and self.write_csv:
            self._append_csv(output_path, epoch, steps, metrics)
        metrics = self.prefix_name_to_metrics(metrics, self.name)
        self.store_metrics_in_model_card_data(model, metrics, epoch, steps)
        return metrics

    def _append_csv(self, output_path: str, epoch: int, steps: int, metrics: Mapping[str, float]) -> None:
        os.makedirs(output_path, exist_ok=True)
        path = os.path.join(output_path, self.csv_file)
        new = not os.path.isfile(path)
        with open(path, newline="", mode="a", encoding="utf-8") as file:
            writer = csv.writer(file)
            if new:
                writer.writerow(self.csv_headers)
            writer.writerow([epoch, steps, *metrics.values()])
