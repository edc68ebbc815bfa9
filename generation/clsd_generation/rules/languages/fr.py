"""French: months, weekdays, opposites, and negation with "ne ... pas" around a finite verb."""

from __future__ import annotations

import re
from pathlib import Path

from clsd_format.tagging import TaggedSentence
from clsd_generation.rules.any_language import match_case, starts_with_vowel, tokens_text
from clsd_generation.rules.elision import adjust_edit, faults
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


# "également"/"aussi" after a verb become "non plus" in the negative: "soutient également" -> "ne soutient pas non plus".
_ALSO = ("également", "aussi")
# Endings no finite French verb has: a token with them tagged as a finite verb is a misread noun ("l'instauration").
_NOUN_ENDINGS = ("tion", "sion", "ité", "isme", "eur", "ment")
_VERBS_IN_MENT = ("ment", "dément", "démentent", "mentent")
_STRESSED = ("lui", "elle", "eux", "elles", "nous", "vous", "moi", "toi")  # "il témoigne lui aussi"
_WAR_VERBS = ("déclar", "sign", "mène", "mené", "mener", "menait", "livr")
_ETRE = frozenset("est sont était étaient sera seront serait seraient fut furent soit soient été suis es sommes êtes".split())


def _remove(sentence: TaggedSentence) -> list[Edit]:
    """Remove a negation: "n'a pas fini" -> "a fini", "ne cesse plus" -> "cesse"; "ne ... pas non plus" is kept
    (its positive needs "également" put back in)."""
    tokens = sentence.tokens
    words = [t.text.casefold() for t in tokens]
    edits = []
    for index, word in enumerate(words):
        if word not in _NE:
            continue
        second = next((k for k in range(index + 1, min(index + 5, len(tokens))) if words[k] in _SECOND), None)
        if second is None or words[second + 1 : second + 3] == ["non", "plus"] or _que_follows(sentence, second):
            continue
        if second == index + 1 and index > 0:  # "préfère ne pas venir" -> "préfère venir"
            edits.append((index - 1, second + 1, tokens[index - 1].text))
        elif second > index + 1:
            edits.append((index, second + 1, match_case(tokens[index].text, tokens_text(sentence, index + 1, second))))
    return edits


def _clause_after(sentence: TaggedSentence, index: int) -> list[str]:
    """The case-folded words after ``index`` up to the end of its clause."""
    words = []
    for token in sentence.tokens[index + 1 :]:
        if token.upos == "PUNCT":
            break
        words.append(token.text.casefold())
    return words


def _que_follows(sentence: TaggedSentence, index: int) -> bool:
    """A "que" later in the clause: "ne ... que" means "only" ("ne pourront plus être placées qu'avec"), and "ne pense
    pas que" takes the subjunctive ("que cela soit"): without the negation, neither is French."""
    return any(word in ("que", "qu'", "qu\u2019") for word in _clause_after(sentence, index))


def _placement_unsure(sentence: TaggedSentence, first: int, index: int) -> bool:
    """Where "ne ... pas" would land wrongly: before an adverb ("ne touche pas visiblement": French says "ne touche
    visiblement pas"), in an inverted or reporting verb ("a-t-il confié", "a déclaré Beer"), inside a hyphenated
    word ("germano-autrichienne"), before "que" ("je ne pense pas que" needs the subjunctive), or where "y compris"
    would then sit in the negation's scope."""
    tokens, after = sentence.tokens, _clause_after(sentence, index)
    following = tokens[index + 1] if index + 1 < len(tokens) else None
    adverb = following is not None and following.upos == "ADV" and following.text.casefold() not in _ALSO  # "non plus"
    if adverb or (following is not None and following.text.startswith("-")):
        return True
    before = tokens[first - 1]
    reporting = before.upos == "PUNCT" and any(t.upos == "PROPN" for t in tokens[index + 1 : index + 3])
    hyphenated = sentence.text[tokens[index].start - 1 : tokens[index].start] == "-"
    return reporting or hyphenated or any(w in ("que", "qu'", "qu\u2019") for w in after[:2]) or "compris" in after


