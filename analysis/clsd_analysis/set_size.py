"""How many rows a new CLSD set needs, from the discordance between models measured on existing results.

Two models whose P@1 differ by D points can only differ on the rows exactly one of them gets right (the
discordant rows); the share of such rows, measured per pair of models over every task both have, sets
how many rows a two-sided McNemar test needs to detect D at a given level and power (Connor 1987,
:func:`clsd_mteb.confidence.mcnemar_sample_size`). The number of rows is what an LLM-made set costs.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from clsd_analysis.comparisons import Hits
from clsd_mteb.confidence import ALPHA, POWER, mcnemar_sample_size


@dataclass(frozen=True)
class SetSize:
    """One pair of models: the share of discordant rows over the tasks both have, and the rows each difference needs."""

    model_a: str
    model_b: str
    rows: int  # rows the discordance was measured on
    discordance: float  # share of rows exactly one of the two gets right
    needed: dict[float, int | None]  # difference in points -> rows needed; None where it exceeds the discordance


def discordance(hits: Hits, a: str, b: str) -> tuple[int, float]:
    """(rows, share of them exactly one of ``a`` and ``b`` gets right), over the row ids both have on every shared task."""
    rows = disagree = 0
    for task in sorted(hits[a].keys() & hits[b].keys()):
        shared = hits[a][task].keys() & hits[b][task].keys()
        rows += len(shared)
        disagree += sum(hits[a][task][i] != hits[b][task][i] for i in shared)
    return rows, (disagree / rows if rows else 0.0)


def plan_set_size(hits: Hits, differences: Sequence[float], alpha: float = ALPHA, power: float = POWER) -> list[SetSize]:
    """Per pair of models with shared rows: the rows a set needs to tell apart each difference (in points)."""
    found = []
    for a, b in itertools.combinations(sorted(hits), 2):
        rows, share = discordance(hits, a, b)
        if rows == 0:
            continue
        needed: dict[float, int | None] = {
            d: mcnemar_sample_size(d / 100, share, alpha, power) if 0 < d / 100 < share else None for d in differences
        }
        found.append(SetSize(a, b, rows, share, needed))
    return found


def plan_lines(plans: Sequence[SetSize], alpha: float = ALPHA, power: float = POWER) -> list[str]:
    """The plan as sentences, one per pair of models."""
    lines = []
    for plan in plans:
        sizes = "; ".join(
            f"{d:g} point{'s' if d != 1 else ''}: " + (f"{n:,} rows" if n is not None else "more than the discordance allows")
            for d, n in plan.needed.items()
        )
        lines.append(
            f"{plan.model_a} vs {plan.model_b}: {100 * plan.discordance:.1f}% of {plan.rows:,} rows discordant -> {sizes}."
        )
    head = (
        f"Rows a CLSD set needs to tell apart two models whose P@1 differ by D points (two-sided McNemar test at "
        f"{100 * alpha:g}% significance, {100 * power:g}% power; Connor 1987), from the share of rows exactly one of "
        "the two models gets right:"
    )
    return [head, *lines] if lines else []
