"""Paired comparisons on the same rows: model against model per task, and pivot against direct per model.

Every comparison pairs two hit vectors by row id (a hit: T ranks first; a tie is a miss) and reports
both P@1, their difference with its 95% interval, the rows only one side gets right and the exact McNemar
p-value, Holm-adjusted over the comparisons of one family (:mod:`clsd_mteb.confidence`). The interval is the
exact test inverted, so it excludes 0 exactly when the unadjusted p is below 5%:

* model comparisons: every pair of models on one task is a family; the pooled rows ``direct (all)``
  and ``pivot (all)`` (the stratified test over every task of the setting, for models that have all
  of them) form one family per setting;
* pivot tests: pivot minus direct on the same row ids, one family per model over its tasks, plus a
  pooled row ``all`` over the tasks that have both settings.

A pooled row is measured on the rows of its tasks together: its P@1 and difference are over all those rows
(each task weighs by its rows), as its test counts them.

P@1 and differences are in percentage points. :func:`mark_ties` puts the model comparisons into
Table 1: every model not significantly below the best of a column (Holm-adjusted p >= 5%).

Two results are paired only when they are known to be on the same rows of the same data: the same row ids
(a trial on the first 10 rows is never set against a run on all 40) and data known to be the same, as
:func:`clsd_mteb.same_data.why_other_data` decides it (for two models: both dataset revisions known and
equal; for a pivot test: both known and of one dataset). A result whose dataset revision is unknown (a
prediction file without its result file) is paired with none: two datasets of one name number their rows
alike. A pair that is not is left out, never paired on the rows it happens to share: :func:`left_out` and
:func:`pivot_left_out` say why, and the report's notes and answer repeat it. A pooled row needs every task
of its setting paired.

Hits without what they were computed on (``data=None``) are the hits of one run of the same tasks, as
``clsd evaluate`` pairs them: their data is one by construction and only their row ids are checked.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import astuple, dataclass, fields, replace

from clsd_mteb.confidence import (
    ALPHA,
    holm,
    mcnemar_exact,
    pooled_mcnemar,
)
from clsd_mteb.naming import DIRECT, pivot_base, setting_of, short_task
from clsd_mteb.paired import ALL_TASKS, Hits, PivotTest
from clsd_mteb.paired import paired_of as _paired
from clsd_mteb.paired import pivot_tests as paired_pivot_tests
from clsd_mteb.paired import pooled_values as _pooled_values
from clsd_mteb.paired import row_values as _row_values
from clsd_mteb.same_data import ResultData, why_other_data
from clsd_mteb.table1 import AVERAGE, Table1, Versus

ResultsData = Mapping[str, Mapping[str, ResultData]]  # {model label: {task: what its result was computed on}}
POOLED = {DIRECT: "direct (all)"}  # the pooled rows' task names; a pivot setting's is "<setting> (all)"


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


def columns_of(row_type: type) -> list[str]:
    return [f.name for f in fields(row_type)]


def rows_of(rows: Sequence[PairedComparison] | Sequence[PivotTest]) -> list[tuple[object, ...]]:
    return [astuple(row) for row in rows]


def pooled_name(setting: str) -> str:
    return POOLED.get(setting, f"{setting} (all)")


def why_unpaired(
    a: Mapping[str, bool], b: Mapping[str, bool], data_a: ResultData | None, data_b: ResultData | None
) -> str | None:
    """Why two results cannot be paired (data not known to be the same, other rows), or None when they are on the
    same rows of the same data. ``None`` data: hits of one run (module docstring)."""
    if data_a is not None and data_b is not None:
        other = why_other_data(data_a, data_b)
        if other is not None:
            return other
    if a.keys() != b.keys():
        return f"other rows ({len(a):,} and {len(b):,} rows, {len(a.keys() & b.keys()):,} of them shared)"
    return None


def result_data(data: ResultsData | None, model: str, task: str) -> ResultData | None:
    """What ``model``'s result on ``task`` was computed on; unknown when ``data`` lacks it, None without ``data``."""
    return None if data is None else data.get(model, {}).get(task, ResultData(task, None))


def left_out(hits: Hits, data: ResultsData | None = None) -> dict[tuple[str, str, str], str]:
    """(task or pooled row, model a, model b) -> why that pair is not compared; pairs in :func:`model_comparisons`' order."""
    models = list(hits)
    tasks = sorted({task for per_task in hits.values() for task in per_task})
    found: dict[tuple[str, str, str], str] = {}
    for task in tasks:
        for a, b in itertools.combinations([m for m in models if task in hits[m]], 2):
            why = why_unpaired(hits[a][task], hits[b][task], result_data(data, a, task), result_data(data, b, task))
            if why is not None:
                found[(task, a, b)] = why
    for setting in sorted({setting_of(t) for t in tasks}):
        block = [t for t in tasks if setting_of(t) == setting]
        complete = [m for m in models if all(t in hits[m] for t in block)]
        for a, b in itertools.combinations(complete, 2):
            unpaired = [t for t in block if (t, a, b) in found]
            if unpaired and len(block) > 1:
                found[(pooled_name(setting), a, b)] = (
                    f"{short_task(unpaired[0])} is not on the same rows: {found[(unpaired[0], a, b)]}"
                )
    return found


def left_out_notes(excluded: Mapping[tuple[str, str, str], str]) -> list[str]:
    return [f"`{a}` and `{b}` are not compared on `{task}`: {why}" for (task, a, b), why in excluded.items()]


def _with_holm(rows: list[PairedComparison]) -> list[PairedComparison]:
    adjusted = holm([r.p_value for r in rows])
    return [replace(r, p_holm=p) for r, p in zip(rows, adjusted, strict=True)]


