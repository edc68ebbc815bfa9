"""How many rows a new CLSD set needs, from the discordance between models measured on existing results.

Two models whose P@1 differ by D points can only differ on the rows exactly one of them gets right (the
discordant rows); the share of such rows, measured per pair of models over every task both have, sets
how many rows a two-sided McNemar test needs to detect D at a given level and power (Connor 1987,
:func:`clsd_mteb.confidence.mcnemar_sample_size`). The number of rows is what an LLM-made set costs.

The discordance is measured only on results known to be on the same rows of the same data
(:func:`clsd_analysis.comparisons.why_unpaired`, :mod:`clsd_analysis.same_data`): a task on which two models'
results are not (a trial against a full run, two datasets of one name, a result whose dataset revision is
unknown) is left out, and the plan says so.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

from clsd_analysis.plan_settings import PlanSettings
from clsd_analysis.result_hits import data_of, hits_of
from clsd_format.errors import CLSDError
from clsd_mteb.comparisons import Hits, ResultsData, result_data, why_unpaired
from clsd_mteb.confidence import ALPHA, POWER, mcnemar_sample_size


@dataclass(frozen=True)
class SetSize:
    """One pair of models: the share of discordant rows over the tasks both have, and the rows each difference needs."""

    model_a: str
    model_b: str
    rows: int  # rows the discordance was measured on
    discordance: float  # share of rows exactly one of the two gets right
    needed: dict[float, int | None]  # difference in points -> rows needed; None where it exceeds the discordance
    left_out: dict[str, str] = field(default_factory=dict)  # task -> why the two results on it are not paired


def unpaired_tasks(hits: Hits, a: str, b: str, data: ResultsData | None = None) -> dict[str, str]:
    """The tasks both models have whose results are not known to be on the same rows of the same data, and why.

    ``data``: what each result was computed on (:func:`clsd_analysis.comparisons.data_of`); None: hits of one run.
    """
    found = {}
    for task in sorted(hits[a].keys() & hits[b].keys()):
        why = why_unpaired(hits[a][task], hits[b][task], result_data(data, a, task), result_data(data, b, task))
        if why is not None:
            found[task] = why
    return found


def discordance(hits: Hits, a: str, b: str, data: ResultsData | None = None) -> tuple[int, float]:
    """(rows, share of them exactly one of ``a`` and ``b`` gets right), over every task both have on the same rows."""
    rows = disagree = 0
    left_out = unpaired_tasks(hits, a, b, data)
    for task in sorted(hits[a].keys() & hits[b].keys() - left_out.keys()):
        rows += len(hits[a][task])
        disagree += sum(hits[a][task][i] != hits[b][task][i] for i in hits[a][task])
    return rows, (disagree / rows if rows else 0.0)


def plan_set_size(
    hits: Hits, differences: Sequence[float], alpha: float = ALPHA, power: float = POWER, data: ResultsData | None = None
) -> list[SetSize]:
    """Per pair of models with a shared task: the rows a set needs to tell apart each difference (in points);
    a pair whose shared tasks are all on other rows or data has no rows measured, and says why."""
    found = []
    for a, b in itertools.combinations(sorted(hits), 2):
        rows, share = discordance(hits, a, b, data)
        left_out = unpaired_tasks(hits, a, b, data)
        if rows == 0 and not left_out:
            continue
        needed: dict[float, int | None] = {
            d: mcnemar_sample_size(d / 100, share, alpha, power) if rows and 0 < d / 100 < share else None for d in differences
        }
        found.append(SetSize(a, b, rows, share, needed, left_out))
    return found


def plan_lines(plans: Sequence[SetSize], alpha: float = ALPHA, power: float = POWER) -> list[str]:
    """The plan as sentences, one per pair of models."""
    lines = []
    for plan in plans:
        left_out = "".join(f" Left out: {task}, {why}." for task, why in plan.left_out.items())
        if plan.rows == 0:
            lines.append(f"{plan.model_a} vs {plan.model_b}: not measured, no task on the same rows of the same data.{left_out}")
            continue
        sizes = "; ".join(
            f"{d:g} point{'s' if d != 1 else ''}: " + (f"{n:,} rows" if n is not None else "more than the discordance allows")
            for d, n in plan.needed.items()
        )
        lines.append(
            f"{plan.model_a} vs {plan.model_b}: {100 * plan.discordance:.1f}% of {plan.rows:,} rows discordant -> {sizes}.{left_out}"
        )
    head = (
        f"Rows a CLSD set needs to tell apart two models whose P@1 differ by D points (two-sided McNemar test at "
        f"{100 * alpha:g}% significance, {100 * power:g}% power; Connor 1987), from the share of rows exactly one of "
        "the two models gets right:"
    )
    return [head, *lines] if lines else []


def plan_for_folders(settings: PlanSettings) -> list[str]:
    """``clsd plan``: the plan's sentences from one results folder or several read as one; refused when nothing can be measured."""
    from clsd_analysis.results import load_results

    folders, alpha, power = settings.results_dir, settings.alpha, settings.power
    results = load_results(folders)
    hits = hits_of(results)
    plans = plan_set_size(hits, settings.differences(), alpha, power, data_of(results))
    if not any(plan.rows for plan in plans):
        where = ", ".join(map(str, folders))
        why = "; ".join(line for line in plan_lines(plans, alpha, power)[1:])
        raise CLSDError(
            f"{where} holds per-row predictions of fewer than two models on a shared task; nothing to measure."
            if not plans
            else f"{where}: no two models have results on the same rows of the same data; nothing to measure. {why}"
        )
    return plan_lines(plans, alpha, power)