def _looks_finite(sentence: TaggedSentence, index: int) -> bool:
    """A finite verb the tagger can be trusted on: not a participle, not right after an article ("l'instauration",
    "les soutient" misread), not capitalised mid-sentence, not ending like a noun."""
    token = sentence.tokens[index]
    finite = "VerbForm=Fin" in token.slot and "Person=" in token.slot and "Mood=" in token.slot
    if token.upos not in ("VERB", "AUX") or not finite or "-" in token.text:
        return False
    if index > 0 and (sentence.tokens[index - 1].upos == "DET" or token.text[:1].isupper()):
        return False
    word = token.text.casefold()
    return not word.endswith(_NOUN_ENDINGS) or word in _VERBS_IN_MENT


# Relative pronouns: "avec lesquels vous êtes allés": the "vous" after them is the subject, not an object clitic.
_RELATIVES = frozenset("qui que dont où lequel laquelle lesquels lesquelles auquel auxquels duquel desquels".split())


def _clitics_start(sentence: TaggedSentence, index: int) -> int | None:
    """Where the verb's object clitics begin ("se retire", "l'a vu"), or None when an article stands before it."""
    tokens = sentence.tokens
    first = index
    while first > 0 and tokens[first - 1].text.casefold() in _CLITICS:
        # "nous"/"vous" are objects only after a subject pronoun ("il nous a dit"), else subjects ("nous avons")
        subject_before = first > 1 and tokens[first - 2].upos == "PRON" and tokens[first - 2].text.casefold() not in _RELATIVES
        if tokens[first - 1].text.casefold() in ("nous", "vous") and not subject_before:
            break
        if tokens[first - 1].upos == "DET":  # "le", "la", "les", "l'" read as an article: the verb is a noun
            return None
        first -= 1
    return first


def _is_comparison(sentence: TaggedSentence, index: int) -> bool:
    """ "aussi important que": a comparison, negated as "pas aussi ... que", not "non plus"."""
    words = [t.text.casefold() for t in sentence.tokens[index + 1 : index + 5]]
    return index + 1 < len(sentence.tokens) and sentence.tokens[index + 1].upos in ("ADJ", "ADV") and "que" in words


def _also_after(sentence: TaggedSentence, index: int) -> int:
    """Where a non-comparative "également"/"aussi" follows the verb in its clause (-1: none)."""
    for k in range(index + 1, len(sentence.tokens)):
        token = sentence.tokens[k]
        if token.upos in ("PUNCT", "SCONJ", "CCONJ") or token.text.casefold() in ("qui", "que", "qu'", "qu\u2019"):
            return -1
        if token.text.casefold() in _ALSO and not _is_comparison(sentence, k):
            return k
    return -1


def _negated_verb(sentence: TaggedSentence, first: int, index: int) -> Edit | None:
    """ "ne"/"n'" before the clitics, "pas" after the verb; "pas non plus" in place of an "également"/"aussi" right
    after it ("lui aussi" -> "pas lui non plus"); None when "aussi" stands further on (it cannot be moved safely)."""
    body = tokens_text(sentence, first, index + 1)
    negative = "n'" if starts_with_vowel(body) else "ne "
    also = _also_after(sentence, index)
    if also == index + 1:
        return (first, also + 1, negative + body + " pas non plus")
    if also == index + 2 and sentence.tokens[index + 1].text.casefold() in _STRESSED:
        return (first, also + 1, negative + body + " pas " + sentence.tokens[index + 1].text + " non plus")
    return None if also != -1 else (first, index + 1, negative + body + " pas")


