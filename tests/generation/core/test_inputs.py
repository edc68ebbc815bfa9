"""The corpus as read (clsd_generation.core.inputs): each column's letters against its language's script."""

from __future__ import annotations

from pathlib import Path

import pytest

from clsd_format.errors import DataError
from clsd_format.languages import parse_language
from clsd_generation.core.inputs import check_scripts, read_parallel
from tests.helpers.corpora import write_parallel_csv

SERBIAN_CYRILLIC = ["Добар дан, како сте?", "Ово је Београд.", "Сутра идемо на море."]
GERMAN = ["Guten Tag, wie geht es?", "Das ist Belgrad.", "Morgen fahren wir ans Meer."]


def _checked(tmp_path: Path, rows: list[tuple[str, str]], source: str, target: str) -> list[str]:
    corpus = read_parallel(write_parallel_csv(tmp_path / "pairs.csv", rows), ("de", "fr"))
    return check_scripts(corpus, (parse_language(source), parse_language(target)))


def test_a_script_subtag_the_text_does_not_bear_out_is_refused_naming_the_column_and_the_script(tmp_path: Path) -> None:
    rows = list(zip(GERMAN, SERBIAN_CYRILLIC, strict=True))
    with pytest.raises(DataError) as caught:
        _checked(tmp_path, rows, "de", "sr-Latn")
    message = str(caught.value)
    assert len(message.splitlines()) == 1 and "column 'fr'" in message and "Serbian (Latin)" in message
    assert "100% of the letters" in message and "Cyrillic" in message and "'sr-Cyrl'" in message
    assert _checked(tmp_path, rows, "de", "sr") == []  # Serbian's usual script is Cyrillic


def test_swapped_columns_are_refused_by_their_scripts(tmp_path: Path) -> None:
    rows = list(zip(["Привет, как дела?", "Это Москва."], ["Hallo, wie geht's?", "Das ist Moskau."], strict=True))
    with pytest.raises(DataError, match="column 'de'"):
        _checked(tmp_path, rows, "de", "ru")


def test_a_text_with_a_fifth_of_its_letters_in_another_script_is_said_in_one_line(tmp_path: Path) -> None:
    hindi = ["मैं कल Delhi गया था।", "वह Mumbai में रहता है।", "हम Google पर खोजते हैं।"]
    lines = _checked(tmp_path, list(zip(GERMAN, hindi, strict=True)), "de", "hi")
    assert len(lines) == 1 and lines[0].startswith("warning: Hindi (hi) is written in Devanagari") and "Latin" in lines[0]


@pytest.mark.parametrize(
    ("source", "target", "rows"),
    [
        (
            "ja",
            "ko",
            [("東京で、すしをたべました。", "大韓民國의 수도는 서울입니다."), ("カメラを買った。", "오늘은 날씨가 좋아요.")],
        ),
        ("ar", "he", [("ذهبت إلى السوق مع أحمد.", "הלכתי לשוק עם אחמד."), ("الطقس جميل اليوم.", "מזג האוויר יפה היום.")]),
        ("zh-TW", "en", [("我們今天去臺北。", "We go to Taipei today."), ("1234", "5678")]),  # a row without letters
    ],
)
def test_texts_in_their_languages_scripts_pass_without_a_word(
    tmp_path: Path, source: str, target: str, rows: list[tuple[str, str]]
) -> None:
    assert _checked(tmp_path, rows, source, target) == []
