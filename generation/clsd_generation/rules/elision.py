"""French elision and contraction at the edge of an edit: the article or preposition before a new word follows it.

A one-word edit changes the word after "l'", "de", "du", "au", "que", "ne" ... but French writes
those words by the sound that follows: "l'Union" becomes "la République", not "l'République";
"mois de janvier" becomes "mois d'octobre", "de l'ancien chef" becomes "du nouveau chef".
:func:`repair` rewrites the word before an edit to the form its new neighbour takes, or says it
cannot (an "h" the package does not know as mute or aspirated, "l'" before a consonant where the
gender is unknown). :func:`faults` counts the elision errors in any French text, for the checks
of a whole run: a distractor must not have more than its original.
"""

from __future__ import annotations

import re
import unicodedata

from clsd_format.tagging import TaggedSentence
from clsd_generation.rules.lexicon import Edit

APOSTROPHES = ("'", "\u2019")  # typed and typographic
_VOWELS = frozenset("aeiouyàâäéèêëîïôöûüùœæ")
# Words before which "h" is mute (elision: "l'homme") or aspirated (no elision: "la hausse"); others are refused.
H_MUET = frozenset(
    "habitant habitants habitation habitude habitudes haleine harmonie hebdomadaire hectare hectares hélicoptère "
    "herbe héritage héritier héritière héroïne heure heures hier histoire histoires historien historienne hiver "
    "homme hommes hommage honneur honneurs hôpital hôpitaux horaire horaires horizon horreur hôte hôtel hôtels "
    "huile humanité humeur humour hydrogène hygiène hypothèse hypothèses hypothèque hôtesse homologue homologues "
    "hostilité hostilités héritages habileté habitat horloge hospitalisation humain humaine humains humaines "
    "humanitaire humanitaires humiliation hémicycle hexagone".split()
)
H_ASPIRE = frozenset(
    "hausse hausses haut haute hauts hautes hauteur hasard héros hareng haine hâte hall halle hameau hanche "
    "handicap hangar harcèlement hardi hargne haricot hasardeux hibou hiérarchie hockey homard honte hors "
    "houle housse huit huitième hurlement hutte hache haie hamburger hamster hockey hold-up holding hongrois "
    "hongroise hollandais hollandaise hublot huée huées hâte hernie".split()
) | {"hongrie", "hollande", "hambourg", "hanovre", "havre", "hainaut", "hamas", "huawei", "hezbollah", "honduras"}

# The full form of each elided word and the elided form of each full one (case-folded; "la" and "le" both elide to "l'").
_ELIDED_FULL = {"d": "de", "qu": "que", "n": "ne", "j": "je", "m": "me", "t": "te", "s": "se", "c": "ce"}
_ELIDES = {"de", "que", "ne", "je", "me", "te", "se", "ce", "le", "la", "jusque", "lorsque", "puisque"}
_CONTRACTED = {"du": "de l'", "au": "à l'"}  # before a vowel sound
# Every form the word before an edit can take when :func:`repair` rewrites it (case-folded, both apostrophes).
EDGE_WORDS = frozenset(
    {*_ELIDES, *_CONTRACTED, "à", *(f"{w}{a}" for w in (*_ELIDED_FULL, "l", "jusqu", "lorsqu", "puisqu") for a in APOSTROPHES)}
)
_MERGED = {("de", "masc"): "du ", ("à", "masc"): "au ", ("de", "fem"): "de la ", ("à", "fem"): "à la "}

_FAULT_ELIDED = re.compile(r"\b(?:l|d|qu|n|j|m|t|c|jusqu|lorsqu|puisqu)['\u2019](?=[bcdfgjklmnpqrstvwxzç])", re.IGNORECASE)
_FAULT_FULL = re.compile(r"\b(?:le|la|de|que|ne|je|me|te|se|du|au)\s+(?=[aeiouyàâäéèêëîïôöûüùœæ])", re.IGNORECASE)


