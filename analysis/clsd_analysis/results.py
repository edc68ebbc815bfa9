"""Reading a results folder: mteb task results plus the CLSD prediction files beside them.

Layout (what ``clsd evaluate --output DIR`` and ``mteb.evaluate(cache=ResultCache(DIR), ...)`` write)::

    DIR/results/<model_name_as_path>/<revision>/<TaskName>.json          mteb TaskResult
    DIR/results/<model_name_as_path>/<revision>/model_meta.json          mteb ModelMeta
    DIR/predictions/<model_name_as_path>/<revision>/<TaskName>_predictions.json

Only CLSD results are kept: a task result counts as CLSD when its test scores carry the CLSD
metrics (``precision_at_1`` and ``distractor_1_win_rate``), so the folder may hold other mteb
results too, and datasets made by the generation module are recognised by what they measured,
not by their name.

A file that cannot be a CLSD result as it stands is skipped, and the report lists it with why: not
readable as an mteb task result, not a CLSD result, or a score no evaluation can produce (NaN,
infinite, or out of its range: a share outside [0, 1], a mean rank below 1; see :data:`clsd_mteb.result_checks.SCORE_RANGES`, the check ``clsd export-results`` and ``clsd push-results``
apply too).
So no table or average ever holds an impossible number.

A trial (a task cut to its first rows: ``limit``, ``clsd evaluate --limit``) files its scores and predictions
under a split of its own, ``test_first_<N>`` (:mod:`clsd_mteb.trials`); it is read from there and listed in
:attr:`ResultsFolder.trials`, which the report states at its top.

Each result keeps the dataset revision its file names (:attr:`ResultsFolder.dataset_revisions`; a file naming
none, or a prediction file without its result file, has none), and :meth:`ResultsFolder.result_data` adds where
its rows were read when its folder's ``data_sources.json`` records it: two results are compared only when they
are known to be on the same rows of the same data (:mod:`clsd_analysis.same_data`, :mod:`clsd_analysis.comparisons`).

Several folders (one per machine or cluster job) are read as one by :func:`load_results`. A model, model
revision and task held by two folders is read once when both hold the same numbers; two folders that
hold it with other numbers, or not known to be of the same data, are refused with one line naming both
files: a report holds one result per model and task.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from clsd_analysis.command_options import ReportSources
from clsd_format.declared_settings import option_name
from clsd_format.errors import CLSDError, DataError
from clsd_format.evaluation_settings import EvaluationSettings
from clsd_format.folders import folder_problem
from clsd_format.json_files import read_json
from clsd_mteb.predictions import PREDICTIONS_SUFFIX, SPLIT, SUBSET, ModelRun, TaskPredictions, read_predictions
from clsd_mteb.result_checks import impossible_score  # the check every command that reads results shares
from clsd_mteb.same_data import ResultData, known_revision, why_other_data
from clsd_mteb.source_record import RecordedSource, SourceKey, read_sources
from clsd_mteb.trials import trial_of, trial_split, whole_task_revision

MAIN_METRIC = "precision_at_1"
_CLSD_MARKERS = (MAIN_METRIC, "distractor_1_win_rate")


class ResultsError(CLSDError):
    """The results folder cannot be analysed (missing, empty, unreadable)."""


@dataclass
class ResultsFolder:
    """Every CLSD score and prediction file under one results folder."""

    root: Path
    scores: dict[tuple[ModelRun, str], dict[str, Any]]
    prediction_paths: dict[tuple[ModelRun, str], Path]
    skipped: list[str] = field(default_factory=list)  # files that are not CLSD results, with why
    trials: dict[tuple[ModelRun, str], int] = field(default_factory=dict)  # results of a trial: its first rows
    dataset_revisions: dict[tuple[ModelRun, str], str] = field(default_factory=dict)  # as each result file names it, if it does
    score_paths: dict[tuple[ModelRun, str], Path] = field(default_factory=dict)  # the result file of each score
    roots: list[Path] = field(default_factory=list)  # every folder read (``root`` is the first)
    # each folder's data_sources.json, read once
    _records: dict[Path, dict[SourceKey, RecordedSource]] = field(default_factory=dict, init=False, repr=False)

    @property
    def runs(self) -> list[ModelRun]:
        """Models in a stable order: by name, then revision."""
        return sorted({run for run, _ in self.scores} | {run for run, _ in self.prediction_paths})

    @property
    def task_names(self) -> list[str]:
        return sorted({task for _, task in self.scores} | {task for _, task in self.prediction_paths})

    def score(self, run: ModelRun, task_name: str, metric: str = MAIN_METRIC) -> float | None:
        """A score as the result file holds it, or None when that model was not run on that task."""
        entry = self.scores.get((run, task_name))
        if entry is None or entry.get(metric) is None:
            return None
        return float(entry[metric])

    def predictions(self, run: ModelRun, task_name: str) -> TaskPredictions | None:
        """The predictions of the scores read: a trial's when the result is a trial's."""
        path = self.prediction_paths.get((run, task_name))
        rows = self.trials.get((run, task_name))
        split = SPLIT if rows is None else trial_split(rows)
        return None if path is None else read_predictions(path, run, task_name, split)

    def dataset_revision(self, run: ModelRun, task_name: str) -> str | None:
        """The dataset revision the result file names (a trial's ends in ``-limit<N>``); None when unknown (no result
        file, or one that names none)."""
        return self.dataset_revisions.get((run, task_name))

    def result_data(self, run: ModelRun, task_name: str) -> ResultData:
        """What the result was computed on: its dataset revision and, when the folder holding its result file
        records it (``data_sources.json``), where its rows were read."""
        revision = self.dataset_revision(run, task_name)
        path = self.score_paths.get((run, task_name))
        root = next((r for r in self.roots or [self.root] if path is not None and path.is_relative_to(r)), None)
        if revision is None or root is None:
            return ResultData(task_name, revision)
        return ResultData(task_name, revision, self.recorded_sources(root).get((task_name, whole_task_revision(revision))))

    def recorded_sources(self, root: Path) -> dict[SourceKey, RecordedSource]:
        """What ``clsd evaluate`` recorded of the data sources in ``root`` (read once); a record that cannot be read
        names the way round it here, where the analysis's options are known: the data given with ``--dataset``."""
        if root not in self._records:
            try:
                self._records[root] = read_sources(root)
            except DataError as exc:
                raise DataError(f"{exc} or pass the data with {option_name(ReportSources, 'dataset')}") from exc
        return self._records[root]

    def is_reranker(self, run: ModelRun) -> bool:
        """Whether the run is a cross-encoder's: its scores are relevance scores, not cosines of embeddings."""
        return any(entry.get("clsd_cross_encoder") == 1 for (r, _), entry in self.scores.items() if r == run)

    def label(self, run: ModelRun) -> str:
        """Display name: the model name, plus the revision when one model appears at several."""
        same_name = [r for r in self.runs if r.name == run.name]
        return run.name if len(same_name) == 1 else f"{run.name}@{run.short_revision}"