def model_comparisons(hits: Hits, data: ResultsData | None = None) -> tuple[list[PairedComparison], list[str]]:
    """Every pair of models on every task, then the pooled rows per setting; and notes on what was not compared and why.

    ``data``: what each result was computed on (:func:`data_of`); without it, the hits of one run, checked by their row ids.
    """
    models = list(hits)
    tasks = sorted({task for per_task in hits.values() for task in per_task})
    excluded = left_out(hits, data)
    rows: list[PairedComparison] = []
    for task in tasks:
        family = []
        for a, b in itertools.combinations([m for m in models if task in hits[m]], 2):
            counts = None if (task, a, b) in excluded else _paired(hits[a][task], hits[b][task])
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
            if (pooled_name(setting), a, b) in excluded:
                continue
            tables = [c for t in block if (c := _paired(hits[a][t], hits[b][t])) is not None]
            if len(tables) == len(block) and len(block) > 1:
                only_a, only_b = sum(t.only_a for t in tables), sum(t.only_b for t in tables)
                family.append(
                    PairedComparison(
                        pooled_name(setting), a, b, *_pooled_values(tables), only_a, only_b, pooled_mcnemar(tables), 1.0
                    )
                )
        rows += _with_holm(family)
    return rows, notes + left_out_notes(excluded)


def pivot_left_out(hits: Hits, data: ResultsData | None = None) -> dict[tuple[str, str], str]:
    """(model, direct task) -> why its pivot test is left out: the pivot result is not known to be of the direct
    result's dataset, or not on its rows."""
    found = {}
    for model, per_task in hits.items():
        for task in sorted(per_task):
            base = pivot_base(task)
            if base is None or base not in per_task:
                continue
            why = why_unpaired(per_task[base], per_task[task], result_data(data, model, base), result_data(data, model, task))
            if why is not None:
                found[(model, base)] = why
    return found


def pivot_notes(excluded: Mapping[tuple[str, str], str]) -> list[str]:
    return [
        f"No pivot test of `{model}` on `{task}`: its pivot and direct results are on {why}"
        for (model, task), why in excluded.items()
    ]


def pivot_tests(hits: Hits, data: ResultsData | None = None) -> list[PivotTest]:
    """Per model: pivot minus direct on each task's row ids (Holm over the model's tasks), then pooled
    (:func:`clsd_mteb.paired.pivot_tests`, the test ``clsd evaluate`` reports too).

    A task whose pivot result is not known to be on the direct result's rows of one dataset is left out
    (:func:`pivot_left_out`).
    """
    return paired_pivot_tests(hits, pivot_left_out(hits, data))


def mark_ties(
    table: Table1, comparisons: Sequence[PairedComparison], excluded: Mapping[tuple[str, str, str], str] | None = None
) -> None:
    """Mark in ``table`` every model not significantly below its column's best (Holm-adjusted p >= :data:`ALPHA`),
    with the difference and discordant rows the test saw (``table.versus_best``), and every model not compared with
    a best (``excluded`` says why; else: no paired result) in ``table.uncompared``."""
    by_pair = {(c.task, c.model_a, c.model_b): c for c in comparisons}
    for column in [*table.columns, AVERAGE]:
        for setting in table.settings_of(column):
            task = _compared_as(table, column, setting)
            best = [m for m in table.models if table.is_best(m, column, setting)]
            for model in table.models:
                if model in best or table.values[model].get((column, setting)) is None:
                    continue
                found = [by_pair.get((task, b, model), by_pair.get((task, model, b))) for b in best]
                if found and all(c is not None and c.p_holm >= ALPHA for c in found):
                    table.tied.add((model, column, setting))
                    _note_versus(table, found[0], best[0], model, (column, setting))
                elif None in found:
                    b = best[found.index(None)]
                    why = (excluded or {}).get((task, b, model)) or (excluded or {}).get((task, model, b))
                    table.uncompared[(model, column, setting)] = why or "no per-row predictions to pair"


def _note_versus(table: Table1, comparison: PairedComparison | None, best: str, model: str, cell: tuple[str, str]) -> None:
    rows = table.rows.get(best, {}).get(cell)
    if comparison is None or not rows:
        return
    delta = comparison.delta if comparison.model_a == best else -comparison.delta
    table.versus_best[(model, *cell)] = Versus(delta, comparison.only_a + comparison.only_b, rows)


def _compared_as(table: Table1, column: str, setting: str) -> str:
    """The comparisons' task of a Table 1 cell: its task, the pooled row of an average, or the one task an average is of."""
    if column != AVERAGE:
        return _task_name(column, setting)
    block = [c for c in table.columns if setting in table.settings_of(c)]
    return _task_name(block[0], setting) if len(block) == 1 else pooled_name(setting)


def _task_name(column: str, setting: str) -> str:
    """The task a Table 1 cell shows: the direct task, or its pivot twin ("pivot EN" -> "-PivotEN")."""
    return column if setting == DIRECT else f"{column}-Pivot{setting.split()[-1]}"


__all__ = [
    "PairedComparison",
    "PivotTest",
    "ResultsData",
    "left_out",
    "mark_ties",
    "model_comparisons",
    "pivot_left_out",
    "pivot_tests",
]


__all__ = [
    "ALL_TASKS",
    "POOLED",
    "Hits",
    "PairedComparison",
    "PivotTest",
    "ResultsData",
    "columns_of",
    "left_out",
    "left_out_notes",
    "mark_ties",
    "model_comparisons",
    "pivot_left_out",
    "pivot_notes",
    "pivot_tests",
    "pooled_name",
    "result_data",
    "rows_of",
    "why_unpaired",
]
