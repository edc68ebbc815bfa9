"""CLSD results in the layout of the MTEB results repository (``clsd export-results``).

A ``clsd evaluate`` (or ``mteb run``) output folder holds more than the results repository takes:
per-row predictions, results set aside under ``superseded/``, scores of cut (``--limit``) or locally
modified data. This module copies out what a reviewer of a results pull request can check, as the
repository lays it out (``results/<org>__<model>/<revision>/<Task>.json`` beside ``model_meta.json``
and ``run_settings.jsonl``), and nothing else. A result is exported only if

* its task is one mteb knows after ``import clsd_mteb`` and the file passes mteb's own check
  (``TaskResult.validate_and_filter_scores``: the task's splits and subsets, all of them, nothing else);
* every score is possible (finite, in its range), as ``clsd analyze`` requires (:mod:`clsd_mteb.result_checks`,
  shared with ``clsd push-results``);
* it was computed on published data: a dataset revision that others can fetch (the pinned release
  commit, a Hub commit), not ``local-sha256-...`` (files only the machine that wrote them has) and not ``-limit<N>``
  (a slice);
* it was computed by this evaluator version (older versions scored ties or batches differently).

Everything else is listed with the reason. Beside ``results/`` go a ``README.md`` to paste into the pull
request (scores, data, code, what the results repository and leaderboard do with tasks mteb does not
ship; see docs/submitting.md) and ``tasks.json``, the full ``TaskMetadata`` of every exported task.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clsd_format.declared_settings import option_name
from clsd_format.errors import DataError
from clsd_format.evaluation_settings import EvaluationSettings
from clsd_format.files import staged_folder
from clsd_format.json_files import read_json_lines
from clsd_format.publishing_settings import ResultsExportSettings
from clsd_mteb.evaluator import EVALUATOR_VERSION
from clsd_mteb.models import MODELS
from clsd_mteb.result_checks import MODEL_META_FILE, ResultCheck, read_model_meta

if TYPE_CHECKING:
    from mteb.abstasks.abstask import AbsTask
    from mteb.results import TaskResult

RESULTS_FOLDER = "results"
RUN_SETTINGS_FILE = "run_settings.jsonl"
SUBMISSION_README = "README.md"
TASKS_FILE = "tasks.json"
CLSD_PREFIX = "CLSD-"


@dataclass(frozen=True)
class ExportedResult:
    """One result file copied out: its model, revision, task and main score."""

    model: str
    revision: str
    task: str
    main_score: float
    dataset_revision: str
    path: Path


@dataclass
class ResultsExport:
    """What :func:`export_results` wrote, and the result files it left out with the reason."""

    folder: Path
    exported: list[ExportedResult] = field(default_factory=list)
    skipped: list[tuple[Path, str]] = field(default_factory=list)
    models_outside_mteb: list[str] = field(default_factory=list)


def _unpublished(dataset_revision: str) -> str | None:
    """Why a dataset revision names data others cannot fetch, or None."""
    if "-limit" in dataset_revision:
        return f"computed on a slice of the data (dataset revision {dataset_revision}); run without {option_name(EvaluationSettings, 'limit')}"
    if dataset_revision.startswith("local-sha256-"):
        return (
            f"computed on local files that differ from any published revision (dataset revision {dataset_revision}); "
            "run on the pinned release or a Hub dataset at a commit"
        )
    return None


def result_files(results_dir: Path) -> list[Path]:
    """CLSD task result files under ``<results_dir>/results/<model>/<revision>/``, in a fixed order."""
    root = results_dir / RESULTS_FOLDER
    if not root.is_dir():
        raise DataError(
            f"no {RESULTS_FOLDER}/ folder here; pass the folder clsd evaluate {option_name(EvaluationSettings, 'output')} "
            "(or mteb run --output-folder) wrote.",
            file=str(results_dir),
        )
    files = [path for path in root.glob(f"*/*/{CLSD_PREFIX}*.json") if path.is_file()]
    return sorted(files, key=lambda path: (path.parent, path.stem))  # by task name: "X" before "X-PivotEN"


def _run_settings(source_folder: Path, result: TaskResult) -> list[dict[str, Any]]:
    """The run settings mteb recorded for ``result`` (``run_settings.jsonl``), else the versions the result records."""
    path = source_folder / RUN_SETTINGS_FILE
    if path.is_file():
        recorded = []
        for line, entry in read_json_lines(path, "mteb run settings file"):
            if not isinstance(entry, dict):
                raise DataError(f"line {line} holds a {type(entry).__name__}, expected an object of run settings", file=str(path))
            if entry.get("task") == result.task_name:
                recorded.append(entry)
        if recorded:
            return recorded
    return [
        {
            "task": result.task_name,
            "splits": [split],
            "version": {"mteb": result.mteb_version},
            "subsets": sorted({str(entry.get("hf_subset", "default")) for entry in entries}),
        }
        for split, entries in result.scores.items()
    ]


def _write_folder(staging: Path, accepted: dict[Path, list[tuple[Path, TaskResult]]], results_dir: Path) -> list[ExportedResult]:
    exported = []
    for source_folder, results in accepted.items():
        meta = read_model_meta(source_folder)
        target = staging / RESULTS_FOLDER / source_folder.relative_to(results_dir / RESULTS_FOLDER)
        target.mkdir(parents=True)
        shutil.copy2(source_folder / MODEL_META_FILE, target / MODEL_META_FILE)
        settings = []
        for path, result in results:
            shutil.copy2(path, target / path.name)  # the file as mteb wrote it, byte for byte
            settings.extend(_run_settings(source_folder, result))
            exported.append(
                ExportedResult(
                    str(meta.name),
                    str(meta.revision),
                    result.task_name,
                    float(result.get_score()),
                    result.dataset_revision,
                    target / path.name,
                )
            )
        lines = (json.dumps(entry, sort_keys=True) for entry in settings)
        (target / RUN_SETTINGS_FILE).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return exported


def _task_metadata(tasks: list[AbsTask]) -> str:
    records = {task.metadata.name: task.metadata.model_dump(mode="json", exclude_none=True) for task in tasks}
    return json.dumps(records, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _readme(export: ResultsExport, tasks: dict[str, AbsTask]) -> str:
    """The pull-request text: what is submitted, on which data and code, and what the reviewer should know."""
    from clsd_mteb import __version__

    lines = [
        "# CLSD results for the MTEB results repository",
        "",
        f"Written by `clsd export-results` (clsd-mteb {__version__}, CLSD evaluator version {EVALUATOR_VERSION}).",
        "",
        "| Model | Revision | Task | Precision@1 | Dataset | Dataset revision |",
        "|---|---|---|---|---|---|",
    ]
    for item in export.exported:
        dataset = tasks[item.task].metadata.dataset["path"]
        lines.append(
            f"| {item.model} | {item.revision} | {item.task} | {item.main_score:.4f} | {dataset} | {item.dataset_revision} |"
        )
    licences = sorted({str(tasks[item.task].metadata.license) for item in export.exported})
    references = sorted({str(tasks[item.task].metadata.reference) for item in export.exported})
    lines += [
        "",
        "## What a reviewer should know",
        "",
        "- The tasks are not part of the `mteb` package: they come from the `clsd-mteb` plugin "
        "(`pip install clsd-mteb`, then `import clsd_mteb` registers them with mteb). "
        f"Their full `TaskMetadata` is in `{TASKS_FILE}`.",
        f"- Paper: {', '.join(references)}. Data licence: {', '.join(licences)}. The dataset path is where the tasks "
        "read their data (the released tasks: the authors' GitHub repository at a pinned commit, checked file by file "
        "against SHA-256 values).",
        "- Main score: Precision@1 over the true translation and its four distractors, ranked by cosine "
        "similarity to the source; a tie between the translation and a distractor counts as a miss.",
    ]
    if export.models_outside_mteb:
        lines.append(
            "- Models registered by clsd-mteb, not by mteb (the results repository takes results only for models "
            f"mteb implements): {', '.join(export.models_outside_mteb)}."
        )
    lines += ["", "How to submit, and what the leaderboard shows for plugin tasks: docs/submitting.md in clsd-mteb.", ""]
    return "\n".join(lines)


def export_results(settings: ResultsExportSettings) -> ResultsExport:
    """Copy the submittable CLSD results of ``settings.results_dir`` to ``settings.out`` in the results repository's layout.

    ``settings.out`` must not exist or be empty: finished work is never overwritten. The folder appears whole or
    not at all (written beside ``out``, then renamed). Raises :class:`DataError` when no result qualifies,
    naming each file and why.
    """
    import mteb

    import clsd_mteb  # noqa: F401  # registers the CLSD tasks with mteb

    results_dir, out = Path(settings.results_dir), Path(settings.out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise DataError("exists and is not empty; refusing to overwrite (choose a new folder).", file=str(out))
    export = ResultsExport(folder=out)
    files = result_files(results_dir)
    known = {}
    for name in sorted({path.stem for path in files}):
        try:
            known[name] = mteb.get_task(name)
        except KeyError:  # a generated dataset's task, or a file named by hand: left out, with the reason
            continue
    check = ResultCheck(known, "a task mteb knows after import clsd_mteb", _unpublished)
    accepted: dict[Path, list[tuple[Path, TaskResult]]] = {}
    for path in files:
        if not (path.parent / MODEL_META_FILE).is_file():
            export.skipped.append((path, f"no {MODEL_META_FILE} beside it (the results repository needs one)"))
            continue
        result = check(path)
        if isinstance(result, str):
            export.skipped.append((path, result))
        else:
            read_model_meta(path.parent)  # an unreadable one is an error naming it, before anything is written
            accepted.setdefault(path.parent, []).append((path, result))
    if not accepted:
        why = "; ".join(f"{path}: {reason}" for path, reason in export.skipped) or "no CLSD result files"
        raise DataError(f"no result can be submitted ({why}).", file=str(results_dir))
    with staged_folder(out) as staging:  # out is missing or empty (checked above)
        export.exported = _write_folder(staging, accepted, results_dir)
        used = [known[name] for name in sorted({item.task for item in export.exported})]
        export.models_outside_mteb = sorted({item.model for item in export.exported if item.model in MODELS})
        (staging / TASKS_FILE).write_text(_task_metadata(used), encoding="utf-8")
        (staging / SUBMISSION_README).write_text(_readme(export, known), encoding="utf-8")
    export.exported = [
        ExportedResult(e.model, e.revision, e.task, e.main_score, e.dataset_revision, out / e.path.relative_to(staging))
        for e in export.exported
    ]
    return export
