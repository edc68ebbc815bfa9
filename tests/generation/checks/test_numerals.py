"""Numbers, times and dates read as each language writes them (CLDR through Babel), by the one reader that the pivot
translation checks, the near-copy check of an LLM's answers and the number rule share. The sentences are the
project's own, written for these tests."""

from __future__ import annotations

import random

from clsd_format.tagging import tagger_for
from clsd_generation.checks.answers import NEAR_COPY, AnswerReader
from clsd_generation.checks.candidates import reason_kind
from clsd_generation.checks.numerals import DATE, NUMBER, TIME, conventions, read_numerals
from clsd_generation.checks.translations import NUMBER_MISSING, check_translations
from clsd_generation.rules import rules_for
from clsd_generation.rules.any_language import apply_edit, swap_numbers


def refused(code: str, source: str, translation: str) -> bool:
    """Whether the pivot checks refuse ``translation`` as the English of ``source`` (in ``code``) for a lost number."""
    return check_translations(code, {source: translation}, {source: {"row"}}).refused.get(source) == NUMBER_MISSING


def test_a_time_is_its_minute_of_the_day_in_24_and_12_hours() -> None:
    assert not refused("de", "Das Konzert beginnt um 19:30 Uhr.", "The concert starts at 7:30 pm.")
    assert not refused("de", "Das Konzert beginnt um 19:30 Uhr.", "The concert starts at 7.30 p.m.")
    assert not refused("de", "Das Konzert beginnt um 19 Uhr.", "The concert starts at 7 PM.")
    assert refused("de", "Das Konzert beginnt um 19:30 Uhr.", "The concert starts at 8:30 pm.")


def test_group_and_decimal_marks_are_the_language_s_own() -> None:
    assert not refused("de", "Es kamen 1.000 Unterschriften zusammen.", "1,000 signatures were collected.")
    assert refused("de", "Es kamen 1.000 Unterschriften zusammen.", "100 signatures were collected.")
    assert not refused("de", "Die Preise stiegen um 3,5 Prozent.", "Prices rose by 3.5 percent.")
    assert refused("de", "Die Preise stiegen um 3,5 Prozent.", "Prices rose by 35 percent.")
    narrow = "La route mesure 1\u202f000,5 kilomètres."  # French: a narrow no-break space groups, a comma is decimal
    assert not refused("fr", narrow, "The road is 1,000.50 kilometres long.")
    assert refused("fr", narrow, "The road is 10,005 kilometres long.")


def test_a_changed_year_a_lost_zero_or_a_dropped_number_is_refused() -> None:
    source = "Im Mai 2020 kamen 250 Menschen nach Berlin."
    assert not refused("de", source, "In May 2020, 250 people came to Berlin.")
    assert refused("de", source, "In May 202, 250 people came to Berlin.")  # no scale word: a zero lost, not a scale
    assert refused("de", source, "In May 2018, 250 people came to Berlin.")
    assert refused("de", source, "In May 2020, people came to Berlin.")


def test_a_date_is_the_same_whatever_its_order_or_its_month_written_out() -> None:
    assert not refused("de", "Die Wahl fand am 07.03.2024 statt.", "The election took place on March 7, 2024.")
    assert not refused("de", "Die Wahl fand am 07.03.2024 statt.", "The election took place on 3/7/2024.")
    assert not refused("de", "Die Wahl fand am 7. März 2024 statt.", "The election took place on March 7, 2024.")
    assert refused("de", "Die Wahl fand am 07.03.2024 statt.", "The election took place on March 8, 2024.")
    assert refused("de", "Die Wahl fand am 7. März 2024 statt.", "The election took place on March 7, 2023.")
    assert not refused("ja", "選挙は2024年12月15日に行われた。", "The election was held on December 15, 2024.")  # 12月: a month
    assert refused("ja", "選挙は2024年12月15日に行われた。", "The election was held on December 16, 2024.")


