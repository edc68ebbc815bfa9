"""The rule backend works on linguistic units and checks every distractor.

Real offline taggers (HanTa, spaCy's fr_core_news_sm), loaded once per process by
``clsd_format.tagging.tagger_for``. The French model takes several seconds to load, so tests that
need it are marked slow; the German ones stay in the fast tier.
"""

from __future__ import annotations

import csv
import itertools
import os
from pathlib import Path

import pytest

from clsd_format.languages import parse_language
from clsd_format.tagging import SpacyFrenchTagger, tagger_for
from clsd_generation.core.inputs import read_parallel
from clsd_generation.rules import ALL_RULES, RuleGenerator, TagCache, make_generators, rules_for
from clsd_generation.rules.checks import check
from clsd_generation.rules.explain import explain
from clsd_generation.rules.registry import RULE_BY_NAME
from clsd_generation.run.backends import RuleBackend
from clsd_generation.run.loop import RunOptions, generate_distractors

WMT21, WMT19 = "CLSD_wmt2021_adversarial_dataset.csv", "CLSD_wmt2019_adversarial_dataset.csv"

# The issue's examples: string surgery the old rules made from the first seven WMT21 rows (French side, seed 0).
BROKEN = [
    "Wall Dow cale",
    "Wall New cale",
    "Wall Composite cale",
    "New Bourse de La York",
    "P-500 Bourse de New York",
    "Dow Street",
    "Jones Dow",
    "S&Dow",
    "182,44 décevants",
    "20,03 décevants",
]


def first_rows(data_dir: Path, n: int, name: str = WMT21) -> list[dict[str, str]]:
    with (data_dir / name).open(encoding="utf-8", newline="") as handle:
        return list(itertools.islice(csv.DictReader(handle), n))


def all_checked(generator: RuleGenerator, sentence: str, distractors: list[str]) -> list[tuple[str, str | None]]:
    (original,) = generator.tags.tag([sentence])
    return [explain(original, tagged, generator.rules) for tagged in generator.tags.tag(distractors)]


# --- taggers ---------------------------------------------------------------------------------------
def test_hanta_tags_names_numbers_and_inflection() -> None:
    (sentence,) = tagger_for("de").tag(["Der Dow Jones Index gab 182,44 Punkte auf 26.469,89 Punkte nach."])
    texts = [t.text for t in sentence.tokens]
    assert texts[:4] == ["Der", "Dow", "Jones", "Index"] and "26.469,89" in texts  # numbers stay one token
    assert [(n.start, n.end, n.label) for n in sentence.names] == [(1, 3, None)]  # one name, untyped (HanTa has no NER)
    punkte = sentence.tokens[texts.index("Punkte")]
    assert (punkte.upos, punkte.tag, punkte.lemma, punkte.slot) == ("NOUN", "NN", "Punkt", "e")
    assert tagger_for("de") is tagger_for("de")  # loaded once per process


@pytest.mark.slow
def test_french_tagging_leaves_spacys_vocabulary_as_it_found_it() -> None:
    """A run tags thousands of candidates with new numbers and names: spaCy must not keep their words for good."""
    tagger = tagger_for("fr")
    assert isinstance(tagger, SpacyFrenchTagger)
    vocabulary = tagger._nlp.vocab
    strings = len(vocabulary.strings)
    words = [f"Zqxwv{n}ille" for n in range(50)]  # words no model has seen
    (sentence,) = tagger.tag([f"Le maire de {' et '.join(words)} est venu le 3 mai 1987."])
    assert [t.text for t in sentence.tokens][3] == words[0]
    assert tagger.tag_tokens([["Le", "maire", "de", *words]])[0][:2] == ["DET", "NOUN"]
    assert len(vocabulary.strings) == strings and not any(word in vocabulary for word in words)  # len(vocab) only counts up


# --- generation: German (fast) -----------------------------------------------------------------------
def test_german_rules_edit_whole_units_and_pass_their_checks() -> None:
    corpus = [
        "Die Regierung hat am Montag in Berlin ein neues Gesetz beschlossen.",
        "Der Minister ist am Freitag nach Paris gereist.",
        "Im Mai 2019 hat die Bank 300 Mitarbeiter entlassen.",
    ]
    generator = RuleGenerator("de", corpus, name_types={"berlin": "LOC", "paris": "LOC"}, rule_names=ALL_RULES)
    sentence = corpus[0]
    batches = [generator.candidates(sentence, attempt) for attempt in (1, 2, 3)]
    assert all(len(set(batch)) == len(batch) >= 4 for batch in batches)  # distinct within an answer; re-asks may repeat
    candidates = [c for batch in batches for c in batch]
    assert sentence not in candidates and batches[0] == generator.candidates(sentence, 1)  # seeded
    assert "Die Regierung hat am Montag in Paris ein neues Gesetz beschlossen." in candidates  # a place for a place
    assert any("nicht beschlossen" in c or "kein neues" in c for c in candidates)  # negation where German puts it
    assert any("Dienstag" in c or "Sonntag" in c or "Mittwoch" in c for c in candidates)
    verdicts = all_checked(generator, sentence, candidates)
    assert all(reason is None for _, reason in verdicts), verdicts
    assert generator.outcomes[("weekdays", "kept")] >= 1