def _read_json(path: Path) -> Any:
    return read_json(path)


def _model_identity(folder: Path, relative: str) -> tuple[str, str]:
    """Model name and revision: from model_meta.json when present, else from the folder names."""
    meta_path = folder / "model_meta.json"
    if meta_path.is_file():
        meta = _read_json(meta_path)
        if isinstance(meta, dict) and meta.get("name"):
            return str(meta["name"]), str(meta.get("revision") or folder.name)
    name_as_path, revision = relative.split("/", 1)
    return name_as_path.replace("__", "/"), revision


def _clsd_scores(path: Path) -> tuple[str, dict[str, Any], int | None, str | None] | str:
    """(task name, scores of the default subset of the test split or a trial's, the trial's rows, the dataset revision),
    or why the file is not used."""
    import mteb

    try:
        result = mteb.TaskResult.from_disk(path)
    except Exception as exc:  # mteb validates with pydantic and raises several types
        return f"{path}: not an mteb task result ({type(exc).__name__}: {exc})"
    trial = None if SPLIT in result.scores else trial_of(result.scores)
    entries = result.scores.get(SPLIT if trial is None else trial_split(trial)) or []
    entry = next((e for e in entries if e.get("hf_subset", SUBSET) == SUBSET), None)
    if entry is None or not all(marker in entry for marker in _CLSD_MARKERS):
        return f"{path}: not a CLSD result (no {SPLIT}/{SUBSET} scores with {', '.join(_CLSD_MARKERS)})"
    impossible = impossible_score(entry)
    if impossible is not None:
        return f"{path}: {impossible}"
    return result.task_name, dict(entry), trial, known_revision(result.dataset_revision)


def load_results(roots: str | Path | Sequence[str | Path]) -> ResultsFolder:
    """Index one results folder, or several read as one. Raises :class:`ResultsError` when one holds no CLSD
    result at all, or when two hold one model's result on one task with other numbers or data."""
    if isinstance(roots, str | Path):
        return _load_folder(Path(roots))
    folders = [_load_folder(Path(root)) for root in dict.fromkeys(Path(r) for r in roots)]
    if not folders:
        raise ResultsError("no results folder given.")
    return folders[0] if len(folders) == 1 else _merged(folders)


