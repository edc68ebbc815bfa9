"""``clsd push-dataset``: a built dataset to the Hugging Face Hub, with the ``eval.yaml`` that gives it leaderboards there.

The command lives here rather than with the generator's other commands because the ``eval.yaml`` of a folder
built without one is written with the plugin's tasks (:mod:`clsd_mteb.publishing.hub_eval`), and the generator does not
import the plugin.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from clsd_format.declared_settings import option_name
from clsd_format.evaluation_settings import DataChoice
from clsd_format.folders import folder_callback

app = typer.Typer()


@app.command("push-dataset")
def push(
    folder: Annotated[Path, typer.Argument(callback=folder_callback("dataset folder"), help="A folder written by `clsd build`.")],
    repo_id: Annotated[str, typer.Option(help="Hub dataset repository, owner/name.")],
    private: Annotated[bool, typer.Option("--private", help="Create the repository as private.")] = False,
    dry_run: Annotated[
        Path | None,
        typer.Option(
            callback=folder_callback("folder to write into", may_be_missing=True),
            help="Write the exact repository folder here instead of uploading.",
        ),
    ] = None,
) -> None:
    """Upload a built dataset to the Hugging Face Hub.

    The repository gets the card, the data files and eval.yaml (written into the folder first if it has none), which
    declares the tasks for the Hub's leaderboards. The token comes from HF_TOKEN.
    """
    from clsd_generation.dataset import hub_push
    from clsd_mteb.publishing.hub_eval import write_eval_config

    hub_push.plan_push(folder, repo_id)  # a bad repository id or folder stops here, before anything is written
    write_eval_config(folder)
    if dry_run is not None:
        plan = hub_push.dry_run(folder, repo_id, dry_run)
        typer.echo(f"dry run: {len(plan.files)} files of {repo_id} written to {dry_run}")
        return
    commit = hub_push.push(folder, repo_id, private=private)
    hub_dataset = option_name(DataChoice, "hub_dataset")
    typer.echo(f"uploaded {repo_id} at revision {commit}\nevaluate: clsd evaluate {hub_dataset} {repo_id}@{commit}")
