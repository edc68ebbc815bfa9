"""CLSD evaluation as a Python API: :func:`evaluate` returns a typed run with everything ``clsd evaluate`` prints.

``mteb.evaluate`` gives a Python user the scores; a researcher choosing a model also needs what the rows say about
them: per model and task the Precision@1 with its 95% interval and the P@1 of guessing, the per-row hits (which rows
each model ranks T first on), and per model the paired test of the English pivot against the direct setting. A
:class:`CLSDRun` holds all of it in memory: the hits of what this process computed come from the evaluation itself
(:attr:`clsd_mteb.abstask.AbsTaskCLSD.predictions`), and only a result served from the results folder is read from
its prediction file. ``clsd evaluate`` prints and writes this run and computes nothing of its own.

:func:`evaluate` is shaped like ``mteb.evaluate``: the models a user holds (names, a ``ModelMeta``, mteb model objects,
a ``SentenceTransformer`` or ``CrossEncoder`` in memory; :mod:`clsd_mteb.model_objects`), task names or task objects,
and mteb's own options where they mean the same (``cache``, ``overwrite_strategy``, ``encode_kwargs``,
``show_progress_bar``, ``raise_error``), which set the one :class:`~clsd_format.evaluation_settings.EvaluationSettings`
the run reads. The results go to mteb's layout under ``output`` (:func:`clsd_mteb.run.evaluate_tasks`: a stored result
is reused only when it is this run's), and that folder is enough to rebuild the run later (:meth:`CLSDRun.load`).
A library call prints nothing: progress is a bar on stderr (or the caller's :class:`EvaluationProgress`), and its
lines go to the ``clsd_mteb`` logger.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from clsd_format import schema
from clsd_format.data_source import DataSource, resolve_data_source
from clsd_format.declared_settings import option_name
from clsd_format.errors import CLSDError, DataError
from clsd_format.evaluation_settings import EvaluationSettings
from clsd_format.model_choice import ModelChoice
from clsd_mteb.abstask import AbsTaskCLSD
from clsd_mteb.confidence import Interval, chance_of, counts_from_share, wilson_interval
from clsd_mteb.data_origin import origin_line
from clsd_mteb.data_record import TaskData, origins_of, read_record, write_record
from clsd_mteb.model_objects import ModelInput, as_models, load_choice
from clsd_mteb.paired import Hits, PivotTest, pivot_tests
from clsd_mteb.predictions import PREDICTIONS_SUFFIX, SPLIT, ModelRun, read_predictions
from clsd_mteb.result_checks import MODEL_META_FILE, evaluator_mismatch, impossible_result, read_model_meta
from clsd_mteb.run import TaskOutcome, TaskProgress, evaluate_tasks, prediction_folder
from clsd_mteb.trials import trial_of, trial_split

if TYPE_CHECKING:
    from mteb import ResultCache
    from mteb.abstasks import AbsTask
    from mteb.models import CrossEncoderProtocol, EncoderProtocol
    from mteb.results import ModelResult, TaskResult

    from clsd_mteb.table1 import Table1

    Model = EncoderProtocol | CrossEncoderProtocol

logger = logging.getLogger("clsd_mteb")
# The line over the answer, wherever it is shown (the terminal, a notebook): what its numbers rest on.
ANSWER_HEADING = "The answer (95% intervals; exact McNemar tests on the same rows at 5%, ties with the best Holm-adjusted):"
# mteb's overwrite strategies a CLSD run takes: recompute every task, or reuse a stored result that is this run's.
OVERWRITE_STRATEGIES = {"always": True, "only-missing": False}


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
    result: ModelResult | None = field(default=None, compare=False, repr=False)  # mteb's own, as mteb.evaluate returns it
    errors: Mapping[str, str] = field(default_factory=dict)  # task -> why it failed (raise_error=False)


@dataclass(frozen=True)
class CLSDRun:
    """An evaluation of one or more models on CLSD tasks, as :func:`evaluate` returns it."""

    data: str  # the data source, described (where the rows were read, at which revision)
    output: Path
    models: list[ModelScores]
    pivot_tests: list[PivotTest]  # pivot minus direct, per model, on the same rows (exact McNemar, Holm)
    pivot_not_built: Mapping[str, str] = field(default_factory=dict)  # direct task -> why its pivot set was not built
    limit: int | None = None  # a trial on the first rows of each task
    origins: tuple[str, ...] = ()  # per data source, who made its distractors (clsd_mteb.data_origin)
    # Other models the results folder holds on the same data (same dataset revisions and evaluator), compared too.
    held: list[ModelScores] = field(default_factory=list)

    @property
    def compared(self) -> list[ModelScores]:
        """The models of this run, then those the results folder already held for the same data."""
        return [*self.models, *self.held]

    def hits(self) -> Hits:
        """Per model, task and row id: T ranked first (every model compared)."""
        return hits_of(self.compared)

    def scores(self) -> dict[str, dict[str, float]]:
        """Per model and task: P@1 (every model compared)."""
        return {model.name: {task: score.p1 for task, score in model.tasks.items()} for model in self.compared}

    @property
    def results(self) -> list[ModelResult]:
        """mteb's ``ModelResult`` per model, as ``mteb.evaluate`` returns it (a reloaded run: rebuilt from the files)."""
        return [model.result for model in self.models if model.result is not None]

    @property
    def errors(self) -> dict[str, dict[str, str]]:
        """Per model, the tasks that failed and why (only with ``raise_error=False``; otherwise the first one raises)."""
        return {model.name: dict(model.errors) for model in self.models if model.errors}

    def table1(self) -> Table1:
        """The paper's Table 1 of this run: P@1 per model and task (%), each with its interval, the rows and the P@1
        of guessing, the models tied with each column's best marked, the languages a model lacks marked (†)."""
        from clsd_mteb.comparisons import mark_ties, model_comparisons
        from clsd_mteb.table1 import build_table1, mark_untrained

        rows = {model.name: {task: s.num_rows for task, s in model.tasks.items()} for model in self.compared}
        chance = {model.name: {task: s.chance for task, s in model.tasks.items()} for model in self.compared}
        table = build_table1(self.scores(), num_rows=rows, chance=chance)
        mark_untrained(table, {model.name: dict(model.untrained) for model in self.compared if model.untrained})
        mark_ties(table, model_comparisons(self.hits())[0])
        return table

    def answer(self, table: Table1 | None = None) -> list[str]:
        """The answer's lines, as ``clsd evaluate`` prints them under Table 1: per direction the best model (or none
        told from guessing), the models tied with it and the rows that would tell them apart, then whether the
        English pivot helps. Empty when the table offers no choice (one model, one setting)."""
        from clsd_mteb.answer import answer_lines
        from clsd_mteb.table1 import AVERAGE

        table = self.table1() if table is None else table
        if len(table.models) < 2 and len(table.settings_of(AVERAGE)) < 2:
            return []
        return [*self.origins, *answer_lines(table, self.pivot_tests, pivot_unmeasured=dict(self.pivot_not_built))]

    def _repr_markdown_(self) -> str:
        """What a notebook shows of a run: Table 1 with its legends and the answer, the lines ``clsd evaluate`` prints."""
        from clsd_mteb.table1_render import ALIGNMENT_LEGEND, INTERVAL_LEGEND, table1_markdown

        table = self.table1()
        answer = self.answer(table)
        trial = f" (a trial: the first {self.limit} rows of each task)" if self.limit else ""
        parts = [f"**CLSD**{trial}: " + " ".join(self.origins or (f"Data: {self.data}.",)) if not answer else f"**CLSD**{trial}"]
        parts += ["Precision@1 (%):", table1_markdown(table), *([ALIGNMENT_LEGEND] if table.alignment else []), INTERVAL_LEGEND]
        if answer:
            parts += [ANSWER_HEADING, "\n".join(f"- {line}" for line in answer)]
        errors = [f"- {model}, {task}: {why}" for model, failed in self.errors.items() for task, why in failed.items()]
        if errors:
            parts += ["Failed:", "\n".join(errors)]
        return "\n\n".join(parts) + "\n"

    @classmethod
    def load(cls, output: str | Path, models: Sequence[str] | None = None, tasks: Sequence[str] | None = None) -> CLSDRun:
        """The run a results folder holds, rebuilt without a model or any encoding (:func:`load_run`)."""
        return load_run(output, models, tasks)