def fold(text: str) -> str:
    """Case- and accent-folded text: "État" and "Etat", "Orbán" and "Orban" fold alike."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def sound(word: str) -> str | None:
    """ "vowel" or "consonant" as French elision hears the start of ``word``; None for an "h" of unknown kind."""
    first = fold(word[:1])
    if not first:
        return None
    if first == "h":
        key = word.casefold()
        return "vowel" if key in H_MUET else "consonant" if key in H_ASPIRE else None
    if first in _VOWELS:
        return "vowel"
    return "consonant"  # a consonant, or a digit or symbol: no elision ("de 12", "le 3")


def _with_case(template: str, word: str) -> str:
    return word[:1].upper() + word[1:] if template[:1].isupper() else word


def repaired_article(before: str, new_word: str, gender: str | None, apostrophe: str = "'") -> str | None:
    """The form ``before`` (the word right before an edit: "l'", "de", "du", ...) takes before ``new_word``.

    Returns ``before`` followed by what separates it from the next word when nothing changes ("de ",
    "l'"), the new form when it must change ("la ", "d'", "de l'"), and None when it cannot be known:
    an "h" of unknown kind, or "l'" before a consonant with no gender (``gender``: "masc", "fem" or None).
    """
    word = before.casefold().rstrip("".join(APOSTROPHES))
    elided = before.endswith(APOSTROPHES)
    if elided and word not in _ELIDED_FULL and word not in ("l", "jusqu", "lorsqu", "puisqu"):
        return before  # "aujourd'hui" and the like: not an elision site
    if not elided and word not in _ELIDES and word not in _CONTRACTED:
        return before + " "
    heard = sound(new_word)
    if heard is None:
        return None
    if elided:
        if heard == "vowel":
            return before
        if word == "l":
            if gender not in ("masc", "fem"):
                return None
            return _with_case(before, "le " if gender == "masc" else "la ")
        return _with_case(before, _ELIDED_FULL.get(word, word + "e") + " ")
    if heard == "consonant":
        return before + " "
    if word in _CONTRACTED:
        return _with_case(before, _CONTRACTED[word].replace("'", apostrophe))
    return _with_case(before, word[:-1] + apostrophe)


def merged_with_preposition(preposition: str, article: str) -> str | None:
    """ "de" + "le " is "du ", "à" + "le " is "au " (and "de la ", "à la " stay apart); None if not such a pair."""
    key = preposition.casefold()
    if key not in ("de", "à") or article.casefold().strip() not in ("le", "la"):
        return None
    gender = "masc" if article.casefold().strip() == "le" else "fem"
    return _with_case(preposition, _MERGED[(key, gender)])


def faults(text: str) -> int:
    """Elision errors in a French text: "l'" / "d'" ... before a consonant, "le" / "de" / "du" ... before a vowel.

    "h" is left out (mute or aspirated: a dictionary question); words of the lists above are judged by them.
    """
    count = len(_FAULT_ELIDED.findall(text)) + len(_FAULT_FULL.findall(text))
    for match in re.finditer(r"\b(l|d|qu|n|jusqu|lorsqu|puisqu)['\u2019](h\w*)", text, re.IGNORECASE):
        count += match.group(2).casefold() in H_ASPIRE
    for match in re.finditer(r"\b(le|la|de|que|ne|du|au)\s+(h\w*)", text, re.IGNORECASE):
        count += match.group(2).casefold() in H_MUET
    return count


_FIRST_WORD = re.compile(r"\w[\w-]*")


def _gender(slot: str) -> str | None:
    return "fem" if "Gender=Fem" in slot else "masc" if "Gender=Masc" in slot else None


def adjust_edit(original: TaggedSentence, edit: Edit) -> tuple[Edit, int] | None:
    """``edit`` with the word before it rewritten for its new first word, and how many tokens it took in (0-2).

    "l'" + "Union" -> "République": the edit grows to "la République" (one token taken in); "de l'"
    + "ancien" -> "nouveau": to "du nouveau" (two). None when the right form cannot be known.
    """
    start, end, text = edit
    match = _FIRST_WORD.match(text)
    if start == 0 or match is None:
        return edit, 0
    before = original.tokens[start - 1]
    if before.text.casefold() not in EDGE_WORDS:
        return edit, 0
    apostrophe = next((a for a in APOSTROPHES if a in before.text), "'")
    form = repaired_article(before.text, match.group(), _gender(original.tokens[start].slot), apostrophe)
    if form is None:
        return None
    if form.rstrip() == before.text and original.text[before.end : original.tokens[start].start] == form[len(before.text) :]:
        return edit, 0  # already right
    if start >= 2 and before.text.casefold().rstrip("".join(APOSTROPHES)) == "l":
        merged = merged_with_preposition(original.tokens[start - 2].text, form)
        if merged is not None:
            return (start - 2, end, merged + text), 2
    return (start - 1, end, form + text), 1
