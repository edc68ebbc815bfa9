"""A rule changes a word with an apostrophe as one word: never the part before it ("подвір'я" is never "X'я").

The rules of a language without a module read its words through clsd_format.tagging.WordTagger, which keeps a word
with an apostrophe whole (Ukrainian, Belarusian, Italian elision alike). The sentences are the project's own.
"""

from __future__ import annotations

import pytest

from clsd_format.words import find_words
from clsd_generation.rules import make_generators

SENTENCES = {
    "uk": [
        "У травні 2019 року бабуся вийшла на подвір'я і покликала 12 онуків.",
        "У понеділок сім'я купила 3 кілограми м'яса.",
    ],
    "be": ["У студзені 2020 года ўся сям'я з'ехалася на 5 дзён."],
    "it": ["Nell'aprile del 2019 il sindaco dell'anno ha aperto 12 scuole.", "Lunedì l'assemblea ha votato 3 leggi."],
}


@pytest.mark.parametrize("language", list(SENTENCES))
def test_a_rule_never_changes_the_part_before_an_apostrophe(language: str) -> None:
    corpus = SENTENCES[language]
    generator = make_generators({language: corpus}, seed=5)[language]
    made = 0
    for sentence in corpus:
        whole = {word for word in find_words(sentence, language, "'") if "'" in word}
        for attempt in (1, 2, 3):
            for candidate in generator.candidates(sentence, attempt=attempt):
                made += 1
                changed = {word for word in find_words(candidate, language, "'") if "'" in word}
                assert changed <= whole, (sentence, candidate)
    assert made  # the numbers and the calendar rules changed something in every language
