"""``clsd plan``: how many sentences a new CLSD set needs to tell two models apart.

Only typer and the light ``clsd_format`` are imported at module level (``clsd --help`` stays fast).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from clsd_format.declared_settings import option_name
from clsd_format.evaluation_settings import EvaluationSettings
from clsd_format.folders import folder_callback

app = typer.Typer(add_completion=False)


@app.command()
def plan(
    results_dir: Annotated[
        list[Path],
        typer.Argument(
            metavar="RESULTS_DIR...",
            callback=folder_callback("results folder"),
            help=f"Results folder(s) of `clsd evaluate {option_name(EvaluationSettings, 'output')}` (several are read as one), "
            "with two or more models.",
        ),
    ],
    difference: Annotated[
        list[float] | None,
        typer.Option(
            "--difference",
            "-d",
            metavar="POINTS",
            help="P@1 difference(s) in points to detect, above 0 and below 100 (repeat for several).",
        ),
    ] = None,
    alpha: Annotated[float, typer.Option(min=0.0001, max=0.5, metavar="LEVEL", help="Significance level.")] = 0.05,
    power: Annotated[float, typer.Option(min=0.5, max=0.9999, metavar="SHARE", help="Power.")] = 0.8,
) -> None:
    """How many rows a new set needs to tell two models apart.

    For each difference D in P@1 points: the rows needed to tell apart two models differing by D.

    The share of rows exactly one of two models gets right is measured on the folders' per-row predictions,
    on the same rows of the same data only; the sample size is that of the McNemar test (Connor 1987).
    """
    from clsd_analysis.set_size import plan_for_folders
    from clsd_format.errors import CLSDError

    differences = difference or [1.0, 2.0, 3.0]
    for points in differences:  # nan passes every comparison but this one
        if not 0 < points < 100:
            raise CLSDError(f"--difference {points:g}: a difference in P@1 is a number of points above 0 and below 100")
    typer.echo("\n".join(plan_for_folders(results_dir, differences, alpha, power)))
