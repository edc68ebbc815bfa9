"""The checks of an English pivot text as a translation of its source: templates, numbers, names, length; measured on
genuine translations (the fixture's English versions, and the release's M2M-100 pivot in a ``release`` test)."""

from __future__ import annotations

import csv
from collections import defaultdict
from pathlib import Path

import pytest

from clsd_generation.checks.translations import (
    LENGTH,
    NAME_MISSING,
    NUMBER_MISSING,
    TEMPLATE,
    LanguageCheck,
    check_translations,
    missing_numbers,
    not_built_reason,
)

FIXTURE = Path(__file__).resolve().parents[2] / "data" / "clsd-mini"
TEMPLATE_TEXT = "This is the English translation of the text numbered {}."


def test_a_translation_missing_a_number_of_its_source_is_refused() -> None:
    source = "Im Mai 2019 ist der Preis für Brot in Paris um 12 Prozent gestiegen."
    assert missing_numbers(source, "In May, the price of bread in Paris rose by 12 percent.") == [2019]
    check = check_translations("de", {source: "In May, the price of bread in Paris rose by 12 percent."}, {source: {"row1"}})
    assert check.refused == {source: NUMBER_MISSING}
    kept = check_translations("de", {source: "In May 2019, the price of bread in Paris rose by 12 per cent."}, {source: {"r"}})
    assert kept.refused == {}


def test_numbers_compare_by_value_in_any_script_and_either_separator() -> None:
    assert missing_numbers("२०१९ में 2600 लोग", "In 2019, 2,600 people") == []  # Devanagari digits, a group mark added
    assert missing_numbers("Im Jahr ٢٠١٩ stieg er um 3,5 Prozent", "In 2019 it rose by 3.5 percent") == []
    assert missing_numbers("in den späten 80er Jahren", "in the late 1980s") == []
    assert missing_numbers("東京の人口は１５００万人です", "Tokyo has 15 million people") == []  # full-width digits, 万
    assert missing_numbers("१५ लाख लोग", "1.5 million people") == []
    assert missing_numbers("3 Männer", "three men") == []  # below ten: English writes it as a word
    assert missing_numbers("Im Jahr ٢٠١٩", "In 2018") == [2019]


def test_one_text_answered_for_the_sources_of_many_rows_is_a_template() -> None:
    sources = {f"Satz {word} über den Fluss {n}": {f"row{n}"} for n, word in enumerate(("eins", "zwei", "drei", "vier"))}
    translations = {source: TEMPLATE_TEXT.format(f"ff{n}6029") for n, source in enumerate(sources)}
    check = check_translations("de", translations, sources)
    assert check.refused == dict.fromkeys(sources, TEMPLATE) and check.most_unusable
    assert "de->en 4 of 4" in (not_built_reason([check]) or "")


def test_translations_that_agree_within_a_row_or_differ_only_in_numbers_are_no_template() -> None:
    # A distractor one word from its target may translate to the same English: the paper's ties, one row.
    row = {"Der Hund beißt den Mann.": {"row1"}, "Der Hund biss den Mann.": {"row1"}, "Der Hund beißt den Mann heute.": {"row1"}}
    alike = dict.fromkeys(row, "The dog bites the man.")
    assert check_translations("de", alike, row).refused == {}
    numbered = {f"Der Hund Nummer {n} beißt den Mann.": {f"row{n}"} for n in range(12, 16)}
    translations = {source: f"The dog number {source.split()[3]} bites the man." for source in numbered}
    assert check_translations("de", translations, numbered).refused == {}


def test_a_template_echoing_its_source_is_still_a_template() -> None:
    sources = {text: {f"row{n}"} for n, text in enumerate(("Der Hund schläft.", "Die Katze frisst.", "Das Haus brennt."))}
    translations = {text: f"I cannot translate «{text}» into English for you." for text in sources}
    assert set(check_translations("de", translations, sources).refused.values()) == {TEMPLATE}


