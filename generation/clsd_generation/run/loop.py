"""One entry point for every backend: read the corpus, bind the checkpoint, run what is unfinished."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from clsd_format.declared_settings import option_name
from clsd_format.errors import CLSDError
from clsd_format.languages import Language, one_language
from clsd_generation.checks.registry import checks_off, plugin_values
from clsd_generation.core.checkpoint import CHECKPOINT_FILE, CHECKS_OFF_KEY, GENERATION_KEY, Checkpoint, checkpoint_writes
from clsd_generation.core.inputs import ParallelCorpus
from clsd_generation.core.lock import run_folder_lock
from clsd_generation.core.settings import DEFAULT_MAX_ATTEMPTS, ValidationBounds
from clsd_generation.core.summary import RunReport
from clsd_generation.jobs.backend import DistractorBackend, NothingToMake, RunContext
from clsd_generation.jobs.state import make_jobs, pending_states
from clsd_generation.run.settings import RunChoices


@dataclass(frozen=True)
class RunOptions:
    """How a run goes, not what it makes (none of this is in the checkpoint's fingerprint)."""

    max_attempts: int = DEFAULT_MAX_ATTEMPTS  # answers asked per sentence before it is recorded as failed
    progress: bool = True
    durable_against_power_loss: bool = False
    # Receives one line before any work when the run folder already holds a checkpoint: how many sentences an
    # earlier invocation finished and how many remain (the CLI prints it first); then what the backend says before
    # its work (RunContext.announce).
    announce: Callable[[str], None] | None = None


def generation_fingerprint(
    corpus: ParallelCorpus, languages: tuple[Language, Language], backend: DistractorBackend, bounds: ValidationBounds
) -> dict[str, object]:
    """Everything that decides what a finished sentence holds; a resumed run must match all of it.

    The answer checks (``bounds.reading``) read an LLM's answers only, so a rule run's fingerprint leaves them out.
    """
    validation = asdict(bounds)
    if backend.name == "rules":
        del validation["reading"]
        return _fingerprint(corpus, languages, backend, validation)
    if not bounds.reading.accepted_neighbours:
        del validation["reading"]["accepted_neighbours"]  # none given: the fingerprint of a run without the option
    # the settings of checks from other packages by check name; none installed: the fingerprint of a run without them
    validation["reading"]["plugins"] = plugin_values(bounds.reading)
    if not validation["reading"]["plugins"]:
        del validation["reading"]["plugins"]
    return _fingerprint(corpus, languages, backend, validation)


def _fingerprint(
    corpus: ParallelCorpus, languages: tuple[Language, Language], backend: DistractorBackend, validation: dict[str, object]
) -> dict[str, object]:
    return {
        "input_sha256": corpus.fingerprint,
        "columns": list(corpus.columns),
        "languages": [asdict(language) for language in languages],
        "backend": backend.name,
        "validation": validation,
    } | backend.fingerprint(languages)


def _start(checkpoint: Checkpoint, fingerprint: dict[str, object], corpus: ParallelCorpus, endpoint: str | None) -> None:
    """Bind the run's settings (a different run under the same folder is refused) and store its input."""
    checkpoint.bind(GENERATION_KEY, fingerprint, may_grow=("max_tokens",))  # a cut run continues with a larger limit
    checkpoint.set_meta("input_origin", corpus.public_origin or corpus.origin)
    checkpoint.set_meta("source_dataset", corpus.hub_id)
    checkpoint.set_meta("id_column", corpus.id_column)
    if endpoint is not None:
        checkpoint.set_meta("endpoint", endpoint)
    checkpoint.store_pairs(corpus)


def generate_distractors(
    corpus: ParallelCorpus,
    languages: tuple[Language, Language],
    run_dir: Path,
    backend: DistractorBackend,
    bounds: ValidationBounds = ValidationBounds(),
    options: RunOptions = RunOptions(),
) -> RunReport:
    """Generate (or finish generating) distractors for every sentence of both languages."""
    _refuse_before_starting(languages, backend, options)
    off = checks_off_for(languages, backend)
    for line in off:  # said once, before anything is asked
        if options.announce is not None:
            options.announce(f"check off: {line}")
    fingerprint = generation_fingerprint(corpus, languages, backend, bounds)
    resumed = (Path(run_dir) / CHECKPOINT_FILE).exists()
    with checkpoint_writes(run_dir), run_folder_lock(run_dir):
        try:
            with Checkpoint.in_folder(run_dir, durable_against_power_loss=options.durable_against_power_loss) as checkpoint:
                _start(checkpoint, fingerprint, corpus, backend.endpoint())
                jobs = make_jobs(corpus.pairs, languages)
                states, done_before = pending_states(jobs, checkpoint, bounds)
                if resumed and options.announce is not None:
                    options.announce(
                        f"Resuming {run_dir}: {done_before} of {len(jobs)} sentences already finished, "
                        f"{len(jobs) - done_before} remain."
                    )
                report = RunReport(backend=backend.describe(), total=len(jobs), done_before=done_before, checks_off=off)
                checkpoint.set_meta(CHECKS_OFF_KEY, off)
                context = RunContext(
                    checkpoint, corpus.pairs, languages, bounds, report, options.max_attempts, options.progress, options.announce
                )
                return _tally(backend.run(states, context), checkpoint, languages)
        except NothingToMake as exc:
            if not resumed:
                _discard_checkpoint(Path(run_dir))
            # the other backend is the run's choice, declared here, above the backend that stopped
            raise NothingToMake(f"{exc} Or use {option_name(RunChoices, 'backend')} llm.") from exc


def _tally(report: RunReport, checkpoint: Checkpoint, languages: tuple[Language, Language]) -> RunReport:
    """The run folder's sentences with distractors and its failures by reason, per language, into the report."""
    complete, failures = checkpoint.complete_by_language(), checkpoint.failure_reasons()
    report.made = {f"{language.name} ({language.code})": complete[language.code] for language in languages}
    report.failures = {f"{lang.name} ({lang.code})": failures[lang.code] for lang in languages if lang.code in failures}
    return report


def _discard_checkpoint(run_dir: Path) -> None:
    """Remove the checkpoint a stopped run began and left empty (its settings bound, nothing asked), with SQLite's
    side files: the run folder is then free for other settings, an LLM backend or the same command run anyway."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        (run_dir / f"{CHECKPOINT_FILE}{suffix}").unlink(missing_ok=True)


def checks_off_for(languages: tuple[Language, Language], backend: DistractorBackend) -> list[str]:
    """The checks off for the run's languages, one line each: every answer check for an LLM's answers, the surface
    bounds only for the rules' candidates (they have checks of their own)."""
    lines = [line for language in languages for line in checks_off(language.code)]
    return [line for line in lines if line.startswith("Jaccard")] if backend.name == "rules" else lines


def _refuse_before_starting(languages: tuple[Language, Language], backend: DistractorBackend, options: RunOptions) -> None:
    """Settings that cannot work stop the run before the run folder is touched (and a missing API key before any request)."""
    if one_language(*languages):
        raise CLSDError(f"the two languages must differ ({languages[0].code!r} and {languages[1].code!r} are one language).")
    backend.check(languages)
    if options.max_attempts < 1:
        raise CLSDError(f"{option_name(RunChoices, 'max_attempts')} must be at least 1.")
