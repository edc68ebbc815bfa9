"""What a language contributes to the rule backend: closed word lists and its negation rule."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from clsd_format.tagging import TaggedSentence

# An edit: replace tokens [start, end) of a tagged sentence by ``text`` (the rule backend's one unit of change).
Edit = tuple[int, int, str]
# A negation rule lists the edits that add or remove negation in a tagged sentence.
Negator = Callable[[TaggedSentence, random.Random], "list[Edit]"]


@dataclass(frozen=True)
class LanguageRules:
    code: str
    months: tuple[str, ...]
    weekdays: tuple[str, ...]
    antonyms: tuple[tuple[str, str], ...]  # each pair is swapped both ways
    negate: Negator
    # Negation words (case-folded) the check ignores when it compares a negated sentence with its original;
    # ``negation_pairs`` maps a negative word to its positive counterpart ("keinen" -> "einen").
    negation_words: frozenset[str] = field(default_factory=frozenset)
    negation_pairs: dict[str, str] = field(default_factory=dict)

    def calendar_words(self) -> frozenset[str]:
        return frozenset(w.casefold() for w in (*self.months, *self.weekdays))
