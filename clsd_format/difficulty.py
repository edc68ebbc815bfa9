"""How hard a CLSD dataset is, as its card reports it: P@1 of reference models on it and on the release.

The plugin computes the scores (:mod:`clsd_mteb.difficulty_scores`); the generator's card renders them. A high
score of the character n-gram baseline, which knows no language, means the distractors can be told from
the translation by spelling alone: the set then tests copying of strings, not reading for meaning.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DifficultyScore:
    model: str
    task: str
    precision_at_1: float  # a share, 0 to 1
    rows: int


@dataclass(frozen=True)
class Difficulty:
    """The built set's scores and, for the same models, the release's (with where those come from)."""

    scores: tuple[DifficultyScore, ...]
    reference: tuple[DifficultyScore, ...]
    reference_source: str  # how the release's figures were measured (version, date, command)