def _indefinite_object(sentence: TaggedSentence, index: int) -> bool:
    """Whether the verb's object starts with "un", "une", "des", "du": negated, they become "de" ("n'a pas de
    concurrent"), which this rule does not write; after "être" they stay ("ce n'est pas un problème")."""
    tokens = sentence.tokens
    k = index + 1
    while k < len(tokens) and (tokens[k].upos == "ADV" or "VerbForm=Part" in tokens[k].slot):
        k += 1
    if k >= len(tokens) or tokens[k].upos != "DET" or tokens[k].text.casefold() not in ("un", "une", "des", "du"):
        return False
    return not any(t.text.casefold() in _ETRE for t in tokens[index:k])


# Words a tagger misreads as verbs ("raciste", "xénophobe") end like adjectives no verb form has.
_ADJECTIVE_ENDINGS = ("iste", "phobe", "ique", "aire", "ible", "able")
# A verb at the end of these is not negated: a fixed phrase ("les mois qui viennent") or a clause whose conjunction
# takes an expletive "ne" or none ("jusqu'à ce qu'un accord soit conclu", "avant qu'il parte", "sans qu'il le sache").
_FIXED_CLAUSES = re.compile(
    r"(?:\bqui (?:vient|viennent)|\b(?:jusqu|avant|sans|à moins|de peur|de crainte)[^.,;:!?]*\bqu(?:e\b|'|’)[^.,;:!?]*)$",
    re.IGNORECASE,
)


def _insert(sentence: TaggedSentence) -> list[Edit]:
    """Negate a finite verb with its clitics: "a fini" -> "n'a pas fini", "se retire" -> "ne se retire pas"."""
    tokens = sentence.tokens
    edits = []
    for index in range(len(tokens)):
        if not _looks_finite(sentence, index) or _indefinite_object(sentence, index):
            continue
        first = _clitics_start(sentence, index)
        if first is None or first == 0:
            continue
        elided = tokens[first - 1].text.endswith(APOSTROPHES)  # "c'est", "qu'il": no room for "ne"
        already = tokens[first - 1].text.casefold() in _NE
        negated_after = index + 1 < len(tokens) and tokens[index + 1].text.casefold() in (*_SECOND, *_NE)
        # "en savent très peu" -> "n'en savent pas très peu" is not said; "ne devrait pas X, mais également Y" is not either
        awkward = (
            "peu" in _clause_after(sentence, index)[:3]
            or tokens[index - 1].upos == "ADP"  # no finite verb right after "à": "à huis clos", "à connotation raciste"
            or tokens[index].text.casefold().endswith(_ADJECTIVE_ENDINGS)
            or _FIXED_CLAUSES.search(sentence.text[: tokens[index].end]) is not None
            or re.search(r"\bmais (?:également|aussi)\b", sentence.text) is not None
            or _placement_unsure(sentence, first, index)
        )
        edit = None if already or elided or negated_after or awkward else _negated_verb(sentence, first, index)
        edits += [edit] if edit else []
    return edits


# "ne ... pas/plus/jamais" taken out where there is one, else a finite verb negated; "ne vont pas voter, mais ..." is
# left alone. The steps are TwoWayNegation's, as German's are; each module declares its own words and tables after them.
negate = TwoWayNegation(
    negatives=frozenset(_NE),
    remove=_remove,
    add=_insert,
    contrasts=frozenset("mais pourtant cependant néanmoins toutefois".split()),
)


