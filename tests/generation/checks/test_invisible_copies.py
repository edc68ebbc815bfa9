"""A copy is a copy whatever its invisible characters: the surface checks and the near-copy reading compare candidates
with the original and with each other without default-ignorable and bidi control characters, after NFKC."""

from __future__ import annotations

import pytest

from clsd_generation.checks.answers import NEAR_COPY, AnswerReader
from clsd_generation.checks.candidates import check_candidates
from clsd_generation.core.settings import ValidationBounds
from tests.format.test_invisible import COPIES, GERMAN

OTHER = "Die Schule hat im Jahr 2020 genau 45 neue Türen bekommen."  # a valid distractor of GERMAN
PERSIAN = "بچه\u200cها هر صبح در پارک بازی می\u200cکنند."


@pytest.mark.parametrize("language", [None, "de"])
@pytest.mark.parametrize("kind", sorted(COPIES))
def test_a_copy_of_the_original_with_invisible_characters_is_the_same_as_the_original(kind: str, language: str | None) -> None:
    verdict = check_candidates(GERMAN, [COPIES[kind]], ValidationBounds(), language=language)
    assert verdict.kept == []
    assert verdict.rejected == [(COPIES[kind], "same as original")]


@pytest.mark.parametrize("kind", sorted(COPIES))
def test_a_copy_of_a_kept_distractor_with_invisible_characters_is_a_duplicate(kind: str) -> None:
    copy = COPIES[kind].replace("Fenster", "Türen").replace("Ｆｅｎｓｔｅｒ", "Ｔüｒｅｎ").replace("Fens\u00adter", "Tü\u00adren")
    assert copy != OTHER
    verdict = check_candidates(GERMAN, [OTHER, copy], ValidationBounds())
    assert verdict.kept == [OTHER]
    assert verdict.rejected == [(copy, "duplicate distractor")]
    again = check_candidates(GERMAN, [copy], ValidationBounds(), verdict=check_candidates(GERMAN, [OTHER], ValidationBounds()))
    assert again.rejected == [(copy, "duplicate distractor")]  # kept in an earlier answer


def test_invisible_characters_count_for_no_length() -> None:
    padded = OTHER.replace(" ", " \u200b\u200b\u200b\u200b\u200b\u200b\u200b")
    assert check_candidates(GERMAN, [padded], ValidationBounds()).kept == [padded]


def test_a_spelling_slip_with_invisible_characters_is_still_the_same_meaning() -> None:
    slip = GERMAN.replace("Fenster", "Fensetr").replace(" ", " \u200b", 3)
    assert AnswerReader("de").refusal(GERMAN, slip) == f"{NEAR_COPY} (a spelling slip of the original)"


def test_a_persian_copy_without_its_zwnj_or_with_a_right_to_left_mark_is_the_same_as_the_original() -> None:
    for copy in (PERSIAN.replace("\u200c", ""), PERSIAN.replace(" ", "\u200f ", 1)):
        assert check_candidates(PERSIAN, [copy], ValidationBounds()).rejected == [(copy, "same as original")]
