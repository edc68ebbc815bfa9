"""Words in every script: where a text's words are, for languages written with and without spaces.

Two things go wrong with a regular expression on Python's ``re`` ``\\w``:

* **Combining marks.** ``re``'s ``\\w`` is ``str.isalnum``, which leaves out vowel signs and viramas
  (categories Mc and Mn): "खरीदी" falls apart into "खर" and "द". The ``regex`` module's ``\\w`` follows
  Unicode's definition (letters, marks, digits, connectors, joiners), so Devanagari, Bengali and Tamil words,
  Thai vowels, Arabic harakat and Hebrew niqqud stay inside their words. Every pattern here is a ``regex`` one.
* **Scripts without spaces.** Chinese, Japanese, Thai, Lao, Khmer and Burmese do not put spaces between
  words, so a pattern finds whole phrases. Those languages are cut by a segmenter that installs from PyPI
  with its data and needs nothing at run time: Chinese by jieba with wordfreq's word list (Traditional
  characters read through wordfreq's simplification), Japanese by MeCab with IPAdic, Korean by MeCab with
  mecab-ko-dic (morphemes: particles are words of their own, as wordfreq counts them), Thai by PyThaiNLP's
  ``newmm`` with its own dictionary. Lao, Khmer and Burmese have none here: their words are runs between
  spaces and punctuation (phrases), and :func:`word_reading` says so.

A segmenter is loaded once per process, the first time a text of its language is read. Which one a language
gets follows its script (:func:`clsd_format.languages.parse_language`); a code with a script subtag
(``zho-Hant``, ``deu-Latn``) is read without the language library, and a code no library knows (a dataset's
own ``xyz-Latn``) is read as written with spaces. The segmenters come with the
``generate`` and ``analysis`` extras; a language whose segmenter is missing stops with one line naming the
extra (:class:`~clsd_format.extras.MissingExtra`).

Languages written with spaces cost what the paper's pattern cost with ``re``: one ``findall`` of a pattern
the ``regex`` module runs as fast.

An apostrophe between two word characters is part of the word ("подвір'я", "don't"), except where the language's
rules cut an elided word off there (French "l'" + "homme", Italian "dell'" + "anno"): :mod:`clsd_format.apostrophes`.
The paper's word (:data:`PAPER_WORD`, read by :func:`paper_words` for the paper's measures) keeps CountVectorizer's
definition, which cuts at every apostrophe: the release's Jaccard and word counts stay the authors' numbers.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from unicodedata import normalize

import regex

from clsd_format.apostrophes import APOSTROPHES, elision_cuts, elision_language
from clsd_format.errors import CLSDError
from clsd_format.extras import MissingExtra, importable
from clsd_format.languages import parse_language

SPACES = "spaces"  # words are runs of word characters: every language written with spaces
# The segmenters: name -> the modules each needs (import names), and what it reads.
SEGMENTER_MODULES: dict[str, tuple[str, ...]] = {
    "jieba": ("jieba", "wordfreq"),
    "mecab-ipadic": ("MeCab", "ipadic"),
    "mecab-ko-dic": ("MeCab", "mecab_ko_dic"),
    "pythainlp": ("pythainlp",),
}
_HAN = frozenset({"Hans", "Hant", "Hani"})
# Scripts written without spaces between words, and the segmenter of the one language each is read for here.
_SEGMENTED = {"Jpan": ("ja", "mecab-ipadic"), "Hira": ("ja", "mecab-ipadic"), "Kana": ("ja", "mecab-ipadic")}
_SEGMENTED |= {"Kore": ("ko", "mecab-ko-dic"), "Hang": ("ko", "mecab-ko-dic"), "Thai": ("th", "pythainlp")}
# Scripts written without spaces between words that no segmenter here reads.
UNSEGMENTED_SCRIPTS = frozenset({"Laoo", "Khmr", "Mymr", "Tale", "Talu", "Lana", "Bali", "Java", "Thai", "Hira", "Kana"})
EXTRA = "analysis"  # the extra named when a segmenter is missing (the generate extra brings them too)

# The paper's word (CountVectorizer's default token ``\b\w\w+\b``), here with its marks: every run of two or
# more word characters. Written without the ``\b`` (a greedy run starts and ends at a boundary all the same),
# which keeps the ``regex`` module as fast as ``re`` was on the old pattern.
PAPER_WORD = regex.compile(r"\w\w+")
_JOINED: dict[str, regex.Pattern[str]] = {}
_NON_SPACE = regex.compile(r"\S")


@dataclass(frozen=True)
class WordReading:
    """Whether the words of a language are read as words, how, and what is off when they are not."""

    language: str  # the code asked about
    method: str  # SPACES, a key of SEGMENTER_MODULES, or "" where no segmenter exists
    available: bool
    why_not: str = ""  # one line when not available: what is off for the language, and what would fix it


@functools.cache
def _route(language: str | None) -> tuple[str, str]:
    """(method, what to call the language in messages) for a language code; (SPACES, "") for no language."""
    if language is None:
        return SPACES, ""
    parts = language.replace("_", "-").split("-")
    script = next((p.title() for p in parts[1:] if len(p) == 4 and p.isalpha()), None)
    base, name = parts[0].lower(), language
    if script is None or script in _HAN or script in _SEGMENTED or script in UNSEGMENTED_SCRIPTS:
        try:
            parsed = parse_language(language)
            script, base, name = script or parsed.script, parsed.code.split("-")[0], parsed.name
        except MissingExtra:
            raise
        except CLSDError:  # a code no library knows (a dataset's own): its script, else written with spaces
            if script is None:
                return SPACES, language
    if script in _HAN:
        return "jieba", name
    wanted = _SEGMENTED.get(script)
    if wanted is not None and base == wanted[0]:
        return wanted[1], name
    return ("", name) if script in UNSEGMENTED_SCRIPTS else (SPACES, name)


def word_reading(language: str | None) -> WordReading:
    """Whether :func:`find_words` reads ``language``'s words as words; where not, one line on what is off and why.

    An unknown code raises the one error line of :func:`clsd_format.languages.parse_language`.
    """
    method, name = _route(language)
    code = language or ""
    if method == "":
        why = (
            f"{name} is written without spaces between words and no segmenter that installs from PyPI with its data "
            "is used here: its 'words' are runs between spaces and punctuation, so word counts, Jaccard, changed "
            "words and edit types are off for it"
        )
        return WordReading(code, method, False, why)
    missing = [module for module in SEGMENTER_MODULES.get(method, ()) if not importable(module)]
    if missing:
        return WordReading(code, method, False, str(MissingExtra(EXTRA, f"reading {name} words", missing)))
    return WordReading(code, method, True)


def _require(method: str, name: str) -> None:
    missing = [module for module in SEGMENTER_MODULES[method] if not importable(module)]
    if missing:
        raise MissingExtra(EXTRA, f"reading {name} words", missing)


def _jieba() -> Callable[[str], list[str]]:
    import logging

    import jieba
    from wordfreq.chinese import jieba_tokenize

    jieba.setLogLevel(logging.WARNING)  # not "Building prefix dict ..." on every first use
    return jieba_tokenize


def _mecab(dictionary: str) -> Callable[[str], list[str]]:
    import importlib

    import MeCab

    tagger = MeCab.Tagger(importlib.import_module(dictionary).MECAB_ARGS)

    def surfaces(text: str) -> list[str]:
        lines = (tagger.parse(text) or "").split("\n")
        return [line.split("\t")[0] for line in lines if line and line != "EOS"]

    return surfaces


def _thai() -> Callable[[str], list[str]]:
    from pythainlp.tokenize import word_tokenize

    return lambda text: word_tokenize(text, engine="newmm", keep_whitespace=False)


_LOADERS: dict[str, Callable[[], Callable[[str], list[str]]]] = {
    "jieba": _jieba,
    "mecab-ipadic": lambda: _mecab("ipadic"),
    "mecab-ko-dic": lambda: _mecab("mecab_ko_dic"),
    "pythainlp": _thai,
}


@functools.cache
def _segmenter(method: str) -> Callable[[str], list[str]]:
    """The segmenter, loaded on first use and kept for the process."""
    return _LOADERS[method]()


def _joined(joiners: str) -> regex.Pattern[str]:
    """Runs of word characters joined across an apostrophe or a character of ``joiners`` between two of them."""
    pattern = _JOINED.get(joiners)
    if pattern is None:
        inner = regex.escape("".join(dict.fromkeys(APOSTROPHES + joiners)))
        pattern = _JOINED[joiners] = regex.compile(rf"\w+(?:[{inner}]\w+)*")
    return pattern


def _elided(text: str, spans: list[tuple[int, int]], code: str) -> list[tuple[int, int]]:
    """The spans with each word cut where the eliding language ``code`` cuts it next to an apostrophe ("l'", "homme")."""
    out: list[tuple[int, int]] = []
    for start, end in spans:
        cuts = elision_cuts(code, text[start:end]) if any(mark in text[start:end] for mark in APOSTROPHES) else ()
        edges = [start, *(start + cut for cut in cuts), end]
        out.extend(itertools.pairwise(edges))
    return out


def _segment_spans(text: str, pieces: Sequence[str]) -> list[tuple[int, int]]:
    """(start, end) of each piece with a word character, found left to right in ``text`` (pieces it lacks are skipped)."""
    spans, cursor = [], 0
    for piece in pieces:
        if not regex.search(r"\w", piece):
            continue
        start = text.find(piece, cursor)
        if start < 0:
            continue
        spans.append((start, start + len(piece)))
        cursor = start + len(piece)
    return spans


def word_spans(text: str, language: str | None = None, joiners: str = "") -> list[tuple[int, int]]:
    """(start, end) of each word of ``text`` in order, case kept.

    Written with spaces (or no language): runs of word characters, marks included, joined across an apostrophe and
    each character of ``joiners`` between two of them ("-" keeps "Grande-Bretagne" whole, and "подвір'я" and "don't"
    are words as written); where the language cuts an elided word off (:mod:`clsd_format.apostrophes`), it is cut
    there ("l'", "Union"), unless ``joiners`` holds an apostrophe: then every word with one is read whole, as a rule
    that changes words must read it. Without spaces: the language's segmenter's words.
    """
    method, name = _route(language)
    if method in (SPACES, ""):
        spans = [m.span() for m in _joined(joiners).finditer(text)]
        code = None if any(mark in joiners for mark in APOSTROPHES) else elision_language(language)
        return spans if code is None else _elided(text, spans, code)
    _require(method, name)
    return _segment_spans(text, _segmenter(method)(text))


def token_spans(text: str, language: str | None = None, joiners: str = "") -> list[tuple[int, int]]:
    """(start, end) of each token: the words of :func:`word_spans` and every other non-space character on its own."""
    spans: list[tuple[int, int]] = []
    cursor = 0
    for start, end in [*word_spans(text, language, joiners), (len(text), len(text))]:
        spans.extend(m.span() for m in _NON_SPACE.finditer(text, cursor, start))
        if end > start:
            spans.append((start, end))
        cursor = end
    return spans


def find_words(text: str, language: str | None = None, joiners: str = "") -> list[str]:
    """The words of ``text`` in order, case kept (see :func:`word_spans`)."""
    return [text[start:end] for start, end in word_spans(text, language, joiners)]


def paper_words(text: str, language: str | None = None) -> list[str]:
    """The paper's words: composed (NFC: "à" is one character however it was typed) and lower-cased; written with
    spaces, every run of two or more word characters (marks included); without spaces, every word the segmenter finds, one character long or more (a Chinese word often is).
    """
    if language is None:
        return PAPER_WORD.findall(normalize("NFC", text).lower())
    method, name = _route(language)
    lowered = normalize("NFC", text).lower()
    if method in (SPACES, ""):
        return PAPER_WORD.findall(lowered)
    _require(method, name)
    return [lowered[start:end] for start, end in _segment_spans(lowered, _segmenter(method)(lowered))]
