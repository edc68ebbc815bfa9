"""What a careful reader checks in a candidate an LLM wrote, beyond the surface bounds of :mod:`clsd_generation.checks.candidates`.

The surface bounds (Jaccard, length ratio, markup) keep gibberish and copies that merely look like
distractors. A reader also asks:

* **Language**: is it in the target language? :mod:`py3langid` (langid.py's model, shipped in its
  wheel) names the candidate's language; it must be the target language or the language
  it names for the original itself (an original quoting a foreign name, "Er ist Leiter der ARE
  (Association pour le Retournement des Entreprises).", is read as French, and so are its distractors).
  Which other languages pass is measured, not chosen: ``language_gaps.json`` (written by
  ``scripts/measure_language_gaps.py`` from real text) names per target language the close neighbours the
  identifier cannot tell from it, and how near the target another language's real sentences score
  (:class:`LanguageRow`); ``--accept-neighbour`` adds a neighbour by the user's word.
* **Near-copies**: is it the original up to a spelling slip? Once case and punctuation are folded, at
  most ``near_copy_edits`` characters changed, with no new word a source holds as written (a rare neighbour of the
  word it replaced is a slip whatever list holds it: "hopsital" for "hospital",
  :func:`clsd_generation.checks.lexicon.slip_of`) and no changed number
  ("Fidesz-Partei" -> "Fidez-Partei" is a slip; "Hund" -> "Bund" and "1995" -> "1996" change the meaning; "1.000" ->
  "1000" and "3,5" -> "3,50" do not: numbers are compared by value, :mod:`clsd_generation.checks.numerals`). A second
  correct answer, refused as "same meaning". Where one character is a syllable or a morpheme (Han, Hangul, Kana), a
  changed character is a word replaced, never a slip (:func:`changes_script_units`).
* **Invented words**: a word of three or more letters that the original lacks and that no source knows
  (:mod:`clsd_generation.checks.lexicon`: the word list, the run's own corpus, the segmenter's dictionary, an
  inflected form, a known word with an ending or a beginning of the corpus's inflection or a clitic after an
  apostrophe, a compound where the language writes them, in a script without case a name of the input or of the
  original with a clitic or a case ending, or one the word list holds after a proclitic, a Chinese transliteration).
  A candidate is refused when such words make
  ``max_unknown_share`` of its words, or when ``max_unknown_lowercase`` of them start lower-case (names and rare
  compounds are unknown too, but a name rarely starts lower-case). Both bounds are measured on the release
  (docs/generation.md). A word that is the letters of a word of the original rearranged, into a word no source knows
  or one far rarer than it, is scrambled letters and refuses the candidate on its own (:func:`scrambled_words`):
  cut by a segmenter, shuffled syllables are real one-syllable entries ("제사장" -> "장" + "제사"), so the changed
  run is read joined.
* **Decoration**: a leading label ("German:", "Satz 2 –", "1)") the original does not start with is
  stripped, and so is a trailing remark after a dash, in brackets or as a last sentence that is not in the
  target language (" - This sentence is structurally similar ...", "(The Law)", ". Note: one word was replaced.").
  In a language not written in Latin script, three or more new Latin-script words are English commentary the
  identifier may miss (the target's letters outnumber it): "wrong language".

Words are read in every script (:mod:`clsd_format.words`: combining marks kept, Chinese, Japanese, Korean and
Thai cut by their segmenters), and looked up in the word list of the target language with the same
segmentation (:func:`wordfreq.lossy_tokenize`) and in the other sources; in a script without case every unknown
word counts towards ``max_unknown_lowercase``, as none is told to be a name by its capital.

A language a library does not know is not checked for that part, never an error:
:func:`clsd_generation.checks.coverage.checks_off` names what is off and why (the card says which checks ran).
What no cheap check catches (a fluent sentence that still means the same) is left to ``clsd judge``.
"""

from __future__ import annotations

import difflib
import functools
import json
import unicodedata
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

