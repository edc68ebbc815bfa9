"""The paper's Table 1 shape: per model, each task's P@1 as "direct / pivot", with averages.

A released task and its ``-PivotEN`` twin share one column. Tasks without a twin (datasets made
by the generation module without a pivot) get a column of their own. Missing results print as
"–", never as 0.
"""

from __future__ import annotations

from collections.abc import Mapping

from clsd_mteb.tasks import PIVOT_SUFFIX

MISSING = "–"


def split_pivot(task_name: str) -> tuple[str, bool]:
    """("CLSD-WMT19-DE-FR", True) for "CLSD-WMT19-DE-FR-PivotEN"."""
    if task_name.endswith(PIVOT_SUFFIX):
        return task_name[: -len(PIVOT_SUFFIX)], True
    return task_name, False


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _pct(value: float | None) -> str:
    return MISSING if value is None else f"{100 * value:.2f}"


def table1_markdown(scores: Mapping[str, Mapping[str, float]]) -> str:
    """Markdown table from ``{model: {task_name: precision_at_1 (0-1)}}``; values shown in %."""
    columns: list[str] = []
    has_pivot: set[str] = set()
    for per_task in scores.values():
        for task in per_task:
            base, pivot = split_pivot(task)
            if base not in columns:
                columns.append(base)
            if pivot:
                has_pivot.add(base)
    header = ["model", *[c.removeprefix("CLSD-") + (" (direct / pivot)" if c in has_pivot else "") for c in columns]]
    header.append("average (direct / pivot)" if has_pivot else "average")
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for model, per_task in scores.items():
        cells = [model]
        for column in columns:
            direct = _pct(per_task.get(column))
            cells.append(f"{direct} / {_pct(per_task.get(column + PIVOT_SUFFIX))}" if column in has_pivot else direct)
        # an average over an incomplete set of tasks would not be comparable: shown only when complete
        direct_values = [per_task.get(c) for c in columns]
        average = _pct(_mean(direct_values)) if None not in direct_values else MISSING
        if has_pivot:
            pivot_values = [per_task.get(c + PIVOT_SUFFIX) for c in columns if c in has_pivot]
            average += " / " + (_pct(_mean(pivot_values)) if None not in pivot_values else MISSING)
        cells.append(average)
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
