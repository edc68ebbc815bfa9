"""Words as their language writes them: an apostrophe inside a word (clsd_format.words, clsd_format.apostrophes).

Ukrainian and Belarusian write the apostrophe as a letter of the word, an English contraction is one word, and French
and Italian cut an elided article or pronoun off at its apostrophe, as spaCy's rules for the language say. The edit
types and the report's marked words read them so; the paper's words (CountVectorizer's) do not change. The sentences
are the project's own.
"""

from __future__ import annotations

import re
import sys

import pytest

from clsd_analysis.changed_words import changed_spans, single_substitution
from clsd_analysis.edit_typing import TypedEdit, type_edits
from clsd_format import apostrophes, edit_types
from clsd_format.apostrophes import APOSTROPHES
from clsd_format.text_measures import WORD_PATTERN, words
from clsd_format.words import find_words, token_spans

WRITTEN = {
    "uk": (
        "Бабуся вийшла на подвір'я, де м'ясо й сем'я.",
        ["Бабуся", "вийшла", "на", "подвір'я", "де", "м'ясо", "й", "сем'я"],
    ),
    "be": ("Уся сям'я з'ехалася на свята.", ["Уся", "сям'я", "з'ехалася", "на", "свята"]),
    "en": ("I don't think it's Merkel’s car.", ["I", "don't", "think", "it's", "Merkel’s", "car"]),
    "fr": (
        "Aujourd'hui l'homme qu'il voit est là.",
        ["Aujourd'hui", "l'", "homme", "qu'", "il", "voit", "est", "là"],
    ),
    "it": ("Nell'anno dell'Unione un'altra c'è.", ["Nell'", "anno", "dell'", "Unione", "un'", "altra", "c'", "è"]),
}


@pytest.mark.parametrize("language", list(WRITTEN))
def test_an_apostrophe_is_read_as_the_language_writes_it(language: str) -> None:
    text, expected = WRITTEN[language]
    assert find_words(text, language) == expected
    typographic = text.replace("'", "\u2019")  # the typographic apostrophe reads the same
    assert find_words(typographic, language) == [word.replace("'", "\u2019") for word in expected]


def test_the_modifier_letter_apostrophe_and_a_language_s_own_code_read_alike() -> None:
    assert find_words("подвірʼя і мʼясо", "ukr-Cyrl") == ["подвірʼя", "і", "мʼясо"]  # U+02BC: a letter to Unicode
    assert find_words("L’Unione d'estate", "ita-Latn") == ["L’", "Unione", "d'", "estate"]
    assert find_words("oʻzbek tili", "uz") == ["oʻzbek", "tili"]  # U+02BB, the Uzbek letter


def test_an_elided_word_is_one_token_with_its_apostrophe_and_a_rule_reads_words_whole() -> None:
    text = "Il sindaco dell'anno parla."
    assert [text[a:b] for a, b in token_spans(text, "it")] == ["Il", "sindaco", "dell'", "anno", "parla", "."]
    assert find_words(text, "it", APOSTROPHES) == ["Il", "sindaco", "dell'anno", "parla"]  # as a rule changes words
    assert find_words("L'Union européenne", None) == ["L'Union", "européenne"]  # no language: no elision is read


def test_without_spacy_no_word_is_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "spacy", None)  # as in the base install
    for cached in (apostrophes.elision_language, apostrophes._declares_elision):
        cached.cache_clear()
    try:
        assert find_words("Aujourd'hui l'homme qu'il voit.", "fr") == ["Aujourd'hui", "l'homme", "qu'il", "voit"]
    finally:
        monkeypatch.undo()
        for cached in (apostrophes.elision_language, apostrophes._declares_elision):
            cached.cache_clear()
    assert find_words("l'homme", "fr") == ["l'", "homme"]


def test_the_paper_s_words_stay_countvectorizer_s() -> None:
    for text, _ in WRITTEN.values():
        assert words(text) == re.findall(WORD_PATTERN, text.lower())  # the paper's measure cuts at every apostrophe
    assert words("I don't think so.", "en") == ["don", "think", "so"]


@pytest.mark.parametrize(
    ("language", "target", "distractor"),
    [
        ("it", "Ieri ha visto l'uomo al mercato.", "Ieri ha visto l'altro uomo al mercato."),
        ("fr", "Hier il a vu l'homme au marché.", "Hier il a vu l'autre homme au marché."),
    ],
)
def test_a_word_added_after_an_elided_article_is_one_content_word(language: str, target: str, distractor: str) -> None:
    # read without a tagger: the words of clsd_format.words, "l'" a word of its own
    assert type_edits([target], [[distractor]], language, None) == [[TypedEdit(edit_types.CONTENT_WORD)]]


def test_the_report_marks_the_changed_word_not_its_elided_article() -> None:
    target, distractor = "Il sindaco dell'anno parla.", "Il sindaco dell'estate parla."
    assert single_substitution(target, distractor, "it") == (3, "anno", "estate")
    assert [distractor[a:b] for a, b in changed_spans(target, distractor, "it")] == ["estate"]
    target, distractor = "Бабуся вийшла на подвір'я.", "Бабуся вийшла на вулицю."
    assert [distractor[a:b] for a, b in changed_spans(target, distractor, "uk")] == ["вулицю"]
    assert single_substitution(target, distractor, "uk") == (3, "подвір'я", "вулицю")