# Opposites that flip the meaning in every common use in news text, each pair the same part of speech, gender
# and number (the check drops a swap whose tags differ). Left out: "toujours"/"rarement" ("toujours" is often
# "still"), "hier"/"demain" (the tense stays), "haut"/"bas" ("haut responsable"), "début"/"fin" (genders differ),
# "national"/"international" (institutions: "Assemblée nationale", "équipe nationale"), "succès"/"échec" (number).
ANTONYMS = word_pairs(
    "plus moins",
    "avant après",
    "premier dernier",
    "première dernière",
    "premiers derniers",
    "premières dernières",
    "hausse baisse",
    "hausses baisses",
    "augmenté diminué",
    "augmente diminue",
    "augmentent diminuent",
    "augmenter diminuer",
    "augmentation diminution",
    "augmentations diminutions",
    "gagné perdu",
    "gagne perd",
    "gagnent perdent",
    "gagner perdre",
    "nouveau ancien",
    "nouvelle ancienne",
    "nouveaux anciens",
    "nouvelles anciennes",
    "grand petit",
    "grande petite",
    "grands petits",
    "grandes petites",
    "tôt tard",
    "nord sud",
    "bon mauvais",
    "bonne mauvaise",
    "gauche droite",
    "autorisée interdite",
    "majorité minorité",
    "accepté refusé",
    "acceptée refusée",
    "accepte refuse",
    "ouvert fermé",
    "ouverte fermée",
    "public privé",
    "publique privée",
    "publics privés",
    "publiques privées",
    "positif négatif",
    "positive négative",
    "positifs négatifs",
    "positives négatives",
    "intérieur extérieur",
    "faciles difficiles",
    "exportations importations",
    "victoire défaite",
    "victoires défaites",
    "gagnant perdant",
    "gagnants perdants",
    "optimiste pessimiste",
    "optimistes pessimistes",
    "légal illégal",
    "légale illégale",
    "possible impossible",
    "riche pauvre",
    "riches pauvres",
    "maximum minimum",
    "avantages inconvénients",
    "progresse recule",
    "progressé reculé",
    "paix guerre",
    "confiance méfiance",
    "partisans opposants",
    "acheteurs vendeurs",
    "rapidement lentement",
    "favorable défavorable",
    "favorables défavorables",
    "oriental occidental",
    "orientale occidentale",
)
# Fixed phrases whose words keep their sense: "de nouveau" (again), "non plus" (neither), "au plus tard" ("de plus",
# moreover, is told from "de plus de 5 %" in :func:`antonym_blocked`), and "majorité qualifiée", a voting rule of the
# EU treaties ("minorité qualifiée" is not one).
ANTONYM_STOPS = phrases(
    "majorité qualifiée",
    "majorité absolue",
    "bonne part",
    "bonne partie",
    "bonne moitié",
    "des plus",
    "en plus",
    "non plus",
    "plus ou moins",
    "de plus en plus",
    "de moins en moins",
    "tout au plus",
    "au plus tard",
    "au plus tôt",
    "tôt ou tard",
    "de nouveau",
    "à nouveau",
    "avant tout",
    "après tout",
    "premier ministre",
    "première ministre",
    "bon nombre",
    "bon marché",
    "grand public",
    "grand chose",
    "grand - chose",
    "à droite et à gauche",
    "que possible",
    "le plus possible",
    "ministère de l' intérieur",
    "ministre de l' intérieur",
    "à l' avance",
    "petit à petit",
    "petit - déjeuner",
    "plus tard",
    "plus tôt",
    "tôt possible",
    "vite possible",
    "si possible",
    "en avant",
    "à vrai dire",
    "fonction publique",
    "pouvoirs publics",
    "travaux publics",
    "santé publique",
    "ministère public",
    "nobel de la paix",
    "faire confiance",
    "fait confiance",
    "font confiance",
    "vote de confiance",
    "motion de confiance",
    "question de confiance",
    "gagner sa vie",
    "gagne sa vie",
    "gagnent leur vie",
    "perdu la vie",
    "perd la vie",
    "perdre la vie",
    "perdent la vie",
    "d' après",
    "du moins",
    "à moins",
    "en moins",
    "pour le moins",
    "le moins que",
    "relations publiques",
)
_AVOIR = frozenset("a ont avait avaient aura auront ai avons avez avoir ayant".split())
_ARTICLE_CONTRACTIONS = ("au", "aux", "du", "des")


