"""Runs the rule generator over unfinished sentences, recording each like an LLM answer.

Tagging the corpus (both sides, once per run; each distinct text is tagged once and cached) comes
first, so that names get their types across both sides (French NER, the name lexicon, titles); the run
report then counts, per rule,
the candidates kept and those the automatic checks dropped, by reason.
"""

from __future__ import annotations

from collections.abc import Sequence

from tqdm.auto import tqdm

from clsd_format.languages import Language
from clsd_generation.checkpoint import Checkpoint
from clsd_generation.inputs import ParallelPair
from clsd_generation.jobs import JobState
from clsd_generation.report import RunReport
from clsd_generation.rules import DEFAULT_RULES, make_generators
from clsd_generation.settings import ValidationBounds


def run_rules(
    states: Sequence[JobState],
    pairs: Sequence[ParallelPair],
    languages: tuple[Language, Language],
    checkpoint: Checkpoint,
    bounds: ValidationBounds,
    report: RunReport,
    *,
    seed: int,
    max_attempts: int,
    rule_names: Sequence[str] = DEFAULT_RULES,
    progress: bool = True,
) -> RunReport:
    # Vocabulary comes from the whole corpus, not the pending part, so a resumed run draws the same words.
    generators = make_generators(
        {language.code: [pair.texts[side] for pair in pairs] for side, language in enumerate(languages)},
        seed=seed,
        rule_names=rule_names,
    )
    for state in tqdm(states, desc="distractors (rules)", unit="sentence", disable=not progress):
        result = None
        generator = generators[state.job.language.code]
        while result is None:
            candidates = generator.candidates(state.job.sentence, attempt=state.attempts + 1)
            rules = [generator.rule_of[text] for text in candidates]
            result = state.absorb(candidates, bounds, max_attempts, rules)
            checkpoint.record(
                state.job.pair_id,
                state.job.language.code,
                attempt=state.attempts,
                answer="\n".join(candidates),
                candidates=candidates,
                origin="rules",
                result=result,
                candidate_rules=rules,
                distractor_rules=state.rules_of(result[1]) if result else (),
            )
        if result[0] == "ok":
            report.ok += 1
            report.rule_output.update(state.rules_of(result[1]))
        else:
            report.failed += 1
    for generator in generators.values():
        report.rule_checks.update(generator.outcomes)
    return report
