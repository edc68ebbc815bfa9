"""``clsd check-sample`` and ``clsd check-import``: the human check of a run's distractors, out as a sheet and back."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from clsd_cli.generation_options import (
    RunDir,
)

app = typer.Typer()


@app.command("check-sample")
def sample(
    run_dir: RunDir,
    sheet: Annotated[Path, typer.Option(help="CSV sheet to write for annotators.")],
    per_language: Annotated[int, typer.Option(help="Distractors sampled per language (paper: 200).")] = 200,
    seed: Annotated[int, typer.Option(help="Sampling seed.")] = 0,
) -> None:
    """Export a sample of distractors for a human check.

    A seeded random sample; annotators answer yes or no per criterion. For a rule run the sheet also names each distractor's rule and its automatic-check verdict, and
    the command prints the share passing and the mix of rules per language.
    """
    from clsd_generation.dataset.human_check import export_sample

    summary = export_sample(run_dir, sheet, per_language=per_language, seed=seed)
    typer.echo(", ".join(f"{code}: {n}" for code, n in summary.counts.items()) + f" distractors in {sheet}")
    for line in summary.lines():  # rule runs: the automatic checks and the mix of rules in the sample
        typer.echo(line)


@app.command("check-import")
def import_sample_command(
    sheet: Annotated[
        Path, typer.Argument(help="The sheet from `clsd check-sample`, filled in (yes/no in each criterion column).")
    ],
) -> None:
    """Report the share of checked distractors that pass.

    Those meeting all criteria in the filled-in sheet (the paper: over 98%).
    """
    from clsd_generation.dataset.human_check import import_sample

    report = import_sample(sheet)
    for code in report.judged:
        typer.echo(f"{code}: {report.meeting[code]} of {report.judged[code]} meet the criteria ({report.share(code):.1%})")
    typer.echo(f"all: {sum(report.meeting.values())} of {sum(report.judged.values())} ({report.share():.1%})")
