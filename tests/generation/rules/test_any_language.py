"""Any language gets the rules that need no tagger: numbers in its own digits, CLDR's months and weekdays.

The sentences are the project's own, written for these tests. A language without a module of its own is read as
words alone (:class:`clsd_format.tagging.WordTagger`); the run says first which rules run for each language and how
many sentences they are likely to cover.
"""

from __future__ import annotations

import subprocess
import sys
import unicodedata
from collections.abc import Sequence
from pathlib import Path

import pytest

from clsd_format.languages import parse_language
from clsd_generation.core.checkpoint import Checkpoint
from clsd_generation.core.inputs import read_parallel
from clsd_generation.rules import make_generators
from clsd_generation.rules.lexicon import calendar_forms
from clsd_generation.run.backends import RuleBackend
from clsd_generation.run.loop import RunOptions, generate_distractors
from tests.helpers.cli_runner import invoke
from tests.helpers.corpora import write_parallel_csv

HINDI = [
    "सरकार ने 2019 में 450 नए स्कूल खोले।",
    "वर्ष २०१८ में कंपनी ने ३०० कर्मचारियों को नौकरी दी।",
    "सोमवार को संसद में बजट पेश किया गया।",
    "मार्च में बारिश सामान्य से अधिक हुई।",
]
ARABIC = [
    "في عام ٢٠١٩ افتتحت الحكومة ٣٠٠ مدرسة جديدة.",
    "وصل الوفد إلى القاهرة يوم الاثنين.",
    "ارتفعت الأسعار في يناير بنسبة ١٥٪.",
]
GREEK = [
    "Στις 12 Μαρτίου 2020 έκλεισαν τα σχολεία.",
    "Ο Ιανουάριος ήταν ο πιο κρύος μήνας.",
    "Την Τρίτη η βουλή ψήφισε τον νόμο.",
]
RUSSIAN = [
    "15 января 2021 года в Москве открылся новый музей.",
    "Январь выдался очень холодным.",
    "В понедельник парламент принял закон.",
]
CHINESE = ["公司在2019年雇用了300名员工。", "星期一，市政府公布了新的计划。", "3月15日有5个代表到达北京。"]
THAI = ["บริษัทจ้างพนักงาน ๓๐๐ คน", "เมื่อเดือนมกราคม ฝนตกหนัก"]


def _changed(original: str, candidate: str) -> tuple[str, str]:
    """The part of each text between their common start and common end."""
    start = 0
    while start < min(len(original), len(candidate)) and original[start] == candidate[start]:
        start += 1
    end = 0
    while end < min(len(original), len(candidate)) - start and original[-1 - end] == candidate[-1 - end]:
        end += 1
    return original[start : len(original) - end], candidate[start : len(candidate) - end]


def _zeros(text: str) -> set[int]:
    """The zero of the digit block of each character; -1 for a character that is no decimal digit."""
    return {ord(c) - unicodedata.decimal(c) if c.isdecimal() else -1 for c in text}


def _made(code: str, corpus: Sequence[str]) -> dict[str, list[tuple[str, str]]]:
    """Each sentence's candidates (first attempt) with the rule that made each."""
    generator = make_generators({code: corpus}, seed=5)[code]
    out = {}
    for sentence in corpus:
        candidates = generator.candidates(sentence, attempt=1)
        out[sentence] = [(generator.rule_of[text], text) for text in candidates]
    return out


def _number_edits(made: dict[str, list[tuple[str, str]]]) -> dict[str, set[tuple[str, str]]]:
    return {s: {_changed(s, text) for rule, text in pairs if rule == "numbers"} for s, pairs in made.items()}


def _words_swapped(code: str, made: dict[str, list[tuple[str, str]]], rule: str) -> list[tuple[str, str]]:
    """(old word, new word) of every candidate of ``rule``, checked to be one whole word for another."""
    swaps = []
    for sentence, pairs in made.items():
        for made_by, text in pairs:
            if made_by == rule:
                (old,) = set(sentence.split()) - set(text.split())
                (new,) = set(text.split()) - set(sentence.split())
                swaps.append((old.strip(".,"), new.strip(".,")))
    return swaps


def _same_form(locale: str, what: str, swaps: list[tuple[str, str]]) -> bool:
    forms = calendar_forms(locale, what)
    return bool(swaps) and all(
        any(old.casefold() in {w.casefold() for w in words} and new in words for words in forms)
        or any(
            old.casefold() in {w.casefold() for w in words} and new.casefold() in {w.casefold() for w in words} for words in forms
        )
        for old, new in swaps
    )


def test_hindi_numbers_keep_their_digits_and_months_and_weekdays_come_from_cldr() -> None:
    made = _made("hi", HINDI)
    edits = _number_edits(made)
    assert edits[HINDI[0]] and all(_zeros(old) == _zeros(new) == {ord("0")} and old != new for old, new in edits[HINDI[0]])
    assert edits[HINDI[1]] and all(_zeros(old) == _zeros(new) == {ord("०")} and old != new for old, new in edits[HINDI[1]])
    assert _same_form("hi", "days", _words_swapped("hi", {HINDI[2]: made[HINDI[2]]}, "weekdays"))
    assert _same_form("hi", "months", _words_swapped("hi", {HINDI[3]: made[HINDI[3]]}, "months"))