def hits_of(models: Sequence[ModelScores]) -> dict[str, dict[str, dict[str, bool]]]:
    return {model.name: {task: dict(score.hits) for task, score in model.tasks.items() if score.hits} for model in models}


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
                f"rows: it is not the prediction file of this result; evaluate again with {option_name(EvaluationSettings, 'overwrite')}",
                file=str(path),
            )
    return hits


def score_model(
    model: Model,
    tasks: Sequence[AbsTask],
    settings: EvaluationSettings,
    progress: EvaluationProgress | None = None,
    *,
    raise_error: bool = True,
) -> ModelScores:
    """One model on the tasks (a stored result of this run reused), with its per-row hits; with ``raise_error=False``
    a task that fails is kept with its reason (:attr:`ModelScores.errors`) and the others go on, as in mteb."""
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
        raise_error=raise_error,
    )
    seconds = time.perf_counter() - start
    if progress is not None:
        progress.echo(f"  {seconds:.0f} s in all; predictions: {folder}")
    run = ModelRun(str(meta.name), str(meta.revision), folder.name)
    by_name = {task.metadata.name: task for task in tasks}
    scores, errors = {}, {error.task_name: error.exception for error in result.exceptions or []}
    for task_result in result.task_results:
        ended = outcomes.ended.get(task_result.task_name)
        stored = ended.stored if ended is not None else None
        try:
            hits = _hits(by_name[task_result.task_name], stored is None, folder, run)
        except CLSDError as error:
            if raise_error:
                raise
            errors[task_result.task_name] = str(error)
            continue
        scores[task_result.task_name] = _task_score(task_result, hits, stored)
    return ModelScores(str(meta.name), str(meta.revision), scores, folder, seconds=seconds, result=result, errors=errors)


