"""What a result file must be before any command tables or publishes its numbers.

One check for every reader of a results folder: ``clsd analyze`` (no table or average holds an impossible number),
``clsd export-results`` (the MTEB results repository) and ``clsd push-results`` (a model's ``.eval_results`` on the
Hub). A score no evaluation can produce (not a finite number, or outside its range: a share outside [0, 1], a mean
rank below 1; :data:`SCORE_RANGES`) leaves its file out with the reason, wherever the file was going.

The two publishing commands share all of :class:`ResultCheck`: the file must be an mteb task result named for its
task, hold possible scores only, belong to a task of the destination, be no trial on a task's first rows, be
computed on data the destination can name, by this evaluator version, and pass mteb's own check against the task. They differ only in which tasks
and which data revisions qualify.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clsd_format.declared_settings import option_name
from clsd_format.errors import DataError
from clsd_format.evaluation_settings import EvaluationSettings
from clsd_mteb.evaluator import EVALUATOR_VERSION, EVALUATOR_VERSION_KEY
from clsd_mteb.trials import trial_of, trial_split

if TYPE_CHECKING:
    from mteb.abstasks.abstask import AbsTask
    from mteb.models import ModelMeta
    from mteb.results import TaskResult

MODEL_META_FILE = "model_meta.json"

# What each score of a CLSD result can be (closed bounds; see clsd_mteb.metrics): shares in [0, 1], a mean
# rank of at least 1, a mean cosine margin in [-2, 2], at least one row. Every one must also be finite.
SCORE_RANGES: dict[str, tuple[float, float]] = {
    "main_score": (0.0, 1.0),
    "precision_at_1": (0.0, 1.0),
    "precision_at_1_ci_low": (0.0, 1.0),
    "precision_at_1_ci_high": (0.0, 1.0),
    "mrr": (0.0, 1.0),
    "pooled_recall_at_1": (0.0, 1.0),
    "mean_rank": (1.0, math.inf),
    "mean_margin": (-2.0, 2.0),
    "num_rows": (1.0, math.inf),
}
_WIN_RATE = re.compile(r"distractor_\d+_win_rate")


def impossible_score(entry: Mapping[str, Any]) -> str | None:
    """Why one of a CLSD score entry's scores cannot be (not a finite number, or out of its range), or None."""
    for metric, value in entry.items():
        bounds = (0.0, 1.0) if _WIN_RATE.fullmatch(metric) else SCORE_RANGES.get(metric)
        if bounds is None:
            continue  # not a score (hf_subset, languages, the evaluator's records)
        low, high = bounds
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return f"score {metric} is {value!r}, not a number"
        if not math.isfinite(value):
            return f"score {metric} is {value}, not a finite number"
        if not low <= value <= high:
            expected = f"at least {low:g}" if math.isinf(high) else f"in [{low:g}, {high:g}]"
            return f"score {metric} is {value}, impossible (it is {expected})"
    return None


def impossible_result(result: TaskResult) -> str | None:
    """Why a score of any split and subset of ``result`` cannot be, or None."""
    for split, entries in result.scores.items():
        for entry in entries:
            reason = impossible_score(entry)
            if reason is not None:
                return f"{reason} ({split}, {entry.get('hf_subset', 'default')})"
    return None


def trial_problem(result: TaskResult) -> str | None:
    """Why ``result`` is not a task's score: it is a trial on the task's first rows (:mod:`clsd_mteb.trials`), or None."""
    rows = trial_of(result.scores)
    if rows is None:
        return None
    return (
        f"computed on a slice of the data: a trial on the first {rows} rows (split {trial_split(rows)}, "
        f"dataset revision {result.dataset_revision}); run without {option_name(EvaluationSettings, 'limit')}"
    )


def evaluator_mismatch(result: TaskResult) -> str | None:
    """Why ``result`` cannot be submitted as this evaluator's (it was scored by another version), or None."""
    versions = {entry.get(EVALUATOR_VERSION_KEY) for entries in result.scores.values() for entry in entries}
    if versions == {EVALUATOR_VERSION}:
        return None
    found = ", ".join(sorted(str(v) for v in versions)) if versions - {None} else "none recorded"
    return f"computed by CLSD evaluator version {found}, this is version {EVALUATOR_VERSION}; run clsd evaluate again"


def read_model_meta(folder: Path) -> ModelMeta:
    """The ``model_meta.json`` of a model folder; an unreadable one is a :class:`DataError` naming the file."""
    from mteb.models import ModelMeta

    path = folder / MODEL_META_FILE
    try:
        return ModelMeta.model_validate_json_resolved(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:  # pydantic's ValidationError is a ValueError
        raise DataError(
            f"not a readable mteb model_meta.json ({type(exc).__name__}: {_first_line(exc)})", file=str(path)
        ) from exc


def _first_line(exc: BaseException) -> str:
    """An exception in one line: pydantic's first errors by field, else the message's first line."""
    errors = getattr(exc, "errors", None)
    if callable(errors):
        return "; ".join(f"{'.'.join(map(str, e['loc'])) or 'file'}: {e['msg']}" for e in errors()[:3])
    return next(iter(str(exc).splitlines()), "")


@dataclass(frozen=True)
class ResultCheck:
    """The check of one destination: its tasks (by name), what to call them, and which data revisions it takes.

    ``tasks_of``: how a reason names the destination's tasks ("a task of owner/name"). ``data_problem``: why a
    result's dataset revision cannot be published there, or None.
    """

    tasks: Mapping[str, AbsTask]
    tasks_of: str
    data_problem: Callable[[str], str | None]

    def __call__(self, path: Path) -> TaskResult | str:
        """The result in ``path``, or why it is left out."""
        from mteb.results import TaskResult

        try:
            result = TaskResult.from_disk(path)
        except (ValueError, KeyError, TypeError, OSError) as exc:
            return f"not readable as an mteb task result ({type(exc).__name__}: {_first_line(exc)})"
        if path.stem != result.task_name:
            return f"the file name does not match its task_name {result.task_name!r}"
        task = self.tasks.get(result.task_name)
        reason = (
            impossible_result(result)
            or (None if task is not None else f"{result.task_name} is not {self.tasks_of}")
            or trial_problem(result)
            or self.data_problem(result.dataset_revision)
            or evaluator_mismatch(result)
        )
        if reason is not None or task is None:
            return reason or ""
        try:
            checked = result.validate_and_filter_scores(task)
        except ValueError as exc:  # pydantic's ValidationError too
            return f"mteb's check of the result against the task failed: {_first_line(exc)}"
        if checked.scores != result.scores:
            return "mteb's check of the result against the task changed it: a split or subset is missing or extra"
        return result