def _load_folder(root: Path) -> ResultsFolder:
    """Index one results folder."""
    results_dir, predictions_dir = root / "results", root / "predictions"
    problem = folder_problem(root, "results folder")
    if problem is not None:
        raise ResultsError(problem)
    if not results_dir.is_dir() and not predictions_dir.is_dir():
        raise ResultsError(
            f"{root} has neither results/ nor predictions/: point at the folder given to "
            f"`clsd evaluate {option_name(EvaluationSettings, 'output')}` (or the ResultCache folder of mteb.evaluate)."
        )
    runs: dict[str, ModelRun] = {}

    def run_for(base: Path, model_folder: Path) -> ModelRun:
        relative = model_folder.relative_to(base).as_posix()
        if relative not in runs:
            meta_folder = results_dir / relative
            name, revision = _model_identity(meta_folder if meta_folder.is_dir() else model_folder, relative)
            runs[relative] = ModelRun(name, revision, relative)
        return runs[relative]

    folder = ResultsFolder(root=root, scores={}, prediction_paths={}, roots=[root])
    for path in sorted(results_dir.glob("*/*/*.json")) if results_dir.is_dir() else []:
        if path.name == "model_meta.json":
            continue
        found = _clsd_scores(path)
        if isinstance(found, str):
            folder.skipped.append(found)
            continue
        task_name, entry, trial, dataset_revision = found
        key = (run_for(results_dir, path.parent), task_name)
        folder.scores[key], folder.score_paths[key] = entry, path
        if dataset_revision is not None:
            folder.dataset_revisions[key] = dataset_revision
        if trial is not None:
            folder.trials[key] = trial
    for path in sorted(predictions_dir.glob(f"*/*/*{PREDICTIONS_SUFFIX}")) if predictions_dir.is_dir() else []:
        task_name = path.name[: -len(PREDICTIONS_SUFFIX)]
        folder.prediction_paths[(run_for(predictions_dir, path.parent), task_name)] = path
    if not folder.scores and not folder.prediction_paths:
        hint = f" Skipped: {folder.skipped[0]}" if folder.skipped else ""
        raise ResultsError(f"no CLSD results under {root}.{hint}")
    return folder


def _merged(folders: Sequence[ResultsFolder]) -> ResultsFolder:
    """Several folders as one: a result two of them hold is read once, if both hold the same numbers of the same data."""
    merged = ResultsFolder(root=folders[0].root, scores={}, prediction_paths={}, roots=[f.root for f in folders])
    for folder in folders:
        merged.skipped += folder.skipped
        for key, entry in folder.scores.items():
            if key in merged.scores:
                _check_same_result(merged, folder, key)
                continue
            merged.scores[key], merged.score_paths[key] = entry, folder.score_paths[key]
            if key in folder.dataset_revisions:
                merged.dataset_revisions[key] = folder.dataset_revisions[key]
            if key in folder.trials:
                merged.trials[key] = folder.trials[key]
        for key, path in folder.prediction_paths.items():
            if key not in merged.prediction_paths:
                merged.prediction_paths[key] = path
            elif not _same_predictions(merged.predictions(*key), folder.predictions(*key)):
                run, task = key
                raise ResultsError(
                    f"{merged.prediction_paths[key]} and {path} both hold `{run.name}` (revision {run.revision}) on "
                    f"{task} with other per-row numbers: keep one of them (or evaluate again into one folder)."
                )
    return merged


def _check_same_result(merged: ResultsFolder, folder: ResultsFolder, key: tuple[ModelRun, str]) -> None:
    """A result already read from another folder: known to be of the same data, with the same numbers; or one line
    naming both files."""
    (run, task), first, second = key, merged.score_paths[key], folder.score_paths[key]
    held = f"{first} and {second} both hold `{run.name}` (revision {run.revision}) on {task}"
    why = why_other_data(*(ResultData(task, f.dataset_revision(*key)) for f in (merged, folder)))
    if why is not None:
        raise ResultsError(f"{held}, of {why}: a report holds one result per model and task; analyse these folders apart.")
    if _numbers(merged.scores[key]) != _numbers(folder.scores[key]):
        raise ResultsError(
            f"{held} at dataset revision {folder.dataset_revision(*key)} with different numbers: keep one of them "
            "(or evaluate again into one folder)."
        )


def _numbers(entry: dict[str, Any]) -> dict[str, float]:
    """The scores of a result entry: its numbers, without the bookkeeping of how they were computed (``clsd_*``)."""
    return {
        key: float(value)
        for key, value in entry.items()
        if isinstance(value, int | float) and not isinstance(value, bool) and not key.startswith("clsd_")
    }


def _same_predictions(a: TaskPredictions | None, b: TaskPredictions | None) -> bool:
    """The same rows with the same cosines (or scores): a copy of one file, not another run of the model."""
    if a is None or b is None:
        return a is b
    return a.ids == b.ids and a.cosines.shape == b.cosines.shape and bool(np.array_equal(a.cosines, b.cosines, equal_nan=True))


__all__ = [
    "MAIN_METRIC",
    "PREDICTIONS_SUFFIX",
    "SPLIT",
    "SUBSET",
    "ModelRun",
    "ResultsError",
    "ResultsFolder",
    "TaskPredictions",
    "load_results",
    "read_predictions",
]
