"""``clsd evaluate`` and ``clsd export-release``: the mteb plugin's commands.

Only typer is imported at module level; mteb, torch and the models load inside the commands.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(add_completion=False)

DEFAULT_OUTPUT = Path("clsd-results")
DEFAULT_BATCH_SIZE = 32  # clsd_mteb.run.DEFAULT_BATCH_SIZE, written out so that --help needs no mteb (a test checks they agree)


def _split_names(values: list[str] | None) -> list[str] | None:
    if not values:
        return None
    return [name.strip() for value in values for name in value.split(",") if name.strip()]


@app.command()
def evaluate(
    model: Annotated[
        str | None,
        typer.Option(
            help="Model: a sentence-transformers name or local folder, any model mteb.get_model knows, or a clsd baseline. Default: the embedded all-MiniLM-L6-v2."
        ),
    ] = None,
    tasks: Annotated[
        list[str] | None,
        typer.Option(
            "--tasks",
            "-t",
            help="Task names, comma-separated or repeated. Default: all tasks of the data source (the eight released ones).",
        ),
    ] = None,
    data_dir: Annotated[
        Path | None,
        typer.Option(
            help="Local data: the release CSVs, a Hub-format export, or a generated CLSD dataset folder. Default: $CLSD_DATA_DIR, else the release fetched from GitHub."
        ),
    ] = None,
    hub_dataset: Annotated[
        str | None, typer.Option(help="A Hub-format CLSD dataset on the Hugging Face Hub, as REPO_ID@REVISION.")
    ] = None,
    output: Annotated[
        Path,
        typer.Option(
            help="Results folder: results/<model>/<revision>/<task>.json (mteb's layout) and predictions/<model>/<revision>/."
        ),
    ] = DEFAULT_OUTPUT,
    batch_size: Annotated[int, typer.Option(min=1, help="Encoding batch size.")] = DEFAULT_BATCH_SIZE,
    device: Annotated[
        str | None, typer.Option(help="torch device, e.g. cpu or cuda. Default: chosen by sentence-transformers.")
    ] = None,
    overwrite: Annotated[bool, typer.Option(help="Re-run tasks whose results already exist (default: reuse them).")] = False,
    limit: Annotated[int | None, typer.Option(min=1, help="Evaluate only the first N rows of each task (a trial run).")] = None,
) -> None:
    """Evaluate a model on CLSD tasks and print the paper's Table 1 for it."""
    from clsd_mteb.data_source import resolve_data_source, tasks_for
    from clsd_mteb.models import load_model
    from clsd_mteb.run import evaluate_tasks, prediction_folder
    from clsd_mteb.summary import table1_markdown

    source = resolve_data_source(data_dir, hub_dataset)  # a bad choice fails here, before any model loads
    selected = tasks_for(source, _split_names(tasks), limit=limit)
    typer.echo(f"Data: {source.describe()}; {len(selected)} task(s)" + (f", first {limit} rows each" if limit else ""))
    encoder = load_model(model, device=device)
    meta = encoder.mteb_model_meta
    results = evaluate_tasks(encoder, selected, output, batch_size=batch_size, overwrite=overwrite)
    scores = {r.task_name: r.get_score() for r in results.task_results}
    typer.echo(f"\nPrecision@1 (%) of {meta.name} (revision {meta.revision}):\n")
    typer.echo(table1_markdown({meta.name: scores}))
    typer.echo(f"\nResults: {output / 'results'}   Predictions: {prediction_folder(output, encoder)}")


@app.command("export-release")
def export_release_command(
    out: Annotated[Path, typer.Argument(help="New folder to write the Hub-format dataset into.")],
    data_dir: Annotated[
        Path | None, typer.Option(help="Where the release CSVs are (default: $CLSD_DATA_DIR, else fetched).")
    ] = None,
) -> None:
    """Write the eight released tasks as one Hub-format dataset (eight configs and a card)."""
    from clsd_mteb.export import export_release

    folder = export_release(out, data_dir=data_dir)
    typer.echo(f"Wrote {folder}")
