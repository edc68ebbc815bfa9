"""``clsd compare-sources``: the release's CSV files and a Hub dataset of the same tasks, compared row by row.

Its options are the declared fields of :class:`clsd_format.compare_settings.CompareSourcesSettings`. Only typer and the
light declarations are imported at module level; mteb loads inside the command.
"""

from __future__ import annotations

import typer

from clsd_cli.declared import declared_command
from clsd_format.compare_settings import CompareSourcesSettings

app = typer.Typer(add_completion=False)

SOURCES_DIFFER = 3  # exit status when the rows differ (2 stays a user's error, 1 a bug)


@declared_command(app, name="compare-sources")
def compare_sources_command(settings: CompareSourcesSettings) -> None:
    """Compare two sources of the same tasks, row by row.

    By default the GitHub release and the authors' Hub dataset, the four direct tasks. Each task both define is loaded from each, as clsd evaluate loads it, and its rows are compared in order on
    the source sentence, the true translation and the distractors. One line per task; exit status 0 when every
    task holds the same texts in the same order, 3 when any differs.
    """
    from clsd_mteb.compare import compare_sources

    first, second = settings.sources()
    typer.echo(f"First: {first.describe()}\nSecond: {second.describe()}")
    comparisons = compare_sources(first, second, settings.task_names())
    for comparison in comparisons:
        typer.echo(comparison.summary())
    if not all(comparison.equal for comparison in comparisons):
        raise typer.Exit(SOURCES_DIFFER)
