"""The settings of ``clsd build``: :class:`BuildOptions`, what :func:`clsd_generation.run.steps.build` runs on.

Declared beside the builder that reads them, so that its messages name the options from these declarations
(:func:`~clsd_format.declared_settings.option_name`); the run folder is the one every generator command takes
(:class:`~clsd_generation.core.run_folder.RunFolder`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from clsd_format.declared_settings import DeclaredSettings, same_as, setting
from clsd_format.folders import WRITE_FOLDER
from clsd_generation.core.run_folder import RunFolder
from clsd_generation.dataset.description import DatasetDescription


@dataclass(frozen=True)
class BuildOptions(DeclaredSettings):
    """``clsd build``: what the dataset's card says of it, the run, where its dataset goes, and which sentences it keeps."""

    # first: a field without a default comes before those with one (the name is required)
    description: DatasetDescription = field()  # its fields are options of their own (the name, the licence, the dates, ...)
    run_dir: Path = same_as(RunFolder, "run_dir")
    out: Path = setting(
        help="New folder for the Hub-format dataset (must not exist or be empty).",
        check=WRITE_FOLDER,
    )
    allow_incomplete: bool = setting(False, help="Build although some sentences are unfinished.", flag="--allow-incomplete")
    drop_invalid: bool = setting(
        False,
        help="Leave out every sentence with a distractor `clsd judge` found invalid (the card counts them; unjudged ones stay).",
        flag="--drop-invalid",
    )
    no_score: bool = setting(
        False,
        help="Do not score the set for the card (character n-gram baseline and default model).",
        flag="--no-score",
    )
    keep_refused_translations: bool = setting(
        False,
        help="Build the pivot configs from every non-empty translation, also those refused as not translating their "
        "source (the card says so).",
        flag="--keep-refused-translations",
    )


__all__ = ["BuildOptions"]
