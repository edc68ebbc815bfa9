"""``clsd plan``: how many sentences a new CLSD set needs to tell two models apart.

Its options are the declared fields of :class:`clsd_analysis.plan_settings.PlanSettings`, the object
:func:`clsd_analysis.set_size.plan_for_folders` takes. Only typer and the light settings are imported at module level
(``clsd --help`` stays fast).
"""

from __future__ import annotations

import typer

from clsd_analysis.plan_settings import PlanSettings
from clsd_cli.declared import declared_command

app = typer.Typer(add_completion=False)


@declared_command(app)
def plan(settings: PlanSettings) -> None:
    """How many rows a new set needs to tell two models apart.

    For each difference D in P@1 points: the rows needed to tell apart two models differing by D.

    The share of rows exactly one of two models gets right is measured on the folders' per-row predictions,
    on the same rows of the same data only; the sample size is that of the McNemar test (Connor 1987).
    """
    from clsd_analysis.set_size import plan_for_folders

    typer.echo("\n".join(plan_for_folders(settings)))
