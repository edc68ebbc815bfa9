"""A language without a module of its own: the rules that need no tagger, built from language data alone.

German, French and English have a module each (:mod:`clsd_generation.rules.languages`): a tagger, a name
lexicon, negation and opposites. Every other language that :mod:`clsd_format.languages` reads gets what
needs no tagger:

* words from :mod:`clsd_format.words` (a segmenter's where the script is written without spaces), with no
  part of speech and no names (:class:`clsd_format.tagging.WordTagger`);
* numbers in any script's decimal digits, changed in the same digits ("२०१९" stays Devanagari);
* months and weekdays from CLDR through Babel for the language's locale, each word replaced by another of its
  own form (:func:`clsd_generation.rules.lexicon.calendar_forms`).

Names (no name lexicon, no tagger to find them), roles, negation, antonyms and nouns (no tagger) are off;
:mod:`clsd_generation.rules.registry` says which rule needs what (:func:`~clsd_generation.rules.registry.why_off`).
"""

from __future__ import annotations

import functools
import random

from clsd_format.tagging import TaggedSentence, WordTagger
from clsd_format.words import SPACES, word_reading
from clsd_generation.rules.lexicon import Edit, LanguageRules, NumberWords

# Percent signs of any script: ASCII, Arabic, full-width, small (a share of at most 100 stays at most 100).
PERCENT_SIGNS = frozenset({"%", "\u066a", "\uff05", "\ufe6a"})


def _no_negation(sentence: TaggedSentence, rng: random.Random) -> list[Edit]:
    return []


@functools.cache
def rules_from_language_data(code: str) -> LanguageRules:
    """The rules of a language without a module: words, numbers, and CLDR's months and weekdays."""
    return LanguageRules(
        code=code,
        antonyms=(),
        negate=_no_negation,
        tagger=functools.partial(WordTagger, code),
        tagged=False,
        unspaced=word_reading(code).method != SPACES,
        numbers=NumberWords(percent=PERCENT_SIGNS),
    )