import regex

from clsd_format.declared_settings import option_name
from clsd_format.errors import CLSDError
from clsd_format.invisible import comparable
from clsd_format.languages import parse_language
from clsd_format.words import find_words
from clsd_generation.checks.coverage import LanguageSupport, identifier, support
from clsd_generation.checks.lexicon import (
    LETTER_WORD,
    CorpusLexicon,
    has_source,
    inflection_language,
    knows,
    letter_words,
    listed,
    rearranged,
    segment_words,
    slip_of,
    transliterates,
)
from clsd_generation.checks.numerals import same_numerals
from clsd_generation.checks.parsing import trim_quotes
from clsd_generation.checks.registry import AnswerCheck, answer_checks, settings_of
from clsd_generation.core.settings import ReadingChecks

WRONG_LANGUAGE = "wrong language"
NEAR_COPY = "same meaning"
INVENTED_WORDS = "invented words"

# The ``regex`` module's word characters keep a word's combining marks (Hindi vowel signs, Arabic harakat), which
# ``re``'s cut off: "खरीदी" is one word of five letters, not "खर" and "द".
_LETTER_WORD = LETTER_WORD
# Scripts whose one character is a syllable or a morpheme: a changed character there can be a new word.
_SCRIPT_UNIT = regex.compile(r"[\p{Han}\p{Hangul}\p{Hiragana}\p{Katakana}]")
_TOKEN = regex.compile(r"\w+")
_MODIFIER_APOSTROPHE = "\u02bc"
_LATIN_WORD = regex.compile(r"\p{Latin}[\p{Latin}\p{M}]+")
FOREIGN_SCRIPT_WORDS = 3  # new words in Latin script that make a non-Latin candidate "wrong language" (commentary)
# A label before the sentence: a language name, "Sentence 2", "Satz 2 –", "Option B:", or a list number "1)" / "2."
_LABEL_WORDS = (
    r"english|german|french|spanish|italian|deutsch|englisch|französisch|franzosisch|français|francais|allemand|anglais"
    r"|original|translation|übersetzung|traduction|sentence|satz|phrase|option|distractor|version|variante?|example|beispiel|exemple"
)
# A label ends in a colon or a spaced dash: "Deutsch-französische Beziehungen" starts with no label.
_LABEL = regex.compile(
    rf"^\s*(?:(?:{_LABEL_WORDS})(?:\s*(?:\d{{1,2}}|[A-D]))?(?:\s*[:：]|\s+[–—-](?=\s))\s*|\(?\d{{1,2}}[.):]\s+)", regex.IGNORECASE
)
_DASH_TAIL = regex.compile(r"\s+[-–—]\s+(?P<tail>[^-–—]+?)\s*$")
# A last sentence after a full stop: "... Satz. Note: one word was replaced." (checked to be in another language)
_SENTENCE_TAIL = regex.compile(r"(?<=[.!?。！？])\s+(?P<tail>[^.!?。！？]+[.!?]?)\s*$")
_BRACKET_TAIL = regex.compile(r"\s*[(（](?P<tail>[^()（）]+)[)）]\s*[.!?。！？]?\s*$")


@functools.lru_cache(maxsize=4096)
def fold(text: str) -> str:
    """Case and punctuation folded away, whitespace collapsed, read as compared (NFKC, no invisible characters:
    :func:`clsd_format.invisible.comparable`). Accents stay: "könnten" and "konnten" differ in meaning. The modifier
    letter apostrophe (U+02BC) folds as the apostrophe it stands for: "подвірʼя" is "подвір'я" retyped, not a new word."""
    folded = unicodedata.normalize("NFC", comparable(text).casefold())
    return " ".join(folded.translate(_FOLDED_CHARACTERS).split())


