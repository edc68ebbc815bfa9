"""What a language contributes to the rule backend: closed word lists and its negation rule."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

# A negation rule returns the sentence with negation added or removed, or None where it finds no place.
Negator = Callable[[str, random.Random], "str | None"]


@dataclass(frozen=True)
class LanguageRules:
    code: str
    months: tuple[str, ...]
    weekdays: tuple[str, ...]
    antonyms: tuple[tuple[str, str], ...]  # each pair is swapped both ways
    negate: Negator
    # Words written capitalised that are not names (sentence words a swap would make odd).
    capitalised_stopwords: frozenset[str] = field(default_factory=frozenset)

    def calendar_words(self) -> frozenset[str]:
        return frozenset(w.casefold() for w in (*self.months, *self.weekdays))
