"""One evaluation run the way ``clsd evaluate`` does it (the benchmark times exactly this).

Why this module checks stored results itself: mteb's ``only-missing`` reuse
(``mteb.evaluate(..., cache=ResultCache, overwrite_strategy="only-missing")``) finds a stored result by
model, model revision and task name only, and compares the dataset revision *only when it must merge
splits* (``mteb.evaluate._check_cache``: a file that covers every split is served as it is). A result
computed on 10 rows, or on a modified local copy, would thus pass for the score of the pinned release.
So, before mteb looks, every CLSD task's stored result is checked against the run:

* the dataset revision (``TaskResult.dataset_revision``) names the data exactly: the release commit,
  ``local-sha256-...`` for other bytes, and ``-limit<N>`` appended for a trial on the first rows, which
  also files its scores under a split of its own (:mod:`clsd_mteb.trials`). It stays a statement about data, because mteb
  compares it when merging and the MTEB results repository matches it against the task's revision.
* the evaluator version (:data:`clsd_mteb.evaluator.EVALUATOR_VERSION`) is stored beside the scores it
  produced (``clsd_evaluator_version`` in every score entry): it is a fact about the code, not the data.
* so is the encoding (:func:`clsd_mteb.encoding.encoding_record`): a result of the exact mode serves only
  an exact run (at any batch size: that is what exact means), a batched result only a batched run with
  the same batch size, since the last bits of its vectors depend on it.

A result that does not match is moved aside to ``<output>/superseded/`` (never deleted: it is finished
work, just not this run's) with one log line saying why, and the task is recomputed. So is a stored
file that is not readable as a task result at all (cut short by a crash or a full disk, edited by
hand): it is named in the log line and kept as ``<task>.unreadable.json``.

A caller that reports progress (``clsd evaluate``) passes a :class:`TaskProgress`: it hears when each
task starts and how it ended, computed or served from a stored result (that file and its date).
"""

from __future__ import annotations

import logging
import shutil
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, cast

from clsd_format import defaults
from clsd_mteb.abstask import AbsTaskCLSD
from clsd_mteb.embedding_cache import SharedEmbeddingCache
from clsd_mteb.encoding import BATCH_SIZE_KEY, EXACT_KEY, encoding_record
from clsd_mteb.evaluator import EVALUATOR_VERSION, EVALUATOR_VERSION_KEY
from clsd_mteb.reranking import is_cross_encoder
from clsd_mteb.source_record import record_sources

if TYPE_CHECKING:
    from collections.abc import Sequence

    from mteb import ResultCache
    from mteb.abstasks.abstask import AbsTask
    from mteb.models import CrossEncoderProtocol, EncoderProtocol
    from mteb.results import ModelResult, TaskResult

logger = logging.getLogger(__name__)

SUPERSEDED_FOLDER = "superseded"


@dataclass(frozen=True)
class TaskOutcome:
    """How one task of a run ended: its wall time, and the stored result file served instead of a computation."""

    name: str
    seconds: float
    stored: Path | None = None

    @property
    def stored_date(self) -> datetime | None:
        """When the stored result file served was written (its modification time, local time)."""
        return None if self.stored is None else datetime.fromtimestamp(self.stored.stat().st_mtime)


class TaskProgress(Protocol):
    """What :func:`evaluate_tasks` tells a caller as it goes."""

    def task_started(self, name: str) -> None: ...

    def task_finished(self, outcome: TaskOutcome) -> None: ...


def prediction_folder(output: Path, encoder: EncoderProtocol | CrossEncoderProtocol) -> Path:
    """Where a run's per-row predictions go: ``<output>/predictions/<model>/<revision>/``."""
    meta = encoder.mteb_model_meta
    return Path(output) / "predictions" / meta.model_name_as_path() / str(meta.revision)


def _describe_encoding(exact: object, batch_size: object) -> str:
    return "exact encoding" if exact == 1 else f"batches of {batch_size}"


def stored_result_mismatch(stored: TaskResult, task: AbsTaskCLSD, batch_size: int = defaults.BATCH_SIZE) -> str | None:
    """Why a stored result is not this run's (data, evaluator or encoding differ), or None when it is."""
    if stored.dataset_revision != task.metadata.revision:
        return f"it is for dataset revision {stored.dataset_revision}, this run reads {task.metadata.revision}"
    entries = [entry for entries in stored.scores.values() for entry in entries]
    versions = {entry.get(EVALUATOR_VERSION_KEY) for entry in entries}
    if versions != {EVALUATOR_VERSION}:
        found = ", ".join(sorted(str(v) for v in versions)) if versions - {None} else "none recorded"
        return f"it was computed by CLSD evaluator version {found}, this is version {EVALUATOR_VERSION}"
    wanted = encoding_record(task.exact, {"batch_size": batch_size})
    for entry in entries:
        exact, size = entry.get(EXACT_KEY), entry.get(BATCH_SIZE_KEY)
        if exact != wanted[EXACT_KEY] or (not task.exact and size != wanted[BATCH_SIZE_KEY]):
            return (
                f"it was encoded with {_describe_encoding(exact, size)}, "
                f"this run asks for {_describe_encoding(wanted[EXACT_KEY], wanted[BATCH_SIZE_KEY])}"
            )
    return None


