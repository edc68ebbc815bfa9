"""What ``clsd push-dataset`` is asked, declared once: :class:`DatasetPush`.

:mod:`clsd_generation.dataset.hub_push` takes this object and the command is made from its fields
(:mod:`clsd_cli.declared`). Kept free of the uploader's imports, so that the command's ``--help`` loads neither it nor
``huggingface_hub``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from clsd_format.declared_settings import DeclaredSettings, setting
from clsd_format.folders import WRITE_FOLDER, folder_callback


@dataclass(frozen=True)
class DatasetPush(DeclaredSettings):
    """The built dataset folder, the Hub repository it goes to, and whether it is uploaded or written to a folder."""

    folder: Path = setting(help="A folder written by `clsd build`.", argument=True, check=folder_callback("dataset folder"))
    repo_id: str = setting(help="Hub dataset repository, owner/name.")
    private: bool = setting(False, help="Create the repository as private.", flag="--private")
    dry_run: Path | None = setting(
        None,
        help="Write the exact repository folder here instead of uploading.",
        check=WRITE_FOLDER,
    )


__all__ = ["DatasetPush"]
