"""English: months, weekdays, opposites, and negation with "not" after an auxiliary (CLAWS5 tags)."""

from __future__ import annotations

import random
from pathlib import Path

from clsd_format.tagging import TaggedSentence
from clsd_generation.rules.any_language import in_name
from clsd_generation.rules.lexicon import Edit, LanguageRules, NumberWords, PersonWords, phrases, word_pairs
from clsd_generation.rules.name_kinds import read_names

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


# Opposites that flip the meaning in every common use in news text, each pair the same part of speech and
# inflection (the check drops a swap whose tags differ: irregular pairs such as "rose"/"fell" never pass it).
# Left out: "up"/"down" ("set up", "give up"), "left"/"right" ("he left", "the right to"), "yesterday"/"tomorrow"
# (the tense stays).
ANTONYMS = word_pairs(
    "more less",
    "before after",
    "increase decrease",
    "increased decreased",
    "increases decreases",
    "increasing decreasing",
    "rise fall",
    "rises falls",
    "rising falling",
    "higher lower",
    "highest lowest",
    "first last",
    "win lose",
    "wins loses",
    "open closed",
    "opens closes",
    "opening closing",
    "new old",
    "large small",
    "greater smaller",
    "greatest smallest",
    "early late",
    "above below",
    "best worst",
    "strong weak",
    "stronger weaker",
    "strengthen weaken",
    "strengthened weakened",
    "faster slower",
    "quickly slowly",
    "north south",
    "east west",
    "northern southern",
    "eastern western",
    "always rarely",
    "profit loss",
    "surplus deficit",
    "majority minority",
    "winner loser",
    "winners losers",
    "victory defeat",
    "success failure",
    "public private",
    "positive negative",
    "legal illegal",
    "possible impossible",
    "likely unlikely",
    "able unable",
    "happy unhappy",
    "cheap expensive",
    "rich poor",
    "easy difficult",
    "true false",
    "accepted rejected",
    "include exclude",
    "included excluded",
    "exports imports",
    "optimistic pessimistic",
    "bullish bearish",
    "upward downward",
    "maximum minimum",
    "advantage disadvantage",
    "advantages disadvantages",
    "peace war",
    "buyers sellers",
    "supporters opponents",
    "employers employees",
    "inside outside",
    "growing shrinking",
    "summer winter",
)
# Fixed phrases whose words keep their sense: "at least", "more or less", "no longer", "after all".
ANTONYM_STOPS = phrases(
    "at least",
    "at most",
    "more or less",
    "more and more",
    "less and less",
    "no longer",
    "no more",
    "any more",
    "once more",
    "what is more",
    "before long",
    "after all",
    "above all",
    "as always",
    "first lady",
    "first minister",
    "at first",
    "at last",
    "at large",
    "by and large",
    "as possible",
    "if possible",
    "where possible",
    "whenever possible",
    "give rise",
    "gave rise",
    "given rise",
    "giving rise",
    "gives rise",
    "take advantage",
    "took advantage",
    "taken advantage",
    "taking advantage",
    "takes advantage",
    "look after",
    "looks after",
    "looked after",
    "looking after",
    "named after",
    "appeared before",
    "appear before",
    "appears before",
    "testified before",
    "testify before",
    "brought before",
    "of late",
    "true to",
    "come true",
    "came true",
)
_AGES = frozenset({"year", "years", "month", "months", "week", "weeks", "day", "days"})
_DETERMINERS = ("AT0", "DPS", "DT0", "DT0-AJ0")


def _takes_an(word: str) -> bool:
    return word[:1].casefold() in "aeiou"


def antonym_blocked(sentence: TaggedSentence, index: int, replacement: str) -> bool:
    """Senses an opposite does not flip: "a"/"an" before a new onset ("a new" / "an old"), "old" in an age
    ("40 years old"), "first"/"last" without a determiner ("last year" is not "first year"), "late" before a name
    (the late president), "war"/"peace" before a noun ("war crimes")."""
    tokens = sentence.tokens
    word = tokens[index].text.casefold()
    before = tokens[index - 1] if index > 0 else None
    following = tokens[index + 1] if index + 1 < len(tokens) else None
    if before is not None and before.text.casefold() in ("a", "an") and _takes_an(word) != _takes_an(replacement):
        return True
    if word == "old" and before is not None and before.text.casefold() in _AGES:
        return True
    if word in ("first", "last"):
        return before is None or before.tag not in _DETERMINERS
    if word == "late" and following is not None and following.upos == "PROPN":
        return True
    if word in ("war", "peace") and any(t.text.casefold().startswith(("declar", "wag", "sign")) for t in tokens):
        return True  # "declared war", "waged war", "signed a peace": the verb takes only one of them
    return word in ("war", "peace") and following is not None and following.upos == "NOUN"


# Fixed phrases in which no noun is swapped: "in terms of", "on behalf of", "the United Kingdom".
NOUN_PHRASES = phrases(
    "in terms of", "on behalf of", "in case of", "in view of", "in spite of", "by way of", "in front of",
    "point of view", "for example", "for instance", "in fact", "at the time", "in place", "take place",
    "took place", "taken place", "in charge", "united kingdom", "united nations", "european union",
    "prime minister", "head of state", "rule of law", "human rights", "member states",
)  # fmt: skip

NUMBERS = NumberWords(
    percent=frozenset({"percent"}),
    approximate=frozenset("about around nearly some".split()),
    decade=frozenset({"decade"}),
    time_nouns=frozenset("year end beginning start middle summer spring autumn fall winter quarter half".split()),
    year_links=frozenset({"of"}),
    singular_multipliers=frozenset({"million", "billion", "trillion"}),
    range_joiners=frozenset({"and", "to", "or"}),
)
PERSONS = PersonWords(
    titles=frozenset(
        "mr mrs ms dr prof president chancellor minister secretary senator governor mayor "
        "judge king queen pope prince princess sir lord commissioner".split()
    ),
    title_sexes={"mr": "m", "mr.": "m", "mrs": "f", "mrs.": "f", "ms": "f", "ms.": "f", "miss": "f"},
    state_forms=frozenset("republic kingdom principality commonwealth federation".split()),
)

RULES = LanguageRules(
    code="en",
    known_names=read_names(Path(__file__).with_name("en_names.tsv"), "en"),
    numbers=NUMBERS,
    persons=PERSONS,
    articles=frozenset({"the"}),
    leading_articles=frozenset({"the"}),
    antonyms=ANTONYMS,
    antonym_stops=ANTONYM_STOPS,
    antonym_blocked=antonym_blocked,
    negate=negate,
    negation_words=frozenset({"not"}),
    negation_pairs=dict(_CONTRACTED),
    fixed_phrases=NOUN_PHRASES,
    titles_in_name_runs=True,
    speaker_words=frozenset("we us our ours here".split()),
    place_prepositions=frozenset("in to from".split()),
    nationality_endings=("ish", "ese", "ian", "can", "ch", "man", "ean", "ic"),
)
