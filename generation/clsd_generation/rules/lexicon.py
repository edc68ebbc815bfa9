"""What a language contributes to the rule backend: everything the shared rules need to know of it, in one object.

A language is one module under :mod:`clsd_generation.rules.languages` that defines ``RULES``, a
:class:`LanguageRules` (plus its names file); the shared rules read only what that object holds.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from clsd_format.tagging import TaggedSentence, Tagger, tagger_for
from clsd_generation.rules.name_kinds import KnownName

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
class TwoWayNegation:
    """A :data:`Negator` that removes a negation from a negated sentence and adds one to any other, never a second one:
    the language gives its words and its two edits, and the same steps run for every language built with it.

    A sentence with a contrast word ("aber", "mais") is left alone: the contrast turns on the polarity of both halves,
    so negating one half says something else. The edits come in a random order (``rng``), as every rule's do."""

    negatives: frozenset[str]  # words (case-folded) that make a sentence negated ("nicht", "ne", "n'")
    remove: Callable[[TaggedSentence], list[Edit]]  # the edits that take a negated sentence's negation out
    add: Callable[[TaggedSentence], list[Edit]]  # the edits that negate any other sentence
    negative_prefixes: tuple[str, ...] = ()  # a word that starts with one makes a sentence negated too ("kein")
    contrasts: frozenset[str] = frozenset()  # words (case-folded) that leave the sentence as it is

    def __call__(self, sentence: TaggedSentence, rng: random.Random) -> list[Edit]:
        words = frozenset(t.text.casefold() for t in sentence.tokens)
        if words & self.contrasts:
            return []
        negated = bool(words & self.negatives) or any(w.startswith(self.negative_prefixes) for w in words)
        edits = self.remove(sentence) if negated else self.add(sentence)
        rng.shuffle(edits)
        return edits


def phrases(*texts: str) -> tuple[tuple[str, ...], ...]:
    """Each text's words, split on spaces ("vor allem" -> ("vor", "allem")): a language module writes its fixed
    phrases one text each, and every module reads them the same way."""
    return tuple(tuple(text.split()) for text in texts)


def word_pairs(*texts: str) -> tuple[tuple[str, str], ...]:
    """Each text's two words as a pair of opposites ("mehr weniger" -> ("mehr", "weniger")), written as
    :func:`phrases` are; a text of more or fewer words is a mistake in the module, said at import."""
    pairs = []
    for words in phrases(*texts):
        if len(words) != 2:
            raise ValueError(f"a pair of opposites is two words separated by a space, not {' '.join(words)!r}")
        pairs.append((words[0], words[1]))
    return tuple(pairs)


@dataclass(frozen=True)
class NumberWords:
    """Words around numbers that say what a number is, and so whether and how it may change."""

    day_articles: frozenset[str] = frozenset()  # a number up to 31 after these is a day ("le 26", "am 26.")
    percent: frozenset[str] = frozenset()  # "Prozent", "pour (cent)": a share of at most 100 stays at most 100
    approximate: frozenset[str] = frozenset()  # "gut", "environ": the number is rounded, its substitute as round
    decade: frozenset[str] = frozenset()  # "les années 1980": a decade stays
    time_nouns: frozenset[str] = frozenset()  # "im Jahr 2019", "fin 2018": a year these place in time may change
    year_links: frozenset[str] = frozenset()  # "de", "von", "of" between a noun and the year it names ("crise de 2008")
    singular_multipliers: frozenset[str] = frozenset()  # "1,2 million": the number before a singular stays
    range_joiners: frozenset[str] = frozenset()  # "und", "bis", "à": two numbers or weekdays joined are a pair
    contracted_articles: frozenset[str] = frozenset()  # "im", "du": a preposition fused with an article


