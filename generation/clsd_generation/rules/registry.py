"""Every rule of the rule backend, declared once: name, edit type, default or opt-in, proposer, check, description.

The generator, the ``--rules`` help, the run summary, the checkpoint (which stores each distractor's rule),
``clsd build`` (the ``distractor_rules`` and ``distractor_edit_types`` columns) and the sample sheet all read
:data:`RULES`; a new rule is one :class:`Rule` here (and its proposer wherever its logic lives).

The order of :data:`RULES` is part of the output: proposals are drawn in this order from one seeded
generator, so reordering the table changes what a seed produces (bump ``RULES_VERSION`` if you do).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from clsd_format import edit_types
from clsd_format.tagging import TaggedSentence
from clsd_generation.rules import any_language
from clsd_generation.rules.antonyms import AntonymCap
from clsd_generation.rules.checks import CALENDAR, NEGATION, SAME_SHAPE, SAME_TAGS
from clsd_generation.rules.entities import NameInventory
from clsd_generation.rules.lexicon import Edit, LanguageRules
from clsd_generation.rules.nouns import NounIndex


class RuleContext(Protocol):
    """What a proposer may read: the language's rules and the corpus' names, nouns and antonym budget."""

    @property
    def rules(self) -> LanguageRules: ...
    @property
    def names(self) -> NameInventory: ...
    @property
    def nouns(self) -> NounIndex: ...
    @property
    def antonyms(self) -> AntonymCap: ...


Proposer = Callable[[RuleContext, TaggedSentence, random.Random], list[Edit]]


@dataclass(frozen=True)
class Rule:
    name: str
    edit_type: str  # a name of clsd_format.edit_types: what kind of change the rule makes
    default: bool  # on unless --rules says otherwise; off: read strictly, too few of its distractors were valid
    check: str  # the check its candidates pass (clsd_generation.rules.checks)
    description: str  # one line, for help texts and docs
    propose: Proposer
    offered_last: bool = False  # its edits come after every other rule's, to fill in only where those run out
    needs: tuple[str, ...] = ()  # what of a language it needs (a key of NEEDS): without it the rule is off there
    finds: str = "thing to change"  # what it changes, as in "no number in 49 sentences" (the stop before a barren run)


# What a rule may need of a language, and the reason it is off where the language lacks it: a language built from
# language data alone (clsd_generation.rules.language_data) has no tagger and no name lexicon, and CLDR has no
# calendar for every language.
NEEDS: dict[str, tuple[Callable[[LanguageRules], bool], str]] = {
    "name lexicon": (lambda rules: bool(rules.known_names), "no name lexicon"),
    "tagger": (lambda rules: rules.tagged, "no tagger"),
    "months": (lambda rules: bool(rules.month_forms), "no months in CLDR"),
    "weekdays": (lambda rules: bool(rules.weekday_forms), "no weekdays in CLDR"),
}


def _numbers(context: RuleContext, sentence: TaggedSentence, rng: random.Random) -> list[Edit]:
    return any_language.swap_numbers(sentence, rng, context.rules)


def _months(context: RuleContext, sentence: TaggedSentence, rng: random.Random) -> list[Edit]:
    return any_language.swap_calendar(sentence, context.rules.month_forms, rng, context.rules.numbers)


def _weekdays(context: RuleContext, sentence: TaggedSentence, rng: random.Random) -> list[Edit]:
    return any_language.swap_calendar(sentence, context.rules.weekday_forms, rng, context.rules.numbers)


def _names(context: RuleContext, sentence: TaggedSentence, rng: random.Random) -> list[Edit]:
    return context.names.untied_swaps(sentence, rng)


def _roles(context: RuleContext, sentence: TaggedSentence, rng: random.Random) -> list[Edit]:
    return context.names.role_swaps(sentence)


def _negation(context: RuleContext, sentence: TaggedSentence, rng: random.Random) -> list[Edit]:
    return context.rules.negate(sentence, rng)


def _antonyms(context: RuleContext, sentence: TaggedSentence, rng: random.Random) -> list[Edit]:
    return context.antonyms.edits(sentence)


def _nouns(context: RuleContext, sentence: TaggedSentence, rng: random.Random) -> list[Edit]:
    return context.nouns.swaps(sentence, rng)


# Off by default (default=False), because read strictly too few of their distractors were valid
# (docs/generation.md): noun swaps (a noun that fits its slot needs a parser), roles (two names exchanged
# mostly reorder a list, which keeps the meaning), negation and antonyms (a polarity turned in one clause
# clashes with the rest of a news sentence, or breaks an idiom, in about one case in three).
RULES: tuple[Rule, ...] = (
    Rule("numbers", edit_types.NUMBER, True, SAME_TAGS, "a number changes (a year by a few years)", _numbers, finds="number"),
    Rule(
        "months",
        edit_types.NUMBER,
        True,
        CALENDAR,
        "a month becomes another month",
        _months,
        needs=("months",),
        finds="month name",
    ),
    Rule(
        "weekdays",
        edit_types.NUMBER,
        True,
        CALENDAR,
        "a weekday becomes another weekday",
        _weekdays,
        needs=("weekdays",),
        finds="weekday name",
    ),
    Rule(
        "names",
        edit_types.NAME,
        True,
        SAME_SHAPE,
        "a name becomes another of the same type and kind",
        _names,
        needs=("name lexicon", "tagger"),
        finds="name it may replace",
    ),
    Rule(
        "roles",
        edit_types.WORD_ORDER,
        False,
        SAME_SHAPE,
        "two names of one type exchange places",
        _roles,
        needs=("tagger",),
        finds="two names of one type",
    ),
    Rule(
        "negation",
        edit_types.NEGATION,
        False,
        NEGATION,
        "a negation is added or removed",
        _negation,
        needs=("tagger",),
        finds="negation to add or remove",
    ),
    Rule(
        "antonyms",
        edit_types.CONTENT_WORD,
        False,
        SAME_TAGS,
        "a word becomes its opposite",
        _antonyms,
        needs=("tagger",),
        finds="word with a known opposite",
    ),
    Rule(
        "nouns",
        edit_types.CONTENT_WORD,
        False,
        SAME_TAGS,
        "a noun becomes another corpus noun",
        _nouns,
        offered_last=True,
        needs=("tagger",),
        finds="noun to swap",
    ),
)
RULE_BY_NAME: dict[str, Rule] = {rule.name: rule for rule in RULES}
ALL_RULES: tuple[str, ...] = tuple(RULE_BY_NAME)
DEFAULT_RULES: tuple[str, ...] = tuple(rule.name for rule in RULES if rule.default)
OPT_IN_RULES: tuple[str, ...] = tuple(rule.name for rule in RULES if not rule.default)


def why_off(rule: Rule, rules: LanguageRules) -> str | None:
    """Why ``rule`` cannot run for the language of ``rules`` (the first need it lacks), or None where it can."""
    return next((reason for need in rule.needs for present, reason in [NEEDS[need]] if not present(rules)), None)