class _FoldedCharacters(dict[int, str]):
    """What :func:`fold` writes for each character, decided once per character (a space for punctuation, a symbol and
    the modifier letter apostrophe; the character itself else): ``str.translate`` reads it character by character."""

    def __missing__(self, code: int) -> str:
        ch = chr(code)
        self[code] = kept = " " if ch == _MODIFIER_APOSTROPHE or unicodedata.category(ch)[0] in "PS" else ch
        return kept


_FOLDED_CHARACTERS = _FoldedCharacters()


@functools.lru_cache(maxsize=4096)
def language_of(text: str) -> str:
    """The language py3langid names for ``text`` (an ISO 639-1 code)."""
    return str(identifier().classify(text)[0])


# How far below the identifier's best a language may score (log-probability per character) and still be the text's
# language, where language_gaps.json measured nothing nearer: the margin of a pair of languages whose real sentences
# score far apart, and of every pair of a target language the table has no text of.
LANGUAGE_MARGIN = 0.75
LANGUAGE_GAPS = "language_gaps.json"  # beside this module; written by scripts/measure_language_gaps.py
# An English pivot text is mostly names and numbers more often: English full of names came within 0.37 of the best,
# French text with names 0.5 and more; so a pivot text is not English beyond 0.45.
PIVOT_MARGIN = 0.45


def language_gap(text: str, code: str) -> float:
    """How far below the identifier's best language ``code`` scores for ``text``, per character (0.0: it is the best)."""
    return language_gaps(text).get(code, float("inf"))


def language_gaps(text: str) -> dict[str, float]:
    """:func:`language_gap` of every language the identifier knows, from one reading of ``text``."""
    scores = dict(identifier().rank(text))
    best = max(scores.values())
    return {code: (best - score) / max(len(text), 1) for code, score in scores.items()}


@dataclass(frozen=True)
class LanguageRow:
    """What the language check lets pass for one target language in one script, as measured on real text.

    ``neighbours``: the languages the identifier names for a share of the target's own real sentences at or above
    the table's ``neighbour_share`` (Indonesian for Malay): refusing them would refuse that many correct answers,
    so they pass. ``margins``: for a language whose own real sentences score the target within
    :data:`LANGUAGE_MARGIN` (Bulgarian for Russian), the gap below which only ``margin_quantile`` of them fall;
    a candidate named so is in the wrong language beyond it. Every other language keeps :data:`LANGUAGE_MARGIN`.
    """

    neighbours: frozenset[str]
    margins: Mapping[str, float]

    def refuses(self, found: str, gap: float, accepted: Iterable[str] = ()) -> bool:
        """Whether a candidate the identifier names ``found``, ``gap`` below its best for the target, is refused."""
        if found in self.neighbours or found in accepted:
            return False
        return gap > self.margins.get(found, LANGUAGE_MARGIN)


def row_key(identifier_code: str, script: str) -> str:
    """The table's key of a target language: the identifier's code and the script, as mteb writes it ("sr-Latn")."""
    return f"{identifier_code}-{script}"


@functools.cache
def language_table() -> dict[str, LanguageRow]:
    """The measured rows of language_gaps.json, by :func:`row_key`."""
    data = json.loads(resources.files(__package__).joinpath(LANGUAGE_GAPS).read_text(encoding="utf-8"))
    return {key: LanguageRow(frozenset(row["neighbours"]), dict(row["margins"])) for key, row in data["targets"].items()}


def language_row(language: str) -> LanguageRow | None:
    """The measured row of a target language (a run's code: ``ru``, ``sr-Latn``); None where the table has no real
    text of it in its script (every other language then keeps :data:`LANGUAGE_MARGIN`)."""
    found = support(language)
    if found.identifier is None:
        return None
    return language_table().get(row_key(found.identifier, found.script))


def wrong_language(language: str, candidate: str, row: LanguageRow | None, accepted: Iterable[str] = ()) -> str | None:
    """The identifier's code of the language it names for ``candidate`` when the check refuses that for the target
    ``language``, else None; ``row``: the target's measured row, None where the one margin holds for every language;
    ``accepted``: the languages the user lets pass for this target."""
    code = support(language).identifier
    found = language_of(candidate)
    if code is None or found == code:
        return None
    gap = language_gap(candidate, code)
    refused = row.refuses(found, gap, accepted) if row is not None else found not in accepted and gap > LANGUAGE_MARGIN
    return found if refused else None


