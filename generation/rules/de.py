"""German: months, weekdays, opposites, and negation with "nicht" / "kein"."""

from __future__ import annotations

import random
import re

from clsd_generation.rules.common import insert_after_first, match_case
from clsd_generation.rules.lexicon import LanguageRules

_FINITE = ("ist", "sind", "war", "waren", "wird", "werden", "wurde", "wurden", "hat", "haben", "hatte", "hatten",
           "kann", "können", "konnte", "konnten", "muss", "müssen", "soll", "sollen", "sollte", "will", "wollen", "darf")
_KEIN = re.compile(r"\b([Kk])ein(e[mnrs]?|)\b")
_EIN = re.compile(r"\b([Ee])in(e[mnrs]?|)\b")


def negate(sentence: str, rng: random.Random) -> str | None:
    """Remove "nicht" or turn "kein" into "ein"; else add "nicht" after a finite verb or turn "ein" into "kein"."""
    options = []
    if re.search(r"\bnicht\b", sentence):
        options.append(re.sub(r"\s*\bnicht\b", "", sentence, count=1))
    if _KEIN.search(sentence):
        options.append(_KEIN.sub(lambda m: match_case(m.group(1), "e") + "in" + m.group(2), sentence, count=1))
    if re.search(r"\bnie\b", sentence):
        options.append(re.sub(r"\bnie\b", "immer", sentence, count=1))
    if not options:
        inserted = insert_after_first(sentence, _FINITE, "nicht", rng)
        if inserted:
            options.append(inserted)
        if _EIN.search(sentence):
            options.append(_EIN.sub(lambda m: ("K" if m.group(1) == "E" else "k") + "ein" + m.group(2), sentence, count=1))
    return rng.choice(options) if options else None


RULES = LanguageRules(
    code="de",
    months=("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"),
    weekdays=("Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag"),
    antonyms=(
        ("mehr", "weniger"), ("vor", "nach"), ("erste", "letzte"), ("ersten", "letzten"), ("höher", "niedriger"),
        ("gestiegen", "gesunken"), ("steigt", "sinkt"), ("gewonnen", "verloren"), ("gewinnt", "verliert"),
        ("neue", "alte"), ("neuen", "alten"), ("groß", "klein"), ("große", "kleine"), ("früher", "später"),
        ("Norden", "Süden"), ("Osten", "Westen"), ("stark", "schwach"), ("gut", "schlecht"), ("links", "rechts"),
        ("heute", "gestern"), ("oben", "unten"), ("Anstieg", "Rückgang"), ("erlaubt", "verboten"), ("immer", "selten"),
    ),
    negate=negate,
    capitalised_stopwords=frozenset({"sie", "ihr", "ihre", "ihnen", "herr", "frau"}),
)
