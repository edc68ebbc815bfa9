"""The CLSD task type: one abstract class for any language pair and any number of distractors.

A concrete task only says where its rows come from (:meth:`AbsTaskCLSD.load_rows`) and declares
its ``TaskMetadata``; loading into ``datasets``, evaluation, prediction files and descriptive
statistics are shared here.
"""

from __future__ import annotations

import logging
import os
from abc import abstractmethod
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, cast

from datasets import Dataset, DatasetDict
from mteb.abstasks.abstask import AbsTask
from mteb.models import EncoderProtocol

from clsd_format import schema
from clsd_format.data_source import DataSource, resolve_data_source
from clsd_mteb.encoding import encoding_record
from clsd_mteb.evaluator import EVALUATOR_VERSION, EVALUATOR_VERSION_KEY, CLSDEvaluator, CLSDPredictions
from clsd_mteb.metrics import clsd_metrics
from clsd_mteb.reranking import cross_encoder_record, is_cross_encoder, rename_margin
from clsd_mteb.task_statistics import CLSDDescriptiveStatistics, split_statistics
from clsd_mteb.trials import trial_metadata

if TYPE_CHECKING:
    from mteb.models import CrossEncoderProtocol, MTEBModels
    from mteb.timing import TimingStack
    from mteb.types import EncodeKwargs, ScoresDict
    from mteb.types.statistics import DescriptiveStatistics

logger = logging.getLogger(__name__)