def named_language(code: str) -> str:
    """The identifier's code with its English name where a library knows it ("Bulgarian, bg")."""
    try:
        return f"{parse_language(code).name}, {code}"
    except CLSDError:  # "zxx": no linguistic content
        return code


def accepted_neighbour(spec: str, languages: Sequence[str]) -> str:
    """``--accept-neighbour TARGET:NEIGHBOUR`` as the identifier's codes ("ru:bg", "sr:hr" for ``sr-Latn:hrv``);
    ``languages`` are the run's codes. One line naming what is wrong: the form, a language the identifier does not
    know (it never names it, so there is nothing to accept), or a target that is not a language of the run."""
    option = option_name(ReadingChecks, "accepted_neighbours")
    target, sep, neighbour = spec.partition(":")
    if not sep or not target.strip() or not neighbour.strip():
        raise CLSDError(f"{option} {spec!r}: write TARGET:NEIGHBOUR, two language codes (e.g. ru:bg).")
    codes = []
    for part in (target.strip(), neighbour.strip()):
        try:
            code = support(parse_language(part).code).identifier  # "rus" is "ru", as the run writes it
        except CLSDError:  # a code no library knows: the identifier does not know it either
            code = None
        if code is None:
            raise CLSDError(f"{option} {spec!r}: the language identifier (py3langid) does not know {part!r}.")
        codes.append(code)
    if codes[0] not in {support(language).identifier for language in languages}:
        raise CLSDError(f"{option} {spec!r}: {target.strip()} is not a language of this run ({', '.join(languages)}).")
    return f"{codes[0]}:{codes[1]}"


def unknown_words(original: str, candidate: str, language: str, corpus: CorpusLexicon | None = None) -> tuple[list[str], int]:
    """The candidate's words that the original lacks and that no source knows (:func:`clsd_generation.checks.lexicon.knows`,
    ``corpus``: the run's words of the language), nor reads as a name; and its word count.

    ``language`` is a target language's code (:func:`clsd_generation.checks.coverage.support`). Written with spaces, a
    word is a run of three or more letters, marks included ("pe\u0301rtinente" is one word, not "rtinente"), an
    apostrophe inside it as the language writes it ("подвір'я" one word, "потішати'я" one unknown word:
    :func:`clsd_generation.checks.lexicon.letter_words`). Cut by a segmenter, see :func:`_unknown_segments`. No source
    knowing the language (no word list, no corpus): ([], 0).
    """
    found = support(language)
    if not has_source(found, corpus):
        return [], 0
    inflection_language(found.code)  # its dictionary loads with the first candidate, not at the first unknown word
    if found.segmented:
        return _unknown_segments(original, candidate, found, corpus)
    words = _letter_words(candidate, found.code)
    in_original = _folded_word_set(original, found.code)
    new = [word for word in words if word.casefold() not in in_original]
    return [word for word in new if not _known_or_name(word, found, corpus, in_original)], len(words)


@functools.lru_cache(maxsize=4096)
def _letter_words(text: str, code: str) -> tuple[str, ...]:
    """:func:`clsd_generation.checks.lexicon.letter_words` of ``text`` composed (NFC), read once for the checks that
    ask (an original is read with each of its candidates)."""
    return tuple(letter_words(unicodedata.normalize("NFC", text), code))


@functools.lru_cache(maxsize=4096)
def _folded_words(text: str, code: str) -> tuple[str, ...]:
    """:func:`_letter_words` case-folded, read once per text (an original's, with each of its candidates)."""
    return tuple(word.casefold() for word in _letter_words(text, code))


