"""The settings of the generator's other commands (``translate``, ``judge``, ``build``) that no library class holds.

Each is a frozen dataclass whose fields declare their ``clsd`` option (:mod:`clsd_format.declared_settings`); a
setting one of them shares with ``clsd generate`` (the run folder) is declared as that setting
(:func:`~clsd_format.declared_settings.same_as`), so its help, default and checks are written once. The settings the
library runs on (the endpoint, the translator, the judge, the dataset's description) are their own classes, taken
whole by :mod:`clsd_generation.run.steps`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from clsd_format.declared_settings import DeclaredSettings, same_as, setting
from clsd_format.folders import folder_callback
from clsd_generation.dataset.description import DatasetDescription
from clsd_generation.run.settings import RunChoices

OPTIONS = "Options"


@dataclass(frozen=True)
class RunFolder(DeclaredSettings):
    """The run folder a command reads (and adds to), and whether it shows progress bars."""

    run_dir: Path = same_as(RunChoices, "run_dir", panel=OPTIONS)
    quiet: bool = same_as(RunChoices, "quiet", panel=OPTIONS)


@dataclass(frozen=True)
class JudgeOptions(DeclaredSettings):
    """``clsd judge``: which distractors are judged, and the annotators' sheet to compare the judge with."""

    sample: int | None = setting(
        None, help="Judge a seeded sample of N distractors per language (default: all).", panel=OPTIONS, minimum=1
    )
    seed: int = setting(0, help="Sampling seed.", panel=OPTIONS)
    against: Path | None = setting(
        None, help="A sheet filled by annotators (`clsd check-sample`): report the judge's agreement with it.", panel=OPTIONS
    )


@dataclass(frozen=True)
class BuildOptions(DeclaredSettings):
    """``clsd build``: what the dataset's card says of it, the run, where its dataset goes, and which sentences it keeps."""

    # first: a field without a default comes before those with one (the name is required)
    description: DatasetDescription = field()  # its fields are options of their own (the name, the licence, the dates, ...)
    run_dir: Path = same_as(RunChoices, "run_dir", panel=OPTIONS)
    out: Path = setting(
        help="New folder for the Hub-format dataset (must not exist or be empty).",
        panel=OPTIONS,
        check=folder_callback("folder to write into", may_be_missing=True),
    )
    allow_incomplete: bool = setting(
        False, help="Build although some sentences are unfinished.", panel=OPTIONS, flag="--allow-incomplete"
    )
    drop_invalid: bool = setting(
        False,
        help="Leave out every sentence with a distractor `clsd judge` found invalid (the card counts them; unjudged ones stay).",
        panel=OPTIONS,
        flag="--drop-invalid",
    )
    no_score: bool = setting(
        False,
        help="Do not score the set for the card (character n-gram baseline and default model).",
        panel=OPTIONS,
        flag="--no-score",
    )
    keep_refused_translations: bool = setting(
        False,
        help="Build the pivot configs from every non-empty translation, also those refused as not translating their "
        "source (the card says so).",
        panel=OPTIONS,
        flag="--keep-refused-translations",
    )


__all__ = ["BuildOptions", "JudgeOptions", "RunFolder"]
