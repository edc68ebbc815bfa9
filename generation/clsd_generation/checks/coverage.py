"""What the answer checks can read in a target language, and which of them are off there and why.

Each check reads a language through a library that knows some languages and not others:

* the **language** check through :mod:`py3langid` (its model's 97 languages);
* the **invented-word** check through every source that knows words (:mod:`clsd_generation.checks.lexicon`): a word
  list (:mod:`wordfreq`'s, or for Thai PyThaiNLP's dictionary), the run's own corpus, the segmenter's dictionary and
  simplemma's inflected forms. The corpus is read in every language whose words are found, so the check is off only
  where they are not;
* **Jaccard** and the word-level parts of every check through :func:`clsd_format.words.word_reading`: languages
  written with spaces, and Chinese, Japanese, Korean and Thai by their segmenters; Lao, Khmer, Burmese and the
  other scripts without spaces have no segmenter here.

Where a library does not know the language, that check is off for it, never an error: :func:`checks_off` says
which, one line each, so a run can print it before it asks anything and its summary and the dataset card can
say what was not checked.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from clsd_format.errors import CLSDError
from clsd_format.languages import parse_language
from clsd_format.words import SPACES, WordReading, word_reading
from clsd_generation.checks.compounding import writes_compounds

THAI_DICTIONARY = "pythainlp"  # the lexicon of Thai: PyThaiNLP's word list, not wordfreq's (it has none)
# py3langid's model writes Norwegian as "no"; CLDR writes Bokmål "nb".
_IDENTIFIER_SPELLINGS = {"nb": "no"}
# wordfreq's lists that stand for a close language of the same words: Serbo-Croatian for each standard.
_LEXICON_DISTANCE = 10  # langcodes' distance for "the same language" (sr -> sh is 5, pt-BR -> pt is 0)


@dataclass(frozen=True)
class LanguageSupport:
    """What each answer check reads a target language through; None where no library knows it."""

    code: str
    name: str
    script: str  # ISO 15924, "" when unknown
    identifier: str | None  # py3langid's code
    lexicon: str | None  # wordfreq's code, or THAI_DICTIONARY
    reading: WordReading

    @property
    def segmented(self) -> bool:
        """Words found by a segmenter (Chinese, Japanese, Korean, Thai), not as runs of letters between spaces."""
        return self.reading.available and self.reading.method != SPACES

    @property
    def reads_words(self) -> bool:
        return self.reading.available

    @property
    def compounds(self) -> bool:
        """Whether the language writes compounds as one word (:mod:`clsd_generation.checks.compounding`)."""
        return writes_compounds(self.code)


@functools.cache
def identifier() -> Any:
    """py3langid's identifier, its model read once per process (shipped in its wheel)."""
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=False)


@functools.cache
def identifiable_languages() -> frozenset[str]:
    """The language codes py3langid's model knows."""
    return frozenset(identifier().nb_classes)


@functools.cache
def lexicon_languages() -> frozenset[str]:
    """The languages wordfreq has a word list for."""
    import wordfreq

    return frozenset(wordfreq.available_languages())


def _identifier_code(base: str) -> str | None:
    code = _IDENTIFIER_SPELLINGS.get(base, base)
    return code if code in identifiable_languages() else None


def _lexicon_code(code: str, base: str) -> str | None:
    import langcodes

    if base == "th":
        return THAI_DICTIONARY
    available = sorted(lexicon_languages())
    for tag in (code, base):
        try:
            match, _ = langcodes.closest_match(tag, available, max_distance=_LEXICON_DISTANCE)
        except (ValueError, LookupError):  # not a tag langcodes parses (a dataset's own code)
            continue
        if match != "und":
            return str(match)
    return None


@functools.cache
def support(language: str) -> LanguageSupport:
    """What the checks read ``language`` (a code :func:`clsd_format.languages.parse_language` takes, or a dataset's own) by."""
    base = language.replace("_", "-").split("-")[0].lower()
    try:
        parsed = parse_language(language)
        name, script = parsed.name, parsed.script
    except CLSDError:  # a dataset's own code: read as written with spaces, no library knows it
        name, script = language, ""
    return LanguageSupport(language, name, script, _identifier_code(base), _lexicon_code(language, base), word_reading(language))


def base_language(language: str) -> str:
    """The language subtag of a code ("sr" of "sr-Latn")."""
    return language.replace("_", "-").split("-")[0].lower()