@functools.lru_cache(maxsize=4096)
def _folded_word_set(text: str, code: str) -> frozenset[str]:
    """The set of :func:`_folded_words`: the words an original has, asked of each of its candidates."""
    return frozenset(_folded_words(text, code))


def _known_or_name(word: str, found: LanguageSupport, corpus: CorpusLexicon | None, names: Collection[str]) -> bool:
    """Known to a source, or a name of the input or of T (``names``: T's words) with letters written onto it."""
    if knows(word, found, corpus):
        return True
    return (corpus if corpus is not None else CorpusLexicon.of(found.code, ())).reads_as_name(word, names)


def _unknown_segments(
    original: str, candidate: str, found: LanguageSupport, corpus: CorpusLexicon | None
) -> tuple[list[str], int]:
    """The segmenter's words (Chinese, Japanese, Korean, Thai): a run of new words is unknown when one of its words of
    two or more characters is known by no source as a whole, or when it is single characters whose join is no word
    ("政府" scrambled into "府政" is cut into "府" and "政", each a word of its own; a name the corpus holds, "朔尔茨",
    is cut into its characters and known joined)."""
    segments = [w for w in find_words(unicodedata.normalize("NFC", candidate), found.code) if regex.search(r"[^\W\d_]", w)]
    own = [w.casefold() for w in find_words(unicodedata.normalize("NFC", original), found.code)]
    in_original, names = set(own), segment_words(own)  # names: T's words, and its runs of characters joined ("朔尔茨")
    runs: list[list[str]] = [[]]
    for segment in segments:
        if segment.casefold() in in_original:
            runs.append([])
        else:
            runs[-1].append(segment)
    unknown: list[str] = []
    for run in filter(None, runs):
        singles = all(len(w) == 1 for w in run)
        if any(len(w) > 1 and not _known_or_name(w, found, corpus, names) for w in run) or (
            singles and len(run) > 1 and not _single_characters_known(run, found, corpus, names)
        ):
            unknown += run
    return unknown, len(segments)


def scrambled_words(
    original: str, candidate: str, found: LanguageSupport, corpus: CorpusLexicon | None = None
) -> list[tuple[str, str]]:
    """(word of the original, the candidate's word in its place) where the candidate's word is the original's letters
    rearranged (:func:`clsd_generation.checks.lexicon.rearranged`) into a word no source knows, or one far rarer than
    the word it replaced (:func:`clsd_generation.checks.lexicon.slip_of`): scrambled letters, whatever list holds the
    result or the pieces a segmenter cuts it into. A real word of comparable frequency ("사회" for "회사") is a word
    replaced.

    Written with spaces, each new word is compared with each word the candidate lacks. Cut by a segmenter, a word's
    letters shuffled are cut into other pieces ("제사장" into "장" and "제사"), so each changed run of segments is read
    joined against the run it replaced, as one word; the same segments in another order are words moved, not letters."""
    names: Collection[str]  # T's words (and, cut by a segmenter, its runs of characters joined)
    if found.segmented:
        own, new = (
            [w.casefold() for w in find_words(unicodedata.normalize("NFC", text), found.code) if regex.search(r"[^\W\d_]", w)]
            for text in (original, candidate)
        )
        names = segment_words(own)
        matcher = difflib.SequenceMatcher(a=own, b=new, autojunk=False)
        pairs = [
            ("".join(own[i1:i2]), "".join(new[j1:j2]))
            for tag, i1, i2, j1, j2 in matcher.get_opcodes()
            if tag == "replace" and sorted(own[i1:i2]) != sorted(new[j1:j2])
        ]
    else:
        written = _folded_words(candidate, found.code)
        names, new_words = _folded_word_set(original, found.code), set(written)
        removed = [old for old in _folded_words(original, found.code) if old not in new_words]
        pairs = [(old, word) for word in written if word not in names for old in removed if len(old) == len(word)]
    return [
        (old, word)
        for old, word in pairs
        if rearranged(word, old) and (not _known_or_name(word, found, corpus, names) or slip_of(word, old, found, corpus))
    ]


