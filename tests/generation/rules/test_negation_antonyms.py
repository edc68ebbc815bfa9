"""Negation and opposites of the rule backend read as a native speaker would: scope, fixed phrases and the 15% cap.

Every sentence here was written for these tests. German and English use HanTa (fast); French needs
spaCy's model, so French tests that tag are marked slow (the French guards are also checked on
hand-built tags, which need no model).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from clsd_format.tagging import TaggedSentence, Token, tagger_for
from clsd_generation.rules import rules_for
from clsd_generation.rules.antonyms import SHARE, AntonymCap, water_level
from clsd_generation.rules.any_language import apply_edit, swap_antonyms
from clsd_generation.rules.checks import NEGATION, check
from clsd_generation.rules.languages import fr


def tagged(code: str, text: str) -> TaggedSentence:
    (sentence,) = tagger_for(code).tag([text])
    return sentence


def negations(code: str, text: str) -> list[str]:
    sentence = tagged(code, text)
    return [apply_edit(sentence, edit) for edit in rules_for(code).negate(sentence, random.Random(0))]


def opposites(code: str, text: str) -> list[str]:
    rules, sentence = rules_for(code), tagged(code, text)
    edits = swap_antonyms(sentence, rules.antonyms, rules.antonym_stops, rules.antonym_blocked)
    return [apply_edit(sentence, edit) for edit in edits]


# --- German negation -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "Der Verein besteht seit einem halben Jahrhundert.",  # after a preposition
        "Er blieb für ein Jahr in Rom.",  # after a preposition
        "Sie kaufte Äpfel und eine Birne.",  # after a conjunction
        "Die Vorteile einer Mitgliedschaft sind groß.",  # a genitive
        "Wir kaufen Brot, ein Glas Honig und eine Flasche Wein.",  # inside a list
        "Er dankte einem Kollegen für die Hilfe.",  # a dative
        "Sie brauchte nur einen Versuch.",  # "nur kein" is not German
        "Er fand ein paar alte Briefe.",  # a quantity
    ],
)
def test_german_kein_stays_out_of_prepositions_genitives_and_lists(text: str) -> None:
    assert not any("kein" in out.casefold() for out in negations("de", text)), negations("de", text)


def test_german_kein_heads_a_subject_or_a_direct_object() -> None:
    assert "Kein Mann kam in die Stadt." in negations("de", "Ein Mann kam in die Stadt.")
    assert "Gestern kaufte er keinen Wagen." in negations("de", "Gestern kaufte er einen Wagen.")
    # with an indefinite object, "kein" negates it: "hat ein Gesetz nicht beschlossen" is not offered
    out = negations("de", "Gestern hat er ein neues Gesetz beschlossen.")
    assert "Gestern hat er kein neues Gesetz beschlossen." in out and not any("nicht" in o for o in out)
    # "nicht" goes before a manner adverb, and never after "bereits" or "sehr"
    assert negations("de", "Die Preise sind stark gestiegen.") == ["Die Preise sind nicht stark gestiegen."]
    assert not any("bereits nicht" in o for o in negations("de", "Die Arbeiten haben bereits begonnen."))


@pytest.mark.parametrize(
    "text",
    [
        "Er hat das Geld nicht gestohlen, sondern geliehen.",
        "Sie ist nicht nur Ärztin, sondern auch Forscherin.",
        "Das hat gar nicht geholfen.",
        "Er arbeitet nicht mehr in der Fabrik.",
        "Es ist unklar, ob er kommt oder nicht.",
    ],
)
def test_german_nicht_stays_where_removing_it_breaks_the_sentence(text: str) -> None:
    out = negations("de", text)
    assert all(o.count("nicht") >= text.count("nicht") for o in out), out


def test_german_negation_removed_where_the_result_is_german() -> None:
    assert negations("de", "Der Minister hat den Plan nicht gelobt.") == ["Der Minister hat den Plan gelobt."]
    assert negations("de", "Er hat keine Chance.") == ["Er hat eine Chance."]
    assert negations("de", "Es gibt keine Beweise.") == []  # never "eine Beweise"
    assert negations("de", "Er hat mit keinem Wort geantwortet.") == []  # after a preposition
    assert negations("de", "Sie spielt keine Rolle mehr.") == []  # "eine Rolle mehr" means "one more role"


# --- French negation -----------------------------------------------------------------------------------
def _token(text: str, start: int, upos: str, slot: str = "") -> Token:
    return Token(text, start, start + len(text), upos, upos, text.casefold(), slot)


def _hand_tagged(words: list[tuple[str, str, str]]) -> TaggedSentence:
    """A French sentence with the tags given, as spaCy sometimes gets them wrong."""
    tokens, start = [], 0
    for text, upos, slot in words:
        tokens.append(_token(text, start, upos, slot))
        start += len(text) + (0 if text.endswith("'") else 1)
    text = "".join(t.text + ("" if t.text.endswith("'") else " ") for t in tokens).rstrip()
    return TaggedSentence(text, tuple(tokens), ())


FINITE = "Number=Sing|VerbForm=Fin|Mood=Ind|Person=3"


def test_french_never_negates_a_noun_the_tagger_read_as_a_verb() -> None:
    misread = _hand_tagged(
        [("Il", "PRON", ""), ("garantit", "VERB", FINITE), ("l'", "DET", ""), ("instauration", "VERB", FINITE)]
    )
    edits = fr.negate(misread, random.Random(0))
    assert [apply_edit(misread, e) for e in edits] == ["Il ne garantit pas l'instauration"]
    capital = _hand_tagged([("Il", "PRON", ""), ("cite", "VERB", FINITE), ("Marche", "VERB", FINITE)])
    assert [apply_edit(capital, e) for e in fr.negate(capital, random.Random(0))] == ["Il ne cite pas Marche"]


@pytest.mark.slow
def test_french_also_becomes_non_plus_in_the_negative() -> None:
    assert "Il ne soutient pas non plus la réforme." in negations("fr", "Il soutient également la réforme.")
    assert "Elle n'a pas non plus signé l'accord." in negations("fr", "Elle a aussi signé l'accord.")
    assert "Le gouvernement ne soutient pas la réforme." in negations("fr", "Le gouvernement soutient la réforme.")
    assert "Le ministre ne témoignera pas lui non plus devant la commission." in negations(
        "fr", "Le ministre témoignera lui aussi devant la commission."
    )
    # "ne ... pas un concurrent" would need "pas de": that verb is left alone
    assert not any("pas un" in o for o in negations("fr", "Le maire avait un concurrent sérieux."))
    # a comparison keeps "aussi": "n'est pas aussi important que"
    assert not any("non plus" in o for o in negations("fr", "Le projet est aussi important que prévu."))
    assert negations("fr", "Ils ne soutiennent pas non plus la réforme.") == []  # its positive needs "également"
    # and the negation check accepts it: "non" and the dropped "également" count as negation words
    rules, original = rules_for("fr"), tagged("fr", "Il soutient également la réforme.")
    (edit,) = [e for e in rules.negate(original, random.Random(0)) if "non plus" in e[2]]
    assert check(original, edit, NEGATION, tagged("fr", apply_edit(original, edit)), rules) is None


# --- opposites -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "never"),
    [
        ("Vor allem die Preise sind gestiegen.", "nach allem"),
        ("Nach wie vor ist die Lage ernst.", "vor wie"),
        ("Vor zwei Jahren kam er nach Berlin.", "Nach zwei"),
        ("Die Arbeiter kamen nach und nach.", "vor und"),
        ("Die Polizei war vor Ort.", "nach Ort"),
        ("Sie spielt keine Rolle mehr.", "weniger"),
        ("Gut 50 Prozent stimmten dafür.", "Schlecht"),
        ("Er kam letzte Woche zurück.", "erste Woche"),
        ("Die Lage im Nahen Osten bleibt ernst.", "Westen"),
        ("Die beiden Länder schlossen Frieden.", "Krieg"),
        ("Die Firma hat hohe Verluste erlitten.", "Gewinne"),
        ("Der Rat entscheidet mit qualifizierter Mehrheit.", "Minderheit"),  # a voting rule of the treaties
        ("Das sei wichtig, halten die Wähler für wichtig.", "unwichtig"),  # a word said twice: one swap contradicts
    ],
)
def test_german_fixed_phrases_keep_their_words(text: str, never: str) -> None:
    assert not any(never in out for out in opposites("de", text)), opposites("de", text)


def test_german_opposites_still_swap() -> None:
    assert "Die Partei hat eine knappe Minderheit." in opposites("de", "Die Partei hat eine knappe Mehrheit.")
    assert "Es kamen weniger als 50 Gäste." in opposites("de", "Es kamen mehr als 50 Gäste.")
    assert "Die Firma meldete einen Verlust." in opposites("de", "Die Firma meldete einen Gewinn.")


@pytest.mark.parametrize(
    ("text", "never"),
    [
        ("At least 20 people were hurt.", "at most"),
        ("The plan is more or less ready.", "less or less"),
        ("He no longer works there.", "shorter"),
        ("After all, the vote was close.", "Before all"),
        ("Before long, the market recovered.", "After long"),
        ("The bridge is 40 years old.", "years new"),
        ("She moved to Leeds last year.", "first year"),
        ("The city approved a new plan.", "a old"),
        ("The country declared war on its neighbour.", "peace"),
        ("Exports increased in May, while imports decreased.", "Imports increased"),  # a contrast stays one
    ],
)
def test_english_fixed_phrases_keep_their_words(text: str, never: str) -> None:
    assert not any(never.casefold() in out.casefold() for out in opposites("en", text)), opposites("en", text)


def test_english_opposites_still_swap() -> None:
    assert "The party won a minority of the seats." in opposites("en", "The party won a majority of the seats.")
    assert "It was the last meeting of the year." in opposites("en", "It was the first meeting of the year.")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("text", "never"),
    [
        ("Il ne travaille plus à Paris.", "moins"),
        ("De plus, le projet coûte cher.", "moins"),
        ("Il est de nouveau candidat.", "ancien"),
        ("Elle viendra à nouveau demain.", "ancien"),
        ("Il est toujours ministre.", "rarement"),
        ("Le prix est plus ou moins stable.", "moins ou moins"),
        ("Lui non plus ne viendra pas.", "non moins"),
        ("Il viendra au plus tard lundi.", "au moins"),
        ("Cela coûte tout au plus dix euros.", "au moins"),
        ("Il a gagné une fois de plus.", "de moins"),
        ("Les ventes sont de plus en plus faibles.", "moins"),
        ("Le Conseil statue à la majorité qualifiée.", "minorité"),
    ],
)
def test_french_fixed_phrases_keep_their_words(text: str, never: str) -> None:
    assert not any(never in out for out in opposites("fr", text)), opposites("fr", text)


@pytest.mark.slow
def test_french_opposites_still_swap() -> None:
    assert "Il y a moins de 50 candidats." in opposites("fr", "Il y a plus de 50 candidats.")
    assert "Les prix ont connu une hausse de moins de 5 %." in opposites("fr", "Les prix ont connu une hausse de plus de 5 %.")
    assert "La majorité a voté contre." in opposites("fr", "La minorité a voté contre.")


# --- the 15% cap ---------------------------------------------------------------------------------------
DOMINANT = "Die neue Schule im Bezirk {n} ist fertig."
OTHERS = [
    "Die Partei gewann im Bezirk {n} die Mehrheit.",
    "Der Anstieg im Bezirk {n} war deutlich.",
    "Der Vorteil im Bezirk {n} ist klar.",
    "Die Firma machte im Bezirk {n} einen Gewinn.",
    "Die öffentlichen Kassen im Bezirk {n} sind leer.",
    "Der erste Zug im Bezirk {n} fuhr pünktlich.",
    "Die Zahl der Besucher ist im Bezirk {n} gestiegen.",
    "Die Lage im Bezirk {n} ist positiv.",
]
REFUSED = "Im Bezirk {n} kamen mehr Besucher."  # "weniger" gets another inflection slot: the check refuses it


def made_up_corpus() -> list[TaggedSentence]:
    texts = [t.format(n=n) for t in (DOMINANT, REFUSED) for n in range(50)] + [t.format(n=n) for t in OTHERS for n in range(5)]
    return tagger_for("de").tag(texts)


def kept_edits(cap: AntonymCap, corpus: list[TaggedSentence]) -> dict[str, list[tuple[int, int, str]]]:
    return {s.text: cap.edits(s) for s in corpus}


def test_no_pair_makes_more_than_fifteen_percent_of_the_swaps_in_any_order() -> None:
    corpus, rules = made_up_corpus(), rules_for("de")
    cap = AntonymCap(corpus, rules, seed=0, tags=tagger_for("de"))  # counts the swaps that pass the tag check
    assert cap.offered[("neue", "alte")] == 50 and len(cap.offered) == 9  # one swap per sentence, nine pairs
    assert ("mehr", "weniger") not in cap.offered  # refused swaps take no share
    kept = kept_edits(cap, corpus)
    per_pair = Counter(cap.keys[s.tokens[e[0]].text.casefold()] for s in corpus for e in kept[s.text])
    total = sum(per_pair.values())
    # Exact, not expected, shares: the cap keeps whole swaps in hash-rank order up to a level it checks, rather than
    # sampling each with a probability, so no tolerance for small counts is needed here.
    assert max(per_pair.values()) <= SHARE * total, per_pair
    assert per_pair[("neue", "alte")] > 0 and all(n == 5 for pair, n in per_pair.items() if pair[0] != "neue")
    shuffled = corpus[:]
    random.Random(1).shuffle(shuffled)
    tags = tagger_for("de")
    assert kept_edits(AntonymCap(shuffled, rules, seed=0, tags=tags), corpus) == kept  # the corpus order does not matter
    assert kept_edits(AntonymCap(corpus + corpus[:7], rules, seed=0, tags=tags), corpus) == kept  # nor repeated sentences


def test_the_cap_evens_out_pairs_when_there_are_too_few_to_meet_the_share() -> None:
    assert water_level([50, 40, 40, 40, 40, 40, 40, 40, 40], 0.15) == 50  # none dominates: nothing held back
    assert water_level([50, 5, 5, 5, 5, 5, 5, 5, 5], 0.15) == 7  # 7 of 47 swaps: 14.9%
    assert water_level([50, 5], 0.15) == 5  # two pairs: each at most half
    assert water_level([], 0.15) == 0


def test_german_kein_not_where_it_reads_otherwise() -> None:
    # "keine kleine Einschränkung" says "a sizeable one"; "Kein Grund ... ist auch" needs "auch kein"
    assert not any("keine kleine" in c for c in negations("de", "Es gibt allerdings eine kleine Einschränkung."))
    assert not any(c.startswith("Kein") for c in negations("de", "Ein Grund für die Verluste ist auch der Austritt."))
    assert "Kein Mann kam gestern." in negations("de", "Ein Mann kam gestern.")


def test_german_first_and_last_keep_since() -> None:
    sentence = "Die Wahl ist der erste große Test seit dem Jahr 2017."
    assert not any("letzte" in c for c in opposites("de", sentence))


@pytest.mark.slow
def test_french_negation_never_strands_que_or_peu() -> None:
    assert not negations("fr", "Je ne pense pas que cela soit possible.")  # "Je pense que cela soit" is not French
    assert not negations("fr", "Les annonces ne pourront plus être placées qu'avec l'autorisation de la société.")
    assert not any("pas très peu" in c for c in negations("fr", "Les citoyens en savent très peu sur le rôle de l'UE."))
    assert not negations("fr", "La plateforme devrait présenter les actualités, mais également produire des séries.")
    assert "Il ne soutient pas non plus la réforme." in negations("fr", "Il soutient également la réforme.")


@pytest.mark.slow
def test_french_opposites_keep_fixed_phrases_and_concessives() -> None:
    assert not any("mauvaise part" in c for c in opposites("fr", "Il a perdu une bonne part de son crédit."))
    assert not any("moins petits" in c for c in opposites("fr", "Cela nuit aux États, en particulier des plus petits."))
    assert not any("petite" in c for c in opposites("fr", "Aucun pays, aussi grande que soit sa force, ne le peut."))


@pytest.mark.slow
def test_french_ne_pas_never_lands_where_french_puts_it_elsewhere() -> None:
    cases = {
        "Son ère touche visiblement à sa fin.": "pas visiblement",  # French: "ne touche visiblement pas"
        "« Il y a six raisons », a déclaré Beer.": "n'a pas déclaré",  # a reporting verb
        "Que pense-t-il de l'accord ?": "pas-t-il",
        "Voici les sentiments avec lesquels vous êtes allés à Strasbourg.": "ne vous êtes",  # "vous" is the subject
        "Je pense que cela est possible.": "ne pense pas",  # would need the subjunctive
    }
    for sentence, never in cases.items():
        assert not any(never in c for c in negations("fr", sentence)), sentence


def test_german_negation_keeps_concessions_and_auch_ich_nicht() -> None:
    assert not any("auch ich," in c for c in negations("de", "Niemand in der Partei, auch ich nicht, bestreitet das."))
    assert not negations("de", "Die Partei würde zwar ihren Status behalten, aber Sitze verlieren.")


def test_days_and_weekdays_in_a_pair_stay_and_a_day_never_becomes_1() -> None:
    from clsd_generation.rules.any_language import _new_number, swap_from_list, swap_numbers

    weekend = tagged("de", "Am Wochenende des 8. und 9. Dezember tagt der Vorstand.")
    assert not swap_numbers(weekend, random.Random(0), rules_for("de"))
    night = tagged("de", "In der Nacht von Montag bis Dienstag fiel der Strom aus.")
    assert not swap_from_list(night, rules_for("de").weekdays, random.Random(0), rules_for("de").numbers)
    assert swap_from_list(
        tagged("de", "Am Montag fiel der Strom aus."), rules_for("de").weekdays, random.Random(0), rules_for("de").numbers
    )
    assert all(_new_number("12", random.Random(seed), day=True) != "1" for seed in range(300))


def test_numbers_keep_their_shape_a_share_a_rounding_and_a_plural() -> None:
    from clsd_generation.rules.any_language import swap_numbers

    def values(text: str, index: int) -> set[str]:
        sentence = tagged("de", text)
        return {
            edit[2]
            for seed in range(40)
            for edit in swap_numbers(sentence, random.Random(seed), rules_for("de"))
            if edit[0] == index
        }

    shares = values("Wir können uns nicht zu 100 Prozent verlassen.", 5)
    assert shares and all(int(v) <= 100 for v in shares)  # never "455 Prozent"
    assert all(int(v) <= 100 for v in values("Die Partei kam auf 29 Prozent.", 4))
    rounded = values("Es kamen gut 100 Vertreter.", 3)
    assert rounded and all(int(v) % 100 == 0 for v in rounded)  # "gut 300", never "gut 308"
    assert "1" not in values("Er spendete 2 Millionen Euro.", 2)  # "1 Millionen" would need the singular


@pytest.mark.parametrize(
    "text",
    [
        "Sie wird nicht müde, das zu wiederholen.",  # "nicht müde werden": never tire
        "Das ist vor allem eine Folge des Brexit.",  # a focus word before the article
        "Unter den Vorschlägen: eine Fußballmannschaft und ein Kartenhaus.",  # a list after a colon
        "Er fordert eine europäische Öffentlichkeit und eine Debatte.",  # one of two listed items
        "Die Liste wird mit Sorge erwartet.",  # "nicht" would land after the phrase "mit Sorge"
        "Er will die EU verändern, aber auch weiter betreiben.",  # a contrast turns on both halves
    ],
)
def test_german_negation_leaves_idioms_focus_lists_and_contrasts(text: str) -> None:
    assert negations("de", text) == [], negations("de", text)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("text", "never"),
    [
        ("Le cadre continuera de s'appliquer jusqu'à ce qu'un accord soit conclu.", "ne soit pas"),
        ("La querelle enflera dans les mois qui viennent.", "ne viennent pas"),  # "les mois qui viennent" is fixed
        ("Le groupe a voté à huis clos.", "huis pas"),  # a preposition before a "verb" the tagger misread
        ("Ils ne vont pas voter, mais ils manifestent.", "vont voter"),  # a contrast turns on both halves
    ],
)
def test_french_negation_leaves_fixed_clauses_and_contrasts(text: str, never: str) -> None:
    assert not any(never in out for out in negations("fr", text)), negations("fr", text)