def test_trailing_zeros_count_as_a_scale_word_only_where_one_is_written() -> None:
    assert not refused("ja", "東京の人口は１５００万人です。", "Tokyo has 15 million inhabitants.")
    assert refused("ja", "東京の人口は１５００万人です。", "Tokyo has 150 million inhabitants.")
    assert not refused("zh", "这个城市有1500万人口。", "The city has 15 million inhabitants.")
    assert not refused("hi", "शहर में १५ लाख लोग रहते हैं।", "1.5 million people live in the city.")
    assert not refused("hi", "शहर में २६,००,००० लोग रहते हैं।", "2,600,000 people live in the city.")  # Indian grouping
    assert refused("hi", "शहर में २६,००,००० लोग रहते हैं।", "260,000 people live in the city.")
    assert refused("hi", "शहर में १,००० लोग रहते हैं।", "100 people live in the city.")


def test_arabic_indic_digits_and_marks_are_read_by_value() -> None:
    assert not refused("ar", "ارتفعت الأسعار بنسبة ١٥٫٥ في المئة عام ٢٠١٩.", "Prices rose by 15.5 percent in 2019.")
    assert refused("ar", "ارتفعت الأسعار بنسبة ١٥٫٥ في المئة عام ٢٠١٩.", "Prices rose by 155 percent in 2019.")


def test_an_unknown_language_reads_both_marks_either_way_and_says_nothing_wrong() -> None:
    assert refused("xyz", "Wanu 1.000 wamefika.", "100 have arrived.")  # trailing zeros are no scale word
    assert not refused("xyz", "Wanu 1.000 wamefika.", "1,000 have arrived.")
    assert not refused("xyz", "Bei 3,5 juu.", "The price is 35 up.")  # 3,5 may be 35 where no convention is known
    assert not conventions("xyz").known


def test_the_reader_says_what_each_numeral_is() -> None:
    found = read_numerals("Am 07.03.2024 um 19.30 Uhr kamen 1.000 Gäste.", "de")
    assert [(n.kind, n.start, n.end) for n in found] == [(DATE, 3, 13), (TIME, 17, 26), (NUMBER, 33, 38)]
    assert found[1].minute == 19 * 60 + 30 and found[2].values == {1000}
    assert [n.kind for n in read_numerals("Gegen 3.50 Euro", "de")] == [NUMBER]  # "." joins no German time
    assert [n.minute for n in read_numerals("Kello 19.30", "fi")] == [19 * 60 + 30]  # it joins a Finnish one
    assert [n.minute for n in read_numerals("오후 7:30에", "ko")] == [19 * 60 + 30]  # a period before the hour


def test_a_number_written_another_way_is_a_near_copy_a_changed_value_is_not() -> None:
    reader = AnswerReader("de")
    original = "Die Firma hat 1.000 Mitarbeiter."
    assert reason_kind(reader.refusal(original, "Die Firma hat 1000 Mitarbeiter.") or "") == NEAR_COPY
    assert reason_kind(reader.refusal("Der Preis stieg um 3,5 Prozent.", "Der Preis stieg um 3,50 Prozent.") or "") == NEAR_COPY
    assert reader.refusal(original, "Die Firma hat 1.001 Mitarbeiter.") is None


def _number_edits(code: str, text: str) -> set[str]:
    (sentence,) = tagger_for(code).tag([text])
    return {
        apply_edit(sentence, edit) for seed in range(10) for edit in swap_numbers(sentence, random.Random(seed), rules_for(code))
    }


def test_the_number_rule_leaves_times_and_dates_in_digits_whole() -> None:
    assert not _number_edits("de", "Das Konzert beginnt um 19.30 Uhr.")  # never "57.30 Uhr"
    edits = _number_edits("de", "Am 07.03.2024 kamen 250 Gäste.")  # the date is no second count: 250 may change
    assert edits and all(text.startswith("Am 07.03.2024 kamen ") and "250" not in text for text in edits)
