"""The edit type of a distractor, read from its difference to the true translation T.

Rule-made datasets carry each distractor's type (the ``distractor_edit_types`` column, written from the
rule that made it); released and LLM-made distractors carry none, so they are typed here, into the same
vocabulary (:mod:`clsd_format.edit_types`). T and the distractor d are tagged by the offline taggers of
:mod:`clsd_format.tagging` (German and English HanTa, French spaCy), and their words compared:

1. Words are the tagger's tokens with a letter or digit, compared case- and accent-blind (so "A Paris" and
   "À Paris" are one word; Arabic harakat and Hebrew niqqud are dropped the same way, while the vowel signs
   of Indic scripts stay: they are letters of the word). Punctuation never counts as an edit.
2. **word order**: d holds exactly T's words (in another order, or with punctuation changed only).
3. **rewritten**: under half of T's words stay in place (the longest matching blocks of words, difflib's).
4. Otherwise every changed stretch (a run of words replaced, added or removed) is classified:
   **negation** when it changes how many negation words there are (German *nicht, kein, nie, ...*, French
   *ne, pas, jamais, aucun, ...*, English *not, no, never, ...*); **number or date** when its content
   words are numbers, digits, months or weekdays; **name** when they are names (the tagger's proper nouns
   or named entities); otherwise its content words are counted. Function words (articles, prepositions,
   pronouns, ...) inside a stretch do not count where content words changed beside them, and a stretch of
   function words only counts as one changed word unless another stretch holds content words (then it is
   agreement: "der Präsident" -> "die Präsidentin").
5. One type for the distractor: the stretches' common type when all are negation, all numbers or dates, or
   all names; **content word** when exactly one word was replaced, added or removed, with the part of
   speech of T's word (of the added word for an addition); **several edits** for anything else.

Where no tagger exists for a language, the same steps run without part of speech: no names are found
and numbers are digits, months and weekdays only. Its words are then :mod:`clsd_format.words`'s (combining
marks kept inside a word, an apostrophe as the language writes it: Ukrainian "подвір'я" one word, Italian "dell'" and
"anno" two; scripts without spaces cut by their segmenter), so a one-word change in Hindi, Chinese or Italian is one
changed word; where no segmenter reads a language (Khmer, Lao, Burmese),
:func:`clsd_format.words.word_reading` says what is off.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import regex

from clsd_format import edit_types
from clsd_format.tagging import TAGGERS, TaggedSentence, Tagger, Token, tagger_for
from clsd_format.words import token_spans

REWRITE_THRESHOLD = 0.5  # below this share of T's words kept in place, a distractor is rewritten
FUNCTION_POS = frozenset({"ADP", "AUX", "CCONJ", "DET", "PART", "PRON", "SCONJ", "PUNCT", "SYM", "X", "INTJ"})
NEGATION_WORDS: dict[str, frozenset[str]] = {
    "de": frozenset(
        "nicht kein keine keinen keinem keiner keines nie niemals nichts niemand niemanden niemandem "
        "nirgends nirgendwo keineswegs weder".split()
    ),
    "fr": frozenset("ne n' n’ pas jamais rien aucun aucune aucuns aucunes nul nulle nullement guère ni".split()),
    "en": frozenset("not n't n’t no never nothing nobody none neither nor cannot".split()),
}
CALENDAR_WORDS: dict[str, frozenset[str]] = {
    "de": frozenset(
        "januar jänner februar märz april mai juni juli august september oktober november dezember "
        "montag dienstag mittwoch donnerstag freitag samstag sonnabend sonntag".split()
    ),
    "fr": frozenset(
        "janvier février mars avril mai juin juillet août septembre octobre novembre décembre "
        "lundi mardi mercredi jeudi vendredi samedi dimanche".split()
    ),
    "en": frozenset(
        "january february march april may june july august september october november december "
        "monday tuesday wednesday thursday friday saturday sunday".split()
    ),
}
_WORD = regex.compile(r"\w")
_DIGIT = regex.compile(r"\d")
_ENGLISH_NOT = regex.compile(r"\w+n['’]t$")
# Marks dropped when words are compared: accents on Latin, Greek and Cyrillic letters, Arabic harakat and
# Hebrew niqqud (all optional in writing). Other scripts' marks (Indic vowel signs, viramas) are letters.
_OPTIONAL_MARKS = regex.compile(r"(?<=[\p{Latin}\p{Greek}\p{Cyrillic}\p{Arabic}\p{Hebrew}]\p{M}*)\p{Mn}")
# Characters that join two runs of word characters into one word ("7,2", "Grande-Bretagne"); an apostrophe joins as
# the language writes it ("подвір'я" one word, French "l'" and "Union" two: clsd_format.apostrophes).
JOINERS = "-.,"

TaggerFactory = Callable[[str], "Tagger | None"]


@dataclass(frozen=True)
class TypedEdit:
    """A distractor's edit type, the part of speech of its changed word (content-word edits), and where it came from."""

    edit_type: str  # a name of clsd_format.edit_types
    pos: str | None = None  # Universal POS of the changed word, for a one-word content change
    declared: bool = False  # True: read from the dataset (the rule that made it); False: typed from the text


def offline_tagger(language: str) -> Tagger | None:
    """The offline tagger of a language (:func:`clsd_format.tagging.tagger_for`), None where there is none."""
    return tagger_for(language) if language in TAGGERS else None


def untagged(text: str, language: str | None = None) -> TaggedSentence:
    """A sentence split into words and symbols, without part of speech (for a language with no tagger).

    Words are :func:`clsd_format.words.token_spans`'s for ``language`` (any code; None: written with spaces).
    """
    tokens = tuple(
        Token(text[start:end], start, end, "", "", text[start:end].casefold(), "")
        for start, end in token_spans(text, language, JOINERS)
    )
    return TaggedSentence(text, tokens, ())