def antonym_blocked(sentence: TaggedSentence, index: int, replacement: str) -> bool:
    """Senses an opposite does not flip: "plus" after "ne" in its clause ("ne ... plus", no longer) or in "de plus",
    "hausse"/"baisse" as verbs ("le chômage baisse" has no "hausse"), "premier"/"dernier"
    after a noun ("l'année dernière", last year), and a new onset after "ce" ("ce nouveau" needs "cet ancien")."""
    tokens = sentence.tokens
    word = tokens[index].text.casefold()
    if word == "plus" and index > 0 and tokens[index - 1].text.casefold() == "de":
        # "de plus" (moreover, "une fois de plus"), but "une hausse de plus de 5 %" may become "de moins de"
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        if following is None or not (following.upos == "NUM" or following.text.casefold() in ("de", "d'", "d\u2019")):
            return True
    if word == "plus":
        for back in range(index - 1, -1, -1):
            if tokens[back].upos == "PUNCT" or tokens[back].text.casefold() in ("et", "mais", "ou"):
                break
            if tokens[back].text.casefold() in _NE:
                return True
    if word in ("hausse", "baisse", "hausses", "baisses") and tokens[index].upos != "NOUN":
        return True
    if index > 0 and tokens[index - 1].text.casefold() in ("aussi", "si"):  # "aussi grande soit-elle": concessive
        return True
    following_words = [t.text.casefold() for t in tokens[index + 1 : index + 4]]
    if word.startswith(("premi", "derni")) and ("date" in following_words or "chaîne" in following_words):
        return True  # "le dernier acte en date" (the latest), "la première chaîne" (channel one)
    if word.startswith("derni") and index > 0 and tokens[index - 1].text.casefold() == "ces":
        return True  # "ces derniers jours": recently
    before = tokens[index - 1] if index > 0 else None
    if word.startswith(("premi", "derni")):
        return before is None or not (before.upos == "DET" or before.text.casefold() in _ARTICLE_CONTRACTIONS)
    return _blocked_by_neighbours(sentence, index, replacement)


def _blocked_by_neighbours(sentence: TaggedSentence, index: int, replacement: str) -> bool:
    """ "avant de partir" ("après de" is not French), "après avoir", "a ouvert une enquête" (opened, not the state),
    "le public" (the audience), "côté gauche" (masculine: "droite" would not agree), "ce nouveau" / "cet ancien"."""
    tokens = sentence.tokens
    word = tokens[index].text.casefold()
    before = tokens[index - 1] if index > 0 else None
    following = [t.text.casefold() for t in tokens[index + 1 : index + 3]]
    if word == "avant" and following[:1] and following[0] in ("de", "d'", "d\u2019"):
        return True
    if word == "après" and any(w in ("avoir", "être") for w in following):
        return True
    if word.startswith("ouvert") and before is not None and before.text.casefold() in _AVOIR:
        return True
    if word.startswith(("public", "privé")) and tokens[index].upos == "NOUN":
        return True
    if word == "gauche" and before is not None and "Gender=Masc" in before.slot:
        return True
    if word in ("paix", "guerre") and any(t.text.casefold().startswith(_WAR_VERBS) for t in tokens):
        return True  # "déclarer la guerre", "signer la paix": the verb takes only one of them
    if before is None or _vowel_sound(word) == _vowel_sound(replacement):
        return False
    # "ce nouveau" needs "cet ancien" (the elision repair rewrites l'/le/la, de/d' ..., not the demonstrative)
    return before.text.casefold() in ("ce", "cet")


def _vowel_sound(word: str) -> bool:
    return word[:1].casefold() in "aeiouyàâäéèêëîïôöûüùœæ"  # "h" aside: "hausse" takes "la"


# Fixed phrases in which no noun is swapped: "du point de vue" is not "du point de place".
NOUN_PHRASES = phrases(
    "point de vue", "en raison de", "tout à fait", "droit d' asile", "à l' égard", "au cours de", "dans le cadre",
    "mise en œuvre", "par rapport à", "en fonction de", "à la fois", "en tant que", "en effet", "à partir de",
    "de manière", "de façon", "à l' heure", "par exemple", "en cas de", "à l' instar", "au sein de", "en matière de",
    "à la suite de", "à l' issue de", "en vue de", "au moment de", "face à", "grâce à", "au niveau de",
    "prendre en compte", "pris en compte", "mettre en place", "mis en place", "faire face", "fait face",
    "avoir lieu", "a eu lieu", "donner lieu", "chef d' état", "chefs d' état", "état de droit", "états membres",
    "premier ministre", "coup d' état", "droits de l' homme", "union européenne", "nations unies", "royaume-uni",
)  # fmt: skip

