"""``clsd export-results`` and ``clsd push-results``: CLSD results for the MTEB results repository, or for the Hub.

Their options are the declared fields of :class:`clsd_format.publishing_settings.ResultsExportSettings` and
:class:`~clsd_format.publishing_settings.ResultsPushSettings`, the objects the exporters take. Only typer and
those light declarations are imported at module level; mteb loads inside the command (see
``tests/cli/test_cli_startup.py``).
"""

from __future__ import annotations

import typer

from clsd_cli.declared import declared_command
from clsd_format.publishing_settings import ResultsExportSettings, ResultsPushSettings

app = typer.Typer(add_completion=False)


@declared_command(app, name="export-results")
def export_results_command(settings: ResultsExportSettings) -> None:
    """Copy results ready for the MTEB results repository.

    Into OUT, in that repository's layout: OUT/results/<org>__<model>/<revision>/ gets each task's result JSON as mteb wrote it, model_meta.json and
    run_settings.jsonl; OUT/README.md is the pull-request text (scores, data, licence, what to know about tasks
    that mteb does not ship) and OUT/tasks.json the tasks' full metadata. Only results on published data (no
    --limit, no locally modified files), of this evaluator version, that pass mteb's own check go in; the
    others are listed with the reason. An existing non-empty OUT is never overwritten.
    """
    from clsd_mteb.publishing.results_export import export_results

    export = export_results(settings)
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


@declared_command(app, name="push-results")
def push_results_command(settings: ResultsPushSettings) -> None:
    """Publish a model's CLSD results on the Hugging Face Hub.

    For the Hub's leaderboards, mteb's own push (ModelMeta.push_eval_results) writes one file per task into the
    model repository's .eval_results/, naming the dataset repository, its revision and the task ids of its eval.yaml
    (clsd build and clsd push-dataset write one). Only results computed on data on the Hub go: a dataset published with clsd
    push-dataset, or the authors' Andrianos/clsd_wmt19_21; every other result is listed with the reason. The token comes from
    HF_TOKEN.
    """
    from clsd_mteb.publishing.hub_results import plan_results_push, push_results, write_dry_run

    plan = plan_results_push(settings)
    scores = ", ".join(f"{task} {score:.2f}" for task, score in plan.scores.items())
    typer.echo(f"{plan.model.name} ({plan.model.revision}) on {plan.dataset}: {scores}")
    for path, reason in plan.skipped:
        typer.echo(f"  left out {path}: {reason}")
    if settings.dry_run is not None:
        written = write_dry_run(plan, settings.dry_run, settings.user)
        typer.echo(f"dry run: {len(written)} files of the model repository {plan.repo_id} written to {settings.dry_run}")
        return
    push_results(plan, settings.user, create_pr=settings.create_pr)
    typer.echo(
        f"uploaded to {plan.repo_id}/.eval_results/; the Hub lists them on {plan.source.location}'s leaderboard "
        "where that repository's eval.yaml declares these tasks."
    )
