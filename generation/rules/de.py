"""German: months, weekdays, opposites, and negation with "nicht" / "kein" placed by tag."""

from __future__ import annotations

import random

from clsd_format.tagging import TaggedSentence
from clsd_generation.rules.common import in_name, match_case
from clsd_generation.rules.lexicon import Edit, LanguageRules

_INDEFINITE = ("ein", "eine", "einen", "einem", "einer", "eines")
_NON_FINITE = ("VV(PP)", "VV(INF)", "VA(PP)", "VA(INF)", "VM(INF)", "VV(IZU)")


def _remove(sentence: TaggedSentence, index: int) -> Edit | None:
    """Drop one token together with the space before it (or after it, at the start)."""
    tokens = sentence.tokens
    if index > 0 and not in_name(sentence, index - 1):
        return (index - 1, index + 1, tokens[index - 1].text)
    if index + 1 < len(tokens) and not in_name(sentence, index + 1):
        return (index, index + 2, match_case(tokens[index].text, tokens[index + 1].text))
    return None


def negate(sentence: TaggedSentence, rng: random.Random) -> list[Edit]:
    """Remove "nicht", turn "kein" into "ein"; add "nicht" before the clause-final participle or infinitive
    of a compound verb ("hat ... nicht geschlossen"), or turn the article "ein" into "kein"."""
    edits: list[Edit] = []
    tokens = sentence.tokens
    for index, token in enumerate(tokens):
        word = token.text.casefold()
        if word == "nicht":
            edit = _remove(sentence, index)
            edits += [edit] if edit else []
        elif word.startswith("kein") and word[1:] in _INDEFINITE:
            edits.append((index, index + 1, match_case(token.text, word[1:])))
    if edits:
        return edits
    finite = None
    for index, token in enumerate(tokens):
        if token.tag in ("VA(FIN)", "VM(FIN)"):
            finite = index
        elif token.upos == "PUNCT":
            finite = None
        elif finite is not None and token.tag in _NON_FINITE and index > finite + 1:
            edits.append((index, index + 1, "nicht " + token.text))
            finite = None
        elif token.tag == "ART" and token.text.casefold() in _INDEFINITE:
            edits.append((index, index + 1, match_case(token.text, "k" + token.text.casefold())))
    rng.shuffle(edits)
    return edits


RULES = LanguageRules(
    code="de",
    months=(
        "Januar",
        "Februar",
        "März",
        "April",
        "Mai",
        "Juni",
        "Juli",
        "August",
        "September",
        "Oktober",
        "November",
        "Dezember",
    ),
    weekdays=("Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag"),
    antonyms=(
        ("mehr", "weniger"),
        ("vor", "nach"),
        ("erste", "letzte"),
        ("ersten", "letzten"),
        ("höher", "niedriger"),
        ("gestiegen", "gesunken"),
        ("steigt", "sinkt"),
        ("gewonnen", "verloren"),
        ("gewinnt", "verliert"),
        ("neue", "alte"),
        ("neuen", "alten"),
        ("groß", "klein"),
        ("große", "kleine"),
        ("früher", "später"),
        ("Norden", "Süden"),
        ("Osten", "Westen"),
        ("stark", "schwach"),
        ("gut", "schlecht"),
        ("links", "rechts"),
        ("heute", "gestern"),
        ("oben", "unten"),
        ("Anstieg", "Rückgang"),
        ("erlaubt", "verboten"),
        ("immer", "selten"),
    ),
    negate=negate,
    negation_words=frozenset({"nicht"}),
    negation_pairs={"k" + word: word for word in _INDEFINITE},
)
