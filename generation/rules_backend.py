"""Runs the rule generator over unfinished sentences, recording each like an LLM answer."""

from __future__ import annotations

from collections.abc import Sequence

from tqdm.auto import tqdm

from clsd_generation.checkpoint import Checkpoint
from clsd_generation.inputs import ParallelPair
from clsd_generation.jobs import JobState
from clsd_generation.languages import LanguageSpec
from clsd_generation.llm_backend import RunReport
from clsd_generation.rules import RuleGenerator
from clsd_generation.validation import ValidationBounds


def run_rules(
    states: Sequence[JobState],
    pairs: Sequence[ParallelPair],
    languages: tuple[LanguageSpec, LanguageSpec],
    checkpoint: Checkpoint,
    bounds: ValidationBounds,
    report: RunReport,
    *,
    seed: int,
    max_attempts: int,
    progress: bool = True,
) -> RunReport:
    # Vocabulary comes from the whole corpus, not the pending part, so a resumed run draws the same words.
    generators = {
        language.code: RuleGenerator(language.code, (pair.texts[side] for pair in pairs), seed=seed)
        for side, language in enumerate(languages)
    }
    for state in tqdm(states, desc="distractors (rules)", unit="sentence", disable=not progress):
        result = None
        while result is None:
            candidates = generators[state.job.language.code].candidates(state.job.sentence, attempt=state.attempts + 1)
            result = state.absorb(candidates, bounds, max_attempts)
            checkpoint.record(
                state.job.pair_id,
                state.job.language.code,
                attempt=state.attempts,
                answer="\n".join(candidates),
                candidates=candidates,
                origin="rules",
                result=result,
            )
        if result[0] == "ok":
            report.ok += 1
        else:
            report.failed += 1
    return report
