"""The LLM-free backend: distractors by rule, with no LLM and no network, built from linguistic units.

The paper's limitations section suspects simpler methods than an LLM might make CLSD hard enough;
this backend lets users measure that. Sentences are tagged offline (:mod:`clsd_format.tagging`) and
every rule edits whole tokens or whole names:

* ``numbers``: a number token changes (a year by a few years, else its first digit group);
* ``months`` / ``weekdays``: another month or weekday;
* ``names``: a whole name becomes another name of the same type and shape from the same corpus;
* ``roles``: two names of the same type exchange places;
* ``negation``: "ne ... pas", "nicht", "kein", "not" added or removed where the tags say a verb allows it;
* ``antonyms``: a word becomes its opposite;
* ``nouns``: a common noun becomes another corpus noun of the same tag and inflection slot.

Every candidate is re-tagged and checked (:mod:`clsd_generation.rules.checks`) before it is offered;
failures are dropped, counted per rule and reason, and another rule's candidate is tried. Kept
candidates then go through the same validation, checkpoint and dataset building as LLM answers.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence

from clsd_format.errors import CLSDError
from clsd_format.tagging import TaggedSentence, tagger_for
from clsd_generation.rules import common, de, en, fr
from clsd_generation.rules.checks import CALENDAR, NEGATION, SAME_SHAPE, SAME_TAGS, check
from clsd_generation.rules.entities import NameInventory, vote_types
from clsd_generation.rules.lexicon import Edit, LanguageRules
from clsd_generation.rules.nouns import NounIndex

RULES_VERSION = 3  # bump when a rule changes what it produces: it is part of the checkpoint fingerprint
RULES_BY_LANGUAGE: dict[str, LanguageRules] = {r.code: r for r in (de.RULES, fr.RULES, en.RULES)}
CHECK_KIND = {
    "numbers": SAME_TAGS,
    "months": CALENDAR,
    "weekdays": CALENDAR,
    "names": SAME_SHAPE,
    "roles": SAME_SHAPE,
    "negation": NEGATION,
    "antonyms": SAME_TAGS,
    "nouns": SAME_TAGS,
}
WANTED = 6  # checked candidates offered per attempt: four distractors plus room for validation to reject some
CHECK_BATCH = 8  # candidates re-tagged together (spaCy tags a batch faster than one by one)


def rules_for(language_code: str) -> LanguageRules:
    rules = RULES_BY_LANGUAGE.get(language_code)
    if rules is None:
        raise CLSDError(
            f"the rule backend has no rules for language {language_code!r} (it knows {', '.join(sorted(RULES_BY_LANGUAGE))}). "
            "Use --backend llm for this language, or add a module to clsd_generation/rules/."
        )
    return rules


class TagCache:
    """Tags of each distinct text, computed once per run (corpus sentences and re-tagged candidates)."""

    def __init__(self, language_code: str) -> None:
        self.tagger = tagger_for(language_code)
        self._tags: dict[str, TaggedSentence] = {}

    def tag(self, texts: Sequence[str]) -> list[TaggedSentence]:
        missing = list(dict.fromkeys(t for t in texts if t not in self._tags))
        if missing:
            self._tags.update(zip(missing, self.tagger.tag(missing), strict=True))
        return [self._tags[t] for t in texts]


class RuleGenerator:
    """Checked distractor candidates for the sentences of one language of one corpus.

    ``name_types`` maps case-folded names to entity types; by default they are voted from this corpus
    (French has NER). For German or English pass the types of the parallel French side (see
    :func:`shared_name_types`), else no name is typed and the name rules make nothing.
    """

    def __init__(
        self,
        language_code: str,
        corpus_sentences: Iterable[str],
        seed: int = 0,
        name_types: dict[str, str] | None = None,
        tags: TagCache | None = None,
    ) -> None:
        self.rules = rules_for(language_code)
        self.tags = tags or TagCache(language_code)
        corpus = self.tags.tag(list(dict.fromkeys(corpus_sentences)))
        calendar = self.rules.calendar_words()
        self.names = NameInventory(corpus, vote_types([corpus]) if name_types is None else name_types, language_code, calendar)
        self.nouns = NounIndex(corpus, language_code, calendar)
        self.seed = seed
        self.outcomes: Counter[tuple[str, str]] = Counter()  # (rule, "kept" or the reason it was dropped)

    def proposals(self, sentence: TaggedSentence, rng: random.Random) -> list[tuple[str, Edit]]:
        """Edits from every rule that applies, interleaved so that consecutive ones come from different rules.

        Noun swaps come last, to fill in only where the other rules run out: a manual reading of a sample
        found them the least reliable (fixed phrases such as "en raison de", words the tagger misreads).
        """
        per_rule = {
            "numbers": common.swap_numbers(sentence, rng, self.rules.months),
            "months": common.swap_from_list(sentence, self.rules.months, rng),
            "weekdays": common.swap_from_list(sentence, self.rules.weekdays, rng),
            "names": self.names.swaps(sentence, rng),
            "roles": self.names.role_swaps(sentence),
            "negation": self.rules.negate(sentence, rng),
            "antonyms": common.swap_antonyms(sentence, self.rules.antonyms),
            "nouns": self.nouns.swaps(sentence, rng),
        }
        queues = [[(rule, edit) for edit in edits] for rule, edits in per_rule.items() if edits]
        for queue in queues:
            rng.shuffle(queue)
        rng.shuffle(queues)
        longest = max((len(q) for q in queues), default=0)
        interleaved = [queue[i] for i in range(longest) for queue in queues if i < len(queue)]
        return [p for p in interleaved if p[0] != "nouns"] + [p for p in interleaved if p[0] == "nouns"]

    def candidates(self, sentence: str, attempt: int) -> list[str]:
        """Up to ``WANTED`` candidates that passed every check, from as many rules as apply."""
        # A string seed is hashed with SHA-512 by random.seed: the same on every machine and run.
        rng = random.Random(f"{self.seed}|{self.rules.code}|{attempt}|{sentence}")
        (original,) = self.tags.tag([sentence])
        proposals = self.proposals(original, rng)
        kept: list[str] = []
        seen = {sentence.casefold()}
        for begin in range(0, len(proposals), CHECK_BATCH):
            batch = proposals[begin : begin + CHECK_BATCH]
            texts = [common.apply_edit(original, edit) for _, edit in batch]
            fresh = [t for t in texts if t.casefold() not in seen]
            retagged = dict(zip(fresh, self.tags.tag(fresh), strict=True))
            for (rule, edit), text in zip(batch, texts, strict=True):
                if text.casefold() in seen:
                    reason: str | None = "same as original" if text.casefold() == sentence.casefold() else "duplicate"
                else:
                    reason = check(original, edit, CHECK_KIND[rule], retagged[text], self.rules)
                self.outcomes[(rule, reason or "kept")] += 1
                if reason is None:
                    seen.add(text.casefold())
                    kept.append(text)
            if len(kept) >= WANTED:
                break
        return kept[:WANTED]


def make_generators(corpora: dict[str, Sequence[str]], seed: int = 0) -> dict[str, RuleGenerator]:
    """One generator per language of a parallel corpus, with name types shared across its sides.

    Types are voted over every side whose tagger has NER (French), so German or English names written
    as on the French side ("Merkel", "Wall Street") get a type too.
    """
    caches = {code: TagCache(code) for code in corpora}
    tagged = [caches[code].tag(list(dict.fromkeys(texts))) for code, texts in corpora.items()]
    types = vote_types(tagged)
    return {code: RuleGenerator(code, texts, seed, name_types=types, tags=caches[code]) for code, texts in corpora.items()}
