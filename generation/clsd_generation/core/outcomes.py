"""What a sentence, an answer and an asking come to: the values every backend hands on, typed.

A sentence is *settled* once, for good (:class:`Settled`: distractors kept, or failed with a reason); one answer
(an LLM's reply or the rules' draw) has an :class:`AnswerEffect` on its sentence (settled it or not, what it
refused); one sentence's asking in this run ends in an :class:`Outcome`, which the run report counts.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field


class Status(str, enum.Enum):
    """A settled sentence's status as the checkpoint stores it (the text values are the stored ones)."""

    OK = "ok"
    FAILED = "failed"


@dataclass(frozen=True)
class Settled:
    """A sentence's final result: its distractors (status ok) or why it has none (failed), after ``attempts`` answers."""

    status: Status
    distractors: Sequence[str]
    reason: str | None
    attempts: int

    @classmethod
    def ok(cls, distractors: Sequence[str], attempts: int) -> Settled:
        return cls(Status.OK, list(distractors), None, attempts)

    @classmethod
    def failed(cls, reason: str, attempts: int) -> Settled:
        return cls(Status.FAILED, [], reason, attempts)


class Outcome(enum.Enum):
    """How one sentence's asking ended in this run."""

    OK = "ok"  # settled with distractors
    FAILED = "failed"  # settled without: too few valid distractors after the attempt limit, or the request refused
    UNFINISHED = "unfinished"  # not settled: asked again by the next run (transient errors, the token limit)

    @classmethod
    def of(cls, settled: Settled) -> Outcome:
        return cls.OK if settled.status is Status.OK else cls.FAILED


@dataclass(frozen=True)
class AnswerEffect:
    """What one answer did to its sentence: settled it (or not), and what of it was refused or flagged."""

    settled: Settled | None
    refused: list[str] = field(default_factory=list)  # the kind of each candidate this answer refused
    markup: Counter[tuple[str, str]] = field(default_factory=Counter)  # (refused or kept, kind) -> this answer's candidates
    unchecked: Counter[str] = field(default_factory=Counter)  # paper protocol: kept items an answer check would refuse