class AbsTaskCLSD(AbsTask):
    """Cross-Lingual Semantic Discrimination: rank the true translation above its distractors.

    Each row holds a source sentence S, its translation T and k >= 1 distractors (surface-similar
    to T, different in meaning). The main score is Precision@1 by cosine similarity, a tie between
    T and a distractor counting as a miss.

    Args:
        data_dir: a local folder to read instead of the task's default source; ``CLSD_DATA_DIR`` sets
            the same for every task.
        source: instead of ``data_dir``, a source already resolved by
            :func:`clsd_format.data_source.resolve_data_source` (:func:`clsd_mteb.get_tasks` hands its
            own to every task it makes).
        limit: a trial on the first ``limit`` rows (smoke tests, benchmarks): evaluated and filed under a
            split of its own, ``test_first_<N>``, so that no result cache serves it for the whole task
            (:mod:`clsd_mteb.trials`).
        exact: encode each text in a batch of its own, so that no score depends on the batch size
            (slower; see :mod:`clsd_mteb.encoding`). By default texts go in the batches the caller
            asks for (mteb's ``encode_kwargs``).
    """

    abstask_prompt = "Retrieve the sentence that is a translation of the given sentence."
    # a reranker scores the (S, candidate) pairs through the same metrics (clsd_mteb.reranking)
    _support_cross_encoder = True

    def __init__(
        self,
        data_dir: str | os.PathLike[str] | None = None,
        limit: int | None = None,
        seed: int = 42,
        *,
        exact: bool = False,
        source: DataSource | None = None,
        **kwargs: Any,
    ) -> None:
        if source is not None and data_dir is not None:
            raise ValueError("give a task data_dir or a resolved source, not both")
        super().__init__(seed=seed, **kwargs)
        self.data_dir = data_dir
        self.limit = limit
        self.exact = exact
        self._source = source
        # The predictions of the last evaluation, by split: clsd_mteb.evaluation reads the hits of what it computed
        # from here (one model at a time), never back from the prediction file it just wrote.
        self.predictions: dict[str, CLSDPredictions] = {}
        if limit is not None:  # before mteb looks into its cache, which happens before the rows are read
            self.metadata = trial_metadata(self.metadata, limit)

    @property
    def data_source(self) -> DataSource:
        """Where the rows come from: the source the task was given, else the one ``data_dir`` names, resolved once."""
        if self._source is None:
            self._source = resolve_data_source(self.data_dir)
        return self._source

    @abstractmethod
    def load_rows(self) -> list[dict[str, Any]]:
        """Validated rows in the Hub format (see :mod:`clsd_format.schema`)."""

    def load_data(self, num_proc: int | None = None, *, timer: TimingStack | None = None, **kwargs: Any) -> None:
        if self.data_loaded:
            return
        self.metadata = getattr(type(self), "metadata", self.metadata)  # a reload starts from the declared revision
        rows = self.load_rows()  # may name the data read (a local copy's revision)
        if self.limit is not None:  # a trial, under its own split and revision (clsd_mteb.trials)
            rows = rows[: self.limit]
            self.metadata = trial_metadata(self.metadata, self.limit)
        self.dataset = DatasetDict({split: Dataset.from_list(rows) for split in self.metadata.eval_splits})
        self.data_loaded = True

    def unload_data(self) -> None:
        """mteb's, which puts back the declared metadata (from mteb 2.26); a trial stays a trial for its next evaluation."""
        super().unload_data()
        if self.limit is not None:
            self.metadata = trial_metadata(type(self).metadata, self.limit)

    @property
    def split(self) -> str:
        """The split the rows are evaluated and filed under: ``test``, or a trial's ``test_first_<N>``."""
        return self.metadata.eval_splits[0]

    def evaluated_rows(self) -> Dataset:
        """The rows the task evaluates (a trial's first rows), loaded when not yet."""
        self.load_data()
        assert self.dataset is not None, "load_data() fills the dataset"
        return self.dataset[self.split]

    def _get_content_columns(self) -> dict[str, Literal["text", "image", "audio", "video"]]:
        return {schema.SOURCE: "text", schema.TARGET: "text", schema.DISTRACTORS: "text"}

    def _evaluate_subset(
        self,
        model: MTEBModels,
        data_split: Dataset,
        *,
        hf_split: str,
        hf_subset: str,
        encode_kwargs: EncodeKwargs,
        prediction_folder: Path | None = None,
        num_proc: int | None = None,
        timer: TimingStack,
        **kwargs: Any,
    ) -> ScoresDict:
        cross_encoder = is_cross_encoder(model)
        if not cross_encoder and not isinstance(model, EncoderProtocol):
            raise TypeError(
                f"{self.metadata.name} needs an embedding model (EncoderProtocol) or a cross-encoder "
                f"(CrossEncoderProtocol), got {type(model).__name__}"
            )
        evaluator = CLSDEvaluator(
            data_split,
            task_metadata=self.metadata,
            hf_split=hf_split,
            hf_subset=hf_subset,
            timer=timer,
            exact=self.exact,
        )
        predictions = evaluator(
            cast("EncoderProtocol | CrossEncoderProtocol", model), encode_kwargs=encode_kwargs, num_proc=num_proc
        )
        self.predictions[hf_split] = predictions  # what the caller of this evaluation reads, without the file
        if prediction_folder:
            self._save_task_predictions(
                predictions.to_records(), model, prediction_folder, hf_split=hf_split, hf_subset=hf_subset
            )
        metrics = clsd_metrics(predictions.cosines, predictions.pooled_hits)
        return {
            **(rename_margin(metrics) | cross_encoder_record() if cross_encoder else metrics),
            EVALUATOR_VERSION_KEY: EVALUATOR_VERSION,
            **encoding_record(self.exact, encode_kwargs),
        }

    def _calculate_descriptive_statistics_from_split(
        self,
        split: str,
        *,
        hf_subset: str | None = None,
        compute_overall: bool = False,
        num_proc: int | None = None,
    ) -> CLSDDescriptiveStatistics:
        assert self.dataset is not None, "load_data() fills the dataset"
        data = self.dataset[split] if hf_subset in (None, "default") else self.dataset[hf_subset][split]
        return split_statistics(data[schema.SOURCE], data[schema.TARGET], data[schema.DISTRACTORS])

    def calculate_descriptive_statistics(
        self, overwrite_results: bool = False, num_proc: int | None = None
    ) -> dict[str, DescriptiveStatistics]:
        """mteb's method, without its write into the installed package (see :mod:`clsd_mteb.task_statistics`).

        The data is loaded first, so the lookup uses the revision of the data actually read: shipped
        statistics are returned for the release only, and computed for a cut or local copy.
        """
        if not self.data_loaded:
            self.load_data(num_proc=num_proc)
        existing = self.metadata.descriptive_stats
        if existing is not None and not overwrite_results:
            return existing
        return {
            split: cast("DescriptiveStatistics", self._calculate_descriptive_statistics_from_split(split))
            for split in self.metadata.eval_splits
        }