def test_arabic_numbers_stay_arabic_indic_and_the_text_stays_in_logical_order() -> None:
    made = _made("ar", ARABIC)
    edits = _number_edits(made)
    assert edits[ARABIC[0]] and all(_zeros(old) == _zeros(new) == {0x0660} for old, new in edits[ARABIC[0]])
    shares = {new for old, new in edits[ARABIC[2]]}  # "١٥٪": a share stays at most 100
    assert shares and all(int(share) <= 100 for share in shares)
    assert _same_form("ar", "days", _words_swapped("ar", {ARABIC[1]: made[ARABIC[1]]}, "weekdays"))
    assert _same_form("ar", "months", _words_swapped("ar", {ARABIC[2]: made[ARABIC[2]]}, "months"))
    for sentence, pairs in made.items():  # only the changed word moves: the sentence is still written from its start
        for _, text in pairs:
            assert text.split()[-1][-1] == sentence.split()[-1][-1] and text.split()[0] == sentence.split()[0]


@pytest.mark.parametrize(("code", "corpus"), [("el", GREEK), ("ru", RUSSIAN)])
def test_a_month_becomes_another_of_its_own_cldr_form(code: str, corpus: list[str]) -> None:
    made = _made(code, corpus)
    in_date = _words_swapped(code, {corpus[0]: made[corpus[0]]}, "months")
    alone = _words_swapped(code, {corpus[1]: made[corpus[1]]}, "months")
    format_forms, stand_alone = calendar_forms(code, "months")
    assert in_date and all(new in format_forms for _, new in in_date)  # "января" -> "марта", never "март"
    assert alone and all(new.casefold() in {w.casefold() for w in stand_alone} for _, new in alone)
    assert all(new[:1].isupper() for _, new in alone)  # the capital of a sentence's first word is kept
    assert _same_form(code, "days", _words_swapped(code, {corpus[2]: made[corpus[2]]}, "weekdays"))
    assert _number_edits(made)[corpus[0]]  # "12", "2020" change too


def test_chinese_and_thai_numbers_are_read_through_their_segmenters() -> None:
    made = _made("zh", CHINESE)
    edits = _number_edits(made)
    assert edits[CHINESE[0]] and all(old.isdecimal() and new.isdecimal() and old != new for old, new in edits[CHINESE[0]])
    assert {text for _, text in made[CHINESE[0]] if "2019年" not in text}  # the year changes, within its counter word
    assert not edits[CHINESE[2]]  # "3月", "15日", "5个": a month, a day and a small count glued to their word stay
    weekdays = {text for rule, text in made[CHINESE[1]] if rule == "weekdays"}
    others = [day for day in calendar_forms("zh", "days")[0] if day != "星期一"]
    assert weekdays and all("星期一" not in text and any(day in text for day in others) for text in weekdays)
    thai = _number_edits(_made("th", THAI))
    assert thai[THAI[0]] and all(_zeros(old) == _zeros(new) == {0x0E50} for old, new in thai[THAI[0]])


def test_a_language_with_rules_from_language_data_says_which_rules_run_and_its_coverage_first(tmp_path: Path) -> None:
    corpus = tmp_path / "parallel.csv"
    corpus.write_text("hi,ar\n" + "".join(f'"{h}","{a}"\n' for h, a in zip(HINDI, ARABIC, strict=False)), encoding="utf-8")
    options = ["--source-column", "hi", "--target-column", "ar", "--source-lang", "hi", "--target-lang", "ar", "--quiet"]
    lines = invoke("generate", str(corpus), "--run-dir", str(tmp_path / "run"), *options).splitlines()
    off = "off: names (no name lexicon), roles, negation, antonyms, nouns (no tagger)"
    assert lines[:2] == [
        f"rules for Hindi (hi): numbers, months, weekdays; {off}",
        f"rules for Arabic (ar): numbers, months, weekdays; {off}",
    ]
    coverage = [i for i, line in enumerate(lines) if line.startswith("rules likely cover")]
    assert len(coverage) == 2 and "Hindi sentences (measured on the first 3)" in lines[coverage[0]]
    assert max(coverage) < lines.index("backend: rules")  # before the run's results


def test_an_unknown_code_is_one_line_and_a_code_no_library_knows_runs_the_number_rule(tmp_path: Path) -> None:
    corpus = tmp_path / "parallel.csv"
    corpus.write_text('a,b\n"Am 3. Mai 2019 kamen 300 Gäste.","Le 3 mai 2019, 300 invités sont venus."\n', encoding="utf-8")
    command = [sys.executable, "-m", "clsd_cli", "generate", str(corpus), "--source-column", "a", "--target-column", "b"]
    refused = subprocess.run(
        [*command, "--source-lang", "qqq", "--target-lang", "fr", "--run-dir", str(tmp_path / "r1")],
        capture_output=True,
        text=True,
    )
    assert (
        refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1 and "unknown language 'qqq'" in refused.stderr
    )
    lines = invoke(
        "generate",
        str(corpus),
        "--source-column",
        "a",
        "--target-column",
        "b",
        "--source-lang",
        "xyz:Xyz:xyz-Latn",
        "--target-lang",
        "fr",
        "--run-dir",
        str(tmp_path / "r2"),
        "--quiet",
    ).splitlines()
    assert lines[0] == (
        "rules for Xyz (xyz): numbers; off: months (no months in CLDR), weekdays (no weekdays in CLDR), "
        "names (no name lexicon), roles, negation, antonyms, nouns (no tagger)"
    )


