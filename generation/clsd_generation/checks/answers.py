"""What a careful reader checks in a candidate an LLM wrote, beyond the surface bounds of :mod:`clsd_generation.checks.candidates`.

The surface bounds (Jaccard, length ratio, markup) keep gibberish and copies that merely look like
distractors. A reader also asks:

* **Language**: is it in the target language? :mod:`py3langid` (langid.py's model, shipped in its
  wheel, 97 languages) names the candidate's language; it must be the target language or the language
  it names for the original itself (an original quoting a foreign name, "Er ist Leiter der ARE
  (Association pour le Retournement des Entreprises).", is read as French, and so are its distractors).
* **Near-copies**: is it the original up to a spelling slip? Once case and punctuation are folded, at
  most ``near_copy_edits`` characters changed, with no new word the lexicon knows and no changed number ("Fidesz-Partei" -> "Fidez-Partei" is a slip; "Hund" -> "Bund" and "1995" ->
  "1996" change the meaning). A second correct answer, refused as "same meaning".
* **Invented words**: a word of three or more letters that the original lacks and that the word
  frequency lexicon of the language (:mod:`wordfreq`, data shipped in its wheel) does not know. A
  candidate is refused when such words make ``max_unknown_share`` of its words, or when
  ``max_unknown_lowercase`` of them start lower-case (names and rare compounds are unknown too, but a
  name rarely starts lower-case). Both bounds are measured on the release (docs/generation.md).
* **Decoration**: a leading label ("German:", "Satz 2 –", "1)") the original does not start with is
  stripped, and so is a trailing remark after a dash, in brackets or as a last sentence that is not in the
  target language (" - This sentence is structurally similar ...", "(The Law)", ". Note: one word was replaced.").
  In a language not written in Latin script, three or more new Latin-script words are English commentary the
  identifier may miss (the target's letters outnumber it): "wrong language".

Words are read in every script (:mod:`clsd_format.words`: combining marks kept, Chinese, Japanese, Korean and
Thai cut by their segmenters), and looked up in the word list of the target language with the same
segmentation (:func:`wordfreq.lossy_tokenize`); in a script without case every unknown word counts towards
``max_unknown_lowercase``, as none is told to be a name by its capital.

A language a library does not know is not checked for that part, never an error:
:func:`clsd_generation.checks.coverage.checks_off` names what is off and why (the card says which checks ran).
What no cheap check catches (a fluent sentence that still means the same) is left to ``clsd judge``.
"""

from __future__ import annotations

import difflib
import functools
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

import regex

from clsd_format.words import find_words
from clsd_generation.checks.coverage import (
    THAI_DICTIONARY,
    LanguageSupport,
    identifier,
    support,
)
from clsd_generation.checks.parsing import trim_quotes
from clsd_generation.core.settings import ReadingChecks

WRONG_LANGUAGE = "wrong language"
NEAR_COPY = "same meaning"
INVENTED_WORDS = "invented words"

# The ``regex`` module's word characters keep a word's combining marks (Hindi vowel signs, Arabic harakat), which
# ``re``'s cut off: "खरीदी" is one word of five letters, not "खर" and "द".
_LETTER_WORD = regex.compile(r"[^\W\d_]{3,}")
_TOKEN = regex.compile(r"\w+")
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


def fold(text: str) -> str:
    """Case and punctuation folded away, whitespace collapsed. Accents stay: "könnten" and "konnten" differ in meaning."""
    kept = "".join(" " if unicodedata.category(ch)[0] in "PS" else ch for ch in unicodedata.normalize("NFC", text.casefold()))
    return " ".join(kept.split())


@functools.lru_cache(maxsize=4096)
def language_of(text: str) -> str:
    """The language py3langid names for ``text`` (an ISO 639-1 code)."""
    return str(identifier().classify(text)[0])


# How far below the identifier's best a language may score (log-probability per character) and still be the text's
# language. Close languages score close: Indonesian and Malay, Serbian, Croatian and Bosnian, Norwegian and Danish,
# Czech and Slovak came within 0.62 of each other on the same sentence, any other pair 1.5 or more apart; so a
# distractor is in the wrong language only beyond 0.75, never for being in its language's close neighbour.
LANGUAGE_MARGIN = 0.75
# An English pivot text is mostly names and numbers more often: English full of names came within 0.37 of the best,
# French text with names 0.5 and more; so a pivot text is not English beyond 0.45.
PIVOT_MARGIN = 0.45