def _single_characters_known(
    run: list[str], found: LanguageSupport, corpus: CorpusLexicon | None, names: Collection[str]
) -> bool:
    """A run of one-character segments is a word joined, or a transliterated name (:func:`transliterates`)."""
    return _known_or_name("".join(run), found, corpus, names) or transliterates(run, found.reading.method)


def _levenshtein(a: str, b: str) -> int:
    from rapidfuzz.distance import Levenshtein

    return int(Levenshtein.distance(a, b))


@dataclass(frozen=True)
class AnswerReader:
    """The reader's checks for one target language; :meth:`refusal` names why a candidate is refused.

    ``language`` is the target's code as the run writes it (``de``, ``zh-Hant``, ``sr-Latn``, a dataset's own);
    a check whose library does not know the language is off for it (:func:`clsd_generation.checks.coverage.checks_off`).
    """

    language: str
    checks: ReadingChecks = ReadingChecks()
    # The words of the run's input in this language (a real word of the language and the domain): built once per
    # language per run (jobs.state.make_jobs); None where no corpus is read, as in a measurement on the word lists alone.
    corpus: CorpusLexicon | None = None

    @property
    def support(self) -> LanguageSupport:
        return support(self.language)

    @property
    def reads_language(self) -> bool:
        return self.checks.language and self.support.identifier is not None

    @property
    def has_lexicon(self) -> bool:
        """Whether any source knows words of the language (a word list, a segmenter's dictionary, the corpus)."""
        return has_source(self.support, self.corpus)

    def strip_decoration(self, original: str, candidate: str) -> str:
        """The candidate without a leading label or a trailing foreign remark that the original does not have."""
        text = candidate.strip()
        while (label := _LABEL.match(text)) and not _LABEL.match(original) and label.end() < len(text):
            text = text[label.end() :].strip()
        for tail_pattern in (_DASH_TAIL, _BRACKET_TAIL, _SENTENCE_TAIL):
            tail = tail_pattern.search(text)
            # only a remark the original has no counterpart of: "... in Brasilien (Paulo Coelho)." mirrors its original,
            # and words the original itself ends a sentence with are no remark (a copy is never cut into a fragment)
            if (
                tail
                and not tail_pattern.search(original)
                and fold(tail.group("tail")) not in fold(original)
                and self._foreign(tail.group("tail"))
            ):
                text = text[: tail.start()].rstrip()
                if trim_quotes(original) == original:
                    text = trim_quotes(text)  # '"Der Satz." - This sentence ...' -> Der Satz.
        return text

    def _foreign(self, fragment: str) -> bool:
        """A remark in another language than the target (English commentary, a translation)."""
        return (
            self.reads_language and len(_LETTER_WORD.findall(fragment)) >= 2 and language_of(fragment) != self.support.identifier
        )

    @property
    def accepted_neighbours(self) -> frozenset[str]:
        """The languages ``--accept-neighbour`` lets pass for this target (the identifier's codes)."""
        code = self.support.identifier
        pairs = (spec.split(":") for spec in self.checks.accepted_neighbours)
        return frozenset(neighbour for target, neighbour in pairs if target == code)

    def refusal(self, original: str, candidate: str) -> str | None:
        """Why a reader refuses ``candidate`` as a distractor of ``original``: the first registered check that refuses
        it (:mod:`clsd_generation.checks.registry`); None when every check passes."""
        for check in answer_checks():
            reason = check.refuse(self, original, candidate)
            if reason is not None:
                return reason
        return None

    def settings_of(self, check: AnswerCheck) -> Any:
        """The settings a check reads: the run's ``ReadingChecks`` for a built-in, a plug-in's own object."""
        return settings_of(self.checks, check)

    def wrong_language(self, original: str, candidate: str) -> str | None:
        """The language check: another language than T's own reading, and not one the measured table or the user
        lets pass; or, in a script other than Latin, English commentary (new Latin-script words)."""
        if not self.reads_language:
            return None
        found = wrong_language(self.language, candidate, language_row(self.language), self.accepted_neighbours)
        if found is not None and found != language_of(original):
            return f"{WRONG_LANGUAGE} ({named_language(found)})"
        foreign = self._foreign_script_words(original, candidate)
        if len(foreign) >= FOREIGN_SCRIPT_WORDS:
            return f"{WRONG_LANGUAGE} (words in Latin script: {', '.join(foreign[:3])})"
        return None

    def near_copy(self, original: str, candidate: str) -> str | None:
        """The near-copy check: the original up to a spelling slip is a second correct answer."""
        if self.checks.near_copy_edits and self._near_copy(original, candidate):
            return f"{NEAR_COPY} (a spelling slip of the original)"
        return None

    def invented(self, original: str, candidate: str) -> str | None:
        """The invented-words check, where any source knows words of the language and the run has it on (its letters
        rearranged refuse nothing either where its bounds are off)."""
        return self._invented(original, candidate) if self.has_lexicon and INVENTED_WORDS_CHECK.is_on(self.checks) else None

    def _foreign_script_words(self, original: str, candidate: str) -> list[str]:
        """Latin-script words of a candidate in a language of another script that the original lacks: English commentary
        the identifier may still file under the target, as the target's letters outnumber it."""
        if self.support.script in ("", "Latn"):
            return []
        in_original = {word.casefold() for word in _LATIN_WORD.findall(original)}
        return [word for word in _LATIN_WORD.findall(candidate) if word.casefold() not in in_original]

    def _invented(self, original: str, candidate: str) -> str | None:
        unknown, count = unknown_words(original, candidate, self.language, self.corpus)
        share = len(unknown) / count if count else 0.0
        # a name is rarely written lower-case; in a script without case (Chinese, Hindi, Arabic) no word tells it is a name
        lower = [word for word in unknown if word[0].islower() or not word[0].isupper()]
        if share >= self.checks.max_unknown_share or 0 < self.checks.max_unknown_lowercase <= len(lower):
            return f"{INVENTED_WORDS} ({len(unknown)} of {count} words unknown: {', '.join(unknown[:3])})"
        scrambled = scrambled_words(original, candidate, self.support, self.corpus)
        if scrambled:
            shown = ", ".join(f"{word} for {old}" for old, word in scrambled[:3])
            return f"{INVENTED_WORDS} (letters of a word of the original rearranged: {shown})"
        return None

    def _near_copy(self, original: str, candidate: str) -> bool:
        """At most ``near_copy_edits`` folded characters apart, no number changed (by value, as the language writes it:
        :func:`clsd_generation.checks.numerals.same_numerals`), no character changed that is a
        syllable or a morpheme (:func:`changes_script_units`) and no new word a source holds as written
        (:func:`clsd_generation.checks.lexicon.listed`: an ending the corpus writes does not make a slip a word)."""
        a, b = fold(original), fold(candidate)
        if a == b:
            return True
        if abs(len(a) - len(b)) > self.checks.near_copy_edits or _levenshtein(a, b) > self.checks.near_copy_edits:
            return False
        if changes_script_units(a, b):
            return False
        removed, added = changed_tokens(self._tokens(a), self._tokens(b))
        if any(_has_digit(token) for token in removed + added):
            if not same_numerals(original, candidate, self.language):
                return False  # a number changed; one written another way ("1.000" -> "1000", "3,5" -> "3,50") is not
            added = [token for token in added if not _has_digit(token)]  # nor is it a new word
        return not (self.has_lexicon and any(self._new_word(token, removed) for token in added))

    def _new_word(self, token: str, removed: Sequence[str]) -> bool:
        """A word a source holds as written that is no slip of a word it replaced (a rare neighbour of a common word,
        :func:`clsd_generation.checks.lexicon.slip_of`, is one, whatever list holds it)."""
        if not listed(token, self.support, self.corpus):
            return False
        return not any(slip_of(token, old, self.support, self.corpus) for old in removed)

    def _tokens(self, folded: str) -> list[str]:
        return find_words(folded, self.language) if self.support.segmented else _TOKEN.findall(folded)


