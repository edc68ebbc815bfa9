"""The top of the generator: the four steps as library calls (:mod:`.steps`: ``generate``, ``translate``, ``judge``,
``build``), the run loop (:mod:`.loop`), the backends by name (:mod:`.backends`) and the settings they take.

``from clsd_generation.run import generate`` works; the steps are imported when first asked for, so that a command's
``--help``, which reads the settings classes here, stays fast.
"""

from __future__ import annotations

from typing import Any

STEPS = ("GenerationResult", "JudgeResult", "TranslationResult", "build", "generate", "judge", "translate")


def __getattr__(name: str) -> Any:
    if name in STEPS:
        from clsd_generation.run import steps

        return getattr(steps, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = list(STEPS)