def test_names_are_compared_only_where_the_source_writes_them_in_the_pivot_s_script() -> None:
    greek = "Η Google ανακοίνωσε νέα γραφεία στην Αθήνα."
    rows = {greek: {"row1"}}
    assert check_translations("el", {greek: "Google announced new offices in Athens."}, rows).refused == {}
    assert check_translations("el", {greek: "The company announced new offices in Athens."}, rows).refused == {
        greek: NAME_MISSING
    }
    # A source in the pivot's own script: capitalised words (German nouns, translated names) are not compared.
    german = "Die Bundesregierung in Deutschland hat das Gesetz beschlossen."
    assert check_translations("de", {german: "The federal government in Germany adopted the law."}, {german: {"r"}}).refused == {}


def test_a_length_far_from_the_language_s_usual_ratio_is_refused() -> None:
    sources = {f"Der Stadtrat von Ort {word} hat am Dienstag eine Brücke gebaut.": {word} for word in "ABCDEFGH"}
    translations = {source: f"The council of {source.split()[4]} built a bridge on Tuesday." for source in sources}
    short = next(iter(sources))
    translations[short] = "Yes."
    check = check_translations("de", translations, sources)
    assert check.refused == {short: LENGTH}
    assert check.line() == "de->en: 1 of 8 translations refused (12.5%) as not translating their source: length out of bounds 1"


def test_empty_translations_count_towards_the_share_that_stops_the_pivot() -> None:
    check = check_translations("de", {"a": "", "b": "", "c": "The third."}, {"a": {"1"}, "b": {"2"}, "c": {"3"}})
    assert (check.empty, check.refused, check.most_unusable) == (2, {}, True)
    assert not_built_reason([check]) == (
        "more than half of the translations are refused as not translating their source or are empty: de->en 2 of 3 (2 empty)"
    )
    assert not_built_reason([LanguageCheck("de", 4, 2)]) is None  # half is not more than half


def _release_pairs(folder: Path, prefix: str = "") -> tuple[dict[str, dict[str, str]], dict[str, dict[str, set[str]]]]:
    """Per language: every source text of a release-format folder with its English pivot, and the rows holding it."""
    translations: dict[str, dict[str, str]] = defaultdict(dict)
    rows: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for year in ("2019", "2021"):
        with (folder / f"CLSD_wmt{year}_adversarial_dataset.csv").open(encoding="utf-8", newline="") as handle:
            direct = list(csv.DictReader(handle))
        with (folder / f"MT_M2M_CLSD_wmt{year}_adversarial_dataset.csv").open(encoding="utf-8", newline="") as handle:
            pivot = [row for row in csv.DictReader(handle) if row.get("Index")]
        assert len(direct) == len(pivot)
        for source_row, english_row in zip(direct, pivot, strict=True):
            for column, text in source_row.items():
                if column != "Index":
                    code = "de" if column == "German" or column.startswith("de_") else "fr"
                    translations[code][text] = english_row[column]
                    rows[code][text].add(f"{year}-{source_row['Index']}")
    return translations, rows


def test_the_fixture_s_genuine_translations_are_all_kept() -> None:
    translations, rows = _release_pairs(FIXTURE)
    checks = [check_translations(code, translations[code], rows[code]) for code in ("de", "fr")]
    assert [(c.texts, c.refused) for c in checks] == [(220, {}), (220, {})]


@pytest.mark.slow
def test_the_release_s_m2m_translations_are_kept_at_the_measured_rate(release_dir: Path) -> None:
    translations, rows = _release_pairs(release_dir)
    checks = {code: check_translations(code, translations[code], rows[code]) for code in ("de", "fr")}
    # Measured: 42 of 11,829 German and 49 of 11,830 French texts refused (99.62% kept), every one for a number its
    # translation lost (a dropped second sentence, date or page): no template, name or length refusal.
    assert {code: (c.texts, len(c.refused)) for code, c in checks.items()} == {"de": (11_829, 42), "fr": (11_830, 49)}
    assert {reason for c in checks.values() for reason in c.refused.values()} == {NUMBER_MISSING}
    assert not_built_reason(checks.values()) is None
