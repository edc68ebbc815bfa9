"""What a language contributes to the rule backend: closed word lists and its negation rule."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from clsd_format.tagging import TaggedSentence

# An edit: replace tokens [start, end) of a tagged sentence by ``text`` (the rule backend's one unit of change).
Edit = tuple[int, int, str]
# A negation rule lists the edits that add or remove negation in a tagged sentence.
Negator = Callable[[TaggedSentence, random.Random], "list[Edit]"]
# Whether the word at an index must keep its sense (not be swapped for ``replacement``): the language's own
# limits on opposites ("plus" in "ne ... plus", "gut" in "gut 50 Prozent", "a" before a changed onset).
AntonymGuard = Callable[[TaggedSentence, int, str], bool]

# Rewrites the word before an edit for the edit's new first word (French "l'" -> "la"); returns the grown edit
# and how many original tokens it took in, or None when the right form cannot be known.
EdgeRepair = Callable[[TaggedSentence, "Edit"], "tuple[Edit, int] | None"]


def _never(sentence: TaggedSentence, index: int, replacement: str) -> bool:
    return False


@dataclass(frozen=True)
class LanguageRules:
    code: str
    months: tuple[str, ...]
    weekdays: tuple[str, ...]
    antonyms: tuple[tuple[str, str], ...]  # each pair is swapped both ways
    negate: Negator
    # Negation words (case-folded) the check ignores when it compares a negated sentence with its original;
    # ``negation_pairs`` maps a negative word to its positive counterpart ("keinen" -> "einen").
    negation_words: frozenset[str] = field(default_factory=frozenset)
    negation_pairs: dict[str, str] = field(default_factory=dict)
    # Fixed phrases (case-folded words, one token each) inside which no word becomes its opposite:
    # "vor allem" is "above all", never "before all"; "de nouveau" is "again".
    antonym_stops: tuple[tuple[str, ...], ...] = ()
    antonym_blocked: AntonymGuard = _never
    repair_edit: EdgeRepair | None = None  # None: the language has no elision or contraction at word edges
    # Counts the elision or contraction errors of a text; a distractor may not have more than its original.
    edge_faults: Callable[[str], int] | None = None
    # Nouns: the genders each article form allows where articles mark gender and case (German; empty: nouns agree
    # with nothing beyond their own inflection), whether nouns are always capitalised, and fixed phrases (case-folded
    # words) inside which no noun is swapped ("du point de vue", "das Vereinigte Königreich").
    article_genders: Mapping[str, frozenset[str]] = field(default_factory=dict)
    capitalised_nouns: bool = False
    fixed_phrases: tuple[tuple[str, ...], ...] = ()
    # Names: a name ending in -s may be a genitive ("Sachsens", "Deutschlands": German); the tagger's name runs take a
    # title in ("Chancellor Scholz": HanTa's English); the preposition before a name binds its form ("en Allemagne",
    # "à Paris": French), so a substitute must have been seen after the same one.
    genitive_s_names: bool = False
    titles_in_name_runs: bool = False
    names_bound_by_preposition: bool = False
    # Words that place the speaker in a country ("wir", "hierzulande", "chez nous"): a country named beside them is
    # the speaker's own, and another country would contradict them ("wir ... in Ägypten").
    speaker_words: frozenset[str] = field(default_factory=frozenset)
    # Prepositions after which a word is a place ("in Pullach", "à Bonn"): a tagger's "place" must be seen after one.
    place_prepositions: frozenset[str] = field(default_factory=frozenset)
    # Endings of nationality adjectives ("britische", "français"): a person after one is pinned down by it.
    nationality_endings: tuple[str, ...] = ()

    @property
    def agreeing_articles(self) -> bool:
        """Articles and the adjectives after them mark case and gender (German): substitutes must agree with them."""
        return bool(self.article_genders)

    def calendar_words(self) -> frozenset[str]:
        return frozenset(w.casefold() for w in (*self.months, *self.weekdays))
