"""The run folder every generator command reads and adds to, declared once: :class:`RunFolder`.

It sits at the bottom of the generator so that what reads the folder (the checkpoint, the dataset builder) names its
options from this declaration; ``clsd generate``'s settings and the other commands' take the same fields
(:func:`~clsd_format.declared_settings.same_as`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from clsd_format.declared_settings import DeclaredSettings, setting
from clsd_format.folders import folder_callback


@dataclass(frozen=True)
class RunFolder(DeclaredSettings):
    """The run folder a command reads (and adds to), and whether it shows progress bars."""

    run_dir: Path = setting(
        help="Folder holding the run's checkpoint (created if absent). Repeat a command with the same folder to resume.",
        check=folder_callback("run folder", may_be_missing=True),
    )
    quiet: bool = setting(False, help="No progress bars.", flag="--quiet")


__all__ = ["RunFolder"]
