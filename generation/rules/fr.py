"""French: months, weekdays, opposites, and negation with "ne ... pas" around a finite verb."""

from __future__ import annotations

import random

from clsd_format.tagging import TaggedSentence
from clsd_generation.rules.common import match_case, starts_with_vowel, tokens_text
from clsd_generation.rules.lexicon import Edit, LanguageRules

APOSTROPHES = ("'", "\u2019")  # typed and typographic
_NE = ("ne", *(f"n{a}" for a in APOSTROPHES))
_SECOND = ("pas", "plus", "jamais")
_CLITICS = (
    "se",
    "me",
    "te",
    "le",
    "la",
    "les",
    "lui",
    "leur",
    "y",
    "en",
    "nous",
    "vous",
    *(f"{c}{a}" for c in "smtl" for a in APOSTROPHES),
)


def _remove(sentence: TaggedSentence) -> list[Edit]:
    """Remove a negation: "n'a pas fini" -> "a fini", "ne cesse plus" -> "cesse"."""
    tokens = sentence.tokens
    edits = []
    for index, token in enumerate(tokens):
        if token.text.casefold() not in _NE:
            continue
        second = next((k for k in range(index + 1, min(index + 5, len(tokens))) if tokens[k].text.casefold() in _SECOND), None)
        if second == index + 1 and index > 0:  # "préfère ne pas venir" -> "préfère venir"
            edits.append((index - 1, second + 1, tokens[index - 1].text))
        elif second is not None and second > index + 1:
            edits.append((index, second + 1, match_case(token.text, tokens_text(sentence, index + 1, second))))
    return edits


def _insert(sentence: TaggedSentence) -> list[Edit]:
    """Negate a finite verb with its clitics: "a fini" -> "n'a pas fini", "se retire" -> "ne se retire pas"."""
    tokens = sentence.tokens
    edits = []
    for index, token in enumerate(tokens):
        finite = "VerbForm=Fin" in token.slot and "Person=" in token.slot and "Mood=" in token.slot  # not a participle
        if token.upos not in ("VERB", "AUX") or not finite or "-" in token.text:
            continue
        first = index
        while first > 0 and tokens[first - 1].text.casefold() in _CLITICS:
            # "nous"/"vous" are objects only after a subject pronoun ("il nous a dit"), else subjects ("nous avons")
            if tokens[first - 1].text.casefold() in ("nous", "vous") and not (first > 1 and tokens[first - 2].upos == "PRON"):
                break
            first -= 1
        elided = first > 0 and tokens[first - 1].text.endswith(APOSTROPHES)  # "c'est", "qu'il": no room for "ne"
        already = first > 0 and tokens[first - 1].text.casefold() in _NE
        negated_after = index + 1 < len(tokens) and tokens[index + 1].text.casefold() in (*_SECOND, *_NE)
        if first == 0 or already or elided or negated_after:
            continue
        body = tokens_text(sentence, first, index + 1)
        negative = "n'" if starts_with_vowel(body) else "ne "
        edits.append((first, index + 1, negative + body + " pas"))
    return edits


def negate(sentence: TaggedSentence, rng: random.Random) -> list[Edit]:
    """Remove "ne ... pas/plus/jamais" where there is one; else negate a finite verb."""
    edits = _remove(sentence) or _insert(sentence)
    rng.shuffle(edits)
    return edits


RULES = LanguageRules(
    code="fr",
    months=(
        "janvier",
        "février",
        "mars",
        "avril",
        "mai",
        "juin",
        "juillet",
        "août",
        "septembre",
        "octobre",
        "novembre",
        "décembre",
    ),
    weekdays=("lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"),
    antonyms=(
        ("plus", "moins"),
        ("avant", "après"),
        ("premier", "dernier"),
        ("première", "dernière"),
        ("hausse", "baisse"),
        ("augmenté", "diminué"),
        ("gagné", "perdu"),
        ("nouveau", "ancien"),
        ("nouvelle", "ancienne"),
        ("grand", "petit"),
        ("grande", "petite"),
        ("tôt", "tard"),
        ("nord", "sud"),
        ("fort", "faible"),
        ("bon", "mauvais"),
        ("gauche", "droite"),
        ("hier", "demain"),
        ("augmentation", "diminution"),
        ("autorisé", "interdit"),
        ("toujours", "rarement"),
        ("haut", "bas"),
        ("meilleur", "pire"),
    ),
    negate=negate,
    negation_words=frozenset({*_NE, *_SECOND}),
)
