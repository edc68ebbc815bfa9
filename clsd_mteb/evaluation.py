"""CLSD evaluation as a Python API: :func:`evaluate` returns a typed run with everything ``clsd evaluate`` prints.

``mteb.evaluate`` gives a Python user the scores; a researcher choosing a model also needs what the rows say about
them: per model and task the Precision@1 with its 95% interval and the P@1 of guessing, the per-row hits (which rows
each model ranks T first on), and per model the paired test of the English pivot against the direct setting. A
:class:`CLSDRun` holds all of it in memory: the hits of what this process computed come from the evaluation itself
(:attr:`clsd_mteb.abstask.AbsTaskCLSD.predictions`), and only a result served from the results folder is read from
its prediction file. ``clsd evaluate`` prints and writes this run and computes nothing of its own.

The model is resolved once (:class:`clsd_format.model_choice.ModelChoice`), the results go to mteb's layout under
``output`` (:func:`clsd_mteb.run.evaluate_tasks`: a stored result is reused only when it is this run's).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from clsd_format import schema
from clsd_format.data_source import DataSource, resolve_data_source
from clsd_format.defaults import ENDPOINT_PREFIX
from clsd_format.errors import DataError
from clsd_format.evaluation_settings import EvaluationSettings
from clsd_format.model_choice import ENDPOINT, LOCAL, ModelChoice
from clsd_mteb.abstask import AbsTaskCLSD
from clsd_mteb.confidence import Interval, chance_of, counts_from_share, wilson_interval
from clsd_mteb.paired import Hits, PivotTest, pivot_tests
from clsd_mteb.predictions import PREDICTIONS_SUFFIX, ModelRun, read_predictions
from clsd_mteb.run import TaskOutcome, TaskProgress, evaluate_tasks, prediction_folder

if TYPE_CHECKING:
    from mteb.abstasks import AbsTask
    from mteb.models import CrossEncoderProtocol, EncoderProtocol
    from mteb.results import TaskResult

    Model = EncoderProtocol | CrossEncoderProtocol


class EvaluationProgress(TaskProgress, Protocol):
    """What :func:`evaluate` tells a caller as it goes: lines to show, warnings, each task's start and end.

    ``watched``: a person watches a terminal (mteb's progress bars are shown)."""

    watched: bool

    def echo(self, line: str) -> None: ...

    def warn(self, line: str) -> None: ...


@dataclass(frozen=True)
class TaskScore:
    """One model on one task: P@1 with its 95% Wilson interval, the rows, the P@1 of guessing, the per-row hits."""

    task: str
    p1: float
    num_rows: int
    chance: float | None  # 1 in the number of candidates (None: a result that does not record it)
    interval: Interval
    hits: Mapping[str, bool]  # row id -> T ranked first (empty: a stored result without its prediction file)
    stored: Path | None = None  # the stored result file served instead of a computation


@dataclass(frozen=True)
class ModelScores:
    """One model's run: its name and revision, a :class:`TaskScore` per task, where its predictions are, the task
    languages it declares no training in (by task), and the wall time."""

    name: str
    revision: str
    tasks: Mapping[str, TaskScore]
    predictions: Path
    untrained: Mapping[str, list[str]] = field(default_factory=dict)
    seconds: float = 0.0


@dataclass(frozen=True)
class CLSDRun:
    """An evaluation of one or more models on CLSD tasks, as :func:`evaluate` returns it."""

    data: str  # the data source, described (where the rows were read, at which revision)
    output: Path
    models: list[ModelScores]
    pivot_tests: list[PivotTest]  # pivot minus direct, per model, on the same rows (exact McNemar, Holm)
    pivot_not_built: Mapping[str, str] = field(default_factory=dict)  # direct task -> why its pivot set was not built
    limit: int | None = None  # a trial on the first rows of each task

    def hits(self) -> Hits:
        """Per model, task and row id: T ranked first."""
        return hits_of(self.models)

    def scores(self) -> dict[str, dict[str, float]]:
        """Per model and task: P@1."""
        return {model.name: {task: score.p1 for task, score in model.tasks.items()} for model in self.models}


def hits_of(models: Sequence[ModelScores]) -> dict[str, dict[str, dict[str, bool]]]:
    return {model.name: {task: dict(score.hits) for task, score in model.tasks.items() if score.hits} for model in models}


def load_choice(choice: ModelChoice) -> list[Model]:
    """The models a choice names: a served model with its settings, the model asked for, or (no name) the default
    model beside the character n-gram baseline."""
    from clsd_mteb.baselines import CHAR_NGRAM_NAME
    from clsd_mteb.models import load_model, load_served

    if choice.kind == LOCAL:
        return [load_model(choice.spec, device=choice.device)] + ([load_model(CHAR_NGRAM_NAME)] if choice.with_baseline else [])
    from clsd_mteb.encoders.openai_endpoint import EndpointConfig
    from clsd_mteb.encoders.rerank_endpoint import RerankConfig
    from clsd_mteb.encoders.served import ServedConfig

    spec = choice.spec or ""
    config: ServedConfig
    if choice.base_url is not None:
        config = EndpointConfig(base_url=choice.base_url, model=spec.removeprefix(ENDPOINT_PREFIX))
    elif choice.kind == ENDPOINT:
        config = EndpointConfig.from_spec(spec)
    else:
        config = RerankConfig.from_spec(spec)
    return [load_served(replace(config, **choice.served))]


def _task_score(result: TaskResult, hits: Mapping[str, bool], stored: Path | None) -> TaskScore:
    p1 = float(result.get_score())
    rows = int(result.get_score(getter=lambda scores: scores["num_rows"]))
    chance = next((chance_of(scores) for split in result.scores.values() for scores in split), None)
    interval = wilson_interval(counts_from_share(p1, rows), rows)
    return TaskScore(result.task_name, p1, rows, chance, interval, hits, stored)


class _Outcomes:
    """Forwards each task's start and end to the caller's progress and keeps how each task ended."""

    def __init__(self, progress: TaskProgress | None) -> None:
        self.progress = progress
        self.ended: dict[str, TaskOutcome] = {}

    def task_started(self, name: str) -> None:
        if self.progress is not None:
            self.progress.task_started(name)

    def task_finished(self, outcome: TaskOutcome) -> None:
        self.ended[outcome.name] = outcome
        if self.progress is not None:
            self.progress.task_finished(outcome)


def _hits(task: AbsTask, computed: bool, folder: Path, run: ModelRun) -> dict[str, bool]:
    """The task's per-row hits: from the evaluation itself when this process computed it, else from the prediction
    file stored beside the result served (none when that file is missing)."""
    split = task.split if isinstance(task, AbsTaskCLSD) else schema.HUB_SPLIT
    if computed and isinstance(task, AbsTaskCLSD) and split in task.predictions:
        return task.predictions[split].hits()
    path = folder / f"{task.metadata.name}{PREDICTIONS_SUFFIX}"
    if not path.is_file():
        return {}
    hits = read_predictions(path, run, task.metadata.name, split).correct()
    if isinstance(task, AbsTaskCLSD):  # bound to the rows the served result is of: the task's own ids
        ids = {str(row_id) for row_id in task.evaluated_rows()[schema.ID]}
        if set(hits) != ids:
            raise DataError(
                f"holds {len(set(hits) ^ ids)} row id(s) that are not both in it and in {task.metadata.name}'s "
                "rows: it is not the prediction file of this result; evaluate again with --overwrite",
                file=str(path),
            )
    return hits


def score_model(
    model: Model, tasks: Sequence[AbsTask], settings: EvaluationSettings, progress: EvaluationProgress | None = None
) -> ModelScores:
    """One model on the tasks (a stored result of this run reused), with its per-row hits."""
    meta = model.mteb_model_meta
    folder = prediction_folder(settings.output, model)
    if progress is not None:
        progress.echo(f"{meta.name} (revision {meta.revision})")
    for task in tasks:
        if isinstance(task, AbsTaskCLSD):
            task.predictions.clear()  # another model's, from the evaluation before
    start = time.perf_counter()
    outcomes = _Outcomes(progress)
    watched = progress is not None and progress.watched
    result = evaluate_tasks(
        model,
        tasks,
        settings.output,
        batch_size=settings.batch_size,
        overwrite=settings.overwrite,
        show_progress_bar=watched,
        progress=outcomes,
    )
    seconds = time.perf_counter() - start
    if progress is not None:
        progress.echo(f"  {seconds:.0f} s in all; predictions: {folder}")
    run = ModelRun(str(meta.name), str(meta.revision), folder.name)
    by_name = {task.metadata.name: task for task in tasks}
    scores = {}
    for task_result in result.task_results:
        ended = outcomes.ended.get(task_result.task_name)
        stored = ended.stored if ended is not None else None
        hits = _hits(by_name[task_result.task_name], stored is None, folder, run)
        scores[task_result.task_name] = _task_score(task_result, hits, stored)
    return ModelScores(str(meta.name), str(meta.revision), scores, folder, seconds=seconds)


def load_tasks(source: DataSource, names: Sequence[str] | None, settings: EvaluationSettings) -> list[AbsTask]:
    """The run's tasks with their rows read (the release: fetched and checked)."""
    from clsd_mteb.tasks import get_tasks

    chosen = list(names) if names else None
    selected: list[AbsTask] = list(get_tasks(chosen, source=source, limit=settings.limit, exact=settings.exact))
    for task in selected:
        task.load_data()
    return selected


def run_evaluation(
    choice: ModelChoice,
    source: DataSource,
    names: Sequence[str] | None,
    settings: EvaluationSettings = EvaluationSettings(),
    progress: EvaluationProgress | None = None,
) -> CLSDRun:
    """:func:`evaluate` once the data source is resolved and the task names checked: the models load first (one that
    cannot load stops the run before the data is read), then the tasks, then each model in turn."""
    from clsd_format import hub
    from clsd_mteb.model_languages import untrained_by_model, untrained_warnings

    models = load_choice(choice)
    selected = load_tasks(source, names, settings)
    metas = [model.mteb_model_meta for model in models]
    if progress is not None:
        trial = f", first {settings.limit} rows each" if settings.limit else ""
        progress.echo(f"Data: {source.describe()}; {len(selected)} task(s){trial}")
        for line in untrained_warnings(metas, selected):
            progress.warn(line)
    untrained = untrained_by_model(metas, selected)
    scored = [
        replace(score_model(model, selected, settings, progress), untrained=untrained.get(str(model.mteb_model_meta.name), {}))
        for model in models
    ]
    not_built = hub.pivot_not_built(source.card, source.describe()) if source.card else {}
    return CLSDRun(source.describe(), settings.output, scored, pivot_tests(hits_of(scored)), not_built, settings.limit)


def evaluate(
    model: str | ModelChoice | None = None,
    tasks: Sequence[str] | None = None,
    *,
    data_dir: str | Path | None = None,
    hub_dataset: str | None = None,
    settings: EvaluationSettings = EvaluationSettings(),
    progress: EvaluationProgress | None = None,
) -> CLSDRun:
    """Evaluate ``model`` on CLSD ``tasks`` and return the run with intervals, per-row hits and pivot tests.

    ``model``: a name (an embedded model, a baseline, a local folder, any name mteb knows, ``endpoint:MODEL@URL``,
    ``rerank:MODEL@URL``), a :class:`~clsd_format.model_choice.ModelChoice` (a served model's settings, a device),
    or None for the default model beside the n-gram baseline. ``tasks``: task names (default: every task of the
    data). ``data_dir``/``hub_dataset``: the data, as ``clsd evaluate`` reads them (default: ``$CLSD_DATA_DIR``, else
    the release). ``settings``: the results folder (mteb's layout; a stored result is reused only when it is of the
    same data, evaluator and encoding), the batch size, exact encoding, a trial's first rows.
    """
    choice = model if isinstance(model, ModelChoice) else ModelChoice(model)
    source = resolve_data_source(Path(data_dir) if data_dir is not None else None, hub_dataset)
    return run_evaluation(choice, source, source.check_task_names(list(tasks) if tasks else None), settings, progress)


__all__ = [
    "CLSDRun",
    "EvaluationProgress",
    "EvaluationSettings",
    "ModelChoice",
    "ModelScores",
    "TaskScore",
    "evaluate",
    "load_choice",
    "run_evaluation",
    "score_model",
]