@dataclass(frozen=True)
class PersonWords:
    """Words that announce a person before a name, and what they say of the person's sex."""

    titles: frozenset[str] = frozenset()  # right before a name, they make it a person ("Kanzlerin", "Mr")
    title_endings: tuple[str, ...] = ()  # titles by their ending (German compounds: "Bundeskanzlerin")
    title_sexes: Mapping[str, str] = field(default_factory=dict)  # titles that say a sex ("Frau": f)
    # Role nouns before a name by the sex they give ("la présidente X"); None: the language marks sex on the ending of
    # its role nouns instead (``masculine_role_endings``, German "-in").
    role_sexes: Mapping[str, str] | None = None
    epicene_roles: frozenset[str] = frozenset()  # role nouns of both sexes, which take their article's ("la ministre")
    article_sexes: Mapping[str, str] = field(default_factory=dict)  # the sex an article before an epicene noun gives
    masculine_role_endings: tuple[str, ...] = ()  # "politiker", "chef": the feminine adds "-in"
    state_forms: frozenset[str] = frozenset()  # "Bundesrepublik": a state's formal name before its short name

    @property
    def gendered_titles(self) -> frozenset[str]:
        return frozenset(self.title_sexes)


@dataclass(frozen=True)
class LanguageRules:
    code: str
    antonyms: tuple[tuple[str, str], ...]  # each pair is swapped both ways
    negate: Negator
    # Month and weekday names come from CLDR (Babel) for this locale, January and Monday first.
    locale: str = ""  # "" : the language code
    # The offline tagger (clsd_format.tagging); None: the one clsd_format has for the language code.
    tagger: Callable[[], Tagger] | None = None
    names_typed_by_tagger: bool = False  # the tagger types names (spaCy's French NER); else they are typed by the corpus
    known_names: tuple[KnownName, ...] = ()  # its names file (clsd_generation.rules.name_kinds.read_names)
    numbers: NumberWords = NumberWords()
    persons: PersonWords = PersonWords()
    articles: frozenset[str] = frozenset()  # the definite articles ("der", "les", "the"), elided ones with their apostrophe
    leading_articles: frozenset[str] = frozenset()  # those a tagger takes into a name's span ("La Chine", "L'Allemagne")
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
    # Whether the tagger gives parts of speech (a language module's tagger does; one built from language data gives
    # words alone, see clsd_generation.rules.language_data), and whether the language is written without spaces
    # between words (a number glued to a word there is not part of a code: "2019年").
    tagged: bool = True
    unspaced: bool = False

    @property
    def agreeing_articles(self) -> bool:
        """Articles and the adjectives after them mark case and gender (German): substitutes must agree with them."""
        return bool(self.article_genders)

    @functools.cached_property
    def month_forms(self) -> tuple[tuple[str, ...], ...]:
        """CLDR's wide month names, January first: the format forms ("января"), then the stand-alone ones ("январь")
        where they differ; none where CLDR has no data for the locale."""
        return calendar_forms(self.locale or self.code, "months")

    @functools.cached_property
    def weekday_forms(self) -> tuple[tuple[str, ...], ...]:
        """CLDR's wide weekday names, Monday first, as :attr:`month_forms`."""
        return calendar_forms(self.locale or self.code, "days")

    @property
    def months(self) -> tuple[str, ...]:
        return self.month_forms[0] if self.month_forms else ()

    @property
    def weekdays(self) -> tuple[str, ...]:
        return self.weekday_forms[0] if self.weekday_forms else ()

    def make_tagger(self) -> Tagger:
        return self.tagger() if self.tagger is not None else tagger_for(self.code)

    def calendar_words(self) -> frozenset[str]:
        return frozenset(w.casefold() for forms in (*self.month_forms, *self.weekday_forms) for w in forms)


def calendar_forms(locale: str, what: str) -> tuple[tuple[str, ...], ...]:
    """The wide ``months`` or ``days`` of a CLDR locale in the format context, then in the stand-alone context where
    it differs (Greek, Russian, Polish inflect a month in a date); () where Babel has no data for the locale.

    The abbreviated and narrow forms are left out: they collide with ordinary words ("日" is a day and the sun in
    Japanese, "Mar" a word in several languages)."""
    from babel import Locale, UnknownLocaleError
    from babel.dates import get_day_names, get_month_names

    try:
        parsed = Locale.parse(locale.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        return ()
    names, numbers = (get_month_names, range(1, 13)) if what == "months" else (get_day_names, range(7))  # day 0 is Monday
    forms: list[tuple[str, ...]] = []
    for context in ("format", "stand-alone"):
        found = names("wide", context=context, locale=parsed)
        words = tuple(found.get(number, "") for number in numbers)
        if all(words) and len({w.casefold() for w in words}) == len(words) and words not in forms:
            forms.append(words)
    return tuple(forms)
