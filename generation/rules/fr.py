"""French: months, weekdays, opposites, and negation with "ne ... pas"."""

from __future__ import annotations

import random
import re

from clsd_generation.rules.lexicon import LanguageRules

_VERBS = ("est", "sont", "était", "étaient", "a", "ont", "avait", "avaient", "peut", "peuvent", "doit", "doivent",
          "va", "vont", "sera", "seront", "fait", "font", "veut", "veulent", "faut")
_VOWEL = tuple("aeiouyéèêàâîôûh")
_NE_PAS = re.compile(r"\b(?:ne\s+|n['’])(\w+)\s+(?:pas|plus)\b", re.IGNORECASE)
_NE_JAMAIS = re.compile(r"\b(?:ne\s+|n['’])(\w+)\s+jamais\b", re.IGNORECASE)


def negate(sentence: str, rng: random.Random) -> str | None:
    """Remove "ne ... pas", turn "ne ... jamais" into "... toujours"; else negate a common verb."""
    options = []
    if _NE_PAS.search(sentence):
        options.append(_NE_PAS.sub(lambda m: m.group(1), sentence, count=1))
    if _NE_JAMAIS.search(sentence):
        options.append(_NE_JAMAIS.sub(lambda m: m.group(1) + " toujours", sentence, count=1))
    if not options:
        places = [m for m in re.finditer(r"(?<=\s)(\w+)\b", sentence) if m.group(1).casefold() in _VERBS]
        if places:
            m = rng.choice(places)
            verb = m.group(1)
            negated = ("n'" if verb.casefold().startswith(_VOWEL) else "ne ") + verb + " pas"
            options.append(sentence[: m.start()] + negated + sentence[m.end() :])
    return rng.choice(options) if options else None


RULES = LanguageRules(
    code="fr",
    months=("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"),
    weekdays=("lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"),
    antonyms=(
        ("plus", "moins"), ("avant", "après"), ("premier", "dernier"), ("première", "dernière"), ("hausse", "baisse"),
        ("augmenté", "diminué"), ("gagné", "perdu"), ("nouveau", "ancien"), ("nouvelle", "ancienne"), ("grand", "petit"),
        ("grande", "petite"), ("tôt", "tard"), ("nord", "sud"), ("ouest", "orient"), ("fort", "faible"), ("bon", "mauvais"),
        ("gauche", "droite"), ("hier", "demain"), ("augmentation", "diminution"), ("autorisé", "interdit"),
        ("toujours", "rarement"), ("haut", "bas"), ("meilleur", "pire"),
    ),
    negate=negate,
    capitalised_stopwords=frozenset({"monsieur", "madame", "m"}),
)
