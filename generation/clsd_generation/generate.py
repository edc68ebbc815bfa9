"""One entry point for every backend: read the corpus, bind the checkpoint, run what is unfinished."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Literal

from clsd_format.errors import CLSDError
from clsd_format.languages import Language
from clsd_format.redaction import public_url
from clsd_generation.batch_backend import BatchGenerator
from clsd_generation.checkpoint import CHECKPOINT_FILE, GENERATION_KEY, Checkpoint
from clsd_generation.inputs import ParallelCorpus
from clsd_generation.jobs import make_jobs, pending_states
from clsd_generation.llm_backend import LiveGenerator
from clsd_generation.prompts import PromptSettings
from clsd_generation.report import RunReport
from clsd_generation.rules import DEFAULT_RULES, RULES_VERSION, rules_for
from clsd_generation.rules_backend import run_rules
from clsd_generation.run_lock import run_folder_lock
from clsd_generation.settings import DEFAULT_MAX_ATTEMPTS, DEFAULT_RULES_SEED, BatchSettings, LLMSettings, ValidationBounds

Backend = Literal["rules", "llm"]


def generation_fingerprint(
    corpus: ParallelCorpus,
    languages: tuple[Language, Language],
    backend: Backend,
    bounds: ValidationBounds,
    *,
    llm: LLMSettings | None,
    prompts: PromptSettings,
    seed: int,
    rule_names: Sequence[str] = DEFAULT_RULES,
) -> dict[str, object]:
    """Everything that decides what a finished sentence holds; a resumed run must match all of it."""
    fingerprint: dict[str, object] = {
        "input_sha256": corpus.fingerprint,
        "columns": list(corpus.columns),
        "languages": [asdict(language) for language in languages],
        "backend": backend,
        "validation": asdict(bounds),
    }
    if backend == "llm":
        assert llm is not None
        fingerprint |= {
            "model": llm.model,
            "prompts": {language.code: prompts.template_for(language.code) for language in languages},
            "temperature": prompts.temperature,
            "top_p": prompts.top_p,
        }
    else:
        fingerprint |= {"rules_version": RULES_VERSION, "seed": seed, "rules": list(rule_names)}
    return fingerprint


def _start(checkpoint: Checkpoint, fingerprint: dict[str, object], corpus: ParallelCorpus, llm: LLMSettings | None) -> None:
    """Bind the run's settings (a different run under the same folder is refused) and store its input."""
    checkpoint.bind(GENERATION_KEY, fingerprint)
    checkpoint.set_meta("input_origin", corpus.origin)
    checkpoint.set_meta("id_column", corpus.id_column)
    if llm is not None:
        checkpoint.set_meta("endpoint", public_url(llm.base_url) if llm.base_url else "OpenAI default")  # no credentials
    checkpoint.store_pairs(corpus)


def generate_distractors(
    corpus: ParallelCorpus,
    languages: tuple[Language, Language],
    run_dir: Path,
    *,
    backend: Backend = "rules",
    bounds: ValidationBounds = ValidationBounds(),
    llm: LLMSettings | None = None,
    prompts: PromptSettings = PromptSettings(),
    batch: BatchSettings | None = None,
    seed: int = DEFAULT_RULES_SEED,
    rule_names: Sequence[str] = DEFAULT_RULES,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    progress: bool = True,
    durable_against_power_loss: bool = False,
    announce: Callable[[str], None] | None = None,
) -> RunReport:
    """Generate (or finish generating) distractors for every sentence of both languages.

    ``announce`` receives one line before any work when the run folder already holds a checkpoint:
    how many sentences an earlier invocation finished and how many remain (the CLI prints it first).
    """
    _refuse_before_starting(languages, backend, llm, max_attempts)
    fingerprint = generation_fingerprint(
        corpus, languages, backend, bounds, llm=llm, prompts=prompts, seed=seed, rule_names=rule_names
    )
    resumed = (Path(run_dir) / CHECKPOINT_FILE).exists()
    with (
        run_folder_lock(run_dir),
        Checkpoint.in_folder(run_dir, durable_against_power_loss=durable_against_power_loss) as checkpoint,
    ):
        _start(checkpoint, fingerprint, corpus, llm if backend == "llm" else None)
        jobs = make_jobs(corpus.pairs, languages)
        states, done_before = pending_states(jobs, checkpoint, bounds)
        if resumed and announce is not None:
            announce(
                f"Resuming {run_dir}: {done_before} of {len(jobs)} sentences already finished, {len(jobs) - done_before} remain."
            )
        if backend == "rules":
            report = RunReport(backend="rules", total=len(jobs), done_before=done_before)
            return run_rules(
                states,
                corpus.pairs,
                languages,
                checkpoint,
                bounds,
                report,
                seed=seed,
                rule_names=rule_names,
                max_attempts=max_attempts,
                progress=progress,
            )
        assert llm is not None  # checked above, before the run folder was touched
        report = RunReport(backend=f"llm ({'batch' if batch else 'live'}, {llm.model})", total=len(jobs), done_before=done_before)
        if batch is not None:
            return BatchGenerator(
                checkpoint, llm, prompts, bounds, report, max_attempts=max_attempts, progress=progress, batch=batch
            ).run(states)
        return LiveGenerator(checkpoint, llm, prompts, bounds, report, max_attempts=max_attempts, progress=progress).run(states)


def _refuse_before_starting(
    languages: tuple[Language, Language], backend: Backend, llm: LLMSettings | None, max_attempts: int
) -> None:
    """Settings that cannot work stop the run before the run folder is touched (and a missing API key before any request)."""
    if languages[0].code == languages[1].code:
        raise CLSDError(f"the two languages must differ (both are {languages[0].code!r}).")
    if backend == "rules":
        for language in languages:
            rules_for(language.code)  # unknown language: stop here
    elif backend == "llm":
        if llm is None:
            raise CLSDError("the llm backend needs a model (--model).")
        llm.api_key()
    else:
        raise CLSDError(f"unknown backend {backend!r}; use 'rules' or 'llm'.")
    if max_attempts < 1:
        raise CLSDError("--max-attempts must be at least 1.")
