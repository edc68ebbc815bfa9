"""What ``clsd check-sample`` and ``clsd check-import`` are asked, declared once: :class:`SampleSettings` and
:class:`FilledSheet`.

:func:`clsd_generation.dataset.human_check.export_sample` and :func:`~clsd_generation.dataset.human_check.import_sample`
take these objects and the commands are made from their fields (:mod:`clsd_cli.declared`); the run folder is the one
every generator command takes (:class:`~clsd_generation.core.run_folder.RunFolder`). Kept free of the checkpoint's
imports, so that the commands' ``--help`` loads neither.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from clsd_format.declared_settings import DeclaredSettings, same_as, setting
from clsd_generation.core.run_folder import RunFolder


@dataclass(frozen=True)
class SampleSettings(DeclaredSettings):
    """The run whose distractors are sampled, the sheet written for annotators, and the sample's size and seed."""

    run_dir: Path = same_as(RunFolder, "run_dir")
    sheet: Path = setting(help="CSV sheet to write for annotators.")
    per_language: int = setting(200, help="Distractors sampled per language (paper: 200).", minimum=1)
    seed: int = setting(0, help="Sampling seed.")


@dataclass(frozen=True)
class FilledSheet(DeclaredSettings):
    """The sheet annotators filled in."""

    sheet: Path = setting(help="The sheet from `clsd check-sample`, filled in (yes/no in each criterion column).", argument=True)


__all__ = ["FilledSheet", "SampleSettings"]
