"""The model comparison table of a results folder: the paper's Table 1, as :mod:`clsd_mteb.summary` builds it.

Scores come from the result files (``precision_at_1``, or another metric); models are labelled as
:meth:`ResultsFolder.label` does. For the CSV, :func:`comparison_frame` spreads the table into one
numeric column per (setting, task) plus each setting's average and, per pivot setting, Δ: the pivot
average minus the direct average over the same tasks.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import pandas as pd

from clsd_analysis.results import MAIN_METRIC, ResultsFolder
from clsd_mteb.alignment import Alignment
from clsd_mteb.naming import DIRECT, short_task
from clsd_mteb.summary import AVERAGE, Table1, build_table1

DELTA = "Δ vs direct"
__all__ = ["AVERAGE", "DELTA", "DIRECT", "comparison_frame", "comparison_table", "scores_by_model"]


def scores_by_model(results: ResultsFolder, metric: str = MAIN_METRIC) -> dict[str, dict[str, float | None]]:
    """{model label: {task: score}} for every model and task of the folder (None where a model lacks a task)."""
    return {results.label(run): {task: results.score(run, task, metric) for task in results.task_names} for run in results.runs}


def comparison_table(
    results: ResultsFolder, alignment: Mapping[str, Alignment] | None = None, metric: str = MAIN_METRIC
) -> Table1:
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
