"""``clsd export-results`` and ``clsd push-results``: CLSD results for the MTEB results repository, or for the Hub.

Only typer and the light ``clsd_format`` are imported at module level; mteb loads inside the command (see
``tests/cli/test_cli_startup.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from clsd_cli.folder_arguments import WRITE_FOLDER, out_argument
from clsd_format.declared_settings import option_name
from clsd_format.evaluation_settings import DataChoice, EvaluationSettings
from clsd_format.folders import folder_callback

app = typer.Typer(add_completion=False)

RESULTS_FOLDER = folder_callback("results folder")
RESULTS_HELP = f"The folder clsd evaluate {option_name(EvaluationSettings, 'output')} (or mteb run --output-folder) wrote."
# The folder both commands read, declared once.
ResultsDir = Annotated[Path, typer.Argument(metavar="RESULTS_DIR", callback=RESULTS_FOLDER, help=RESULTS_HELP)]


@app.command("export-results")
def export_results_command(
    results_dir: ResultsDir,
    out: Annotated[Path, out_argument("New (or empty) folder to write the submission into.")],
) -> None:
    """Copy results ready for the MTEB results repository.

    Into OUT, in that repository's layout: OUT/results/<org>__<model>/<revision>/ gets each task's result JSON as mteb wrote it, model_meta.json and
    run_settings.jsonl; OUT/README.md is the pull-request text (scores, data, licence, what to know about tasks
    that mteb does not ship) and OUT/tasks.json the tasks' full metadata. Only results on published data (no
    --limit, no locally modified files), of this evaluator version, that pass mteb's own check go in; the
    others are listed with the reason. An existing non-empty OUT is never overwritten.
    """
    from clsd_mteb.publishing.results_export import export_results

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


@app.command("push-results")
def push_results_command(
    results_dir: ResultsDir,
    hub_dataset: Annotated[
        str,
        typer.Option(
            metavar="REPO_ID@REVISION",
            help="The Hub dataset the results were computed on, as given to clsd evaluate "
            f"{option_name(DataChoice, 'hub_dataset')} "
            "(Andrianos/clsd_wmt19_21 defaults to the revision mteb pinned).",
        ),
    ],
    model: Annotated[
        str | None, typer.Option(metavar="NAME[@REVISION]", help="Whose results, when the folder holds several models'.")
    ] = None,
    user: Annotated[
        str | None, typer.Option(metavar="NAME", help="Hub user or organisation shown as the results' source (mteb's `user`).")
    ] = None,
    create_pr: Annotated[
        bool, typer.Option("--create-pr", help="Open a pull request on the model repository instead of committing.")
    ] = False,
    dry_run: Annotated[
        Path | None,
        typer.Option(
            metavar="OUT",
            callback=WRITE_FOLDER,
            help="Write the files that would be uploaded into OUT instead.",
        ),
    ] = None,
) -> None:
    """Publish a model's CLSD results on the Hugging Face Hub.

    For the Hub's leaderboards, mteb's own push (ModelMeta.push_eval_results) writes one file per task into the
    model repository's .eval_results/, naming the dataset repository, its revision and the task ids of its eval.yaml
    (clsd build and clsd push-dataset write one). Only results computed on data on the Hub go: a dataset published with clsd
    push-dataset, or the authors' Andrianos/clsd_wmt19_21; every other result is listed with the reason. The token comes from
    HF_TOKEN.
    """
    from clsd_mteb.publishing.hub_results import plan_results_push, push_results, write_dry_run

    plan = plan_results_push(results_dir, hub_dataset, model)
    scores = ", ".join(f"{task} {score:.2f}" for task, score in plan.scores.items())
    typer.echo(f"{plan.model.name} ({plan.model.revision}) on {plan.dataset}: {scores}")
    for path, reason in plan.skipped:
        typer.echo(f"  left out {path}: {reason}")
    if dry_run is not None:
        written = write_dry_run(plan, dry_run, user)
        typer.echo(f"dry run: {len(written)} files of the model repository {plan.repo_id} written to {dry_run}")
        return
    push_results(plan, user, create_pr=create_pr)
    typer.echo(
        f"uploaded to {plan.repo_id}/.eval_results/; the Hub lists them on {plan.source.location}'s leaderboard "
        "where that repository's eval.yaml declares these tasks."
    )
