"""``clsd evaluate`` and ``clsd export-release``: the mteb plugin's commands.

``clsd evaluate``'s options are the declared fields of its settings (:mod:`clsd_format.evaluation_settings`): the
model is resolved once into a :class:`clsd_format.model_choice.ModelChoice`, the run is
:func:`clsd_mteb.evaluation.run_evaluation` (what a Python user calls as ``clsd_mteb.evaluation.evaluate``), and the
command prints the run it returns: Table 1 and the answer. Only typer and the light ``clsd_format`` are imported at
module level; mteb, torch and the models load inside the commands, after the arguments are checked (so a mistake
answers at once).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import typer

from clsd_cli.declared import declared_command
from clsd_format.declared_settings import option_name
from clsd_format.evaluation_settings import DataChoice, EvaluationSettings, ModelOptions, TableChoice, TableFormat
from clsd_format.publishing_settings import ReleaseExportSettings
from clsd_format.release import RELEASE_TASK_NAMES

if TYPE_CHECKING:
    from collections.abc import Sequence

    from clsd_mteb.table1 import Table1

app = typer.Typer(add_completion=False)


def _task_list(names: Sequence[str], per_line: int = 2) -> str:
    """The release's task names for the end of ``--help``, in columns that click prints as they are."""
    width = max(map(len, names)) + 2
    rows = ["".join(name.ljust(width) for name in names[i : i + per_line]).rstrip() for i in range(0, len(names), per_line)]
    return f"Tasks of the release (for {option_name(DataChoice, 'tasks')}):\n\n\b\n" + "\n".join(rows)


@declared_command(app, epilog=_task_list(RELEASE_TASK_NAMES))
def evaluate(model: ModelOptions, data: DataChoice, settings: EvaluationSettings, table: TableChoice) -> None:
    """Evaluate a model and print the paper's Table 1 for it.

    Without --model, the embedded multilingual USE v3 is evaluated beside the character n-gram baseline.
    """
    from clsd_format.data_source import resolve_data_source

    # Mistakes in the arguments answer here, before mteb is imported (seconds) or a model loads.
    choices = model.choices()
    source = resolve_data_source(data.data_dir, data.hub_dataset)
    names = source.check_task_names(data.task_names())
    from clsd_cli.progress import ConsoleProgress
    from clsd_mteb.evaluation import run_evaluation

    err = table.table_format is not None  # a format asked for: stdout holds the table alone, for a file or a script
    watched = (sys.stderr if err else sys.stdout).isatty()  # a person reads the progress lines as they come
    with ConsoleProgress(watched=watched, err=err) as progress:
        run = run_evaluation(choices, source, names, settings, progress)
    table1 = run.table1()
    _print_table(table1, table.table_format, drawn=table.table_format is None and sys.stdout.isatty())
    _print_answer(run.answer(table1), err=err)
    typer.echo(f"\nResults: {settings.output / 'results'}", err=err)


def _print_answer(answer: list[str], *, err: bool) -> None:
    """The run's answer under Table 1 (on stderr when a format was asked for: stdout holds the table alone)."""
    from clsd_mteb.evaluation import ANSWER_HEADING

    if answer:
        typer.echo(f"\n{ANSWER_HEADING}", err=err)
        typer.echo("\n".join(f"- {line}" for line in answer), err=err)


def _print_table(table: Table1, table_format: TableFormat | None, *, drawn: bool) -> None:
    """Table 1 on stdout: drawn for a terminal (with the legend of its marks), or as Markdown, LaTeX or CSV."""
    from clsd_analysis import render
    from clsd_mteb import table1_render

    if table_format == "latex":
        typer.echo(table1_render.table1_latex(table), nl=False)
    elif table_format == "csv":
        typer.echo(render.table1_csv(table), nl=False)
    elif drawn:
        from rich.console import Console

        console = Console()
        console.print()
        console.print(table1_render.table1_rich(table, title="Precision@1 (%)"))
        if table.alignment:
            console.print(table1_render.TERMINAL_LEGEND, highlight=False)
        if table.intervals:
            console.print(table1_render.INTERVAL_LEGEND, highlight=False)
    else:
        if table_format is None:  # Markdown in a log, among the progress lines: a heading says what follows
            typer.echo("\nPrecision@1 (%):\n")
        typer.echo(table1_render.table1_markdown(table))
        if table.alignment:
            typer.echo("\n" + table1_render.ALIGNMENT_LEGEND)
        if table.intervals:
            typer.echo("\n" + table1_render.INTERVAL_LEGEND)


@declared_command(app, name="export-release")
def export_release_command(settings: ReleaseExportSettings) -> None:
    """Write the release as one Hub-format dataset.

    Eight configs, one per released task, and a dataset card that names the files read and their SHA-256.
    """
    from clsd_mteb.publishing.release_export import export_release

    folder = export_release(settings)
    typer.echo(f"Wrote {folder}")
