"""``clsd export-results``: CLSD results ready for a pull request to the MTEB results repository.

Only typer is imported at module level; mteb loads inside the command (see ``tests/test_cli_startup.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(add_completion=False)


@app.command("export-results")
def export_results_command(
    results_dir: Annotated[
        Path,
        typer.Argument(metavar="RESULTS_DIR", help="The folder clsd evaluate --output (or mteb run --output-folder) wrote."),
    ],
    out: Annotated[Path, typer.Argument(metavar="OUT", help="New (or empty) folder to write the submission into.")],
) -> None:
    """Copy results ready for the MTEB results repository.

    Into OUT, in that repository's layout: OUT/results/<org>__<model>/<revision>/ gets each task's result JSON as mteb wrote it, model_meta.json and
    run_settings.jsonl; OUT/README.md is the pull-request text (scores, data, licence, what to know about tasks
    that mteb does not ship) and OUT/tasks.json the tasks' full metadata. Only results on published data (no
    --limit, no locally modified files), of this evaluator version, that pass mteb's own check go in; the
    others are listed with the reason. An existing non-empty OUT is never overwritten.
    """
    from clsd_mteb.results_export import export_results

    export = export_results(results_dir, out)
    models = sorted({(item.model, item.revision) for item in export.exported})
    typer.echo(f"Wrote {export.folder}: {len(export.exported)} results of {len(models)} model revision(s)")
    for model, revision in models:
        tasks = [item for item in export.exported if (item.model, item.revision) == (model, revision)]
        scores = ", ".join(f"{item.task} {100 * item.main_score:.2f}" for item in tasks)
        typer.echo(f"  {model} ({revision}): {scores}")
    for path, reason in export.skipped:
        typer.echo(f"  left out {path}: {reason}")
    if export.models_outside_mteb:
        typer.echo(
            "  note: registered by clsd-mteb, not by mteb (the results repository takes models mteb implements): "
            + ", ".join(export.models_outside_mteb)
        )
    typer.echo(f"Next: read {export.folder / 'README.md'}, then copy results/ into a clone of the results repository.")
