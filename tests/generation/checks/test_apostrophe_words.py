"""A word with an apostrophe is one word to the answer checks and to the stand-in that changes words.

A word changed at a fragment ("потішати'я", made from "подвір'я" by replacing "подвір") is one unknown word, refused as
invented; the word as written stays known; a retyped apostrophe (U+02BC for U+0027) is no new word. The stand-in LLM of
the tests (tests/helpers/fake_openai.py) replaces whole words, never the part before an apostrophe. The sentences are
the project's own.
"""

from __future__ import annotations

import pytest

from clsd_format.words import find_words
from clsd_generation.checks.answers import INVENTED_WORDS, NEAR_COPY, AnswerReader
from clsd_generation.checks.candidates import reason_kind
from clsd_generation.checks.lexicon import CorpusLexicon
from tests.helpers.fake_openai import swapped_words

UKRAINIAN = "Бабуся вийшла на подвір'я і покликала онуків обідати."
BELARUSIAN = "Уся сям'я сабралася ў вялікім доме на свята."
ENGLISH = "We don't know where the bridge is."


def kind(original: str, candidate: str, language: str, corpus: bool = False) -> str | None:
    """The kind of refusal of ``candidate`` (None: kept), with the original as the run's corpus when ``corpus``."""
    lexicon = CorpusLexicon.of(language, [original]) if corpus else None
    reason = AnswerReader(language, corpus=lexicon).refusal(original, candidate)
    return reason_kind(reason) if reason else None


@pytest.mark.parametrize(
    ("language", "original", "fragment_changed", "corpus"),
    [
        ("uk", UKRAINIAN, UKRAINIAN.replace("подвір'я", "потішати'я"), False),
        ("be", BELARUSIAN, BELARUSIAN.replace("сям'я", "вялікім'я"), True),  # no word list: the corpus is the source
        ("en", ENGLISH, ENGLISH.replace("don't", "house't"), False),
    ],
)
def test_a_word_changed_at_a_fragment_is_an_invented_word(
    language: str, original: str, fragment_changed: str, corpus: bool
) -> None:
    assert kind(original, fragment_changed, language, corpus) == INVENTED_WORDS


def test_a_word_with_an_apostrophe_stays_known_and_a_retyped_apostrophe_is_no_new_word() -> None:
    assert kind(UKRAINIAN, UKRAINIAN.replace("вийшла", "вибігла"), "uk") is None
    assert kind(UKRAINIAN.replace("подвір'я", "вулицю"), UKRAINIAN, "uk") is None  # "подвір'я" is a word of the list
    assert kind(UKRAINIAN, UKRAINIAN.replace("подвір'я", "подвірʼя"), "uk") == NEAR_COPY  # U+02BC for U+0027


@pytest.mark.parametrize(
    ("language", "sentence", "pool"),
    [
        ("uk", "Ми вийшли на подвір'я.", ["Діти бігали по вулиці біля старої школи.", "Мама купила свіже м'ясо на ринку."]),
        ("it", "Il sindaco dell'anno parla ai cittadini.", ["Ieri la città ha aperto un'altra biblioteca pubblica."]),
    ],
)
def test_the_stand_in_changes_whole_words_never_the_part_before_an_apostrophe(
    language: str, sentence: str, pool: list[str]
) -> None:
    whole = {word for text in [sentence, *pool] for word in find_words(text, language, "'")}
    for candidate in swapped_words(sentence, language, pool):
        made = [word for word in find_words(candidate, language, "'") if "'" in word]
        assert all(word in whole for word in made), (candidate, made)  # never "потішати'я" nor "cittadini'anno"
