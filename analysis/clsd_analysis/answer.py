"""The answer to CLSD's question in a few sentences: which model for each direction, and whether to pivot.

Every number is one of the tables': a value and interval of Table 1 (each setting), the models Table 1
marks as not significantly below the best, and the pooled (else the single) row of the pivot tests.
A model whose results are not on the best's rows (a trial, another dataset of the same name) is said to be
not compared with it, and why: never tied, never below.
``clsd evaluate`` prints these lines under its Table 1; the report opens with them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from clsd_analysis.comparisons import ALL_TASKS, PivotTest
from clsd_analysis.tables import AVERAGE, Table1
from clsd_mteb.confidence import ALPHA, p_text
from clsd_mteb.naming import short_task


def _value(table: Table1, model: str, column: str, setting: str) -> str:
    value, interval = table.values[model].get((column, setting)), table.interval(model, column, setting)
    if value is None:
        return "no result"
    return f"{value:.1f}%" + ("" if interval is None else f" [{interval.low:.1f}, {interval.high:.1f}]")


def best_lines(table: Table1) -> list[str]:
    """Per column and setting, and over all: the best model with its interval, and every model tied with it."""
    lines = []
    for setting in table.settings_of(AVERAGE):
        for column in [c for c in [*table.columns, AVERAGE] if setting in table.settings_of(c)]:
            best = [m for m in table.models if table.is_best(m, column, setting)]
            if not best:
                continue
            tied = [m for m in table.models if table.is_tied(m, column, setting)]
            name = "Over all directions (average)" if column == AVERAGE else short_task(column)
            line = f"{name}, {setting}: best " + ", ".join(f"{m} {_value(table, m, column, setting)}" for m in best)
            if tied:
                line += "; statistically tied with it: " + ", ".join(f"{m} {_value(table, m, column, setting)}" for m in tied)
            uncompared = {m: why for (m, c, s), why in table.uncompared.items() if (c, s) == (column, setting)}
            if uncompared:
                line += "; not compared with it: " + ", ".join(f"{m} ({why})" for m, why in uncompared.items())
            others = [
                m
                for m in table.models
                if m not in best and m not in uncompared and table.values[m].get((column, setting)) is not None
            ]
            if not tied and others:
                line += f"; every other {'compared ' if uncompared else ''}model is significantly below it"
            lines.append(line + ".")
    return lines


def pivot_lines(tests: Sequence[PivotTest]) -> list[str]:
    """Per model: does pivoting through English help, hurt, or show no detectable difference (pooled over tasks)?"""
    lines = []
    for model in dict.fromkeys(t.model for t in tests):
        rows = [t for t in tests if t.model == model]
        row = next((t for t in rows if t.task == ALL_TASKS), rows[0])
        where = f"over {len(rows) - 1} sets" if row.task == ALL_TASKS else f"on {short_task(row.task)}"
        numbers = f"{row.delta:+.1f} points [{row.delta_ci_low:+.1f}, {row.delta_ci_high:+.1f}], {p_text(row.p_holm)}, {where}"
        if row.p_holm >= ALPHA:
            lines.append(f"{model}: pivoting through English shows no detectable difference at 5% ({numbers}).")
        else:
            lines.append(f"{model}: pivoting through English {'helps' if row.delta > 0 else 'hurts'} ({numbers}).")
    return lines


def pivot_left_out_lines(excluded: Mapping[tuple[str, str], str]) -> list[str]:
    """Per model and task whose pivot result is not on its direct result's rows: not tested, and why."""
    return [f"{model}: pivot and direct not compared on {short_task(task)}: {why}." for (model, task), why in excluded.items()]


def answer_lines(
    table: Table1, tests: Sequence[PivotTest], pivot_excluded: Mapping[tuple[str, str], str] | None = None
) -> list[str]:
    """The answer: the best model per direction and over all, then pivot or not per model (and where it was not tested)."""
    return best_lines(table) + pivot_lines(tests) + pivot_left_out_lines(pivot_excluded or {})