def _set_aside(path: Path, output: Path, label: str) -> Path:
    """Move a stored file under ``<output>/superseded/``, keeping its place; ``label`` (its data revision, or
    ``unreadable``) goes into its name. Returns the new path."""
    relative = path.relative_to(output)
    target = output / SUPERSEDED_FOLDER / relative.parent / f"{path.stem}.{label}{path.suffix}"
    counter = 1
    while target.exists():  # never replace an earlier superseded file either
        counter += 1
        target = target.with_name(f"{path.stem}.{label}.{counter}{path.suffix}")
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(str(path), str(target))
    return target


def _set_aside_with_predictions(
    cache: ResultCache, encoder: EncoderProtocol | CrossEncoderProtocol, task: AbsTaskCLSD, output: Path, label: str
) -> tuple[Path, Path]:
    """Move a task's stored result and its predictions (when there) aside; returns (where it was, where it is)."""
    path = cache.get_task_result_path(task.metadata.name, encoder.mteb_model_meta)
    moved = _set_aside(path, output, label)
    predictions = prediction_folder(output, encoder) / f"{task.metadata.name}_predictions.json"
    if predictions.is_file():
        _set_aside(predictions, output, label)
    return path, moved


def recompute_if_stale(
    cache: ResultCache,
    encoder: EncoderProtocol | CrossEncoderProtocol,
    task: AbsTaskCLSD,
    output: Path,
    batch_size: int = defaults.BATCH_SIZE,
) -> str | None:
    """Move aside a stored result (and its predictions) that does not match ``task`` or is unreadable; log and return why."""
    try:
        stored = cache.load_task_result(task.metadata.name, encoder.mteb_model_meta)
    except (ValueError, KeyError, TypeError) as exc:  # cut-short JSON (JSONDecodeError), or not a task result (pydantic)
        first_line = next(iter(str(exc).splitlines()), "")
        why = f"not readable as a task result ({type(exc).__name__}: {first_line})"
        path, moved = _set_aside_with_predictions(cache, encoder, task, output, "unreadable")
        logger.warning(f"{task.metadata.name}: recomputing: the stored result {path} is {why}; kept as {moved}")
        return f"it is {why}"
    if stored is None:
        return None
    task.load_data()  # the dataset revision of local or cut data is known once the rows are read
    reason = stored_result_mismatch(stored, task, batch_size)
    if reason is None:
        return None
    _, moved = _set_aside_with_predictions(cache, encoder, task, output, stored.dataset_revision)
    logger.warning(f"{task.metadata.name}: recomputing: the stored result does not match ({reason}); kept as {moved}")
    return reason


def evaluate_tasks(
    encoder: EncoderProtocol | CrossEncoderProtocol,
    tasks: Sequence[AbsTask],
    output: Path,
    *,
    batch_size: int = defaults.BATCH_SIZE,
    overwrite: bool = False,
    show_progress_bar: bool = True,
    progress: TaskProgress | None = None,
    raise_error: bool = True,
) -> ModelResult:
    """Run ``mteb.evaluate`` over all tasks with one shared embedding cache.

    Results land in mteb's layout under ``output/results``, predictions under :func:`prediction_folder`.
    A stored result is reused only when it is this run's (same data, evaluator and encoding; see the
    module docstring); ``overwrite`` recomputes everything. The encoding mode is each task's ``exact``.
    ``progress`` hears of each task's start and end. ``raise_error=False``: a task that fails is one of the
    result's ``exceptions`` (mteb's ``TaskError``: its name and message) and the others go on, as in ``mteb.evaluate``.
    """
    import mteb
    from mteb.results import ModelResult

    output = Path(output)
    cache = mteb.ResultCache(output)
    # a cross-encoder scores pairs, which no embedding cache can share
    shared = encoder if is_cross_encoder(encoder) else SharedEmbeddingCache(cast("EncoderProtocol", encoder))
    task_results, exceptions = [], []
    for task in tasks:
        name = task.metadata.name
        if progress is not None:
            progress.task_started(name)
        start = time.perf_counter()
        if not overwrite and isinstance(task, AbsTaskCLSD):
            recompute_if_stale(cache, encoder, task, output, batch_size)
        path = cache.get_task_result_path(name, encoder.mteb_model_meta)
        before = None if overwrite or not path.is_file() else path.stat().st_mtime_ns
        result = mteb.evaluate(
            shared,
            task,
            cache=cache,
            overwrite_strategy="always" if overwrite else "only-missing",
            prediction_folder=prediction_folder(output, encoder),
            encode_kwargs={"batch_size": batch_size},
            show_progress_bar=show_progress_bar,
            raise_error=raise_error,
        )
        task_results.extend(result.task_results)
        exceptions.extend(result.exceptions or [])
        if progress is not None:  # served: the file was there before and mteb did not write it again
            served = before is not None and path.is_file() and path.stat().st_mtime_ns == before
            progress.task_finished(TaskOutcome(name, time.perf_counter() - start, path if served else None))
    record_sources(output, tasks)  # where a generated dataset's rows were read, for `clsd analyze`
    meta = encoder.mteb_model_meta
    return ModelResult(model_name=str(meta.name), model_revision=meta.revision, task_results=task_results, exceptions=exceptions)
