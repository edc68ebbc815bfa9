"""Paired comparisons on the same rows: model against model per task, and pivot against direct per model.

Every comparison pairs two hit vectors by row id (a hit: T ranks first; a tie is a miss) and reports
both P@1, their difference with Newcombe's paired 95% interval, the rows only one side gets right and
the exact McNemar p-value, Holm-adjusted over the comparisons of one family (:mod:`clsd_mteb.confidence`):

* model comparisons: every pair of models on one task is a family; the pooled rows ``direct (all)``
  and ``pivot (all)`` (the stratified test over every task of the setting, for models that have all
  of them) form one family per setting;
* pivot tests: pivot minus direct on the same row ids, one family per model over its tasks, plus a
  pooled row ``all`` over the tasks that have both settings.

P@1 and differences are in percentage points. :func:`mark_ties` puts the model comparisons into
Table 1: every model not significantly below the best of a column (Holm-adjusted p >= 5%).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import astuple, dataclass, fields, replace

import numpy as np

from clsd_analysis.results import ResultsFolder
from clsd_analysis.tables import AVERAGE, Table1
from clsd_mteb.confidence import (
    ALPHA,
    PairedCounts,
    holm,
    mcnemar_exact,
    paired_counts,
    paired_difference_interval,
    pooled_difference_interval,
    pooled_mcnemar,
)
from clsd_mteb.naming import DIRECT, pivot_base, setting_of

Hits = Mapping[str, Mapping[str, Mapping[str, bool]]]  # {model label: {task: {row id: hit}}}
POOLED = {DIRECT: "direct (all)"}  # the pooled rows' task names; a pivot setting's is "<setting> (all)"
ALL_TASKS = "all"


@dataclass(frozen=True)
class PairedComparison:
    """One row of ``tables/model_comparisons.csv``: model a against model b on one task (or pooled)."""

    task: str
    model_a: str
    model_b: str
    p1_a: float
    p1_b: float
    delta: float
    delta_ci_low: float
    delta_ci_high: float
    only_a: int
    only_b: int
    p_value: float
    p_holm: float


@dataclass(frozen=True)
class PivotTest:
    """One row of ``tables/pivot_tests.csv``: one model, pivot minus direct on one task's rows (or pooled)."""

    model: str
    task: str
    p1_direct: float
    p1_pivot: float
    delta: float
    delta_ci_low: float
    delta_ci_high: float
    only_direct: int
    only_pivot: int
    p_value: float
    p_holm: float


def columns_of(row_type: type) -> list[str]:
    return [f.name for f in fields(row_type)]


def rows_of(rows: Sequence[PairedComparison] | Sequence[PivotTest]) -> list[tuple[object, ...]]:
    return [astuple(row) for row in rows]


def hits_of(results: ResultsFolder) -> dict[str, dict[str, dict[str, bool]]]:
    """Per-row hits of every model and task with a prediction file, by display label and row id."""
    found: dict[str, dict[str, dict[str, bool]]] = {}
    for run, task in sorted(results.prediction_paths):
        predictions = results.predictions(run, task)
        if predictions is not None:
            found.setdefault(results.label(run), {})[task] = predictions.correct()
    return found


def pooled_name(setting: str) -> str:
    return POOLED.get(setting, f"{setting} (all)")


def _paired(a: Mapping[str, bool], b: Mapping[str, bool]) -> PairedCounts | None:
    """The 2x2 table of two sides on the row ids they share (sorted: no file order matters), or None if none."""
    shared = sorted(a.keys() & b.keys())
    if not shared:
        return None
    return paired_counts(np.array([a[i] for i in shared]), np.array([b[i] for i in shared]))


def _row_values(counts: PairedCounts) -> tuple[float, float, float, float, float]:
    interval = paired_difference_interval(counts)
    return 100 * counts.p_a, 100 * counts.p_b, 100 * counts.delta, 100 * interval.low, 100 * interval.high


def _pooled_values(tables: Sequence[PairedCounts]) -> tuple[float, float, float, float, float]:
    interval = pooled_difference_interval(tables)
    p_a, p_b = (float(np.mean([getattr(t, side) for t in tables])) for side in ("p_a", "p_b"))
    return 100 * p_a, 100 * p_b, 100 * (p_a - p_b), 100 * interval.low, 100 * interval.high


def _with_holm(rows: list[PairedComparison]) -> list[PairedComparison]:
    adjusted = holm([r.p_value for r in rows])
    return [replace(r, p_holm=p) for r, p in zip(rows, adjusted, strict=True)]


