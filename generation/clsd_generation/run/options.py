"""The settings of ``clsd judge`` that no library class holds: which distractors are judged, against which sheet.

A frozen dataclass whose fields declare their ``clsd`` option (:mod:`clsd_format.declared_settings`). The settings
the library runs on (the run folder, the endpoint, the translator, the judge, the build) are their own classes, taken
whole by :mod:`clsd_generation.run.steps`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from clsd_format.declared_settings import DeclaredSettings, setting


@dataclass(frozen=True)
class JudgeOptions(DeclaredSettings):
    """``clsd judge``: which distractors are judged, and the annotators' sheet to compare the judge with."""

    sample: int | None = setting(None, help="Judge a seeded sample of N distractors per language (default: all).", minimum=1)
    seed: int = setting(0, help="Sampling seed.")
    against: Path | None = setting(
        None, help="A sheet filled by annotators (`clsd check-sample`): report the judge's agreement with it."
    )


__all__ = ["JudgeOptions"]
