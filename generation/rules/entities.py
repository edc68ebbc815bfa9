"""Names as whole units: which spans of a corpus are names, of what type, and which may replace which.

A name is swapped only for another whole name of the same type from the same corpus (a person for a
person, a place for a place, an organisation for an organisation), never in part.

* Types come from spaCy's French NER, voted over the corpus: a surface form gets the label most of
  its mentions carry ("Dow Jones" is ORG in most sentences, LOC in one).
* HanTa (German, English) finds names (runs of proper nouns) but not their types, so a German or
  English name takes the type of the same surface form on the French side of the parallel corpus
  ("Wall Street", "Merkel", "Reuters" are written alike). A name with no typed twin is left alone:
  an untyped swap could put a place where a person was. So on a corpus without a French side
  (e.g. German-English) the name rules make nothing, and the other rules carry the run.
* A substitute must also have the same shape: the same sequence of tags (runs of proper nouns
  counted once) and, in French, the same gender and number, so "la Bourse de New York" only becomes
  another "NOUN de PROPN" organisation; and the article before it (in French also the preposition:
  "en Allemagne" / "à Paris") must be one the substitute was seen with.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from clsd_format.tagging import Name, TaggedSentence
from clsd_generation.rules.common import agreement_context, tokens_text
from clsd_generation.rules.lexicon import Edit


def shape(sentence: TaggedSentence, start: int, end: int) -> tuple[str, ...]:
    """Tags of tokens [start, end) with repeats collapsed ("Dow Jones" and "Nasdaq" are both (PROPN,))."""
    out: list[str] = []
    for token in sentence.tokens[start:end]:
        label = f"{token.tag}:{token.slot}" if token.upos != "PROPN" else token.tag
        if not out or out[-1] != label:
            out.append(label)
    return tuple(out)


def vote_types(corpora: Iterable[Sequence[TaggedSentence]]) -> dict[str, str]:
    """Case-folded surface form -> the type most of its typed mentions carry (ties: alphabetical)."""
    votes: dict[str, Counter[str]] = {}
    for corpus in corpora:
        for sentence in corpus:
            for name in sentence.names:
                if name.label:
                    votes.setdefault(tokens_text(sentence, name.start, name.end).casefold(), Counter())[name.label] += 1
    return {surface: min(counter, key=lambda label: (-counter[label], label)) for surface, counter in votes.items()}


SWAPPED_TYPES = ("PER", "LOC", "ORG")  # MISC (events, products, nationalities) is too mixed to swap within


@dataclass(frozen=True)
class TypedName:
    text: str
    label: str
    shape: tuple[str, ...]  # with the agreement context: the article before the name, if any


class NameInventory:
    """The typed names of one language's corpus, to draw substitutes from."""

    def __init__(self, corpus: Sequence[TaggedSentence], types: dict[str, str], language: str, calendar: frozenset[str]) -> None:
        self.types = types
        self.language = language
        self.calendar = calendar  # "Dimanche" or "Monday" tagged as a name: left to the weekday rule
        found = {typed for sentence in corpus for _, typed in self.typed_names(sentence)}
        self.by_kind: dict[tuple[str, tuple[str, ...]], list[str]] = {}
        for typed in sorted(found, key=lambda t: t.text):
            self.by_kind.setdefault((typed.label, typed.shape), []).append(typed.text)

    def typed_names(self, sentence: TaggedSentence) -> list[tuple[Name, TypedName]]:
        out = []
        for name in sentence.names:
            text = tokens_text(sentence, name.start, name.end)
            label = self.types.get(text.casefold())
            if label in SWAPPED_TYPES and text.casefold() not in self.calendar:
                kind = (
                    *shape(sentence, name.start, name.end),
                    agreement_context(sentence, name.start, self.language, articles_only=self.language != "fr"),
                )
                out.append((name, TypedName(text, label, kind)))
        return out

    def swaps(self, sentence: TaggedSentence, rng: random.Random) -> list[Edit]:
        """Each typed name of the sentence replaced by another corpus name of the same type and shape."""
        edits = []
        present = sentence.text.casefold()
        for name, typed in self.typed_names(sentence):
            pool = [t for t in self.by_kind.get((typed.label, typed.shape), []) if t.casefold() not in present]
            if pool:
                edits.append((name.start, name.end, rng.choice(pool)))
        return edits

    def role_swaps(self, sentence: TaggedSentence) -> list[Edit]:
        """Two names of the same type and shape exchanged: who did what to whom changes, the words stay.

        A name mentioned twice is never exchanged: swapping one of its mentions names the same party
        twice ("Amazon und Google ... Amazon" -> "Amazon und Amazon ... Google").
        """
        text = sentence.text.casefold()
        named = [(name, typed) for name, typed in self.typed_names(sentence) if text.count(typed.text.casefold()) == 1]
        edits = []
        for i, (first, a) in enumerate(named):
            for second, b in named[i + 1 :]:
                if (a.label, a.shape) == (b.label, b.shape) and a.text.casefold() != b.text.casefold():
                    middle = sentence.text[sentence.tokens[first.end - 1].end : sentence.tokens[second.start].start]
                    edits.append((first.start, second.end, b.text + middle + a.text))
        return edits