def _has_digit(token: str) -> bool:
    return any(ch.isdigit() for ch in token)


def changes_script_units(old: str, new: str) -> bool:
    """Whether an edit from ``old`` to ``new`` changes a character that is a syllable or a morpheme (Han, Hangul,
    Hiragana, Katakana). There one character is a word or part of one ("소출" for "수확" is two characters and
    another noun), so it is a word replaced, never a spelling slip, whatever the word lists know."""
    if not (_SCRIPT_UNIT.search(old) or _SCRIPT_UNIT.search(new)):
        return False  # no such character at all: the character diff below is not paid for
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if tag != "equal" and (_SCRIPT_UNIT.search(old[i1:i2]) or _SCRIPT_UNIT.search(new[j1:j2])):
            return True
    return False


def changed_tokens(old: Sequence[str], new: Sequence[str]) -> tuple[list[str], list[str]]:
    """The tokens an edit removed from ``old`` and put into ``new``, by position ("haben" -> "hatten" where both occur)."""
    removed: list[str] = []
    added: list[str] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if tag != "equal":
            removed.extend(old[i1:i2])
            added.extend(new[j1:j2])
    return removed, added


def _language_off(found: LanguageSupport) -> list[str]:
    if found.identifier is not None:
        return []
    return [
        f"language: off for {found.name}: py3langid's model does not know it, so a candidate in another language is not refused"
    ]


