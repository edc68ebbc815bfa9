"""Runs the rule generator over unfinished sentences, recording each like an LLM answer.

Tagging the corpus (both sides, once per run; each distinct text is tagged once and cached) comes
first, so that names get their types across both sides (French NER, the name lexicon, titles); the run
report then counts, per rule,
the candidates kept and those the automatic checks dropped, by reason.
"""

from __future__ import annotations

from collections.abc import Sequence

from tqdm.auto import tqdm

from clsd_generation.core.checkpoint import Answer
from clsd_generation.core.outcomes import Outcome
from clsd_generation.core.summary import RunReport
from clsd_generation.jobs.backend import RunContext
from clsd_generation.jobs.state import JobState
from clsd_generation.rules import make_generators


def run_rules(states: Sequence[JobState], context: RunContext, *, seed: int, rule_names: Sequence[str]) -> RunReport:
    """Settle each sentence from the rule generator's candidates, re-asking (the next attempt's draw) as the LLM path does."""
    pairs, report = context.pairs, context.report
    if not states:
        return report  # nothing to tag: a finished run's resume reads the checkpoint only
    # Vocabulary comes from the whole corpus, not the pending part, so a resumed run draws the same words.
    generators = make_generators(
        {language.code: [pair.texts[side] for pair in pairs] for side, language in enumerate(context.languages)},
        seed=seed,
        rule_names=rule_names,
    )
    for state in tqdm(states, desc="distractors (rules)", unit="sentence", disable=not context.progress):
        settled = None
        generator = generators[state.job.language.code]
        while settled is None:
            candidates = generator.candidates(state.job.sentence, attempt=state.attempts + 1)
            rules = [generator.rule_of[text] for text in candidates]
            settled = state.absorb(candidates, context.bounds, context.max_attempts, rules).settled
            context.checkpoint.record(
                state.job.pair_id,
                state.job.language.code,
                answer=Answer(state.attempts, "\n".join(candidates), candidates, "rules", candidate_rules=rules),
                result=settled,
                distractor_rules=state.rules_of(settled.distractors) if settled else (),
            )
        report.count(Outcome.of(settled))
        report.rule_output.update(state.rules_of(settled.distractors))
        state.release()
    for generator in generators.values():
        report.rule_checks.update(generator.outcomes)
    return report
