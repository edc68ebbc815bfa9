"""The language check's close neighbours and margins, measured (language_gaps.json, scripts/measure_language_gaps.py).

The sentences are real ones, read at test time where they are installed: spaCy's example sentences of each
language (spaCy is MIT-licensed and installed with the generator's extra), several languages' versions of the same
news sentences. The table is measured on the machine's gettext catalogues; the test that measures it again skips
where those differ.
"""

from __future__ import annotations

import importlib
import json
import re
import sys
from pathlib import Path

import pytest

from clsd_format.errors import CLSDError
from clsd_generation.checks import answers
from clsd_generation.checks.answers import WRONG_LANGUAGE, AnswerReader, accepted_neighbour, language_of, language_table
from clsd_generation.core.settings import ReadingChecks

SCRIPTS = Path(__file__).resolve().parents[3] / "scripts"
LANGUAGE_ONLY = ReadingChecks(near_copy_edits=0, max_unknown_share=2.0, max_unknown_lowercase=0)


def examples(code: str) -> list[str]:
    """spaCy's example sentences of a language (Bulgarian's are one string: cut at each full stop)."""
    sentences: list[str] = importlib.import_module(f"spacy.lang.{code}.examples").sentences
    return [part for text in sentences for part in re.split(r"(?<=[.!?])(?=\w)", text) if part.strip()]


def named_pairs(original: str, candidate: str, target: str, named: str) -> list[tuple[str, str]]:
    """(original, candidate) of aligned examples whose candidate the identifier names ``named``, 40 characters or more."""
    pairs = list(zip(examples(original), examples(candidate), strict=False))
    return [(o, c) for o, c in pairs if len(c) >= 40 and language_of(c) == named and language_of(o) == target]


@pytest.mark.parametrize(
    ("target", "neighbour", "name"), [("ru", "bg", "Bulgarian"), ("hi", "ne", "Nepali")], ids=["bg-for-ru", "ne-for-hi"]
)
def test_an_answer_in_a_close_language_the_identifier_tells_apart_is_refused_naming_it(
    target: str, neighbour: str, name: str
) -> None:
    pairs = named_pairs(target, neighbour, target, neighbour)
    assert len(pairs) >= 3
    reader = AnswerReader(target, LANGUAGE_ONLY)
    for original, candidate in pairs:
        assert reader.refusal(original, candidate) == f"{WRONG_LANGUAGE} ({name}, {neighbour})", candidate


@pytest.mark.parametrize(("target", "neighbour"), [("ru", "bg"), ("hi", "ne")])
def test_the_user_can_name_the_neighbour_acceptable(target: str, neighbour: str) -> None:
    accepted = ReadingChecks(LANGUAGE_ONLY.language, 0, 2.0, 0, (accepted_neighbour(f"{target}:{neighbour}", [target, "en"]),))
    for original, candidate in named_pairs(target, neighbour, target, neighbour):
        assert AnswerReader(target, accepted).refusal(original, candidate) is None
    french = "Le gouvernement construira une nouvelle route dans ce village l'année prochaine."
    assert (AnswerReader(target, accepted).refusal(examples(target)[0], french) or "").startswith(WRONG_LANGUAGE)


def test_malay_for_indonesian_passes_as_the_measured_table_says() -> None:
    assert "ms" in language_table()["id-Latn"].neighbours
    pairs = named_pairs("id", "ms", "id", "ms")
    assert len(pairs) >= 3
    for original, candidate in pairs:
        refusal = AnswerReader("id", LANGUAGE_ONLY).refusal(original, candidate)
        assert refusal is None or not refusal.startswith(WRONG_LANGUAGE), refusal


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("rubg", "write TARGET:NEIGHBOUR"),
        ("ru:", "write TARGET:NEIGHBOUR"),
        ("ru:tlh", "does not know 'tlh'"),
        ("de:bg", "de is not a language of this run (ru, en)"),
    ],
)
def test_a_neighbour_that_cannot_be_accepted_is_one_line(spec: str, says: str) -> None:
    with pytest.raises(CLSDError, match=re.escape(says)):
        accepted_neighbour(spec, ["ru", "en"])


def test_a_neighbour_is_named_by_any_code_of_its_language() -> None:
    assert accepted_neighbour("rus:bul", ["ru", "en"]) == "ru:bg"
    assert accepted_neighbour("sr-Latn:hrv", ["sr-Latn", "en"]) == "sr:hr"


def test_the_check_reads_the_committed_table() -> None:
    committed = json.loads(Path(answers.__file__).with_name(answers.LANGUAGE_GAPS).read_text(encoding="utf-8"))
    table = language_table()
    assert set(table) == set(committed["targets"])
    for key, row in committed["targets"].items():
        assert table[key].neighbours == set(row["neighbours"]) and table[key].margins == row["margins"]
    assert committed["default_margin"] == answers.LANGUAGE_MARGIN


@pytest.mark.slow
def test_the_committed_table_is_what_the_script_measures() -> None:
    """The script's --quick languages measured again on the catalogue files the table names: each row's close
    neighbours, and its margins against the other quick languages, as committed."""
    sys.path.insert(0, str(SCRIPTS))
    from measure_language_gaps import QUICK, SEED, SENTENCES, catalogues, measure_table

    committed = json.loads(Path(answers.__file__).with_name(answers.LANGUAGE_GAPS).read_text(encoding="utf-8"))
    if not (catalogues() / "bg" / "LC_MESSAGES").is_dir():
        pytest.skip("no gettext catalogues to measure on where the tests run")
    measured = measure_table(QUICK, SENTENCES, SEED, committed["catalogues"]).rows
    assert {"ru-Cyrl", "bg-Cyrl", "hi-Deva", "ne-Deva", "id-Latn", "ms-Latn"} <= set(measured)
    for key, row in measured.items():
        expected = committed["targets"][key]
        if expected["sample_sha256"] != row["sample_sha256"]:
            pytest.skip(f"the catalogues here of {key} hold other messages than those the table was measured on")
        assert row["neighbours"] == expected["neighbours"], key  # read from the target's own sentences alone
        assert row["margins"] == {k: v for k, v in expected["margins"].items() if k in QUICK}, key