def word_key(text: str) -> str:
    """A word as compared: case-folded, optional marks dropped (accents, harakat, niqqud), typographic apostrophes
    made plain; an Indic word keeps its vowel signs."""
    folded = unicodedata.normalize("NFKD", text.casefold().replace("’", "'"))
    return unicodedata.normalize("NFC", _OPTIONAL_MARKS.sub("", folded))


# The word lists as words are compared.
_NEGATION_KEYS = {language: frozenset(map(word_key, words)) for language, words in NEGATION_WORDS.items()}
_CALENDAR_KEYS = {language: frozenset(map(word_key, words)) for language, words in CALENDAR_WORDS.items()}


@dataclass(frozen=True)
class _Word:
    key: str
    token: Token
    in_name: bool


def _words(sentence: TaggedSentence) -> list[_Word]:
    named = {i for name in sentence.names for i in range(name.start, name.end)}
    return [
        _Word(word_key(token.text), token, i in named or token.upos == "PROPN")
        for i, token in enumerate(sentence.tokens)
        if _WORD.search(token.text)
    ]


def _is_negation(word: _Word, language: str) -> bool:
    if word.key in _NEGATION_KEYS.get(language, frozenset()):
        return True
    if language == "fr":  # the elided "ne", however a tokeniser cuts it: "n'", "n", "n'a"
        return word.key == "n" or word.key.startswith("n'")
    return language == "en" and bool(_ENGLISH_NOT.match(word.key))


def _is_number(word: _Word, language: str) -> bool:
    return bool(_DIGIT.search(word.key)) or word.token.upos == "NUM" or word.key in _CALENDAR_KEYS.get(language, frozenset())


def _content(words: Sequence[_Word]) -> list[_Word]:
    """The content words: not a function word, or written with a digit (a tagger may call "12" a determiner)."""
    return [w for w in words if w.token.upos not in FUNCTION_POS or _DIGIT.search(w.key)]


@dataclass(frozen=True)
class _Stretch:
    """One changed run of words: T's words out, d's words in."""

    old: tuple[_Word, ...]
    new: tuple[_Word, ...]

    def kind(self, language: str) -> str:
        """negation, number or date, name, or CONTENT_WORD (its words counted by :meth:`changed_words`)."""
        negations = [sum(_is_negation(w, language) for w in side) for side in (self.old, self.new)]
        if negations[0] != negations[1]:
            return edit_types.NEGATION
        content = _content(self.old) + _content(self.new)
        if content and all(_is_number(w, language) for w in content):
            return edit_types.NUMBER
        if content and all(w.in_name for w in content):
            return edit_types.NAME
        return edit_types.CONTENT_WORD

    @property
    def function_only(self) -> bool:
        return not _content(self.old) and not _content(self.new)

    def changed_words(self) -> int:
        old, new = _content(self.old) or list(self.old), _content(self.new) or list(self.new)
        return max(len(old), len(new))

    def changed_word(self) -> _Word:
        """The one changed word: T's where one was replaced or removed, d's where one was added."""
        old, new = _content(self.old) or list(self.old), _content(self.new) or list(self.new)
        return old[0] if old else new[0]


def _stretches(old: list[_Word], new: list[_Word]) -> tuple[list[_Stretch], int]:
    """The changed stretches, and how many of T's words stay in place."""
    matcher = difflib.SequenceMatcher(a=[w.key for w in old], b=[w.key for w in new], autojunk=False)
    stretches, kept = [], 0
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            kept += i2 - i1
        else:
            stretches.append(_Stretch(tuple(old[i1:i2]), tuple(new[j1:j2])))
    return stretches, kept


def type_edit(target: TaggedSentence, distractor: TaggedSentence, language: str) -> TypedEdit:
    """The edit type of ``distractor`` against ``target`` (both in ``language``, an ISO 639-1 code); see the module docstring."""
    old, new = _words(target), _words(distractor)
    if sorted(w.key for w in old) == sorted(w.key for w in new):
        return TypedEdit(edit_types.WORD_ORDER)
    stretches, kept = _stretches(old, new)
    if kept < REWRITE_THRESHOLD * len(old):
        return TypedEdit(edit_types.REWRITTEN)
    kinds = [s.kind(language) for s in stretches]
    for common in (edit_types.NEGATION, edit_types.NUMBER, edit_types.NAME):
        if all(kind == common for kind in kinds):
            return TypedEdit(common)
    if edit_types.NEGATION in kinds or edit_types.NUMBER in kinds or edit_types.NAME in kinds:
        return TypedEdit(edit_types.SEVERAL)
    # Only content-word stretches: function-word stretches beside a content change are agreement.
    counted = [s for s in stretches if not s.function_only] or stretches
    if len(counted) == 1 and counted[0].changed_words() == 1:
        return TypedEdit(edit_types.CONTENT_WORD, counted[0].changed_word().token.upos or None)
    return TypedEdit(edit_types.SEVERAL)


def type_edits(
    targets: Sequence[str], distractors: Sequence[Sequence[str]], language: str, tagger: Tagger | None
) -> list[list[TypedEdit]]:
    """Type every distractor of every row: ``distractors[i]`` against ``targets[i]``, all in ``language``."""
    texts = list(dict.fromkeys([*targets, *(d for row in distractors for d in row)]))
    tagged = dict(zip(texts, tagger.tag(texts) if tagger is not None else [untagged(t, language) for t in texts], strict=True))
    return [
        [type_edit(tagged[target], tagged[text], language) for text in row]
        for target, row in zip(targets, distractors, strict=True)
    ]
