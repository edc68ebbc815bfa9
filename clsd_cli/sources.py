"""``clsd compare-sources``: the release's CSV files and a Hub dataset of the same tasks, compared row by row.

Only typer and the light ``clsd_format`` are imported at module level; mteb loads inside the command.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from clsd_format.authors_hub import DEFAULT_REVISION, REPO_ID
from clsd_format.declared_settings import option_name
from clsd_format.evaluation_settings import DataChoice, split_names
from clsd_format.folders import folder_callback
from clsd_format.release import DATA_DIR_ENV

app = typer.Typer(add_completion=False)

SOURCES_DIFFER = 3  # exit status when the rows differ (2 stays a user's error, 1 a bug)


@app.command("compare-sources")
def compare_sources_command(
    data_dir: Annotated[
        Path | None,
        typer.Option(
            metavar="DIR",
            callback=folder_callback("data folder"),
            help=f"The first source: a folder of the release CSVs (or any {option_name(DataChoice, 'data_dir')} of clsd evaluate). "
            f"Default: ${DATA_DIR_ENV}, else the release fetched from GitHub.",
        ),
    ] = None,
    hub_dataset: Annotated[
        str,
        typer.Option(metavar="REPO_ID[@REVISION]", help="The second source, on the Hugging Face Hub."),
    ] = f"{REPO_ID}@{DEFAULT_REVISION}",
    tasks: Annotated[
        list[str] | None,
        typer.Option(
            "--tasks",
            "-t",
            metavar="NAME[,NAME...]",
            help="Task names, comma-separated or repeated. Default: every task both sources define.",
        ),
    ] = None,
) -> None:
    """Compare two sources of the same tasks, row by row.

    By default the GitHub release and the authors' Hub dataset, the four direct tasks. Each task both define is loaded from each, as clsd evaluate loads it, and its rows are compared in order on
    the source sentence, the true translation and the distractors. One line per task; exit status 0 when every
    task holds the same texts in the same order, 3 when any differs.
    """
    from clsd_format.data_source import resolve_data_source
    from clsd_mteb.compare import compare_sources

    first, second = resolve_data_source(data_dir), resolve_data_source(hub_dataset=hub_dataset)
    typer.echo(f"First: {first.describe()}\nSecond: {second.describe()}")
    comparisons = compare_sources(first, second, split_names(tasks))
    for comparison in comparisons:
        typer.echo(comparison.summary())
    if not all(comparison.equal for comparison in comparisons):
        raise typer.Exit(SOURCES_DIFFER)
