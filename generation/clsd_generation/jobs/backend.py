"""The one call shape of every distractor backend (rules, live LLM requests, the Batch API).

A backend says what of it belongs in the checkpoint's fingerprint, refuses settings that cannot work
before the run folder is touched, and runs the unfinished sentences of a :class:`RunContext`; the run
itself (corpus, checkpoint, resume, report) is :func:`clsd_generation.run.loop.generate_distractors`,
the same for all of them. The backends are in :mod:`clsd_generation.run.backends`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from clsd_format.errors import CLSDError
from clsd_format.languages import Language
from clsd_generation.core.checkpoint import Checkpoint
from clsd_generation.core.inputs import ParallelPair
from clsd_generation.core.settings import ValidationBounds
from clsd_generation.core.summary import RunReport
from clsd_generation.jobs.state import JobState


@dataclass(frozen=True)
class RunContext:
    """What a backend is handed besides the sentences: where answers go, how they are judged and counted."""

    checkpoint: Checkpoint
    pairs: Sequence[ParallelPair]  # the whole corpus (the rule backend draws its vocabulary from all of it)
    languages: tuple[Language, Language]
    bounds: ValidationBounds
    report: RunReport
    max_attempts: int
    progress: bool
    # Receives the lines a backend says before its work (the rule backend: its rules and their likely coverage);
    # None: nobody listens (RunOptions.announce).
    announce: Callable[[str], None] | None = None


class NothingToMake(CLSDError):
    """A backend found, before its work, that the run would make no dataset (the rule backend's estimate): the run
    stops, and a checkpoint this invocation began, holding nothing, is removed, so that other settings may use the
    run folder."""


class DistractorBackend(Protocol):
    @property
    def name(self) -> str:
        """``rules`` or ``llm``: the backend as the checkpoint fingerprint and the card name it."""
        ...

    def describe(self) -> str:
        """The run report's backend line ("rules", "llm (live, gpt-4-0613)")."""
        ...

    def check(self, languages: tuple[Language, Language]) -> None:
        """Raise :class:`clsd_format.errors.CLSDError` for settings that cannot work, before any work."""
        ...

    def fingerprint(self, languages: tuple[Language, Language]) -> dict[str, object]:
        """What of this backend decides a finished sentence's distractors: a resumed run must match it."""
        ...

    def endpoint(self) -> str | None:
        """The endpoint to record (without credentials), or None for a backend that asks none."""
        ...

    def run(self, states: Sequence[JobState], context: RunContext) -> RunReport:
        """Settle the unfinished sentences, recording every answer in ``context.checkpoint`` as it arrives."""
        ...
