"""The model comparison table (the paper's Table 1 shape): P@1 per task, direct and pivot blocks.

Rows are models; one block of columns per setting (direct, then each pivot language), each with the
tasks of that setting and their average; then, per pivot block, the pivot-minus-direct difference
of the averages. Values are percentages of the ``precision_at_1`` in the result files. An average
is only given when the model has every task of its block: an average over a subset would compare
models on different data. Missing results stay missing.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import pandas as pd

from clsd_analysis.results import MAIN_METRIC, ResultsFolder, pivot_base

DIRECT = "direct"
AVERAGE = "Avg."
DELTA = "Δ vs direct"


def short_task(name: str) -> str:
    """'CLSD-WMT19-DE-FR' -> 'WMT19 DE→FR'; other names lose only a 'CLSD-' prefix."""
    match = re.fullmatch(r"CLSD-(?P<ds>[^-]+)-(?P<src>[A-Z]{2,3})-(?P<tgt>[A-Z]{2,3})", name)
    if match:
        return f"{match['ds']} {match['src']}→{match['tgt']}"
    return name.removeprefix("CLSD-")


@dataclass
class ComparisonTable:
    """The table as numbers (percent) plus which cells are best per column."""

    frame: pd.DataFrame  # index: model label; columns: MultiIndex (block, task or Avg./Δ)
    tasks: dict[tuple[str, str], str]  # (block, column) -> task name, for the per-task columns

    @property
    def best(self) -> set[tuple[str, tuple[str, str]]]:
        """Cells holding the column maximum (ties all marked); Δ columns are not ranked."""
        cells = set()
        for column in self.frame.columns:
            if column[1] == DELTA:
                continue
            values = self.frame[column].dropna()
            if values.empty:
                continue
            top = values.max()
            cells |= {(label, column) for label, value in values.items() if math.isclose(value, top, abs_tol=1e-9)}
        return cells


def pivot_label(task_name: str) -> str:
    return "pivot " + task_name.rsplit("-Pivot", 1)[1]


def comparison_table(results: ResultsFolder, metric: str = MAIN_METRIC) -> ComparisonTable:
    names = results.task_names
    direct = sorted({pivot_base(n) or n for n in names})  # a pivot task's base gets a column even if unrun
    pivot_blocks: dict[str, dict[str, str]] = {}
    for name in names:
        base = pivot_base(name)
        if base is not None:
            pivot_blocks.setdefault(pivot_label(name), {})[base] = name

    columns: list[tuple[str, str]] = []
    tasks: dict[tuple[str, str], str] = {}
    block_members: dict[str, list[tuple[str, str]]] = {}
    for block, members in [(DIRECT, {b: b for b in direct})] + sorted(pivot_blocks.items()):
        cols = []
        for base in direct if block == DIRECT else sorted(members):
            column = (block, short_task(base))
            tasks[column] = members[base]
            cols.append(column)
        block_members[block] = cols
        columns += cols + [(block, AVERAGE)]
    for block in sorted(pivot_blocks):
        columns.append((block, DELTA))

    rows = {}
    for run in results.runs:
        row: dict[tuple[str, str], float] = {}
        for column, task in tasks.items():
            value = results.score(run, task, metric)
            row[column] = math.nan if value is None else 100.0 * value
        for block, cols in block_members.items():
            values = [row[c] for c in cols]
            row[(block, AVERAGE)] = math.nan if any(math.isnan(v) for v in values) else sum(values) / len(values)
        for block in pivot_blocks:
            # Δ over the pivot block's own tasks, so it compares like with like even when the
            # direct block has more tasks than the pivot block.
            bases = [results.score(run, b, metric) for b in pivot_blocks[block]]
            pivots = [results.score(run, p, metric) for p in pivot_blocks[block].values()]
            if any(v is None for v in bases + pivots):
                row[(block, DELTA)] = math.nan
            else:
                row[(block, DELTA)] = 100.0 * (sum(pivots) - sum(bases)) / len(pivots)
        rows[results.label(run)] = row
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame = frame.reindex(columns=pd.MultiIndex.from_tuples(columns))
    frame.index.name = "model"
    return ComparisonTable(frame=frame, tasks=tasks)
