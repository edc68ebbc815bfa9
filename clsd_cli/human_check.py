"""``clsd check-sample`` and ``clsd check-import``: the human check of a run's distractors, out as a sheet and back.

Their options are the declared fields of :class:`clsd_generation.dataset.human_check_settings.SampleSettings` and
:class:`~clsd_generation.dataset.human_check_settings.FilledSheet`, the objects the human check takes.
"""

from __future__ import annotations

import typer

from clsd_cli.declared import declared_command
from clsd_generation.dataset.human_check_settings import FilledSheet, SampleSettings

app = typer.Typer()


@declared_command(app, name="check-sample")
def sample(settings: SampleSettings) -> None:
    """Export a sample of distractors for a human check.

    A seeded random sample; annotators answer yes or no per criterion. For a rule run the sheet also names each distractor's rule and its automatic-check verdict, and
    the command prints the share passing and the mix of rules per language.
    """
    from clsd_generation.dataset.human_check import export_sample

    summary = export_sample(settings)
    typer.echo(", ".join(f"{code}: {n}" for code, n in summary.counts.items()) + f" distractors in {settings.sheet}")
    for line in summary.lines():  # rule runs: the automatic checks and the mix of rules in the sample
        typer.echo(line)


@declared_command(app, name="check-import")
def import_sample_command(settings: FilledSheet) -> None:
    """Report the share of checked distractors that pass.

    Those meeting all criteria in the filled-in sheet (the paper: over 98%).
    """
    from clsd_generation.dataset.human_check import import_sample

    report = import_sample(settings)
    for code in report.judged:
        typer.echo(f"{code}: {report.meeting[code]} of {report.judged[code]} meet the criteria ({report.share(code):.1%})")
    typer.echo(f"all: {sum(report.meeting.values())} of {sum(report.judged.values())} ({report.share():.1%})")