def task_objects(
    source: DataSource | None, tasks: str | AbsTask | Sequence[str | AbsTask] | None, settings: EvaluationSettings
) -> list[AbsTask]:
    """The run's tasks with their rows read (the release: fetched and checked): task objects as they are (their own
    data, limit and encoding), names made into tasks of ``source`` with the settings' limit and encoding."""
    from clsd_mteb.tasks import get_tasks

    given = [tasks] if isinstance(tasks, str) or (tasks is not None and not isinstance(tasks, Sequence)) else list(tasks or [])
    objects = [task for task in given if not isinstance(task, str)]
    if objects and len(objects) != len(given):
        raise CLSDError("give tasks as names or as task objects, not both in one run")
    if objects:
        strangers = [type(task).__name__ for task in objects if not isinstance(task, AbsTaskCLSD)]
        if strangers:
            raise CLSDError(f"not a CLSD task: {', '.join(strangers)} (clsd_mteb.get_tasks or mteb.get_tasks make them)")
        selected: list[AbsTask] = list(objects)
    else:
        names = [str(name) for name in given] or None
        selected = list(get_tasks(names, source=source, limit=settings.limit, exact=settings.exact))
    for task in selected:
        task.load_data()
    return selected


def _sources(tasks: Sequence[AbsTask]) -> list[DataSource]:
    """The data sources the tasks read, each once, in the tasks' order."""
    found: dict[str, DataSource] = {}
    for task in tasks:
        if isinstance(task, AbsTaskCLSD):
            source = task.data_source
            found.setdefault(source.describe(), source)
    return list(found.values())


def _record_data(output: Path, tasks: Sequence[AbsTask], lines: Mapping[str, str], not_built: Mapping[str, str]) -> None:
    """Each task's data line (``lines``: by data source, as the run's answer opens) and left-out pivot in the folder's
    record (:mod:`clsd_mteb.data_record`), for load_run."""
    record = {
        task.metadata.name: TaskData(lines[task.data_source.describe()], not_built.get(task.metadata.name, ""))
        for task in tasks
        if isinstance(task, AbsTaskCLSD)
    }
    if record:
        write_record(output, record)