NUMBERS = NumberWords(
    day_articles=frozenset({"le", "dès", "du"}),
    percent=frozenset({"pourcent", "pourcents", "pour"}),
    approximate=frozenset("environ près quelque".split()),
    decade=frozenset({"années"}),
    time_nouns=frozenset("année an fin début milieu été printemps automne hiver trimestre semestre".split()),
    year_links=frozenset({"de", "du", "d'", "d\u2019"}),
    singular_multipliers=frozenset({"million", "milliard", "billion", "trillion"}),
    range_joiners=frozenset({"et", "à", "au", "ou"}),
    contracted_articles=frozenset({"du", "au", "aux", "des"}),
)
_ROLES_MASCULINE = (
    "président vice-président chancelier député eurodéputé candidat dirigeant fondateur patron directeur "
    "premier conseiller sénateur maire ambassadeur chef"
)
_ROLES_FEMININE = (
    "présidente vice-présidente chancelière députée eurodéputée candidate dirigeante fondatrice patronne "
    "directrice première conseillère sénatrice ambassadrice cheffe"
)
PERSONS = PersonWords(
    title_sexes={"m.": "m", "m": "m", "monsieur": "m", "mme": "f", "mme.": "f", "mlle": "f", "madame": "f"},
    # the gender of other nouns before a name says nothing ("la Commission Juncker", "la liste Wagenknecht")
    role_sexes={**dict.fromkeys(_ROLES_MASCULINE.split(), "m"), **dict.fromkeys(_ROLES_FEMININE.split(), "f")},
    epicene_roles=frozenset(
        "ministre camarade collègue secrétaire commissaire journaliste leader responsable porte-parole".split()
    ),
    article_sexes={"le": "m", "un": "m", "ce": "m", "du": "m", "au": "m", "la": "f", "une": "f", "cette": "f", "sa": "f"},
    state_forms=frozenset("république royaume principauté grand-duché".split()),
)

# Every language module ends in this one declaration (the shared rules read nothing else), so its layout repeats.
RULES = LanguageRules(
    code="fr",
    names_typed_by_tagger=True,  # spaCy's French model types names (PER, LOC, ORG, MISC)
    known_names=read_names(Path(__file__).with_name("fr_names.tsv"), "fr"),
    numbers=NUMBERS,
    persons=PERSONS,
    articles=frozenset({"l'", "le", "la", "les", "des"}),
    leading_articles=frozenset({"le", "la", "les", "l'"}),
    antonyms=ANTONYMS,
    antonym_stops=ANTONYM_STOPS,
    antonym_blocked=antonym_blocked,
    negate=negate,
    # "non" and "également"/"aussi" too: "soutient également" and "ne soutient pas non plus" are the same words else
    negation_words=frozenset({*_NE, *_SECOND, "non", *_ALSO}),
    repair_edit=adjust_edit,
    edge_faults=faults,
    fixed_phrases=NOUN_PHRASES,
    names_bound_by_preposition=True,
    speaker_words=frozenset("nous notre nos ici".split()),
    place_prepositions=frozenset("à en".split()),
    nationality_endings=(
        "ais",
        "aise",
        "aises",
        "ien",
        "ienne",
        "iens",
        "iennes",
        "and",
        "ande",
        "ands",
        "andes",
        "ois",
        "oise",
        "ain",
        "aine",
        "ique",
        "iques",
        "ol",
        "ole",
        "ec",
        "ecque",
        "us",
        "usse",
    ),
)
