"""The corpus as read (clsd_generation.core.inputs): each column's words against its language's script."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from clsd_format.errors import DataError
from clsd_format.languages import parse_language
from clsd_generation.core.inputs import check_scripts, read_parallel
from tests.helpers.corpora import write_parallel_csv

ROOT = Path(__file__).resolve().parents[3]
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
    assert "100% of the words" in message and "Cyrillic" in message and "'sr-Cyrl'" in message
    assert _checked(tmp_path, rows, "de", "sr") == []  # Serbian's usual script is Cyrillic


def test_swapped_columns_are_refused_by_their_scripts(tmp_path: Path) -> None:
    rows = list(zip(["Привет, как дела?", "Это Москва."], ["Hallo, wie geht's?", "Das ist Moskau."], strict=True))
    with pytest.raises(DataError, match="column 'de'"):
        _checked(tmp_path, rows, "de", "ru")


def test_a_text_with_more_than_a_fifth_of_its_words_in_another_script_is_said_in_one_line(tmp_path: Path) -> None:
    code_mixed = ["कल के meeting में boss ने नया project assign किया।", "मैं कल Delhi गया था।", "हम Google पर खोजते हैं।"]
    lines = _checked(tmp_path, list(zip(GERMAN, code_mixed, strict=True)), "de", "hi")
    assert len(lines) == 1 and lines[0].startswith("warning: Hindi (hi) is written in Devanagari") and "Latin" in lines[0]
    names_only = ["मैं कल Delhi गया था।", "वह Mumbai में रहता है।", "हम Google पर खोजते हैं।"]  # one word in five
    assert _checked(tmp_path, list(zip(GERMAN, names_only, strict=True)), "de", "hi") == []


# Tech news as it is written: 61% of the letters Latin (brand names), a fifth to a quarter of the words.
CHINESE_TECH_NEWS = [
    "苹果公司周二发布了iPhone 15 Pro Max和新款MacBook Air，起售价为9999元。",
    "微软宣布将在Windows 11中全面集成Copilot，Surface Pro用户可免费升级。",
    "三星Galaxy S24 Ultra在Amazon上的预约量已经超过100万台。",
    "Google发布Pixel 9 Pro，搭载Tensor G4芯片和Gemini助手。",
]
JAPANESE_TECH_NEWS = [
    "アップルはiPhone 15 Pro MaxとApple Watch Ultra 2を9月22日に発売する。",
    "新しいMacBook AirはM3チップを搭載し、価格は16万4800円から。",
    "マイクロソフトはWindows 11とSurface LaptopにCopilotを標準搭載する。",
    "GoogleのPixel 9 ProはTensor G4とGeminiを搭載して8月に発売。",
]


@pytest.mark.parametrize("code", ["zh", "zh-Hans"])
def test_chinese_tech_news_naming_products_in_latin_letters_is_chinese(tmp_path: Path, code: str) -> None:
    lines = _checked(tmp_path, list(zip([*GERMAN, "Heute regnet es in Köln."], CHINESE_TECH_NEWS, strict=True)), "de", code)
    assert len(lines) == 1 and "Chinese" in lines[0] and "most of them Latin" in lines[0]  # said, not refused


def test_japanese_tech_news_naming_products_in_latin_letters_is_japanese(tmp_path: Path) -> None:
    lines = _checked(tmp_path, list(zip([*GERMAN, "Heute regnet es in Köln."], JAPANESE_TECH_NEWS, strict=True)), "de", "ja")
    assert len(lines) == 1 and "Japanese (ja) is written in Japanese" in lines[0]  # said, not refused


def test_a_column_in_latin_letters_under_a_chinese_code_is_still_refused_with_the_code_to_use(tmp_path: Path) -> None:
    english = [
        "Apple unveiled the iPhone 15 Pro Max on Tuesday, priced from 1,199 dollars.",
        "Microsoft will build Copilot into Windows 11, Surface owners upgrade for free.",
        "Pre-orders of the Samsung Galaxy S24 Ultra on 亚马逊 passed one million.",
    ]
    for code in ("zh", "zh-Hans"):
        with pytest.raises(DataError) as caught:
            _checked(tmp_path, list(zip(GERMAN, english, strict=True)), "de", code)
        message = str(caught.value)
        assert "of the words of column 'fr' are not, most of them Latin" in message and "(e.g. 'zh-Latn')" in message


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


def test_the_docs_show_where_each_text_lands_as_the_measure_computes_it() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    from measure_script_shares import table

    assert table() in (ROOT / "docs" / "generation.md").read_text(encoding="utf-8")