def language_gap(text: str, code: str) -> float:
    """How far below the identifier's best language ``code`` scores for ``text``, per character (0.0: it is the best)."""
    scores = dict(identifier().rank(text))
    if code not in scores:
        return float("inf")
    return (max(scores.values()) - scores[code]) / max(len(text), 1)


@functools.cache
def _thai_words() -> frozenset[str]:
    from pythainlp.corpus import thai_words

    return frozenset(thai_words())


@functools.lru_cache(maxsize=200_000)
def known_word(word: str, language: str) -> bool:
    """Whether the word list of ``language`` (wordfreq's code, or THAI_DICTIONARY) has seen ``word`` at all."""
    if language == THAI_DICTIONARY:
        return word in _thai_words()
    import wordfreq

    return wordfreq.zipf_frequency(word, language) > 0


@functools.lru_cache(maxsize=200_000)
def known_whole(word: str, language: str) -> bool:
    """Whether the word list knows ``word`` as one word: wordfreq would cut "府政" into "府" and "政", each known."""
    if language == THAI_DICTIONARY:
        return word in _thai_words()
    import wordfreq

    return len(wordfreq.lossy_tokenize(word, language)) == 1 and known_word(word, language)


def unknown_words(original: str, candidate: str, language: str) -> tuple[list[str], int]:
    """The candidate's words that the original lacks and the word list does not know; and its word count.

    ``language`` is a target language's code (:func:`clsd_generation.checks.coverage.support`). Written with spaces, a
    word is a run of three or more letters, marks included ("pe\u0301rtinente" is one word, not "rtinente"). Cut by a
    segmenter, see :func:`_unknown_segments`.
    """
    found = support(language)
    if found.lexicon is None or not found.reads_words:
        return [], 0
    if found.segmented:
        return _unknown_segments(original, candidate, found)
    words = _LETTER_WORD.findall(unicodedata.normalize("NFC", candidate))
    in_original = {word.casefold() for word in _LETTER_WORD.findall(unicodedata.normalize("NFC", original))}
    return [word for word in words if word.casefold() not in in_original and not known_word(word, found.lexicon)], len(words)