def test_roles_exchange_two_whole_names_of_one_type() -> None:
    sentence = "Merkel traf Scholz in Berlin."
    generator = RuleGenerator(
        "de",
        [sentence],
        name_types={"merkel": "PER", "scholz": "PER", "berlin": "LOC"},
        name_sexes={"merkel": "m", "scholz": "m"},  # roles exchange only persons of one sex
        rule_names=("roles",),  # off by default
    )
    candidates = [c for attempt in (1, 2, 3) for c in generator.candidates(sentence, attempt)]
    assert "Scholz traf Merkel in Berlin." in candidates
    assert not any(c.startswith("Berlin") or c.endswith("in Merkel.") for c in candidates)  # never across types


def test_a_name_mentioned_twice_is_never_swapped() -> None:
    types = {"merkel": "PER", "scholz": "PER", "macron": "PER"}
    sexes = dict.fromkeys(types, "m")
    twice = "Merkel lobt Scholz, doch Merkel zögert."
    generator = RuleGenerator("de", [twice], name_types=types, name_sexes=sexes, rule_names=("names", "roles"))
    candidates = [c for attempt in (1, 2, 3) for c in generator.candidates(twice, attempt)]
    assert not any(c.count("Merkel") == 2 and c != twice for c in candidates), candidates  # e.g. "Merkel lobt Merkel"
    once = "Merkel lobt Scholz, doch Macron zögert."
    generator = RuleGenerator("de", [once], name_types=types, name_sexes=sexes, rule_names=("names", "roles"))
    swapped = [c for attempt in (1, 2, 3) for c in generator.candidates(once, attempt)]
    assert "Scholz lobt Merkel, doch Macron zögert." in swapped  # names mentioned once still swap


def test_checks_drop_split_names_and_broken_tags() -> None:
    rules, tags = rules_for("de"), TagCache("de")
    (original,) = tags.tag(["Der Dow Jones Index gab 182,44 Punkte nach."])
    cases = {
        (2, 3, "Street"): ("names", "part of a name"),  # half a name: "Dow Street"
        (5, 6, "schnelle"): ("nouns", "tags of the edit differ"),  # a noun swapped for an adjective
        (5, 6, "Punkte Punkte"): ("nouns", "tags of the edit differ"),
        (1, 3, "Nasdaq"): ("names", None),  # a whole name for a whole name
    }
    for edit, (rule, reason) in cases.items():
        text = original.text[: original.tokens[edit[0]].start] + edit[2] + original.text[original.tokens[edit[1] - 1].end :]
        (retagged,) = tags.tag([text])
        assert check(original, edit, RULE_BY_NAME[rule].check, retagged, rules) == reason, edit


# --- generation: French and the release (slow: spaCy's French model) ---------------------------------
@pytest.mark.slow
@pytest.mark.release
def test_issue_examples_no_longer_come_out(release_dir: Path, tmp_path: Path) -> None:
    """The first seven WMT21 rows of the release, French side, seed 0, through `generate` as a new user runs it."""
    rows = first_rows(release_dir, 7)
    path = tmp_path / "wmt21-7.csv"
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, ["German", "French"])
        writer.writeheader()
        writer.writerows({"German": r["German"], "French": r["French"]} for r in rows)
    corpus = read_parallel(path, ("German", "French"))
    languages = (parse_language("de"), parse_language("fr"))
    report = generate_distractors(
        corpus, languages, tmp_path / "run", RuleBackend(seed=0, rule_names=ALL_RULES), options=RunOptions(progress=False)
    )
    from clsd_generation.core.checkpoint import Checkpoint

    with Checkpoint.existing(tmp_path / "run") as checkpoint:
        results = {(r.pair_id, r.lang): r for r in checkpoint.results()}
    french = {pair.pair_id: pair.texts[1] for pair in corpus.pairs}
    distractors = [(french[pid], d) for (pid, lang), r in results.items() if lang == "fr" for d in r.distractors]
    assert len(distractors) >= 8  # of 7 rows: some rows get four, the rest are left out
    for _, distractor in distractors:
        assert not any(broken in distractor for broken in BROKEN), distractor
    generator = make_generators({"fr": list(french.values())})["fr"]
    for original, distractor in distractors:
        rule, reason = all_checked(generator, original, [distractor])[0]
        assert reason is None, (rule, reason, distractor)
    assert any("n'a pas fini" in d or "n'a pas cédé" in d or "n'a pas perdu" in d for _, d in distractors)
    assert report.rule_checks and any(reason == "kept" for _, reason in report.rule_checks)
    assert any(line.startswith("rule checks") for line in report.lines())
    # the output's rule mix: every distractor of the finished sentences, counted by the rule that made it
    assert sum(report.rule_output.values()) == sum(len(r.distractors) for r in results.values())
    assert "?" not in report.rule_output and any(line.startswith("distractors this run by rule: ") for line in report.lines())


