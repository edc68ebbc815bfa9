"""German: its tagger, names, number and person words, opposites, and negation with "nicht" / "kein" placed by tag.

Months and weekdays come from CLDR (``LanguageRules.months``); the names the name rule knows are in ``de_names.tsv``.
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

from clsd_format.tagging import TaggedSentence, Token
from clsd_generation.rules.any_language import in_name, match_case, tokens_text
from clsd_generation.rules.lexicon import (
    Edit,
    LanguageRules,
    NumberWords,
    PersonWords,
    TwoWayNegation,
    phrases,
    word_pairs,
)
from clsd_generation.rules.name_kinds import read_names

_INDEFINITE = ("ein", "eine", "einen", "einem", "einer", "eines")
# Only these head a subject or a direct object; "einem", "einer", "eines" are mostly datives and genitives.
_OBJECT_ARTICLES = ("ein", "eine", "einen")
_NON_FINITE = ("VV(PP)", "VV(INF)", "VA(PP)", "VA(INF)", "VM(INF)", "VV(IZU)")
_NEGATIVE = ("nicht", "nie", "niemals", "nichts", "niemand", "weder", "nirgends", "keineswegs")
# An article after these is inside a phrase "kein" cannot head: "nur ein", "als ein", "so ein", "gut ein Drittel";
# nor after a focus word ("vor allem eine Folge" -> "vor allem keine Folge" says the opposite of what follows).
_NOT_BEFORE_ARTICLE = frozenset(
    "nur als wie fast rund etwa knapp mindestens höchstens nahezu beinahe gut je pro noch so zu welch manch ganz gar "
    "mehr weniger über unter bis um allem sogar insbesondere besonders vornehmlich hauptsächlich".split()
)
# An article before these is a quantity, not a noun phrase "kein" can negate: "ein paar", "ein wenig", "ein oder zwei".
_NOT_AFTER_ARTICLE = frozenset("paar wenig bisschen oder und bis einziger einzige einzigen".split())
# "nicht" whose removal breaks the sentence: "gar nicht", "oder nicht", "nicht nur", "nicht mehr" (no longer).
_KEEP_NICHT_AFTER = frozenset("gar überhaupt oder wenn ob keineswegs".split())
_KEEP_NICHT_BEFORE = frozenset("nur zuletzt etwa minder umsonst müde".split())  # "nicht müde werden": never tire
# Adverbs that come before "nicht" ("hat gestern nicht gesprochen"); "nicht" before other adverbs is left out.
_ADVERBS_BEFORE_NICHT = frozenset(
    "auch ebenfalls gestern heute morgen damals dann jetzt nun daher deshalb deswegen trotzdem dennoch wieder "
    "erneut diesmal dort hier damit darüber".split()
)
# Singular nouns that may equal their plural (masculine and neuter "-er", "-el", "-en"): "keine Lehrer" stays.
_AMBIGUOUS_NUMBER = ("er", "el", "en", "chen", "lein")


def _remove(sentence: TaggedSentence, index: int) -> Edit | None:
    """Drop one token together with the space before it (or after it, at the start)."""
    tokens = sentence.tokens
    if index > 0 and not in_name(sentence, index - 1):
        return (index - 1, index + 1, tokens[index - 1].text)
    if index + 1 < len(tokens) and not in_name(sentence, index + 1):
        return (index, index + 2, match_case(tokens[index].text, tokens[index + 1].text))
    return None


def _word(sentence: TaggedSentence, index: int) -> str:
    return sentence.tokens[index].text.casefold() if 0 <= index < len(sentence.tokens) else ""


def _nicht_removable(sentence: TaggedSentence, index: int) -> bool:
    """Whether dropping this "nicht" leaves a grammatical sentence with the opposite meaning.

    Never in a contrast ("nicht X, sondern Y"), nor in "nicht nur", "gar nicht", "ob ... oder nicht",
    "nicht mehr" (no longer; "nicht mehr als" is fine), "nicht zuletzt".
    """
    following = [t.text.casefold() for t in sentence.tokens[index + 1 :]]
    if "sondern" in following or _word(sentence, index - 1) in _KEEP_NICHT_AFTER:
        return False
    if _word(sentence, index - 2) == "auch":  # "Niemand ..., auch ich nicht": "auch ich" keeps the meaning
        return False
    after = _word(sentence, index + 1)
    return after not in _KEEP_NICHT_BEFORE and not (after == "mehr" and _word(sentence, index + 2) != "als")


def _article_scope(sentence: TaggedSentence, index: int) -> bool:
    """Whether an (k)ein article at ``index`` heads a subject or an object: not after a preposition, a noun
    (a genitive), a comma or a conjunction (inside a list), or a quantity word; not before "paar", "wenig"."""
    if index > 0:
        before = sentence.tokens[index - 1]
        if before.upos in ("ADP", "NOUN", "CCONJ") or before.tag in ("$,", "$(") or before.text == ":":
            return False
        if before.text.casefold() in _NOT_BEFORE_ARTICLE:
            return False
    if _word(sentence, index + 1) in _NOT_AFTER_ARTICLE or _word(sentence, index + 1).startswith(("klein", "gering")):
        return False  # "keine kleine Einschränkung" says "a sizeable one"
    clause = _clause(sentence, index)
    if any(t.text.casefold() == "auch" for t in clause):  # "Kein Grund ... ist auch": "auch kein"
        return False
    after = clause[clause.index(sentence.tokens[index]) + 1 :]
    if any(a.upos == "CCONJ" and b.tag == "ART" for a, b in pairwise(after)):
        return False  # a list "eine X und eine Y": "keine X und eine Y" reads as one item taken out
    head = next((t for t in sentence.tokens[index + 1 : index + 5] if t.upos not in ("ADJ", "ADV")), None)
    return head is not None and head.upos == "NOUN"


def _clause(sentence: TaggedSentence, index: int) -> list[Token]:
    """The tokens of the clause around ``index`` (between punctuation marks)."""
    tokens = sentence.tokens
    start = next((i + 1 for i in range(index - 1, -1, -1) if tokens[i].upos == "PUNCT"), 0)
    end = next((i for i in range(index + 1, len(tokens)) if tokens[i].upos == "PUNCT"), len(tokens))
    return list(tokens[start:end])


def _singular_head(sentence: TaggedSentence, index: int) -> bool:
    """Whether the noun after "keine" is singular for sure ("keine Chance" -> "eine Chance"; never "eine Beweise")."""
    head = next((t for t in sentence.tokens[index + 1 : index + 5] if t.upos != "ADJ"), None)
    return head is not None and head.upos == "NOUN" and head.slot == "" and not head.text.endswith(_AMBIGUOUS_NUMBER)


def _removals(sentence: TaggedSentence) -> list[Edit]:
    """Remove "nicht" or turn "kein" into "ein", where the result is grammatical and means the opposite."""
    edits: list[Edit] = []
    for index, token in enumerate(sentence.tokens):
        word = token.text.casefold()
        if word == "nicht" and _nicht_removable(sentence, index):
            edits += [edit] if (edit := _remove(sentence, index)) else []
        elif word.startswith("kein") and word[1:] in _INDEFINITE and token.tag in ("PIAT", "PIDAT", "ART"):
            rest = [t.text.casefold() for t in sentence.tokens[index + 1 :]]
            clause = rest[: next((k for k, w in enumerate(rest) if w in (",", ";", ":", ".")), len(rest))]
            if "mehr" in clause or not _article_scope(sentence, index):  # "keine Rolle mehr": no longer
                continue
            if word == "keine" and not _singular_head(sentence, index):
                continue
            edits.append((index, index + 1, match_case(token.text, word[1:])))
    return edits


def _is_object_article(token: Token) -> bool:
    return token.tag == "ART" and token.text.casefold() in _OBJECT_ARTICLES


def _indefinite_object(sentence: TaggedSentence, index: int) -> bool:
    return _is_object_article(sentence.tokens[index]) and _article_scope(sentence, index)


def _nicht_before(sentence: TaggedSentence, index: int) -> Edit | None:
    """ "nicht" before a clause-final participle or infinitive, and before a manner adverb right before it
    ("ist stark gestiegen" -> "ist nicht stark gestiegen"); None after other adverbs ("hat bereits nicht begonnen",
    "hat sehr nicht gelitten" are not German), except sentence adverbs that stand before "nicht" ("auch", "gestern")."""
    before = sentence.tokens[index - 1]
    phrase = [t for t in sentence.tokens[max(0, index - 4) : index - 1] if t.upos not in ("DET", "ADJ")]
    if before.upos == "NOUN" and phrase and phrase[-1].upos == "ADP":
        return None  # "wird mit Sorge erwartet": "nicht" goes before the phrase ("nicht mit Sorge"), not after it
    if before.tag == "ADJ(D)":
        return (index - 1, index + 1, "nicht " + tokens_text(sentence, index - 1, index + 1))
    if before.upos == "ADV" and before.text.casefold() not in _ADVERBS_BEFORE_NICHT:
        return None
    return (index, index + 1, "nicht " + sentence.tokens[index].text)


def _insertions(sentence: TaggedSentence) -> list[Edit]:
    """Add "nicht" before the clause-final participle or infinitive of a compound verb ("hat ... nicht
    geschlossen"), or turn an article "ein", "eine", "einen" heading a subject or an object into "kein"."""
    edits: list[Edit] = []
    finite = None
    for index, token in enumerate(sentence.tokens):
        if any(t.text.casefold() == "zwar" for t in _clause(sentence, index)):
            continue  # "zwar X, aber Y": negating X breaks the concession
        if token.tag in ("VA(FIN)", "VM(FIN)"):
            finite = index
        elif token.upos == "PUNCT":
            finite = None
        elif finite is not None and token.tag in _NON_FINITE and index > finite + 1:
            # "hat ein Gesetz beschlossen" is negated "hat kein Gesetz beschlossen" (below), not "... nicht beschlossen"
            if not any(_is_object_article(sentence.tokens[k]) for k in range(finite + 1, index)):
                edits += [edit] if (edit := _nicht_before(sentence, index)) else []
            finite = None
        elif _indefinite_object(sentence, index):
            edits.append((index, index + 1, match_case(token.text, "k" + token.text.casefold())))
    return edits


# "nicht" or "kein" taken out where there is one, else put in; "will X nicht ändern, aber auch Y" is left alone. Declared
# as French negation is (TwoWayNegation's steps, each language its own words), so the two read alike.
negate = TwoWayNegation(
    negatives=frozenset(_NEGATIVE),
    negative_prefixes=("kein",),
    remove=_removals,
    add=_insertions,
    contrasts=frozenset("aber sondern doch jedoch dennoch trotzdem allerdings zwar".split()),
)


# Opposites that flip the meaning in every common use in news text, each pair the same part of speech,
# gender and inflection (the check drops a swap whose tags differ). Left out: "vor"/"nach" ("vor zwei
# Jahren" is "ago", "nach Angaben" is "according to", "warnen vor"), "heute"/"gestern" (the tense stays),
# "immer"/"selten" ("immer mehr", "immer noch").
ANTONYMS = word_pairs(
    "mehr weniger",
    "erste letzte",
    "ersten letzten",
    "gestiegen gesunken",
    "steigen sinken",
    "gewonnen verloren",
    "neue alte",
    "neuen alten",
    "groß klein",
    "große kleine",
    "früher später",
    "Norden Süden",
    "Osten Westen",
    "stark schwach",
    "gut schlecht",
    "links rechts",
    "oben unten",
    "Anstieg Rückgang",
    "Gewinn Verlust",
    "Gewinne Verluste",
    "Mehrheit Minderheit",
    "Vorteil Nachteil",
    "Vorteile Nachteile",
    "Gewinner Verlierer",
    "Befürworter Gegner",
    "Käufer Verkäufer",
    "Exporte Importe",
    "Aufschwung Abschwung",
    "Erfolg Misserfolg",
    "Zunahme Abnahme",
    "Optimismus Pessimismus",
    "Vertrauen Misstrauen",
    "Stärke Schwäche",
    "Höhepunkt Tiefpunkt",
    "Aufstieg Abstieg",
    "Frieden Krieg",
    "Inland Ausland",
    "öffentlich privat",
    "öffentliche private",
    "öffentlichen privaten",
    "schneller langsamer",
    "stärker schwächer",
    "positiv negativ",
    "positive negative",
    "positiven negativen",
    "legal illegal",
    "legale illegale",
    "möglich unmöglich",
    "kurzfristig langfristig",
    "kurzfristige langfristige",
    "kurzfristigen langfristigen",
    "inländische ausländische",
    "inländischen ausländischen",
    "optimistisch pessimistisch",
    "erfolgreich erfolglos",
    "zufrieden unzufrieden",
    "stiegen sanken",
    "gewinnen verlieren",
    "erhöhen senken",
    "erhöhte senkte",
    "steigende sinkende",
    "steigenden sinkenden",
    "wachsende schrumpfende",
    "wachsenden schrumpfenden",
    "schnelle langsame",
    "starke schwache",
    "starken schwachen",
    "gute schlechte",
    "guten schlechten",
    "frühere spätere",
    "früheren späteren",
    "nördliche südliche",
    "nördlichen südlichen",
    "östliche westliche",
    "östlichen westlichen",
    "legalen illegalen",
    "offiziell inoffiziell",
    "offizielle inoffizielle",
    "offiziellen inoffiziellen",
    "direkte indirekte",
    "direkten indirekten",
    "wichtig unwichtig",
    "wichtige unwichtige",
    "wichtigen unwichtigen",
    "abhängig unabhängig",
    "abhängige unabhängige",
    "abhängigen unabhängigen",
    "erfolgreiche erfolglose",
    "erfolgreichen erfolglosen",
    "beliebt unbeliebt",
    "Einnahmen Ausgaben",
    "Export Import",
    "Einfuhren Ausfuhren",
    "Mehrheiten Minderheiten",
    "Arbeitgeber Arbeitnehmer",
    "Mieter Vermieter",
    "Sommer Winter",
    "Maximum Minimum",
    "Plus Minus",
    "Erhöhung Senkung",
    "Verbesserung Verschlechterung",
    "Verbesserungen Verschlechterungen",
    "Aufwärtstrend Abwärtstrend",
    "Vorteilen Nachteilen",
    "Freunde Feinde",
    "Optimisten Pessimisten",
)
# Fixed phrases whose words keep their sense: "vor allem" (above all), "nach wie vor" (still), "nicht mehr" (no longer),
# and "qualifizierte Mehrheit", a voting rule of the EU treaties ("qualifizierte Minderheit" is not one).
ANTONYM_STOPS = phrases(
    "qualifizierten mehrheit",
    "qualifizierte mehrheit",
    "qualifizierter mehrheit",
    "absoluten mehrheit",
    "absolute mehrheit",
    "absoluter mehrheit",
    "vor allem",
    "nach wie vor",
    "vor kurzem",
    "nach und nach",
    "vor ort",
    "nicht mehr",
    "nie mehr",
    "niemals mehr",
    "kaum mehr",
    "mehr denn",
    "mehr und mehr",
    "mehr oder weniger",
    "umso mehr",
    "nahen osten",
    "naher osten",
    "so gut wie",
    "wie möglich",
    "erste hilfe",
    "letzten endes",
    "im großen und ganzen",
    "gut und gerne",
    "links liegen",
)
# Nouns whose verb takes only one of the pair: "Verluste erleiden", "Frieden schließen", "den Krieg erklären".
_BOUND_BY_VERB = (
    (("verlust", "gewinn"), ("erlitt", "erleid")),
    (("krieg", "frieden"), ("schloss", "schlöss", "geschlossen", "schließ", "führ", "geführt", "erklär")),
)
_ORDINALS = frozenset({"erste", "ersten", "letzte", "letzten"})


def antonym_blocked(sentence: TaggedSentence, index: int, replacement: str) -> bool:
    """Senses an opposite does not flip: "gut" before a number ("gut 50 Prozent", a good 50 per cent), "mehr"
    after a negation in its clause ("keine Rolle mehr", no longer), "erste"/"letzte" without an article
    ("letzte Woche" is "last week", "erste Woche" is not German)."""
    tokens = sentence.tokens
    word = tokens[index].text.casefold()
    following = tokens[index + 1] if index + 1 < len(tokens) else None
    if word == "gut" and following is not None and (following.upos == "NUM" or following.text.casefold() in _INDEFINITE):
        return True
    if word == "mehr":
        for back in range(index - 1, max(index - 8, -1), -1):
            if tokens[back].upos == "PUNCT":
                break
            if tokens[back].text.casefold() in _NEGATIVE or tokens[back].text.casefold().startswith("kein"):
                return True
    for nouns, verbs in _BOUND_BY_VERB:  # "Verluste erleiden", "Frieden schließen", "Krieg führen": no opposite verb
        if word.startswith(nouns) and any(t.text.casefold().startswith(verbs) for t in tokens):
            return True
    if word in _ORDINALS:
        if any(t.text.casefold() == "seit" for t in tokens[index + 1 :]):  # "der erste Test seit 2017": not "letzte"
            return True
        return index == 0 or tokens[index - 1].upos not in ("DET", "ADP") or tokens[index - 1].tag == "APPR"
    return False


# Genders (and plural) each article form allows; a noun's genders are the intersection over its corpus uses.
ARTICLE_GENDERS: dict[str, frozenset[str]] = {
    "der": frozenset("mf"),
    "die": frozenset("fp"),
    "das": frozenset("n"),
    "den": frozenset("mp"),
    "dem": frozenset("mn"),
    "des": frozenset("mn"),
    "ein": frozenset("mn"),
    "eine": frozenset("f"),
    "einen": frozenset("m"),
    "einem": frozenset("mn"),
    "einer": frozenset("f"),
    "eines": frozenset("mn"),
    "im": frozenset("mn"),
    "am": frozenset("mn"),
    "vom": frozenset("mn"),
    "zum": frozenset("mn"),
    "beim": frozenset("mn"),
    "ins": frozenset("n"),
    "zur": frozenset("f"),
}
# Fixed phrases in which no noun is swapped: "das Vereinigte Königreich", "in Anbetracht", "zum Beispiel".
NOUN_PHRASES = phrases(
    "vereinigte königreich", "vereinigten königreich", "vereinigten königreichs", "in anbetracht", "zum beispiel",
    "im rahmen", "im hinblick", "in bezug", "mit blick", "im laufe", "im zuge", "zur verfügung", "in frage",
    "in kraft", "zu ende", "im gegenteil", "auf grund", "an stelle", "im vergleich", "im namen", "in höhe",
    "im jahr", "im jahre", "vereinten nationen", "europäische union", "europäischen union", "zum teil",
    "zur zeit", "in sachen", "unter druck", "am ende", "im grunde", "von seiten", "auf seiten",
)  # fmt: skip

NUMBERS = NumberWords(
    day_articles=frozenset({"am", "vom", "zum", "bis"}),
    percent=frozenset({"prozent"}),
    approximate=frozenset("gut etwa rund knapp fast ungefähr circa ca.".split()),
    time_nouns=frozenset(
        "jahr jahres jahre jahren ende anfang mitte beginn frühjahr sommer herbst winter quartal quartals halbjahr".split()
    ),
    year_links=frozenset({"von"}),
    singular_multipliers=frozenset({"million", "milliarde", "billion", "trillion"}),
    range_joiners=frozenset({"und", "bis", "oder"}),
    contracted_articles=frozenset({"im", "am", "ins", "ans", "zum", "zur", "vom", "beim"}),
)
PERSONS = PersonWords(
    titles=frozenset(
        "herr herrn frau dr prof präsident präsidentin kanzler kanzlerin minister ministerin premier papst "
        "könig königin prinz prinzessin senator senatorin gouverneur gouverneurin".split()
    ),
    title_endings=("präsident", "präsidentin", "kanzler", "kanzlerin", "minister", "ministerin", "bürgermeister", "bürgermeisterin"),
    title_sexes={"herr": "m", "herrn": "m", "frau": "f"},
    masculine_role_endings=(
        "politiker", "chef", "kandidat", "sprecher", "präsident", "kanzler", "minister", "kommissar", "sekretär",
        "direktor", "leiter", "gründer", "autor", "experte", "journalist", "ökonom", "abgeordneter", "vorsitzender",
        "bürgermeister", "europaabgeordneter", "botschafter", "richter", "professor", "forscher", "analyst", "berater",
    ),
    state_forms=frozenset("bundesrepublik republik königreich freistaat fürstentum großherzogtum".split()),
)  # fmt: skip

# Every language module ends in this one declaration (the shared rules read nothing else), so its layout repeats.
RULES = LanguageRules(
    code="de",
    known_names=read_names(Path(__file__).with_name("de_names.tsv"), "de"),
    numbers=NUMBERS,
    persons=PERSONS,
    articles=frozenset({"der", "die", "das", "den", "dem", "des"}),
    leading_articles=frozenset({"der", "die", "das"}),
    antonyms=ANTONYMS,
    antonym_stops=ANTONYM_STOPS,
    antonym_blocked=antonym_blocked,
    negate=negate,
    negation_words=frozenset({"nicht"}),
    negation_pairs={"k" + word: word for word in _INDEFINITE},
    article_genders=ARTICLE_GENDERS,
    capitalised_nouns=True,
    fixed_phrases=NOUN_PHRASES,
    genitive_s_names=True,
    speaker_words=frozenset("wir uns unser unsere unserem unseren unserer unseres hierzulande".split()),
    place_prepositions=frozenset("in nach aus".split()),
    nationality_endings=("isch", "ische", "ischen", "ischer", "isches", "deutsche", "deutschen", "deutscher", "deutsches"),
)
