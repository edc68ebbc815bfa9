"""Runs the rule generator over unfinished sentences, recording each like an LLM answer.

Tagging the corpus (both sides, once per run; each distinct text is tagged once and cached) comes
first, so that names get their types across both sides (French NER, the name lexicon, titles); the run
report then counts, per rule,
the candidates kept and those the automatic checks dropped, by reason.

Where the run has someone to tell (``RunContext.announce``: the CLI prints), it says first which rules run for
each language, and, once the corpus is tagged, how many sentences they are likely to cover
(:mod:`clsd_generation.rules.coverage`); where they would settle none of a language's, the run stops there, before
the rest, unless ``run_anyway``.
"""

from __future__ import annotations

from collections.abc import Sequence

from tqdm.auto import tqdm

from clsd_generation.core.checkpoint import Answer
from clsd_generation.core.outcomes import Outcome
from clsd_generation.core.summary import RunReport
from clsd_generation.jobs.backend import RunContext
from clsd_generation.jobs.state import JobState
from clsd_generation.rules import RuleGenerator, make_generators
from clsd_generation.rules.coverage import Drawn, draw, estimate, plan_line, refuse_barren


def run_rules(
    states: Sequence[JobState], context: RunContext, *, seed: int, rule_names: Sequence[str], run_anyway: bool = False
) -> RunReport:
    """Settle each sentence from the rule generator's candidates, re-asking (the next attempt's draw) as the LLM path does.

    Where the estimate runs, a run it finds barren stops before the rest
    (:func:`clsd_generation.rules.coverage.refuse_barren`) unless ``run_anyway``."""
    pairs, report = context.pairs, context.report
    if not states:
        return report  # nothing to tag: a finished run's resume reads the checkpoint only
    if context.announce is not None:
        for language in context.languages:
            context.announce(plan_line(language, rule_names))
    # Vocabulary comes from the whole corpus, not the pending part, so a resumed run draws the same words.
    generators = make_generators(
        {language.code: [pair.texts[side] for pair in pairs] for side, language in enumerate(context.languages)},
        seed=seed,
        rule_names=rule_names,
    )
    drawn: dict[int, list[Drawn]] = {}
    if context.announce is not None:
        drawn, samples = estimate(states, generators, context.languages, context.announce, context.bounds, context.max_attempts)
        if not run_anyway and any(not seen.settled for seen in samples):
            refuse_barren(samples, context.checkpoint.complete_by_language(), context.bounds.needed)
    for index, state in enumerate(tqdm(states, desc="distractors (rules)", unit="sentence", disable=not context.progress)):
        _settle(state, generators[state.job.language.code], context, drawn.pop(index, []))
        state.release()
    for generator in generators.values():
        report.rule_checks.update(generator.outcomes)
    return report


def _settle(state: JobState, generator: RuleGenerator, context: RunContext, ahead: list[Drawn]) -> None:
    """Ask the generator until the sentence settles (``ahead``: its attempts, drawn already by the estimate)."""
    drawn = {answer.attempt: answer for answer in ahead}
    settled = None
    while settled is None:
        answer = drawn.pop(state.attempts + 1, None) or draw(generator, state)
        settled = state.absorb(answer.candidates, context.bounds, context.max_attempts, answer.rules).settled
        context.checkpoint.record(
            state.job.pair_id,
            state.job.language.code,
            answer=Answer(state.attempts, "\n".join(answer.candidates), answer.candidates, "rules", candidate_rules=answer.rules),
            result=settled,
            distractor_rules=state.rules_of(settled.distractors) if settled else (),
        )
    context.report.count(Outcome.of(settled))
    context.report.rule_output.update(state.rules_of(settled.distractors))