@pytest.mark.slow
def test_french_and_german_rules_on_fifty_rows_all_pass_the_recheck(any_data_dir: Path) -> None:
    rows = [*first_rows(any_data_dir, 50), *first_rows(any_data_dir, 50, WMT19)][:50]  # WMT19 tops up the fixture's 20
    corpora = {"de": [r["German"] for r in rows], "fr": [r["French"] for r in rows]}
    generators = make_generators(corpora, seed=0, rule_names=ALL_RULES)  # nouns too (off by default)
    seen_rules: set[str] = set()
    for code, column in (("de", "German"), ("fr", "French")):
        for row in rows:
            candidates = generators[code].candidates(row[column], attempt=1)
            for rule, reason in all_checked(generators[code], row[column], candidates):
                assert reason is None, (code, rule, row[column])
                seen_rules.add(rule)
    assert {"numbers", "names", "negation", "nouns", "antonyms"} <= seen_rules
    french_slots = [slot for slot, _frame in generators["fr"].nouns.attested]
    assert french_slots and all(slot[1] for slot in french_slots)  # every French noun slot carries gender/number


@pytest.mark.slow
def test_names_are_typed_from_the_french_side_and_swapped_whole() -> None:
    german = ["Die Gespräche fanden in Berlin statt.", "Gestern war Johnson in Paris.", "Merkel sprach in Paris."]
    french = ["Les discussions ont eu lieu à Berlin.", "Hier, Johnson était à Paris.", "Merkel a parlé à Paris."]
    generators = make_generators({"de": german, "fr": french})
    candidates = [c for attempt in (1, 2, 3, 4) for c in generators["de"].candidates(german[0], attempt)]
    assert "Die Gespräche fanden in Paris statt." in candidates  # a place for a place, typed through the French side
    assert not any(person in c for c in candidates for person in ("Merkel", "Macron", "Johnson")), candidates


# --- analysis: the POS of a changed word without Stanza's models --------------------------------------
def test_pos_analysis_uses_the_offline_tagger_when_stanza_has_no_model(tmp_path: Path) -> None:
    from clsd_analysis.stanza_tagging import StanzaModelMissing, StanzaTagger

    default_dir = Path(os.environ.get("STANZA_RESOURCES_DIR", Path.home() / "stanza_resources"))
    if (default_dir / "de").exists():
        pytest.skip(f"Stanza's German model is installed in {default_dir}; the fallback is not used there")
    tagger = StanzaTagger()
    assert tagger.tag("de", [["Der", "Hund", "schläft", "."]]) == [["DET", "NOUN", "VERB", "PUNCT"]]
    assert tagger.source("de") == "hanta"

    from clsd_analysis.pos_shift import OneWordChange, TaggingSummary, tag_with_stanza

    change = OneWordChange(
        "CLSD-X-FR-DE",
        "1",
        1,
        "Le chien dort.",
        "Der Hund schläft.",
        "Der Hund bellt.",
        "fra-Latn",
        "deu-Latn",
        2,
        "schläft",
        "bellt",
    )
    summary = TaggingSummary()
    tag_with_stanza([change], tagger, summary)
    assert (change.pos, change.pos_from) == ("VERB", "hanta")  # the report names the tagger that ran
    assert (summary.from_stanza, summary.taggers) == (1, {"de": "hanta"})
    with pytest.raises(StanzaModelMissing):  # a folder the user named that lacks the model is still an error
        StanzaTagger(tmp_path / "no-models").tag("de", [["Der", "Hund", "schläft", "."]])
