"""The answer checks in every script: a valid distractor (one word replaced by another real word) is kept, and letters
scrambled into non-words, the sentence in another language and a copy are refused; what is off, per language."""

from __future__ import annotations

import random

import pytest
import regex

from clsd_generation.checks.candidates import check_candidates, reason_kind
from clsd_generation.checks.coverage import support
from clsd_generation.checks.registry import checks_off
from clsd_generation.core.settings import ValidationBounds

ENGLISH = "The government will build a new road in that village next year, the minister said on Monday."
# (language, original, a valid distractor: one word replaced by another real word, the words whose letters get scrambled)
CASES = [
    (
        "hi",
        "सरकार अगले साल उस गाँव में एक नई सड़क बनाएगी, मंत्री ने सोमवार को कहा।",
        "सरकार अगले साल उस शहर में एक नई सड़क बनाएगी, मंत्री ने सोमवार को कहा।",
    ),
    (
        "bn",
        "সরকার আগামী বছর ওই গ্রামে একটি নতুন রাস্তা তৈরি করবে, মন্ত্রী সোমবার বলেছেন।",
        "সরকার আগামী বছর ওই শহরে একটি নতুন রাস্তা তৈরি করবে, মন্ত্রী সোমবার বলেছেন।",
    ),
    ("zh", "部长星期一说，政府明年将在那个村子修建一条新的公路。", "部长星期一说，政府明年将在那个城市修建一条新的公路。"),
    (
        "ja",
        "大臣は月曜日に、政府が来年その村に新しい道路を建設すると述べた。",
        "大臣は月曜日に、政府が来年その町に新しい道路を建設すると述べた。",
    ),
    (
        "ko",
        "장관은 월요일에 정부가 내년에 그 마을에 새 도로를 건설할 것이라고 말했다.",
        "장관은 월요일에 정부가 내년에 그 도시에 새 도로를 건설할 것이라고 말했다.",
    ),
    ("th", "รัฐมนตรีกล่าวเมื่อวันจันทร์ว่ารัฐบาลจะสร้างถนนสายใหม่ในหมู่บ้านนั้นในปีหน้า", "รัฐมนตรีกล่าวเมื่อวันจันทร์ว่ารัฐบาลจะสร้างสะพานใหม่ในหมู่บ้านนั้นในปีหน้า"),
    (
        "ar",
        "قال الوزير يوم الاثنين إن الحكومة ستبني طريقا جديدا في تلك القرية العام المقبل.",
        "قال الوزير يوم الاثنين إن الحكومة ستبني مستشفى جديدا في تلك القرية العام المقبل.",
    ),
    (
        "he",
        "השר אמר ביום שני שהממשלה תבנה כביש חדש בכפר ההוא בשנה הבאה.",
        "השר אמר ביום שני שהממשלה תבנה בית ספר חדש בכפר ההוא בשנה הבאה.",
    ),
    (
        "el",
        "Ο υπουργός είπε τη Δευτέρα ότι η κυβέρνηση θα χτίσει έναν νέο δρόμο σε εκείνο το χωριό του χρόνου.",
        "Ο υπουργός είπε την Τρίτη ότι η κυβέρνηση θα χτίσει έναν νέο δρόμο σε εκείνο το χωριό του χρόνου.",
    ),
    (
        "ru",
        "Министр сказал в понедельник, что правительство построит новую дорогу в этой деревне в следующем году.",
        "Министр сказал во вторник, что правительство построит новую дорогу в этой деревне в следующем году.",
    ),
]


def kept(original: str, candidate: str, language: str) -> tuple[bool, str]:
    verdict = check_candidates(original, [candidate], ValidationBounds(), language=language)
    return bool(verdict.kept), "; ".join(reason for _, reason in verdict.rejected)


def scrambled(text: str, language: str) -> str:
    """Letters (a letter with its marks, a Han character, a Hangul syllable) shuffled inside the longer half of the words."""
    from clsd_format.words import find_words

    rng = random.Random(7)
    words = sorted(
        {w for w in find_words(text, language) if len(regex.findall(r"\X", w)) >= 2}, key=lambda w: (-len(w), w)
    )  # one order, whatever the hash seed
    for word in words[: max(3, len(words) // 2)]:
        letters = regex.findall(r"\X", word)
        while "".join(letters) == word:
            rng.shuffle(letters)
        text = text.replace(word, "".join(letters), 1)
    return text


@pytest.mark.parametrize(("language", "original", "valid"), CASES, ids=[case[0] for case in CASES])
def test_every_script_keeps_a_replaced_word_and_refuses_scrambled_letters_another_language_and_copies(
    language: str, original: str, valid: str
) -> None:
    assert checks_off(language) == []  # every check reads this language
    assert kept(original, valid, language) == (True, "")
    refused, reason = kept(original, scrambled(original, language), language)
    assert not refused and reason_kind(reason) in ("invented words", "same meaning"), reason
    refused, reason = kept(original, ENGLISH, language)
    assert not refused and reason, reason
    for copy in (original, original.rstrip("。.।"), f" {original} "):
        assert kept(original, copy, language) == (False, "same as original")


@pytest.mark.parametrize("language", ["hi", "bn", "ar", "ru", "zh", "ko"])
def test_english_commentary_after_a_valid_distractor_is_refused_or_stripped(language: str) -> None:
    original, valid = next((o, v) for code, o, v in CASES if code == language)
    for note in (" - This sentence replaces one word.", " Note: one word was replaced by another word here."):
        verdict = check_candidates(original, [valid + note], ValidationBounds(), language=language)
        assert verdict.kept in ([], [valid]), verdict


def test_the_checks_that_are_off_are_named_with_why_for_khmer_lao_and_an_unknown_code() -> None:
    for language, name in (("km", "Khmer"), ("lo", "Lao"), ("my", "Burmese")):
        off = checks_off(language)
        assert any(line.startswith("Jaccard bounds: off for " + name) for line in off), off
        assert any(line.startswith("invented words: off for " + name) for line in off), off
        # off, never an error: a copy is still refused and a changed sentence still kept
        text = "ລັດຖະບານ ຈະ ສ້າງ ຖະໜົນ ໃໝ່" if language == "lo" else "រដ្ឋាភិបាល នឹង សាងសង់ ផ្លូវ ថ្មី"
        assert kept(text, text, language) == (False, "same as original")
    assert any(line.startswith("language: off for xyz") for line in checks_off("xyz"))
    assert support("zh-Hant").lexicon == "zh" and support("th").lexicon == "pythainlp" and support("nb").identifier == "no"


def test_the_any_language_rules_read_numbers_in_every_digit_script() -> None:
    from clsd_generation.rules.any_language import _is_year, in_digits_of

    assert in_digits_of("2017", "२०१९") == "२०१७" and in_digits_of("19", "٢٠") == "١٩" and in_digits_of("२०", "0") == "20"
    assert _is_year("२०१९") and not _is_year("¹²³⁴")  # a superscript is a digit but no number: never an error