def run_evaluation(
    model: ModelInput | Sequence[ModelInput],
    source: DataSource | None,
    tasks: str | AbsTask | Sequence[str | AbsTask] | None,
    settings: EvaluationSettings = EvaluationSettings(),
    progress: EvaluationProgress | None = None,
    *,
    raise_error: bool = True,
) -> CLSDRun:
    """:func:`evaluate` once the data source is resolved and the task names checked: the models load first (one that
    cannot load stops the run before the data is read), then the tasks, then each model in turn."""
    from clsd_format import hub
    from clsd_mteb.model_languages import untrained_by_model, untrained_warnings

    models = as_models(model)
    selected = task_objects(source, tasks, settings)
    sources = _sources(selected)
    data = "; ".join(found.describe() for found in sources)
    metas = [loaded.mteb_model_meta for loaded in models]
    if progress is not None:
        trial = f", first {settings.limit} rows each" if settings.limit else ""
        progress.echo(f"Data: {data}; {len(selected)} task(s){trial}")
        for line in untrained_warnings(metas, selected):
            progress.warn(line)
    untrained = untrained_by_model(metas, selected)
    scored = []
    for loaded in models:
        scores = score_model(loaded, selected, settings, progress, raise_error=raise_error)
        scored.append(replace(scores, untrained=untrained.get(str(loaded.mteb_model_meta.name), {})))
    not_built = {k: v for found in sources if found.card for k, v in hub.pivot_not_built(found.card, found.describe()).items()}
    lines = {found.describe(): origin_line(found) for found in sources}  # each source's data line, made once
    origins = tuple(lines.values())
    _record_data(settings.output, selected, lines, not_built)
    held = held_models(settings.output, selected, scored)
    if held and progress is not None:
        names = ", ".join(f"{model.name} ({model.revision})" for model in held)
        progress.echo(f"Compared too: {names}, whose stored results in {settings.output} are on the same data")
    everyone = [*scored, *held]
    return CLSDRun(data, settings.output, scored, pivot_tests(hits_of(everyone)), not_built, settings.limit, origins, held)


def held_models(output: Path, tasks: Sequence[AbsTask], scored: Sequence[ModelScores]) -> list[ModelScores]:
    """The other models whose stored results in ``output`` are on exactly these tasks' data: every task's result of
    the same dataset revision (a trial's included), by this evaluator, with its per-row hits; so that evaluating one
    new model answers beside what was evaluated before. A folder that cannot be read adds nobody (its own reader,
    :func:`load_run`, names what is wrong there, and a warning says it was left out)."""
    revisions = {task.metadata.name: task.metadata.revision for task in tasks}
    if not (Path(output) / "results").is_dir():
        return []
    ours = {(model.name, model.revision) for model in scored}  # just scored: their files are not read again
    try:
        stored = _stored_models(Path(output), tasks=list(revisions), leave_out=ours)
    except CLSDError as exc:  # said in one line (stderr, the logging module's), and the run answers on its own models
        logger.warning("the models already in %s are left out of the comparison: %s", output, exc)
        return []
    return [
        model
        for model in stored
        if set(model.tasks) == set(revisions)
        and all(score.hits for score in model.tasks.values())
        and all(
            result.dataset_revision == revisions[result.task_name] and evaluator_mismatch(result) is None
            for result in _results(model)
        )
    ]


