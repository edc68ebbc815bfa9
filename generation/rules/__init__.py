"""The LLM-free backend: distractors by rule, with no model and no network.

The paper's limitations section suspects simpler methods than an LLM might make CLSD hard enough;
this backend lets users measure that. Rules: change a number or year; swap a month or weekday;
replace a name (capitalised word) with another from the same corpus; exchange two names (roles);
add or remove negation; replace a word with its opposite; replace a content word with another corpus
word of the same ending. Candidates go through the same validation,
checkpoint and dataset building as LLM answers.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from clsd_format.errors import CLSDError

from clsd_generation.rules import common, de, en, fr
from clsd_generation.rules.lexicon import LanguageRules

RULES_VERSION = 1  # bump when a rule changes what it produces: it is part of the checkpoint fingerprint
RULES_BY_LANGUAGE: dict[str, LanguageRules] = {r.code: r for r in (de.RULES, fr.RULES, en.RULES)}
VARIANTS_PER_RULE = 4
RULE_NAMES = ("numbers", "months", "weekdays", "names", "roles", "negation", "antonyms", "content words")


def rules_for(language_code: str) -> LanguageRules:
    rules = RULES_BY_LANGUAGE.get(language_code)
    if rules is None:
        raise CLSDError(
            f"the rule backend has no rules for language {language_code!r} (it knows {', '.join(sorted(RULES_BY_LANGUAGE))}). "
            "Use --backend llm for this language, or add a module to clsd_generation/rules/."
        )
    return rules


class RuleGenerator:
    """Distractor candidates for the sentences of one language of one corpus."""

    def __init__(self, language_code: str, corpus_sentences: Iterable[str], seed: int = 0) -> None:
        self.rules = rules_for(language_code)
        sentences = list(corpus_sentences)
        self.vocabulary = common.corpus_vocabulary(sentences, self.rules)
        self.content_words = common.content_word_index(sentences)
        self.seed = seed

    def candidates(self, sentence: str, attempt: int) -> list[str]:
        """Variants from every rule that applies, interleaved so the first four come from different rules."""
        # A string seed is hashed with SHA-512 by random.seed: the same on every machine and run.
        rng = random.Random(f"{self.seed}|{self.rules.code}|{attempt}|{sentence}")
        n = VARIANTS_PER_RULE
        per_rule = [
            common.swap_numbers(sentence, rng, n),
            common.swap_from_list(sentence, self.rules.months, rng, n),
            common.swap_from_list(sentence, self.rules.weekdays, rng, n),
            common.swap_capitalised(sentence, self.rules, self.vocabulary, rng, n),
            common.swap_roles(sentence, self.rules, self.vocabulary, rng, n),
            [v for v in (self.rules.negate(sentence, rng),) if v],
            common.swap_antonyms(sentence, self.rules, rng, n),
            common.swap_content_words(sentence, self.content_words, rng, n),
        ]
        rng.shuffle(per_rule)
        interleaved = []
        for round_index in range(n):
            interleaved.extend(variants[round_index] for variants in per_rule if round_index < len(variants))
        return interleaved
