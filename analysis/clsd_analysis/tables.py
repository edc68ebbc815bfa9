"""The paper's Table 1, built in one place: from scores (``clsd evaluate``) or from a results folder (``clsd analyze``).

Per model: the "Alignment" check marks (cross-lingual, paraphrase, retrieval training; blank when
unknown, see :mod:`clsd_analysis.alignment`), then each task's Precision@1 (%) per setting (a released
task and its ``-PivotEN`` twin share a column; a task without a twin has the direct setting only), then
the averages. An average is only given when the model has every task of its block (an average over a
subset would compare models on different data), and a missing result stays None, never 0.

:mod:`clsd_analysis.render` writes the table as Markdown and LaTeX. For the CSV, :func:`comparison_frame`
spreads it into one numeric column per (setting, task) plus each setting's average and, per pivot
setting, Δ: the pivot average minus the direct average over the same tasks.

``clsd evaluate`` prints Table 1 through this module and :mod:`clsd_analysis.render` in the base
install: pandas is imported inside :func:`comparison_frame` only.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from clsd_analysis.alignment import Alignment, alignment_for
from clsd_analysis.results import MAIN_METRIC
from clsd_mteb.naming import DIRECT, short_task, split_pivot

if TYPE_CHECKING:
    import pandas as pd

    from clsd_analysis.results import ResultsFolder

AVERAGE = "average"
DELTA = "Δ vs direct"
__all__ = [
    "AVERAGE",
    "DELTA",
    "DIRECT",
    "Table1",
    "build_table1",
    "comparison_frame",
    "comparison_table",
    "scores_by_model",
]


@dataclass
class Table1:
    """Precision@1 in percent per (model, column, setting); column is a direct task name or :data:`AVERAGE`."""

    models: list[str]
    columns: list[str]  # direct task names, in first-seen order
    settings: list[str]  # "direct", then e.g. "pivot EN"
    values: dict[str, dict[tuple[str, str], float | None]]
    alignment: dict[str, Alignment] = field(default_factory=dict)

    def settings_of(self, column: str) -> list[str]:
        """The settings a column shows: the ones some model has a result for (all, for the average)."""
        if column == AVERAGE:
            return [s for s in self.settings if any(s in self.settings_of(c) for c in self.columns)]
        return [s for s in self.settings if any(self.values[m].get((column, s)) is not None for m in self.models)] or [DIRECT]

    def best(self, column: str, setting: str) -> float | None:
        """The column's top value; None below two models with a value (a lone value is not "best" of anything)."""
        found = [v for m in self.models if (v := self.values[m].get((column, setting))) is not None]
        return max(found) if len(found) > 1 else None

    def is_best(self, model: str, column: str, setting: str) -> bool:
        value, top = self.values[model].get((column, setting)), self.best(column, setting)
        return value is not None and top is not None and math.isclose(value, top, abs_tol=1e-9)


def build_table1(scores: Mapping[str, Mapping[str, float | None]], alignment: Mapping[str, Alignment] | None = None) -> Table1:
    """``scores``: {model: {task name: precision_at_1 in 0-1}}; ``alignment``: user entries over the built-in ones."""
    columns: list[str] = []
    settings = [DIRECT]
    values: dict[str, dict[tuple[str, str], float | None]] = {}
    for model, per_task in scores.items():
        values[model] = {}
        for task, score in per_task.items():
            base, language = split_pivot(task)
            setting = DIRECT if language is None else f"pivot {language}"
            if base not in columns:
                columns.append(base)
            if setting not in settings:
                settings.append(setting)
            values[model][(base, setting)] = None if score is None else 100.0 * float(score)
    settings = [DIRECT, *sorted(s for s in settings if s != DIRECT)]
    table = Table1(list(scores), columns, settings, values, alignment_for(list(scores), alignment))
    for model in table.models:
        for setting in settings:
            block = [c for c in columns if setting in table.settings_of(c)]
            found = [values[model].get((c, setting)) for c in block]
            complete = bool(found) and all(v is not None for v in found)
            values[model][(AVERAGE, setting)] = sum(found) / len(found) if complete else None  # type: ignore[arg-type]
    return table


def scores_by_model(results: ResultsFolder, metric: str = MAIN_METRIC) -> dict[str, dict[str, float | None]]:
    """{model label: {task: score}} for every model and task of the folder (None where a model lacks a task)."""
    return {results.label(run): {task: results.score(run, task, metric) for task in results.task_names} for run in results.runs}


def comparison_table(
    results: ResultsFolder, alignment: Mapping[str, Alignment] | None = None, metric: str = MAIN_METRIC
) -> Table1:
    """Table 1 of a results folder; models are labelled as :meth:`ResultsFolder.label` does."""
    return build_table1(scores_by_model(results, metric), alignment)


def _delta(table: Table1, model: str, setting: str) -> float:
    """Pivot minus direct over the tasks the pivot setting has, so like is compared with like."""
    differences: list[float] = []
    for column in [c for c in table.columns if setting in table.settings_of(c)]:
        direct, pivot = table.values[model].get((column, DIRECT)), table.values[model].get((column, setting))
        if direct is None or pivot is None:
            return math.nan
        differences.append(pivot - direct)
    return sum(differences) / len(differences) if differences else math.nan


def comparison_frame(table: Table1) -> pd.DataFrame:
    """Percentages; columns (setting, task label or average or Δ); NaN where missing."""
    import pandas as pd  # imported here only: printing Table 1 (`clsd evaluate`) loads no pandas

    columns: list[tuple[str, str]] = []
    for setting in table.settings:
        members = [c for c in table.columns if setting in table.settings_of(c)]
        columns += [(setting, short_task(c)) for c in members] + [(setting, AVERAGE)]
    pivots = [s for s in table.settings if s != DIRECT]
    rows = {}
    for model in table.models:
        row: dict[tuple[str, str], float] = {}
        for setting in table.settings:
            for c in [*table.columns, AVERAGE]:
                value = table.values[model].get((c, setting))
                if (setting, short_task(c) if c != AVERAGE else AVERAGE) in columns:
                    row[(setting, short_task(c) if c != AVERAGE else AVERAGE)] = math.nan if value is None else value
        for setting in pivots:
            row[(setting, DELTA)] = _delta(table, model, setting)
        rows[model] = row
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame = frame.reindex(columns=pd.MultiIndex.from_tuples(columns + [(s, DELTA) for s in pivots]))
    frame.index.name = "model"
    return frame