def with_mteb_options(
    settings: EvaluationSettings,
    cache: ResultCache | str | Path | None = None,
    overwrite_strategy: str | None = None,
    encode_kwargs: Mapping[str, Any] | None = None,
) -> EvaluationSettings:
    """``settings`` with mteb's options of the same meaning applied: ``cache`` (a ``ResultCache`` or its folder) is the
    results folder, ``overwrite_strategy`` ``"always"`` recomputes and ``"only-missing"`` reuses this run's stored
    results, ``encode_kwargs["batch_size"]`` is the batch size. What a CLSD result cannot be bound to is refused."""
    changes: dict[str, Any] = {}
    if cache is not None:
        changes["output"] = Path(cache) if isinstance(cache, str | Path) else Path(cache.cache_path)
    if overwrite_strategy is not None:
        strategy = str(getattr(overwrite_strategy, "value", overwrite_strategy))
        if strategy not in OVERWRITE_STRATEGIES:
            raise CLSDError(
                f"overwrite_strategy {strategy!r} is not one a CLSD run takes: {', '.join(map(repr, OVERWRITE_STRATEGIES))} "
                "(a stored CLSD result is reused only when it is of the same data, evaluator and encoding)"
            )
        changes["overwrite"] = OVERWRITE_STRATEGIES[strategy]
    unknown = sorted(set(encode_kwargs or {}) - {"batch_size"})
    if unknown:
        raise CLSDError(
            f"encode_kwargs {', '.join(unknown)}: a CLSD run reads batch_size only (its stored results are bound to it)"
        )
    if encode_kwargs and "batch_size" in encode_kwargs:
        changes["batch_size"] = encode_kwargs["batch_size"]
    return replace(settings, **changes) if changes else settings


def evaluate(
    model: ModelInput | Sequence[ModelInput] = None,
    tasks: str | AbsTask | Sequence[str | AbsTask] | None = None,
    *,
    cache: ResultCache | str | Path | None = None,
    overwrite_strategy: str | None = None,
    encode_kwargs: Mapping[str, Any] | None = None,
    show_progress_bar: bool = True,
    raise_error: bool = True,
) -> CLSDRun:
    """Evaluate ``model`` on CLSD ``tasks`` and return the run with intervals, per-row hits and pivot tests.

    ``model``: a name (an embedded model, a baseline, a local folder, any name mteb knows, ``endpoint:MODEL@URL``,
    ``rerank:MODEL@URL``), a :class:`~clsd_format.model_choice.ModelChoice` (a served model's settings, a device), a
    ``ModelMeta``, an mteb model object, a ``SentenceTransformer`` or ``CrossEncoder`` in memory (filed under the
    fingerprint of its weights: :mod:`clsd_mteb.model_objects`), a list of these, or None for the default model
    beside the n-gram baseline. ``tasks``: task objects (``clsd_mteb.get_tasks``, with the data, a trial's first
    rows and exact encoding, or ``mteb.get_tasks``), or names of tasks of ``$CLSD_DATA_DIR``, else of the release
    (default: every task of it).

    The rest as in ``mteb.evaluate``: ``cache`` the results folder (a ``ResultCache`` or a folder; default
    ``clsd-results``), ``overwrite_strategy`` (``"only-missing"`` reuses a stored result of the same data, evaluator
    and encoding, ``"always"`` recomputes), ``encode_kwargs`` (``batch_size``), ``show_progress_bar`` (a bar over
    the tasks on stderr), ``raise_error`` (False: a failing task is kept in :attr:`CLSDRun.errors` and the run goes
    on). ``clsd evaluate`` runs the same evaluation with its settings object (:func:`run_evaluation`).
    """
    settings = with_mteb_options(EvaluationSettings(), cache, overwrite_strategy, encode_kwargs)
    objects = [task for task in _as_list(tasks) if not isinstance(task, str)]
    source = None if objects else resolve_data_source(None)
    names = tasks if source is None else source.check_task_names([str(t) for t in _as_list(tasks)] or None)
    if not show_progress_bar:
        return run_evaluation(model, source, names, settings, raise_error=raise_error)
    from clsd_mteb.progress_bar import BarProgress

    with BarProgress() as bar:
        return run_evaluation(model, source, names, settings, bar, raise_error=raise_error)


def _as_list(tasks: str | AbsTask | Sequence[str | AbsTask] | None) -> list[str | AbsTask]:
    if tasks is None:
        return []
    return [tasks] if isinstance(tasks, str) or not isinstance(tasks, Sequence) else list(tasks)


