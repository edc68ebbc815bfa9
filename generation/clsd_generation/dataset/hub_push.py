"""Publish a built dataset folder as a Hugging Face dataset repository.

The folder ``clsd build`` writes *is* the repository (card with ``configs:``, parquet files, ``eval.yaml``), so
publishing uploads exactly those files with ``huggingface_hub``; ``--dry-run`` copies the same file
list to a local folder instead, so what would be uploaded can be inspected and evaluated offline.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from clsd_format import hub
from clsd_format.declared_settings import option_name
from clsd_format.errors import CLSDError, DataError
from clsd_generation.dataset.push_settings import DatasetPush


@dataclass(frozen=True)
class PushPlan:
    repo_id: str
    files: list[str]  # relative paths, the repository's content


def plan_push(settings: DatasetPush) -> PushPlan:
    """Check the folder is a complete CLSD dataset and list what goes into the repository."""
    folder, repo_id = Path(settings.folder), settings.repo_id
    hub.check_repo_id(repo_id)
    header = hub.read_front_matter(folder)
    specs = hub.read_manifest_from_header(header, where=str(folder / hub.CARD_FILE))
    hub.check_files(folder, header)  # a file changed since the card recorded its SHA-256 is not published under it
    for spec in specs:
        hub.read_config(folder, spec.config)  # every config present and valid before anything leaves the machine
    evaluation = [hub.EVAL_FILE] if (folder / hub.EVAL_FILE).is_file() else []  # the Hub's leaderboard config
    files = [hub.CARD_FILE, *evaluation] + [str(hub.parquet_path(Path(), spec.config)) for spec in specs]
    return PushPlan(repo_id, files)


def dry_run(settings: DatasetPush) -> PushPlan:
    """Write the exact repository folder to ``settings.dry_run`` instead of uploading."""
    if settings.dry_run is None:
        raise ValueError("a dry run writes into the folder settings.dry_run names; it names none")
    plan = plan_push(settings)
    folder, target = Path(settings.folder), Path(settings.dry_run)
    if target.exists() and any(target.iterdir()):
        raise DataError("already exists and is not empty; refusing to overwrite (choose another folder).", file=str(target))
    for relative in plan.files:
        destination = target / relative
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(Path(folder) / relative, destination)
    return plan


def push(settings: DatasetPush) -> str:
    """Upload; returns the commit hash to cite (a Hub task needs an exact revision)."""
    plan = plan_push(settings)
    folder, repo_id = settings.folder, settings.repo_id
    token = hub.hub_token(f"an upload to {repo_id}", option_name(DatasetPush, "dry_run"))
    from huggingface_hub import HfApi

    api = HfApi(token=token)
    try:
        api.create_repo(repo_id, repo_type="dataset", private=settings.private, exist_ok=True)
        commit = api.upload_folder(
            repo_id=repo_id,
            repo_type="dataset",
            folder_path=str(folder),
            allow_patterns=plan.files,
            commit_message="Upload CLSD dataset made with clsd-mteb",
        )
    except Exception as exc:  # network and Hub errors come in many types
        raise CLSDError(f"upload to {repo_id} failed ({type(exc).__name__}: {exc}).") from exc
    return commit.oid
