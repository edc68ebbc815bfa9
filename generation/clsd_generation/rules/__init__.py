"""The LLM-free backend: distractors by rule, with no LLM and no network, built from linguistic units.

The paper's limitations section suspects simpler methods than an LLM might make CLSD hard enough;
this backend lets users measure that. Sentences are tagged offline (:mod:`clsd_format.tagging`) and
every rule edits whole tokens or whole names:

* ``numbers``: a number token changes (a year by a few years, else its first digit group), unless another
  number, an event or a phrase fixes it; a time or a date written in digits, as
  :mod:`clsd_generation.checks.numerals` reads the language ("19.30 Uhr", "07.03.2024"), stays whole;
* ``months`` / ``weekdays``: another month or weekday;
* ``names``: a whole name becomes another name of the same type, kind, shape (and, for a person, sex) from
  the same corpus, where no other word of the sentence ties it down;
* ``roles``: two names of the same type exchange places;
* ``negation``: "ne ... pas", "nicht", "kein", "not" added or removed where the tags say a verb allows it;
* ``antonyms``: a word becomes its opposite;
* ``nouns``: a common noun becomes another corpus noun of the same tag and inflection slot.

German, French and English have a module each (:mod:`clsd_generation.rules.languages`); every other language
gets the rules that need no tagger, built from language data (:mod:`clsd_generation.rules.language_data`):
numbers, months and weekdays. :func:`rule_plan` says which rules run for a language, and why the others are off.

Each rule is declared once in :mod:`clsd_generation.rules.registry` (its edit type, whether it is on by
default, its proposer and its check). Numbers, months, weekdays and names are the default
(:data:`DEFAULT_RULES`); the others are opt-in (:data:`OPT_IN_RULES`): read strictly, too few of their
distractors were valid.

Every candidate is re-tagged and checked (:mod:`clsd_generation.rules.checks`) before it is offered;
failures are dropped, counted per rule and reason, and another rule's candidate is tried. Kept
candidates then go through the same validation, checkpoint and dataset building as LLM answers.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence

from clsd_format.tagging import TaggedSentence
from clsd_generation.rules import any_language
from clsd_generation.rules.antonyms import AntonymCap
from clsd_generation.rules.checks import Prepared, check, final_text_fault
from clsd_generation.rules.entities import NameInventory, corpus_types, person_sexes
from clsd_generation.rules.language_data import rules_from_language_data
from clsd_generation.rules.languages import registered
from clsd_generation.rules.lexicon import Edit, LanguageRules
from clsd_generation.rules.nouns import NounIndex
from clsd_generation.rules.registry import ALL_RULES, DEFAULT_RULES, OPT_IN_RULES, RULE_BY_NAME, RULES, Rule, why_off

__all__ = [
    "ALL_RULES",
    "DEFAULT_RULES",
    "OPT_IN_RULES",
    "RULES",
    "RULES_VERSION",
    "Rule",
    "RuleGenerator",
    "TagCache",
    "make_generators",
    "rule_plan",
    "rules_for",
]

RULES_VERSION = 9  # bump when a rule changes what it produces: it is part of the checkpoint fingerprint
WANTED = 6  # checked candidates offered per attempt: four distractors plus room for validation to reject some
CHECK_BATCH = 8  # candidates re-tagged together (spaCy tags a batch faster than one by one)


def rules_for(language_code: str) -> LanguageRules:
    """A language's own module (German, French, English, or one an installed package adds), else the rules built from
    language data (:mod:`clsd_generation.rules.language_data`)."""
    rules = registered().get(language_code)  # clsd_generation.rules.languages: one module a language, read when asked
    return rules if rules is not None else rules_from_language_data(language_code)


def rule_plan(language_code: str, rule_names: Sequence[str]) -> tuple[tuple[str, ...], dict[str, str]]:
    """The rules of ``rule_names`` that run for a language, and every rule that cannot run there with the reason."""
    rules = rules_for(language_code)
    off = {rule.name: reason for rule in RULES if (reason := why_off(rule, rules)) is not None}
    return tuple(name for name in rule_names if name not in off), off


class TagCache:
    """Tags of each distinct text, computed once: the corpus's for the whole run, a sentence's candidates until the next.

    The corpus (and its antonym swaps, checked when the generators are made) is tagged once and kept, as every
    sentence is read again when its turn comes. A sentence's candidates are kept only until
    :meth:`forget_candidates` (the generator calls it before each sentence): a run's memory then grows with its
    input (about 7 KB a sentence), not with the ten or so candidates it tags per sentence (about 50 KB more if kept).
    """

    def __init__(self, language_code: str) -> None:
        self.tagger = rules_for(language_code).make_tagger()
        self._kept: dict[str, TaggedSentence] = {}
        self._candidates: dict[str, TaggedSentence] = {}

    def tag(self, texts: Sequence[str]) -> list[TaggedSentence]:
        """Tags of ``texts``, kept for the run."""
        return self._tag(texts, self._kept)

    def tag_candidates(self, texts: Sequence[str]) -> list[TaggedSentence]:
        """Tags of ``texts``, kept until :meth:`forget_candidates`."""
        return self._tag(texts, self._candidates)

    def forget_candidates(self) -> None:
        self._candidates.clear()

    def _tag(self, texts: Sequence[str], store: dict[str, TaggedSentence]) -> list[TaggedSentence]:
        missing = list(dict.fromkeys(t for t in texts if t not in self._kept and t not in self._candidates))
        if missing:
            store.update(zip(missing, self.tagger.tag(missing), strict=True))
        return [self._kept[t] if t in self._kept else self._candidates[t] for t in texts]


class RuleGenerator:
    """Checked distractor candidates for the sentences of one language of one corpus.

    ``name_types`` maps case-folded names to entity types and ``name_sexes`` persons to their sex;
    :func:`make_generators` shares both across the sides of a parallel corpus (see
    :func:`clsd_generation.rules.entities.corpus_types` and :func:`~clsd_generation.rules.entities.person_sexes`). ``rule_names``:
    the rules that propose edits (default :data:`DEFAULT_RULES`).
    """

    def __init__(
        self,
        language_code: str,
        corpus_sentences: Iterable[str],
        seed: int = 0,
        name_types: dict[str, str] | None = None,
        name_sexes: dict[str, str] | None = None,
        tags: TagCache | None = None,
        rule_names: Sequence[str] = DEFAULT_RULES,
    ) -> None:
        self.rules = rules_for(language_code)
        self.rule_names = rule_plan(language_code, rule_names)[0]  # a rule the language cannot run proposes nothing
        self.tags = tags or TagCache(language_code)
        corpus = self.tags.tag(list(dict.fromkeys(corpus_sentences)))
        calendar = self.rules.calendar_words()
        types = corpus_types({language_code: corpus}, {language_code: self.rules}) if name_types is None else name_types
        sexes = person_sexes({language_code: corpus}, types) if name_sexes is None else name_sexes
        self.names = NameInventory(corpus, types, self.rules, calendar, sexes=sexes)
        self.nouns = NounIndex(corpus, self.rules, calendar)
        self.antonyms = AntonymCap(corpus, self.rules, seed, tags=self.tags)  # no pair makes over 15% of the swaps
        self.seed = seed
        self.outcomes: Counter[tuple[str, str]] = Counter()  # (rule, "kept" or the reason it was dropped)
        self.rule_of: dict[str, str] = {}  # candidate of the last call of candidates() -> the rule that made it
        self.proposed: frozenset[str] = frozenset()  # the rules that proposed an edit in the last call of candidates()

    def proposals(self, sentence: TaggedSentence, rng: random.Random) -> list[tuple[str, Edit]]:
        """Edits from every rule that applies, interleaved so that consecutive ones come from different rules.

        Rules marked ``offered_last`` (noun swaps) come after the others, to fill in only where those run out:
        a manual reading of a sample found them the least reliable (fixed phrases such as "en raison de",
        words the tagger misreads).
        """
        # Drawn in the registry's one order, so that a seed gives the same edits whatever --rules listed first.
        per_rule = {rule.name: rule.propose(self, sentence, rng) for rule in RULES if rule.name in self.rule_names}
        queues = [[(rule, edit) for edit in edits] for rule, edits in per_rule.items() if edits]
        for queue in queues:
            rng.shuffle(queue)
        rng.shuffle(queues)
        longest = max((len(q) for q in queues), default=0)
        interleaved = [queue[i] for i in range(longest) for queue in queues if i < len(queue)]
        return [p for p in interleaved if not RULE_BY_NAME[p[0]].offered_last] + [
            p for p in interleaved if RULE_BY_NAME[p[0]].offered_last
        ]

    def _prepared(self, original: TaggedSentence, edit: Edit) -> Prepared | None:
        """The edit with the word before it rewritten for its new neighbour (French elision), or None if that is unknowable."""
        if self.rules.repair_edit is None:
            return Prepared(edit, 0, 0)
        repaired = self.rules.repair_edit(original, edit)
        if repaired is None:
            return None
        grown, lead = repaired
        return Prepared(grown, lead, len(grown[2]) - len(edit[2]))

    def _judge(self, original: TaggedSentence, rule: str, prepared: Prepared, retagged: TaggedSentence) -> str | None:
        """Why a candidate is dropped, or None: the tag checks, then what the final text must not be."""
        reason = check(
            original, prepared.edit, RULE_BY_NAME[rule].check, retagged, self.rules, prepared.lead, prepared.lead_chars
        )
        return reason or final_text_fault(original, retagged.text, self.rules)

    def candidates(self, sentence: str, attempt: int) -> list[str]:
        """Up to ``WANTED`` candidates that passed every check, from as many rules as apply (each one's rule in :attr:`rule_of`)."""
        # A string seed is hashed with SHA-512 by random.seed: the same on every machine and run.
        rng = random.Random(f"{self.seed}|{self.rules.code}|{attempt}|{sentence}")
        self.tags.forget_candidates()
        self.rule_of = {}
        (original,) = self.tags.tag([sentence])
        proposals = self.proposals(original, rng)
        self.proposed = frozenset(rule for rule, _ in proposals)
        kept: list[str] = []
        seen = {sentence.casefold()}
        for begin in range(0, len(proposals), CHECK_BATCH):
            batch = [(rule, self._prepared(original, edit)) for rule, edit in proposals[begin : begin + CHECK_BATCH]]
            texts = [None if p is None else any_language.apply_edit(original, p.edit) for _, p in batch]
            fresh = list(dict.fromkeys(t for t in texts if t is not None and t.casefold() not in seen))
            retagged = dict(zip(fresh, self.tags.tag_candidates(fresh), strict=True))
            for (rule, prepared), text in zip(batch, texts, strict=True):
                if prepared is None or text is None:
                    reason: str | None = "elision unknown"
                elif text.casefold() in seen:
                    reason = "same as original" if text.casefold() == sentence.casefold() else "duplicate"
                else:
                    reason = self._judge(original, rule, prepared, retagged[text])
                self.outcomes[(rule, reason or "kept")] += 1
                if reason is None and text is not None:
                    seen.add(text.casefold())
                    kept.append(text)
                    self.rule_of[text] = rule
            if len(kept) >= WANTED:
                break
        return kept[:WANTED]


def make_generators(
    corpora: dict[str, Sequence[str]], seed: int = 0, rule_names: Sequence[str] = DEFAULT_RULES
) -> dict[str, RuleGenerator]:
    """One generator per language of a parallel corpus, with name types shared across its sides.

    Types are voted over every side whose tagger has NER (French), so German or English names written
    as on the French side ("Merkel", "Wall Street") get a type too; a corpus with no NER side
    (English-German) types the names that follow a title ("Kanzlerin Merkel", "Mr Johnson"). Every
    generator also types the well-known names of its language by their kind
    (:mod:`clsd_generation.rules.name_kinds`).
    """
    caches = {code: TagCache(code) for code in corpora}
    tagged = {code: caches[code].tag(list(dict.fromkeys(texts))) for code, texts in corpora.items()}
    types = corpus_types(tagged, {code: rules_for(code) for code in corpora})
    sexes = person_sexes(tagged, types)
    return {
        code: RuleGenerator(code, texts, seed, name_types=types, name_sexes=sexes, tags=caches[code], rule_names=rule_names)
        for code, texts in corpora.items()
    }