def load_run(output: str | Path, models: Sequence[str] | None = None, tasks: Sequence[str] | None = None) -> CLSDRun:
    """The run a results folder holds (every model and task, or those named), read strictly: each result file as
    mteb's ``TaskResult`` with possible scores only, each prediction file bound to its model, revision and task.
    No model is loaded and nothing is encoded, so a notebook that restarts gets the same numbers back."""
    root = Path(output)
    scored = _stored_models(root, models, tasks)
    if not scored:
        raise DataError("holds no CLSD result to rebuild a run from (results/<model>/<revision>/<task>.json)", file=str(root))
    trials = {trial_of(result.scores) for model in scored for result in _results(model)}
    limit = trials.pop() if len(trials) == 1 else None  # a trial's first rows, when every result is of the same trial
    record = read_record(root)  # the data each task read, as the runs that wrote the folder recorded it
    names = list(dict.fromkeys(name for model in scored for name in model.tasks))
    not_built = {name: record[name].pivot_not_built for name in names if name in record and record[name].pivot_not_built}
    origins = origins_of(record, names)
    return CLSDRun(f"results folder {root}", root, scored, pivot_tests(hits_of(scored)), not_built, limit, origins)


def _stored_models(
    root: Path,
    models: Sequence[str] | None = None,
    tasks: Sequence[str] | None = None,
    leave_out: Collection[tuple[str, str]] = (),
) -> list[ModelScores]:
    """The models a results folder holds (those named, on the tasks named; none of ``leave_out``'s (name, revision)),
    each result file read once, strictly: its scores, hits and the languages its model declares no training in."""
    from mteb.results import ModelResult, TaskResult

    from clsd_mteb.model_languages import score_languages, untrained_languages

    scored = []
    for folder in sorted(path.parent for path in (root / "results").glob(f"*/*/{MODEL_META_FILE}")):
        meta = read_model_meta(folder)
        if (models is not None and meta.name not in models) or (str(meta.name), str(meta.revision)) in leave_out:
            continue
        predictions = root / "predictions" / folder.parent.name / folder.name
        run = ModelRun(str(meta.name), str(meta.revision), predictions.name)
        scores: dict[str, _Stored] = {}
        untrained: dict[str, list[str]] = {}
        for path in sorted(folder.glob("*.json")):
            if path.name == MODEL_META_FILE or (tasks is not None and path.stem not in tasks):
                continue
            try:
                stored = TaskResult.from_disk(path)
            except (OSError, ValueError) as exc:  # cut-short JSON, or not a task result (pydantic's errors are ValueErrors)
                raise DataError(f"is not a readable mteb task result ({type(exc).__name__})", file=str(path)) from exc
            scores[path.stem] = _stored_score(stored, path, predictions, run)
            untrained[path.stem] = untrained_languages(meta, score_languages(stored.scores))
        if scores:
            result = ModelResult(
                model_name=str(meta.name), model_revision=meta.revision, task_results=[s.result for s in scores.values()]
            )
            scored.append(
                ModelScores(
                    str(meta.name),
                    str(meta.revision),
                    {k: s.score for k, s in scores.items()},
                    predictions,
                    untrained={task: codes for task, codes in untrained.items() if codes},
                    result=result,
                )
            )
    return scored


def _results(model: ModelScores) -> list[TaskResult]:
    return list(model.result.task_results) if model.result is not None else []


@dataclass(frozen=True)
class _Stored:
    result: TaskResult
    score: TaskScore


def _stored_score(result: TaskResult, path: Path, predictions: Path, run: ModelRun) -> _Stored:
    problem = impossible_result(result)
    if problem is not None:
        raise DataError(f"is not a result to rebuild a run from: {problem}", file=str(path))
    trial = trial_of(result.scores)
    split = trial_split(trial) if trial is not None else SPLIT
    file = predictions / f"{result.task_name}{PREDICTIONS_SUFFIX}"
    hits = read_predictions(file, run, result.task_name, split).correct() if file.is_file() else {}
    return _Stored(result, _task_score(result, hits, path))


__all__ = [
    "ANSWER_HEADING",
    "OVERWRITE_STRATEGIES",
    "CLSDRun",
    "EvaluationProgress",
    "EvaluationSettings",
    "ModelChoice",
    "ModelScores",
    "TaskScore",
    "evaluate",
    "load_choice",
    "load_run",
    "run_evaluation",
    "score_model",
    "task_objects",
    "with_mteb_options",
]