def _near_copy_off(found: LanguageSupport) -> list[str]:
    if found.reads_words:
        return []
    return [f"near-copies: for {found.name}, any change of a few letters counts as a slip, as no source tells a new word"]


def _invented_off(found: LanguageSupport) -> list[str]:
    if found.reads_words:  # the words of the run's corpus are a source in every language whose words are found
        return []
    why = "its words are not found (above), so no source (word list, corpus) tells a word"
    return [f"invented words: off for {found.name}: {why}; letters scrambled into non-words are not refused"]


# The three checks clsd-mteb ships, registered as entry points of its pyproject.toml (group clsd_generation.answer_checks);
# alike in shape only: each names its own refusal, settings and card, as every AnswerCheck declares them.
LANGUAGE_CHECK = AnswerCheck(
    name="language",
    reason=WRONG_LANGUAGE,
    refuse=AnswerReader.wrong_language,
    card=lambda settings: "in the target language (py3langid)",
    off={"language": False},
    why_off=_language_off,
    order=10,
)
NEAR_COPY_CHECK = AnswerCheck(
    name="near-copy",
    reason=NEAR_COPY,
    refuse=AnswerReader.near_copy,
    card=lambda settings: f"not the original up to {settings.near_copy_edits} character edits with no new real word",
    off={"near_copy_edits": 0},
    why_off=_near_copy_off,
    order=20,
)
INVENTED_WORDS_CHECK = AnswerCheck(
    name="invented-words",
    reason=INVENTED_WORDS,
    refuse=AnswerReader.invented,
    card=(
        lambda settings: (
            f"less than {settings.max_unknown_share} of its words and fewer than {settings.max_unknown_lowercase} "
            "lower-case words unknown to every source of the language's words (its word list, the run's corpus, the "
            "segmenter's and inflection dictionaries, endings of the corpus's inflection, compounds of known words where the "
            "language writes them), no word of the original with its letters rearranged into a word no source knows or "
            "one far rarer"
        )
    ),
    off={"max_unknown_share": 2.0, "max_unknown_lowercase": 0},
    # on while either limit can refuse: a share above 1 and no lower-case limit refuse nothing
    on=lambda settings: settings.max_unknown_share <= 1 or settings.max_unknown_lowercase > 0,
    why_off=_invented_off,
    order=30,
)
