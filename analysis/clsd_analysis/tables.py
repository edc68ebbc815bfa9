"""Table 1 of a results folder (``clsd analyze``), and Table 1 as a DataFrame for its CSV.

The table itself is :class:`clsd_mteb.table1.Table1`, built by :func:`clsd_mteb.table1.build_table1` in one place
for ``clsd evaluate`` and ``clsd analyze`` alike; here a results folder's scores, rows and P@1 of guessing are read
into it, by model label. :func:`comparison_frame` spreads a table into one numeric column per (setting, task) plus
each setting's average and, per pivot setting, Δ: the pivot average minus the direct average over the same tasks.
pandas is imported inside :func:`comparison_frame` only.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING

from clsd_analysis.results import MAIN_METRIC, ResultsFolder
from clsd_mteb.alignment import Alignment
from clsd_mteb.confidence import chance_of
from clsd_mteb.naming import DIRECT, short_task
from clsd_mteb.table1 import AVERAGE, Table1, build_table1

if TYPE_CHECKING:
    import pandas as pd

DELTA = "Δ vs direct"
CI_LOW, CI_HIGH = "95% low", "95% high"


def scores_by_model(results: ResultsFolder, metric: str = MAIN_METRIC) -> dict[str, dict[str, float | None]]:
    """{model label: {task: score}} for every model and task of the folder (None where a model lacks a task)."""
    return {results.label(run): {task: results.score(run, task, metric) for task in results.task_names} for run in results.runs}


def chance_by_model(results: ResultsFolder) -> dict[str, dict[str, float | None]]:
    """{model label: {task: P@1 of guessing}}, from each result's scores (:func:`clsd_mteb.confidence.chance_of`)."""
    return {
        results.label(run): {task: chance_of(results.scores.get((run, task)) or {}) for task in results.task_names}
        for run in results.runs
    }


def rows_by_model(results: ResultsFolder) -> dict[str, dict[str, int | None]]:
    """{model label: {task: rows scored}}, from each result's ``num_rows``."""
    counts = scores_by_model(results, "num_rows")
    return {model: {task: None if n is None else int(n) for task, n in per_task.items()} for model, per_task in counts.items()}


def comparison_table(
    results: ResultsFolder, alignment: Mapping[str, Alignment] | None = None, metric: str = MAIN_METRIC
) -> Table1:
    """Table 1 of a results folder; models are labelled as :meth:`ResultsFolder.label` does."""
    main = metric == MAIN_METRIC
    return build_table1(
        scores_by_model(results, metric),
        alignment,
        rows_by_model(results) if main else None,
        chance_by_model(results) if main else None,
    )


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
    """Percentages; columns (setting, task label or average or Δ), each value followed by its interval's bounds
    ("<label> 95% low", "<label> 95% high") when the table has intervals; NaN where missing."""
    import pandas as pd  # imported here only: printing Table 1 (`clsd evaluate`) loads no pandas

    with_bounds = bool(table.intervals)
    cells: list[tuple[str, str]] = []  # (column, setting) in the CSV's order
    for setting in table.settings:
        cells += [(c, setting) for c in table.columns if setting in table.settings_of(c)] + [(AVERAGE, setting)]
    pivots = [s for s in table.settings if s != DIRECT]
    rows = {}
    for model in table.models:
        row: dict[tuple[str, str], float] = {}
        for column, setting in cells:
            label = short_task(column) if column != AVERAGE else AVERAGE
            value, interval = table.values[model].get((column, setting)), table.interval(model, column, setting)
            row[(setting, label)] = math.nan if value is None else value
            if with_bounds:
                row[(setting, f"{label} {CI_LOW}")] = math.nan if interval is None else interval.low
                row[(setting, f"{label} {CI_HIGH}")] = math.nan if interval is None else interval.high
        for setting in pivots:
            row[(setting, DELTA)] = _delta(table, model, setting)
        rows[model] = row
    columns = list(next(iter(rows.values())).keys()) if rows else []
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame = frame.reindex(columns=pd.MultiIndex.from_tuples(columns))
    frame.index.name = "model"
    return frame


__all__ = [
    "CI_HIGH",
    "CI_LOW",
    "DELTA",
    "chance_by_model",
    "comparison_frame",
    "comparison_table",
    "rows_by_model",
    "scores_by_model",
]