def _unknown_segments(original: str, candidate: str, found: LanguageSupport) -> tuple[list[str], int]:
    """The segmenter's words (Chinese, Japanese, Korean, Thai): a run of new words is unknown when one of its words of
    two or more characters is not in the word list as a whole, or when it is single characters whose join is no word
    ("政府" scrambled into "府政" is cut into "府" and "政", each a word of its own)."""
    assert found.lexicon is not None
    segments = [w for w in find_words(unicodedata.normalize("NFC", candidate), found.code) if regex.search(r"[^\W\d_]", w)]
    in_original = {w.casefold() for w in find_words(unicodedata.normalize("NFC", original), found.code)}
    runs: list[list[str]] = [[]]
    for segment in segments:
        if segment.casefold() in in_original:
            runs.append([])
        else:
            runs[-1].append(segment)
    unknown: list[str] = []
    for run in filter(None, runs):
        singles = all(len(w) == 1 for w in run)
        if any(len(w) > 1 and not known_whole(w, found.lexicon) for w in run) or (
            singles and len(run) > 1 and not known_whole("".join(run), found.lexicon)
        ):
            unknown += run
    return unknown, len(segments)


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

    @property
    def support(self) -> LanguageSupport:
        return support(self.language)

    @property
    def reads_language(self) -> bool:
        return self.checks.language and self.support.identifier is not None

    @property
    def has_lexicon(self) -> bool:
        return self.support.lexicon is not None and self.support.reads_words

    def strip_decoration(self, original: str, candidate: str) -> str:
        """The candidate without a leading label or a trailing foreign remark that the original does not have."""
        text = candidate.strip()
        while (label := _LABEL.match(text)) and not _LABEL.match(original) and label.end() < len(text):
            text = text[label.end() :].strip()
        for tail_pattern in (_DASH_TAIL, _BRACKET_TAIL, _SENTENCE_TAIL):
            tail = tail_pattern.search(text)
            # only a remark the original has no counterpart of: "... in Brasilien (Paulo Coelho)." mirrors its original
            if tail and not tail_pattern.search(original) and self._foreign(tail.group("tail")):
                text = text[: tail.start()].rstrip()
                if trim_quotes(original) == original:
                    text = trim_quotes(text)  # '"Der Satz." - This sentence ...' -> Der Satz.
        return text

    def _foreign(self, fragment: str) -> bool:
        """A remark in another language than the target (English commentary, a translation)."""
        return (
            self.reads_language and len(_LETTER_WORD.findall(fragment)) >= 2 and language_of(fragment) != self.support.identifier
        )

    def refusal(self, original: str, candidate: str) -> str | None:
        """Why a reader refuses ``candidate`` as a distractor of ``original``; None when every check passes."""
        if self.reads_language:
            code = self.support.identifier
            found = language_of(candidate)
            # another language than T's own reading, and not a close neighbour of the target (LANGUAGE_MARGIN)
            if found not in (code, language_of(original)) and language_gap(candidate, str(code)) > LANGUAGE_MARGIN:
                return f"{WRONG_LANGUAGE} ({found})"
            foreign = self._foreign_script_words(original, candidate)
            if len(foreign) >= FOREIGN_SCRIPT_WORDS:
                return f"{WRONG_LANGUAGE} (words in Latin script: {', '.join(foreign[:3])})"
        if self.checks.near_copy_edits and self._near_copy(original, candidate):
            return f"{NEAR_COPY} (a spelling slip of the original)"
        if self.has_lexicon:
            return self._invented(original, candidate)
        return None

    def _foreign_script_words(self, original: str, candidate: str) -> list[str]:
        """Latin-script words of a candidate in a language of another script that the original lacks: English commentary
        the identifier may still file under the target, as the target's letters outnumber it."""
        if self.support.script in ("", "Latn"):
            return []
        in_original = {word.casefold() for word in _LATIN_WORD.findall(original)}
        return [word for word in _LATIN_WORD.findall(candidate) if word.casefold() not in in_original]

    def _invented(self, original: str, candidate: str) -> str | None:
        unknown, count = unknown_words(original, candidate, self.language)
        share = len(unknown) / count if count else 0.0
        # a name is rarely written lower-case; in a script without case (Chinese, Hindi, Arabic) no word tells it is a name
        lower = [word for word in unknown if word[0].islower() or not word[0].isupper()]
        if share >= self.checks.max_unknown_share or 0 < self.checks.max_unknown_lowercase <= len(lower):
            return f"{INVENTED_WORDS} ({len(unknown)} of {count} words unknown: {', '.join(unknown[:3])})"
        return None

    def _near_copy(self, original: str, candidate: str) -> bool:
        """At most ``near_copy_edits`` folded characters apart, no number changed and no new word the lexicon knows."""
        a, b = fold(original), fold(candidate)
        if a == b:
            return True
        if abs(len(a) - len(b)) > self.checks.near_copy_edits or _levenshtein(a, b) > self.checks.near_copy_edits:
            return False
        removed, added = changed_tokens(self._tokens(a), self._tokens(b))
        if any(ch.isdigit() for token in removed + added for ch in token):
            return False
        lexicon = self.support.lexicon
        known = known_whole if self.support.segmented else known_word
        return not any(self.has_lexicon and lexicon and known(token, lexicon) for token in added)

    def _tokens(self, folded: str) -> list[str]:
        return find_words(folded, self.language) if self.support.segmented else _TOKEN.findall(folded)


def changed_tokens(old: Sequence[str], new: Sequence[str]) -> tuple[list[str], list[str]]:
    """The tokens an edit removed from ``old`` and put into ``new``, by position ("haben" -> "hatten" where both occur)."""
    removed: list[str] = []
    added: list[str] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if tag != "equal":
            removed.extend(old[i1:i2])
            added.extend(new[j1:j2])
    return removed, added
