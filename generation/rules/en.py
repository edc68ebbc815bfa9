"""English: months, weekdays, opposites, and negation with "not"."""

from __future__ import annotations

import random
import re

from clsd_generation.rules.common import insert_after_first
from clsd_generation.rules.lexicon import LanguageRules

_AUX = ("is", "are", "was", "were", "will", "can", "could", "should", "would", "has", "have", "had", "must", "may", "might")
_CONTRACTED = {"isn't": "is", "aren't": "are", "wasn't": "was", "weren't": "were", "won't": "will", "can't": "can",
               "couldn't": "could", "shouldn't": "should", "wouldn't": "would", "hasn't": "has", "haven't": "have",
               "hadn't": "had", "doesn't": "does", "don't": "do", "didn't": "did"}


def negate(sentence: str, rng: random.Random) -> str | None:
    """Remove "not" / "n't" or turn "never" into "always"; else add "not" after an auxiliary."""
    options = []
    if re.search(r"\bnot\b", sentence):
        options.append(re.sub(r"\s*\bnot\b", "", sentence, count=1))
    contracted = [m for m in re.finditer(r"\b\w+n['’]t\b", sentence) if m.group().casefold().replace("’", "'") in _CONTRACTED]
    for m in contracted[:1]:
        options.append(sentence[: m.start()] + _CONTRACTED[m.group().casefold().replace("’", "'")] + sentence[m.end() :])
    if re.search(r"\bnever\b", sentence):
        options.append(re.sub(r"\bnever\b", "always", sentence, count=1))
    if not options:
        inserted = insert_after_first(sentence, _AUX, "not", rng)
        if inserted:
            options.append(inserted)
    return rng.choice(options) if options else None


RULES = LanguageRules(
    code="en",
    months=("January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"),
    weekdays=("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
    antonyms=(
        ("more", "less"), ("before", "after"), ("increase", "decrease"), ("increased", "decreased"), ("rise", "fall"),
        ("rose", "fell"), ("higher", "lower"), ("first", "last"), ("win", "lose"), ("won", "lost"), ("open", "closed"),
        ("new", "old"), ("large", "small"), ("early", "late"), ("up", "down"), ("above", "below"), ("best", "worst"),
        ("strong", "weak"), ("north", "south"), ("east", "west"), ("left", "right"), ("allowed", "banned"),
        ("yesterday", "tomorrow"), ("always", "rarely"),
    ),
    negate=negate,
    capitalised_stopwords=frozenset({"i", "mr", "mrs", "ms"}),
)
