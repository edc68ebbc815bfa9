"""The pivot test: per model, the English pivot against the direct setting on the same rows.

Pivot minus direct on each task's row ids (a hit: T ranks first; a tie is a miss), both P@1 and their difference
with its 95% interval (the exact test inverted), the rows only one setting gets right, the exact McNemar p-value
Holm-adjusted over the model's tasks, and a pooled row ``all`` (the stratified test over every task with both
settings). P@1 and differences are in percentage points. ``clsd evaluate`` (:mod:`clsd_mteb.evaluation`) and the
report (:mod:`clsd_analysis.comparisons`) both call :func:`pivot_tests`, so they never disagree.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from clsd_mteb.confidence import (
    PairedCounts,
    holm,
    mcnemar_exact,
    paired_counts,
    paired_difference_interval,
    pooled_counts,
    pooled_mcnemar,
)
from clsd_mteb.naming import pivot_base

Hits = Mapping[str, Mapping[str, Mapping[str, bool]]]  # {model label: {task: {row id: hit}}}
ALL_TASKS = "all"


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


def paired_of(a: Mapping[str, bool], b: Mapping[str, bool]) -> PairedCounts | None:
    """The 2x2 table of two sides on their rows (the same ids; sorted: no file order matters), or None if none."""
    shared = sorted(a.keys() & b.keys())
    if not shared:
        return None
    return paired_counts(np.array([a[i] for i in shared]), np.array([b[i] for i in shared]))


def row_values(counts: PairedCounts) -> tuple[float, float, float, float, float]:
    interval = paired_difference_interval(counts)
    return 100 * counts.p_a, 100 * counts.p_b, 100 * counts.delta, 100 * interval.low, 100 * interval.high


def pooled_values(tables: Sequence[PairedCounts]) -> tuple[float, float, float, float, float]:
    """P@1 of each side and their difference on the rows of every task together: what the pooled test measures."""
    return row_values(pooled_counts(tables))


def pivot_tests(hits: Hits, excluded: Collection[tuple[str, str]] = frozenset()) -> list[PivotTest]:
    """Per model: pivot minus direct on each task's row ids (Holm over the model's tasks), then pooled over the tasks
    that have both settings; ``excluded``: (model, direct task) pairs the caller knows are not on one dataset's rows."""
    rows: list[PivotTest] = []
    for model, per_task in hits.items():
        found = []
        for task in sorted(per_task):
            base = pivot_base(task)
            if base is None or base not in per_task or (model, base) in excluded:
                continue
            counts = paired_of(per_task[task], per_task[base])  # a: pivot, b: direct
            if counts is not None:
                found.append((base, counts))
        if not found:
            continue
        adjusted = holm([mcnemar_exact(c.only_a, c.only_b) for _, c in found])
        for (base, counts), p_holm in zip(found, adjusted, strict=True):
            p_pivot, p_direct, delta, low, high = row_values(counts)
            p = mcnemar_exact(counts.only_a, counts.only_b)
            rows.append(PivotTest(model, base, p_direct, p_pivot, delta, low, high, counts.only_b, counts.only_a, p, p_holm))
        if len(found) > 1:
            tables = [c for _, c in found]
            p_pivot, p_direct, delta, low, high = pooled_values(tables)
            only_pivot, only_direct = sum(t.only_a for t in tables), sum(t.only_b for t in tables)
            p = pooled_mcnemar(tables)
            rows.append(PivotTest(model, ALL_TASKS, p_direct, p_pivot, delta, low, high, only_direct, only_pivot, p, p))
    return rows


__all__ = ["ALL_TASKS", "Hits", "PivotTest", "paired_of", "pivot_tests", "pooled_values", "row_values"]