GERMAN_FRENCH = [
    ("Am Montag hat Merkel in Berlin 12 neue Schulen eröffnet.", "Lundi, Merkel a inauguré 12 nouvelles écoles à Berlin."),
    ("Im Mai 2019 ist der Preis für Brot in Paris gestiegen.", "En mai 2019, le prix du pain a augmenté à Paris."),
    ("Der Minister Müller war am Freitag in Hamburg.", "Le ministre Müller était à Hambourg vendredi."),
    ("Im Januar 2020 hat die Regierung 300 neue Stellen geschaffen.", "En janvier 2020, le gouvernement a créé 300 postes."),
]


def test_the_coverage_estimate_leaves_the_output_and_the_counts_as_they_were(tmp_path: Path) -> None:
    """The estimate's draws are the run's own: a run that announces gives the same distractors, attempts and counts."""
    corpus = read_parallel(write_parallel_csv(tmp_path / "p.csv", GERMAN_FRENCH), ("de", "fr"))
    languages = (parse_language("de"), parse_language("fr"))
    heard: list[str] = []
    runs = []
    for name, announce in (("quiet", None), ("told", heard.append)):
        options = RunOptions(progress=False, announce=announce)
        report = generate_distractors(corpus, languages, tmp_path / name, RuleBackend(seed=3), options=options)
        with Checkpoint.existing(tmp_path / name) as checkpoint:
            results = [(r.pair_id, r.lang, r.status, r.distractors, r.rules, r.attempts) for r in checkpoint.results()]
        runs.append((sorted(results), report.rule_checks, report.rule_output))
    assert runs[0] == runs[1]
    assert [line.split(" (")[0] for line in heard[:2]] == ["rules for German", "rules for French"]
    assert sum(line.startswith("rules likely cover") for line in heard) == 2


def _signs(text: str) -> list[str]:
    """The characters that are numbers but no digits of a number ("²", "③", "½"), in order."""
    return [c for c in text if unicodedata.category(c) == "No"]


# A footnote mark, a circled number or a fraction beside a month, and a number in one script's digits.
DIGIT_SIGNS = [
    ("de", "Am 3² März kamen ½ der 300 Gäste nach Berlin.", ord("0")),
    ("ru", "③ марта в Москве открылся новый музей на 300 гостей.", ord("0")),
    ("hi", "३१² मार्च २०१९ को कंपनी ने लोगों को नौकरी दी।", ord("०")),
    ("ar", "في ٣² مارس ٢٠١٩ افتتحت الحكومة مدرسة جديدة.", 0x0660),
    ("th", "วันที่ ③ มีนาคม บริษัทจ้างพนักงาน ๓๐๐ คน", 0x0E50),
    ("zh", "② 三月，公司雇用了３００名员工。", ord("０")),
]


@pytest.mark.parametrize(("code", "sentence", "zero"), DIGIT_SIGNS, ids=[case[0] for case in DIGIT_SIGNS])
def test_digit_signs_are_left_alone_and_numbers_keep_their_own_digits(code: str, sentence: str, zero: int) -> None:
    """``str.isdigit`` is true for "²" and "③", which ``int`` cannot read: only decimal digits make a number."""
    made = _made(code, [sentence])[sentence]
    assert made and all(_signs(text) == _signs(sentence) for _, text in made)
    edits = _number_edits({sentence: made})[sentence]
    assert edits and all(_zeros(old) == _zeros(new) == {zero} and old != new for old, new in edits)


MIXED_DIGITS = [
    ("ar", "افتتحت الحكومة ٣0٠ مدرسة جديدة."),
    ("hi", "कंपनी ने ३0० लोगों को नौकरी दी।"),
    ("th", "บริษัทจ้างพนักงาน ๓0๐ คน"),
    ("de", "Im Mai 2٠19 kamen viele Gäste nach Berlin."),
]


@pytest.mark.parametrize(("code", "sentence"), MIXED_DIGITS, ids=[case[0] for case in MIXED_DIGITS])
def test_digits_of_two_scripts_are_not_one_number(code: str, sentence: str) -> None:
    """An Arabic-Indic digit beside a Latin one cannot be rewritten "in the same digits": it is left as written."""
    made = _made(code, [sentence])[sentence]
    assert not _number_edits({sentence: made})[sentence]
    mixed = next(word for word in sentence.split() if len(_zeros(word) - {-1}) > 1)
    assert all(mixed in text for _, text in made)