def model_comparisons(hits: Hits) -> tuple[list[PairedComparison], list[str]]:
    """Every pair of models on every task, then the pooled rows per setting; and notes on what could not be pooled."""
    models = list(hits)
    tasks = sorted({task for per_task in hits.values() for task in per_task})
    rows: list[PairedComparison] = []
    for task in tasks:
        family = []
        for a, b in itertools.combinations([m for m in models if task in hits[m]], 2):
            counts = _paired(hits[a][task], hits[b][task])
            if counts is not None:
                family.append(
                    PairedComparison(
                        task,
                        a,
                        b,
                        *_row_values(counts),
                        counts.only_a,
                        counts.only_b,
                        mcnemar_exact(counts.only_a, counts.only_b),
                        1.0,
                    )
                )
        rows += _with_holm(family)
    notes: list[str] = []
    for setting in sorted({setting_of(t) for t in tasks}, key=lambda s: (s != DIRECT, s)):
        block = [t for t in tasks if setting_of(t) == setting]
        complete = [m for m in models if all(t in hits[m] for t in block)]
        notes += [
            f"no pooled comparison of `{m}` over {pooled_name(setting)}: it lacks some of its tasks"
            for m in models
            if m not in complete
        ]
        family = []
        for a, b in itertools.combinations(complete, 2):
            tables = [c for t in block if (c := _paired(hits[a][t], hits[b][t])) is not None]
            if len(tables) == len(block) and len(block) > 1:
                only_a, only_b = sum(t.only_a for t in tables), sum(t.only_b for t in tables)
                family.append(
                    PairedComparison(
                        pooled_name(setting), a, b, *_pooled_values(tables), only_a, only_b, pooled_mcnemar(tables), 1.0
                    )
                )
        rows += _with_holm(family)
    return rows, notes


def pivot_tests(hits: Hits) -> list[PivotTest]:
    """Per model: pivot minus direct on each task's shared row ids (Holm over the model's tasks), then pooled."""
    rows: list[PivotTest] = []
    for model, per_task in hits.items():
        found = []
        for task in sorted(per_task):
            base = pivot_base(task)
            if base is None or base not in per_task:
                continue
            counts = _paired(per_task[task], per_task[base])  # a: pivot, b: direct
            if counts is not None:
                found.append((base, counts))
        if not found:
            continue
        adjusted = holm([mcnemar_exact(c.only_a, c.only_b) for _, c in found])
        for (base, counts), p_holm in zip(found, adjusted, strict=True):
            p_pivot, p_direct, delta, low, high = _row_values(counts)
            p = mcnemar_exact(counts.only_a, counts.only_b)
            rows.append(PivotTest(model, base, p_direct, p_pivot, delta, low, high, counts.only_b, counts.only_a, p, p_holm))
        if len(found) > 1:
            tables = [c for _, c in found]
            p_pivot, p_direct, delta, low, high = _pooled_values(tables)
            only_pivot, only_direct = sum(t.only_a for t in tables), sum(t.only_b for t in tables)
            p = pooled_mcnemar(tables)
            rows.append(PivotTest(model, ALL_TASKS, p_direct, p_pivot, delta, low, high, only_direct, only_pivot, p, p))
    return rows


def mark_ties(table: Table1, comparisons: Sequence[PairedComparison]) -> None:
    """Mark in ``table`` every model not significantly below its column's best (Holm-adjusted p >= :data:`ALPHA`)."""
    by_pair = {(c.task, c.model_a, c.model_b): c.p_holm for c in comparisons}
    for column in [*table.columns, AVERAGE]:
        for setting in table.settings_of(column):
            task = pooled_name(setting) if column == AVERAGE else _task_name(column, setting)
            best = [m for m in table.models if table.is_best(m, column, setting)]
            for model in table.models:
                if model in best or table.values[model].get((column, setting)) is None:
                    continue
                p_values = [by_pair.get((task, b, model), by_pair.get((task, model, b))) for b in best]
                if p_values and all(p is not None and p >= ALPHA for p in p_values):
                    table.tied.add((model, column, setting))


def _task_name(column: str, setting: str) -> str:
    """The task a Table 1 cell shows: the direct task, or its pivot twin ("pivot EN" -> "-PivotEN")."""
    return column if setting == DIRECT else f"{column}-Pivot{setting.split()[-1]}"


__all__ = ["PairedComparison", "PivotTest", "hits_of", "mark_ties", "model_comparisons", "pivot_tests"]
