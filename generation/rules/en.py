"""English: months, weekdays, opposites, and negation with "not" after an auxiliary (CLAWS5 tags)."""

from __future__ import annotations

import random

from clsd_format.tagging import TaggedSentence
from clsd_generation.rules.common import in_name
from clsd_generation.rules.lexicon import Edit, LanguageRules

_CONTRACTED = {
    "isn't": "is",
    "aren't": "are",
    "wasn't": "was",
    "weren't": "were",
    "won't": "will",
    "can't": "can",
    "couldn't": "could",
    "shouldn't": "should",
    "wouldn't": "would",
    "hasn't": "has",
    "haven't": "have",
    "hadn't": "had",
    "doesn't": "does",
    "don't": "do",
    "didn't": "did",
}
_BE = ("VBB", "VBD", "VBZ")
_AUX = ("VM0", "VHB", "VHD", "VHZ", "VDB", "VDD", "VDZ")


def negate(sentence: TaggedSentence, rng: random.Random) -> list[Edit]:
    """Remove "not" or expand "n't"; else add "not" after a form of "be" or an auxiliary before a verb."""
    tokens = sentence.tokens
    edits: list[Edit] = []
    for index, token in enumerate(tokens):
        word = token.text.casefold().replace("\u2019", "'")
        if word == "not" and index > 0 and not in_name(sentence, index - 1):
            edits.append((index - 1, index + 1, tokens[index - 1].text))
        elif word in _CONTRACTED:
            edits.append((index, index + 1, token.text[:1] + _CONTRACTED[word][1:]))
    if not edits:
        for index, token in enumerate(tokens[:-1]):
            following = tokens[index + 1 : index + 3]
            if token.tag in _BE or (token.tag in _AUX and any(t.upos == "VERB" for t in following)):
                if following[0].text.casefold() != "not":
                    edits.append((index, index + 1, token.text + " not"))
    rng.shuffle(edits)
    return edits


RULES = LanguageRules(
    code="en",
    months=(
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ),
    weekdays=("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
    antonyms=(
        ("more", "less"),
        ("before", "after"),
        ("increase", "decrease"),
        ("increased", "decreased"),
        ("rise", "fall"),
        ("rose", "fell"),
        ("higher", "lower"),
        ("first", "last"),
        ("win", "lose"),
        ("won", "lost"),
        ("open", "closed"),
        ("new", "old"),
        ("large", "small"),
        ("early", "late"),
        ("up", "down"),
        ("above", "below"),
        ("best", "worst"),
        ("strong", "weak"),
        ("north", "south"),
        ("east", "west"),
        ("left", "right"),
        ("allowed", "banned"),
        ("yesterday", "tomorrow"),
        ("always", "rarely"),
    ),
    negate=negate,
    negation_words=frozenset({"not"}),
    negation_pairs=dict(_CONTRACTED),
)
