"""The answer to CLSD's question in a few sentences: which model for each direction, and whether to pivot.

Every number is one of the tables': a value and interval of Table 1 (each setting), the models Table 1
marks as not significantly below the best, and the rows of the pivot tests. Each line says what it rests
on: the number of rows and the P@1 of guessing (1 in the number of candidates), because a best model on 49
rows may be no better than a coin. So a line

* names no best when the best's interval holds the P@1 of guessing (no model is told apart from guessing on
  these rows), or when the paired test ties the random baseline with it (no model is told apart from the random
  baseline);
* names every model whose whole interval is below guessing, apart: a model below guessing is told apart from it,
  and is never listed among those that are not;
* when models are tied with the best, says how many rows would tell them apart if their difference is what
  these rows show (Connor's set size for the exact McNemar test, as ``clsd plan`` computes it);
* marks (†) a model that declares no training in a language of the set (:mod:`clsd_mteb.model_languages`).

Every direction gets a pivot line: the pivot test of each model (the test and its interval are one method,
so they never disagree), or "not measured" with the commands that would measure it, or why it was not.
A model whose results are not on the best's rows (a trial, another dataset of the same name) is said to be
not compared with it, and why: never tied, never below. ``clsd evaluate`` prints these lines under its
Table 1; the report opens with them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from clsd_format.declared_settings import option_name
from clsd_format.defaults import RANDOM_BASELINE
from clsd_format.evaluation_settings import DataChoice
from clsd_format.release import RELEASE_TASK_NAMES
from clsd_mteb.comparisons import ALL_TASKS, PivotTest
from clsd_mteb.confidence import ALPHA, POWER, beats_guessing, mcnemar_sample_size, p_text
from clsd_mteb.naming import short_task
from clsd_mteb.table1 import AVERAGE, Table1

Cell = tuple[str, str]


def _value(table: Table1, model: str, column: str, setting: str) -> str:
    value, interval = table.values[model].get((column, setting)), table.interval(model, column, setting)
    if value is None:
        return "no result"
    return f"{value:.1f}%" + ("" if interval is None else f" [{interval.low:.1f}, {interval.high:.1f}]")


UNTRAINED_MARK = "†"
UNTRAINED_LEGEND = f"{UNTRAINED_MARK}: the model declares no training in a language of that set (its training languages, as its metadata lists them)."


def _listed(table: Table1, models: Sequence[str], cell: Cell) -> str:
    return ", ".join(f"{m}{UNTRAINED_MARK if (m, *cell) in table.untrained else ''} {_value(table, m, *cell)}" for m in models)


def _guessing(table: Table1, model: str, cell: Cell) -> bool | None:
    """True above guessing, False below, None when the rows cannot tell (or the interval or chance is unknown)."""
    interval, chance = table.interval(model, *cell), table.chance.get(model, {}).get(cell)
    return None if interval is None or chance is None else beats_guessing(interval, chance)


def chance_text(chance: float) -> str:
    """``20.0% (1 in 5 candidates)``; a set whose rows have different numbers of candidates gets its mean. Result files
    hold six decimals of a share (0.333333), so a whole number of candidates is recognised to within that."""
    candidates = round(100 / chance)
    if candidates and abs(100 / candidates - chance) < 1e-3:
        return f"{chance:.1f}% (1 in {candidates} candidates)"
    return f"{chance:.1f}% (on average 1 in {100 / chance:.1f} candidates)"


def _head(table: Table1, model: str, column: str, setting: str) -> str:
    name = "Over all directions (average)" if column == AVERAGE else short_task(column)
    rows, chance = table.rows.get(model, {}).get((column, setting)), table.chance.get(model, {}).get((column, setting))
    facts = [f"{rows:,} rows" if rows else None, f"guessing scores {chance_text(chance)}" if chance else None]
    said = "; ".join(f for f in facts if f)
    return f"{name}, {setting}" + (f" ({said})" if said else "")


def _set_size(table: Table1, tied: Sequence[str], cell: Cell) -> str:
    """How many rows would tell the tied models from the best, if their differences are what these rows show."""
    needed = []
    for model in tied:
        versus = table.versus_best.get((model, *cell))
        if versus is None:
            continue
        share, delta = versus.discordant / versus.rows, abs(versus.delta) / 100
        if 0 < delta < share:
            needed.append(mcnemar_sample_size(delta, share))
    if not needed:
        return ""
    low, high = min(needed), max(needed)
    rows = f"about {low:,}" if low == high else f"about {low:,} to {high:,}"
    return (
        f"; {rows} rows would tell them apart with {100 * POWER:g}% power if the differences are as measured here "
        "(`clsd plan` gives other differences)"
    )


def _not_told_from(table: Table1, best: Sequence[str], cell: Cell) -> str | None:
    """What the best cannot be told apart from, or None: guessing, when its interval holds guessing's P@1; the random
    baseline, when the paired test ties the two (the random baseline's own luck on these rows)."""
    if any(_guessing(table, m, cell) is not True for m in best if table.chance.get(m, {}).get(cell) is not None):
        return "guessing"
    if any(m == RANDOM_BASELINE and (m in best or table.is_tied(m, *cell)) for m in table.models):
        return f"the random baseline ({RANDOM_BASELINE}, by the paired test)"
    return None


def _cell_line(table: Table1, column: str, setting: str) -> str | None:
    cell = (column, setting)
    best = [m for m in table.models if table.is_best(m, column, setting)]
    if not best:
        return None
    valued = [m for m in table.models if table.values[m].get(cell) is not None]
    below = [m for m in valued if _guessing(table, m, cell) is False]
    head = _head(table, best[0], column, setting)
    rows = table.rows.get(best[0], {}).get(cell)
    uncompared = {m: why for (m, c, s), why in table.uncompared.items() if (c, s) == cell}
    not_paired = ", ".join(f"{m} ({why})" for m, why in uncompared.items())
    told_from = _not_told_from(table, best, cell)
    if told_from is not None:
        on = f"on these {rows:,} rows" if rows else "on these rows"
        level = [m for m in valued if m not in below]  # a model below guessing is told apart from it: said apart
        line = f"{head}: " + (
            f"no model is told apart from {told_from} {on}: {_listed(table, level, cell)}"
            if level
            else f"every model is below guessing {on}"
        )
        line += f"; not compared with {best[0]}: {not_paired}" if uncompared else ""
        return line + (f"; below guessing: {_listed(table, below, cell)}." if below else ".")
    line = f"{head}: best {_listed(table, best, cell)}"
    tied = [m for m in table.models if table.is_tied(m, column, setting)]
    if tied:
        line += "; statistically tied with it: " + _listed(table, tied, cell) + _set_size(table, tied, cell)
    if uncompared:
        line += f"; not compared with it: {not_paired}"
    others = [m for m in valued if m not in best and m not in uncompared]
    if not tied and others:
        line += f"; every other {'compared ' if uncompared else ''}model is significantly below it"
    if below:
        line += f"; below guessing: {_listed(table, below, cell)}"
    return line + "."


def best_lines(table: Table1) -> list[str]:
    """Per column and setting, and over all: the best model with its interval, every model tied with it, and what the
    line rests on (rows, guessing); or that no model is told apart from guessing."""
    lines = []
    for setting in table.settings_of(AVERAGE):
        columns = [c for c in table.columns if setting in table.settings_of(c)]
        for column in columns + ([AVERAGE] if len(columns) > 1 else []):  # the average of one direction is that direction
            line = _cell_line(table, column, setting)
            if line is not None:
                lines.append(line)
    return lines


def _verdict(row: PivotTest, where: str) -> str:
    """One model's pivot test: the difference, its interval and the test, which say one thing (one method)."""
    numbers = f"{row.delta:+.1f} points [{row.delta_ci_low:+.1f}, {row.delta_ci_high:+.1f}], {p_text(row.p_value)}{where}"
    if row.p_value >= ALPHA:
        return f"{row.model}: no detectable difference at 5% ({numbers})"
    return f"{row.model}: pivoting {'helps' if row.delta > 0 else 'hurts'} ({numbers})"


def how_to_measure_pivot(task: str) -> str:
    """The commands that would measure the pivot of a direction: the release has its pivot tasks; a set of one's
    own first needs its English translations."""
    if task in RELEASE_TASK_NAMES:
        return f"evaluate its pivot task too (`clsd evaluate {option_name(DataChoice, 'tasks')} {task},{task}-PivotEN`)"
    return (
        "translate the run's texts to English, build and evaluate the pivot set (`clsd translate --run-dir RUN`, "
        f"then `clsd build --run-dir RUN --out DATASET --name NAME` and `clsd evaluate {option_name(DataChoice, 'data_dir')} "
        "DATASET`)"
    )


def _direction_lines(column: str, tests: Sequence[PivotTest], left_out: Mapping[str, str], unmeasured: str | None) -> list[str]:
    """One direction's pivot tests, or why there is none: left out (``left_out``: model -> why), not measured
    (``unmeasured``: why), or not measured and how to measure it."""
    name = f"{short_task(column)}, through English"
    rows = [t for t in tests if t.task == column]
    lines = []
    if rows:
        lines.append(f"{name}: " + "; ".join(_verdict(row, "") for row in rows) + ".")
    elif unmeasured:
        lines.append(f"{name}: not measured: {unmeasured}.")
    elif not left_out:
        lines.append(f"{name}: not measured; to measure it, {how_to_measure_pivot(column)}.")
    return lines + [f"{name}: {model}'s pivot and direct results are not compared: {why}." for model, why in left_out.items()]


def answer_lines(
    table: Table1,
    tests: Sequence[PivotTest],
    pivot_excluded: Mapping[tuple[str, str], str] | None = None,
    pivot_unmeasured: Mapping[str, str] | None = None,
) -> list[str]:
    """The answer: the best model per direction and over all (or none better than guessing), then the pivot question
    per direction (each model's pivot test, or why there is none: left out, not built, or not measured and how to
    measure it), then per model the pooled pivot test over every direction it has both settings of.
    ``pivot_excluded``: (model, direct task) -> why it was left out; ``pivot_unmeasured``: direct task -> why its
    pivot was not measured (said instead of how)."""
    lines = best_lines(table)
    if any(UNTRAINED_MARK in line for line in lines):
        lines.append(UNTRAINED_LEGEND)
    excluded, unmeasured = pivot_excluded or {}, pivot_unmeasured or {}
    for column in table.columns:
        left_out = {model: why for (model, task), why in excluded.items() if task == column}
        lines += _direction_lines(column, tests, left_out, unmeasured.get(column))
    for row in (t for t in tests if t.task == ALL_TASKS):
        sets = len([t for t in tests if t.model == row.model and t.task != ALL_TASKS])
        lines.append(f"Over all directions, through English: {_verdict(row, f', over {sets} sets')}.")
    return lines


__all__ = ["answer_lines", "best_lines", "chance_text", "how_to_measure_pivot"]
