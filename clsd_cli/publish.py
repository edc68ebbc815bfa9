"""``clsd push-dataset``: a built dataset to the Hugging Face Hub, with the ``eval.yaml`` that gives it leaderboards there.

Its options are the declared fields of :class:`clsd_generation.dataset.push_settings.DatasetPush`, the object
:mod:`clsd_generation.dataset.hub_push` takes. The command lives here rather than with the generator's other commands
because the ``eval.yaml`` of a folder built without one is written with the plugin's tasks
(:mod:`clsd_mteb.publishing.hub_eval`), and the generator does not import the plugin.
"""

from __future__ import annotations

import typer

from clsd_cli.declared import declared_command
from clsd_format.declared_settings import option_name
from clsd_format.evaluation_settings import DataChoice
from clsd_generation.dataset.push_settings import DatasetPush

app = typer.Typer()


@declared_command(app, name="push-dataset")
def push(settings: DatasetPush) -> None:
    """Upload a built dataset to the Hugging Face Hub.

    The repository gets the card, the data files and eval.yaml (written into the folder first if it has none), which
    declares the tasks for the Hub's leaderboards. The token comes from HF_TOKEN.
    """
    from clsd_generation.dataset import hub_push
    from clsd_mteb.publishing.hub_eval import write_eval_config

    hub_push.plan_push(settings)  # a bad repository id or folder stops here, before anything is written
    write_eval_config(settings.folder)
    repo_id = settings.repo_id
    if settings.dry_run is not None:
        plan = hub_push.dry_run(settings)
        typer.echo(f"dry run: {len(plan.files)} files of {repo_id} written to {settings.dry_run}")
        return
    commit = hub_push.push(settings)
    hub_dataset = option_name(DataChoice, "hub_dataset")
    typer.echo(f"uploaded {repo_id} at revision {commit}\nevaluate: clsd evaluate {hub_dataset} {repo_id}@{commit}")
