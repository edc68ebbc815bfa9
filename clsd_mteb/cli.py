"""The ``clsd`` command: evaluate, export the release, and the generation / analysis commands.

Errors a user can fix exit with status 2 and one line on stderr; ``--debug`` shows the traceback.
Models, data and torch are loaded inside the commands that need them.
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from clsd_mteb.run import DEFAULT_BATCH_SIZE

app = typer.Typer(
    help="Cross-Lingual Semantic Discrimination (CLSD) for MTEB: evaluate models, build datasets, analyse results. "
    "Add --debug to any command to see tracebacks.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)

DEFAULT_OUTPUT = Path("clsd-results")


def _split_names(values: list[str] | None) -> list[str] | None:
    if not values:
        return None
    return [name.strip() for value in values for name in value.split(",") if name.strip()]


def resolve_tasks(task_names: list[str] | None, data_dir: Path | None, hub_dataset: str | None) -> list[Any]:
    """Task instances for a run: the released tasks, or the tasks a Hub-format dataset defines."""
    import clsd_mteb
    from clsd_format import hub
    from clsd_format.errors import CLSDError
    from clsd_mteb.release import resolve_data_dir
    from clsd_mteb.tasks import RELEASE_TASK_NAMES, tasks_from_folder, tasks_from_hub

    data_dir = resolve_data_dir(data_dir)  # a bad --data-dir / $CLSD_DATA_DIR fails now, before any model loads
    if hub_dataset:
        repo_id, _, revision = hub_dataset.partition("@")
        if not revision:
            raise CLSDError("--hub-dataset needs a pinned revision: REPO_ID@COMMIT")
        classes = tasks_from_hub(repo_id, revision)
    elif data_dir is not None and hub.is_hub_folder(data_dir) and not set(
        spec.task_name for spec in hub.read_manifest(data_dir)
    ) <= set(RELEASE_TASK_NAMES):
        classes = tasks_from_folder(data_dir)
    else:
        unknown = [n for n in task_names or [] if n not in RELEASE_TASK_NAMES]
        if unknown:
            raise CLSDError(f"unknown task(s) {unknown}; the released tasks are {list(RELEASE_TASK_NAMES)}")
        return clsd_mteb.get_tasks(task_names, data_dir=data_dir)
    by_name = {cls.metadata.name: cls for cls in classes}
    unknown = [n for n in task_names or [] if n not in by_name]
    if unknown:
        raise CLSDError(f"unknown task(s) {unknown}; this dataset defines {list(by_name)}")
    return [by_name[name]() for name in task_names or by_name]


@app.command()
def evaluate(
    model: Annotated[
        str | None,
        typer.Option(help="Model: a sentence-transformers name or local folder, any model mteb.get_model knows, or a clsd baseline. Default: the embedded all-MiniLM-L6-v2."),
    ] = None,
    tasks: Annotated[
        list[str] | None,
        typer.Option("--tasks", "-t", help="Task names, comma-separated or repeated. Default: all tasks of the data source (the eight released ones)."),
    ] = None,
    data_dir: Annotated[
        Path | None,
        typer.Option(help="Local data: the release CSVs, a Hub-format export, or a generated CLSD dataset folder. Default: $CLSD_DATA_DIR, else the release fetched from GitHub."),
    ] = None,
    hub_dataset: Annotated[
        str | None, typer.Option(help="A Hub-format CLSD dataset on the Hugging Face Hub, as REPO_ID@REVISION.")
    ] = None,
    output: Annotated[
        Path, typer.Option(help="Results folder: results/<model>/<revision>/<task>.json (mteb's layout) and predictions/<model>/<revision>/.")
    ] = DEFAULT_OUTPUT,
    batch_size: Annotated[int, typer.Option(min=1, help="Encoding batch size.")] = DEFAULT_BATCH_SIZE,
    device: Annotated[str | None, typer.Option(help="torch device, e.g. cpu or cuda. Default: chosen by sentence-transformers.")] = None,
    overwrite: Annotated[bool, typer.Option(help="Re-run tasks whose results already exist (default: reuse them).")] = False,
) -> None:
    """Evaluate a model on CLSD tasks and print the paper's Table 1 for it."""
    from clsd_mteb.models import load_model
    from clsd_mteb.run import evaluate_tasks, prediction_folder
    from clsd_mteb.summary import table1_markdown

    selected = resolve_tasks(_split_names(tasks), data_dir, hub_dataset)
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
    data_dir: Annotated[Path | None, typer.Option(help="Where the release CSVs are (default: $CLSD_DATA_DIR, else fetched).")] = None,
) -> None:
    """Write the eight released tasks as one Hub-format dataset (eight configs and a card)."""
    from clsd_mteb.export import export_release

    folder = export_release(out, data_dir=data_dir)
    typer.echo(f"Wrote {folder}")


def _mount_optional_apps() -> None:
    """Add the generation and analysis commands when those packages provide them."""
    for module_name in ("clsd_generation.cli", "clsd_analysis.cli"):
        try:
            module = __import__(module_name, fromlist=["app"])
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue
        for command in module.app.registered_commands:
            app.registered_commands.append(command)


_mount_optional_apps()


def main(argv: list[str] | None = None) -> None:
    """Entry point: readable errors with exit status 2, tracebacks only with --debug."""
    import click

    from clsd_format.errors import CLSDError

    args = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args  # accepted anywhere on the line, for every command
    args = [a for a in args if a != "--debug"]
    logging.basicConfig(level=logging.INFO if debug else logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    try:
        app(args=args, prog_name="clsd", standalone_mode=False)
    except click.exceptions.Exit as exc:
        raise SystemExit(exc.exit_code) from None
    except click.ClickException as exc:
        exc.show()
        raise SystemExit(exc.exit_code) from None
    except click.exceptions.Abort:
        typer.echo("Aborted.", err=True)
        raise SystemExit(130) from None
    except (CLSDError, Exception) as exc:  # noqa: BLE001 -- the user gets one line, not a traceback
        if debug:
            raise
        kind = "" if isinstance(exc, CLSDError) else f"{type(exc).__name__}: "
        typer.echo(f"error: {kind}{exc}", err=True)
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()
