"""The paper's Table 1, built in one place: from a run's scores (``clsd evaluate``, :func:`clsd_mteb.evaluate`) or
from a results folder (``clsd analyze``, through :mod:`clsd_analysis.tables`).

Per model: the "Alignment" check marks (cross-lingual, paraphrase, retrieval training; blank when
unknown, see :mod:`clsd_mteb.alignment`), then each task's Precision@1 (%) per setting (a released
task and its ``-PivotEN`` twin share a column; a task without a twin has the direct setting only), then
the averages. An average is only given when the model has every task of its block (an average over a
subset would compare models on different data), and a missing result stays None, never 0.

Given each result's number of rows, every value carries its 95% interval (:mod:`clsd_mteb.confidence`):
a task's Wilson interval, recovered exactly from its P@1 and row count (P@1 is hits / rows), and for an
average a bootstrap stratified by task, seeded. ``tied`` holds the cells that are not significantly
below their column's best (set by :mod:`clsd_mteb.comparisons` from the per-row predictions), and
``uncompared`` the cells that could not be paired with the best (other rows or other data), with why.

:mod:`clsd_mteb.table1_render` writes the table for a terminal, as Markdown and as LaTeX; its CSV is
:func:`clsd_analysis.tables.comparison_frame` (pandas). All of it but the CSV needs the base install only.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from clsd_mteb.alignment import Alignment, alignment_for
from clsd_mteb.confidence import Interval, counts_from_share, mean_interval, wilson_interval
from clsd_mteb.naming import DIRECT, split_pivot

AVERAGE = "average"
Cell = tuple[str, str]  # (column, setting)
__all__ = ["AVERAGE", "DIRECT", "Cell", "Table1", "Versus", "build_table1", "mark_untrained"]


@dataclass(frozen=True)
class Versus:
    """A model tied with its column's best, as the paired test saw the two: the difference and the rows that told
    them apart, out of all rows; what the set size that would tell them apart is computed from."""

    delta: float  # best minus this model, in points
    discordant: int  # rows exactly one of the two gets right
    rows: int


@dataclass
class Table1:
    """Precision@1 in percent per (model, column, setting); column is a direct task name or :data:`AVERAGE`."""

    models: list[str]
    columns: list[str]  # direct task names, in first-seen order
    settings: list[str]  # "direct", then e.g. "pivot EN"
    values: dict[str, dict[tuple[str, str], float | None]]
    alignment: dict[str, Alignment] = field(default_factory=dict)
    intervals: dict[str, dict[Cell, Interval]] = field(default_factory=dict)  # 95%, in percent; empty: rows unknown
    tied: set[tuple[str, str, str]] = field(default_factory=set)  # (model, column, setting) not significantly below the best
    uncompared: dict[tuple[str, str, str], str] = field(default_factory=dict)  # not paired with the best, and why
    rows: dict[str, dict[Cell, int]] = field(default_factory=dict)  # rows scored; an average: the rows of its tasks
    chance: dict[str, dict[Cell, float]] = field(default_factory=dict)  # P@1 of guessing, in percent; an average: the mean
    versus_best: dict[tuple[str, str, str], Versus] = field(default_factory=dict)  # a tied model against the best
    untrained: set[tuple[str, str, str]] = field(default_factory=set)  # (model, column, setting): a language it lacks

    def interval(self, model: str, column: str, setting: str) -> Interval | None:
        return self.intervals.get(model, {}).get((column, setting))

    def is_tied(self, model: str, column: str, setting: str) -> bool:
        """Not the best, yet not significantly below it (Holm-adjusted exact McNemar at 5%)."""
        return (model, column, setting) in self.tied and not self.is_best(model, column, setting)

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


def build_table1(
    scores: Mapping[str, Mapping[str, float | None]],
    alignment: Mapping[str, Alignment] | None = None,
    num_rows: Mapping[str, Mapping[str, int | None]] | None = None,
    chance: Mapping[str, Mapping[str, float | None]] | None = None,
) -> Table1:
    """``scores``: {model: {task name: precision_at_1 in 0-1}}; ``alignment``: user entries over the built-in ones.

    ``num_rows``: {model: {task name: rows scored}}; with it every value gets its interval and its set size.
    ``chance``: {model: {task name: P@1 of guessing in 0-1}} (:func:`clsd_mteb.confidence.chance_of`).
    """
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
    if num_rows is not None:
        table.intervals = {model: _intervals(scores[model], num_rows.get(model, {}), table) for model in table.models}
        table.rows = {model: _per_cell(num_rows.get(model, {}), table, sum) for model in table.models}
    if chance is not None:
        in_percent = {m: {t: None if c is None else 100 * c for t, c in per_task.items()} for m, per_task in chance.items()}
        table.chance = {model: _per_cell(in_percent.get(model, {}), table, _mean) for model in table.models}
    return table


def mark_untrained(table: Table1, untrained: Mapping[str, Mapping[str, Sequence[str]]]) -> None:
    """Mark every cell whose task holds a language the model declares no training in ({model: {task: [mteb codes]}},
    :mod:`clsd_mteb.model_languages`); an average is marked when one of its tasks is."""
    for model in table.models:
        cells = {_cell_of(task) for task, codes in untrained.get(model, {}).items() if codes}
        for setting in table.settings:
            if any(cell in cells for cell in ((c, setting) for c in table.columns)):
                cells.add((AVERAGE, setting))
        table.untrained |= {(model, *cell) for cell in cells}


def _cell_of(task: str) -> Cell:
    base, language = split_pivot(task)
    return base, DIRECT if language is None else f"pivot {language}"


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


def _per_cell(by_task: Mapping[str, float | None], table: Table1, combine: Callable[[list[Any]], Any]) -> dict[Cell, Any]:
    """A per-task number by cell, and for each average whose tasks all have it, ``combine`` of theirs."""
    found: dict[Cell, Any] = {}
    for task, value in by_task.items():
        if value is not None:
            base, language = split_pivot(task)
            found[(base, DIRECT if language is None else f"pivot {language}")] = value
    for setting in table.settings:
        block = [(c, setting) for c in table.columns if setting in table.settings_of(c)]
        if block and all(cell in found for cell in block):
            found[(AVERAGE, setting)] = combine([found[cell] for cell in block])
    return found


def _intervals(scores: Mapping[str, float | None], rows: Mapping[str, int | None], table: Table1) -> dict[Cell, Interval]:
    """One model's intervals in percent: Wilson per task, a stratified bootstrap for each complete average."""
    counts: dict[Cell, tuple[int, int]] = {}
    for task, score in scores.items():
        n = rows.get(task)
        if score is not None and n:
            base, language = split_pivot(task)
            counts[(base, DIRECT if language is None else f"pivot {language}")] = (counts_from_share(float(score), n), n)
    found = {cell: wilson_interval(*c).scaled(100) for cell, c in counts.items()}
    for setting in table.settings:
        block = [(c, setting) for c in table.columns if setting in table.settings_of(c)]
        if block and all(cell in counts for cell in block):
            found[(AVERAGE, setting)] = mean_interval([counts[cell] for cell in block]).scaled(100)
    return found
