"""The four steps of making a dataset as library calls: :func:`generate`, :func:`translate`, :func:`judge`, :func:`build`.

Each takes its declared settings objects whole (the objects ``clsd generate``, ``translate``, ``judge`` and ``build``
make from their options, handed over unopened) and returns a typed result: what was made, counted by reason, the
requests paid for and the files written, with the lines the command prints (``lines()``) and, where the step left
work undone, the one sentence the command fails with (``problem()``). Nothing here prints: progress bars go to
stderr and stop with ``quiet``; lines said before work starts go to ``announce`` (else to the ``clsd_generation``
logger, as warnings).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from clsd_format.declared_settings import option_name
from clsd_generation.core.run_folder import RunFolder
from clsd_generation.core.settings import LLMSettings, RequestFiles, TranslationSettings
from clsd_generation.core.summary import RunReport
from clsd_generation.dataset.builder import BuildSummary, FileWriter, Scorer
from clsd_generation.dataset.description import DatasetDescription
from clsd_generation.dataset.judge_calibration import Agreement
from clsd_generation.dataset.options import BuildOptions
from clsd_generation.llm.judge import JudgedShare
from clsd_generation.llm.judge_settings import JudgeSettings
from clsd_generation.run.options import JudgeOptions
from clsd_generation.run.settings import GenerationSettings

LOGGER = logging.getLogger("clsd_generation")
Announce = Callable[[str], None]


def _warn(line: str) -> None:
    LOGGER.warning(line)


@dataclass(frozen=True)
class GenerationResult:
    """One :func:`generate` call: the run's report (sentences made and failed by reason, requests sent, tokens, the
    request file written) and the run folder it holds."""

    report: RunReport
    run_dir: Path

    def lines(self) -> list[str]:
        """The report, then the next step where there is one."""
        return self.report.lines() + self.next_lines()

    def next_lines(self) -> list[str]:
        report = self.report
        if report.stopped:
            return []
        if report.requests_written:
            return [
                f"next: run {report.requests_file} through your batch engine (vllm run-batch, a Ray Data job, a batch "
                f"service), then repeat this command with {option_name(RequestFiles, 'answers')} <its output file>"
            ]
        if self.problem() is None:
            build = functools.partial(option_name, BuildOptions)
            name = option_name(DatasetDescription, "name")
            return [f"next: clsd build {build('run_dir')} {self.run_dir} {build('out')} <folder> {name} <NAME>"]
        return []

    def problem(self) -> str | None:
        """Why the run folder is not ready to build, in one sentence, or None. A run stopped because its first answers
        named another model, unfinished sentences and a folder with nothing to build are each a problem, so that a
        script stops there (``clsd generate`` exits 2 with it)."""
        report = self.report
        if report.stopped:
            return report.stopped
        if report.limited:
            max_tokens = option_name(LLMSettings, "max_tokens")
            return (
                f"{report.limited} sentence(s) are unfinished: the token limit ({max_tokens} {report.token_limit}) cut every "
                f"answer. Run the same command with a larger {max_tokens} to continue this run folder."
            )
        if report.requests_written:
            return None
        if report.unfinished and "request files" in report.backend:
            requests_out = option_name(RequestFiles, "requests_out")
            return f"{report.unfinished} sentence(s) still need answers: add {requests_out} FILE to write their requests."
        if report.unfinished:
            return f"{report.unfinished} sentence(s) are unfinished after retries; run the same command again to continue."
        if report.without_distractors():  # `clsd build` would refuse: a direction needs distractors in its target language
            return report.nothing_made()
        return None


def generate(settings: GenerationSettings, *, announce: Announce | None = None) -> GenerationResult:
    """Make (or finish making) four distractors per sentence of both languages, as ``settings`` say.

    Resumable: every answer is stored in the run folder's checkpoint as it arrives, so the same call after an
    interruption continues; other settings over the same folder are refused. ``announce`` receives the lines said
    before the work (a column's script, checks that are off for a language, a resumed run)."""
    from clsd_generation.core.inputs import check_scripts
    from clsd_generation.run.loop import RunOptions, generate_distractors

    say = announce or _warn
    prompts = settings.prompts()
    languages = settings.input.languages()
    bounds = settings.checked_bounds(languages)
    backend = settings.backend(prompts)
    corpus = settings.input.read()
    for line in check_scripts(corpus, languages):  # each column's letters against its language's script
        say(line)
    run = settings.run
    options = RunOptions(max_attempts=run.max_attempts, progress=not run.quiet, announce=say)
    report = generate_distractors(corpus, languages, run.run_dir, backend, bounds, options)
    return GenerationResult(report, Path(run.run_dir))


@dataclass(frozen=True)
class TranslationResult:
    """One :func:`translate` call: texts translated now per language, the shares its checks refused (one line per
    language), and the texts still untranslated after retries."""

    translated: dict[str, int]
    refusals: list[str]
    untranslated: int

    def lines(self) -> list[str]:
        return [f"{code}->en: {count} texts translated in this run" for code, count in self.translated.items()] + self.refusals

    def problem(self) -> str | None:
        if self.untranslated:
            return f"{self.untranslated} text(s) are untranslated after retries; run the same command again to continue."
        return None


def translate(folder: RunFolder, settings: TranslationSettings, endpoint: LLMSettings = LLMSettings()) -> TranslationResult:
    """Translate a run's texts to English (the pivot setting): by M2M-100/NLLB, or (``settings.backend`` "llm") by the
    LLM ``settings.model`` names at ``endpoint`` with at most ``settings.max_new_tokens`` tokens a translation.

    Resumable; every stored translation is then checked as a translation of its source, and the share refused is
    said per language."""
    from clsd_generation.dataset.pivot import translate_run, untranslated_count
    from clsd_generation.llm.translate import pivot_refusal_lines

    llm = endpoint.for_model(settings.model, settings.max_new_tokens) if settings.backend == "llm" else None
    done = translate_run(folder.run_dir, settings, progress=not folder.quiet, llm=llm)
    lines = pivot_refusal_lines(folder.run_dir, option_name(BuildOptions, "keep_refused_translations"))
    return TranslationResult(done, lines, untranslated_count(folder.run_dir))


@dataclass(frozen=True)
class JudgeResult:
    """One :func:`judge` call: the judged valid share per language (or, against an annotators' sheet, the judge's
    agreement with them), the questions asked now (each a paid request) and those left unsettled."""

    model: str
    share: JudgedShare | None = None
    agreement: Agreement | None = None
    asked: int = 0
    unanswered: int = 0

    def lines(self) -> list[str]:
        if self.agreement is not None:
            return self.agreement.lines()
        assert self.share is not None
        return [*self.share.lines(self.model), f"questions asked in this run: {self.asked}"]

    def problem(self) -> str | None:
        if self.unanswered:
            return f"{self.unanswered} question(s) are unanswered after retries; run the same command again to continue."
        return None


def judge(folder: RunFolder, settings: JudgeSettings, options: JudgeOptions | None = None) -> JudgeResult:
    """Judge each kept distractor of a run by the paper's criteria (or ``options.sample`` per language, seeded), or,
    with ``options.against``, compare the judge with the annotators' sheet."""
    from clsd_generation.llm.judge import judge_run

    options = options or JudgeOptions()
    progress = not folder.quiet
    if options.against is not None:
        from clsd_generation.dataset.judge_calibration import calibrate

        agreement = calibrate(folder.run_dir, options.against, settings, progress=progress)
        return JudgeResult(settings.llm.model, agreement=agreement)
    share, asked, left = judge_run(folder.run_dir, settings, per_language=options.sample, seed=options.seed, progress=progress)
    return JudgeResult(settings.llm.model, share=share, asked=asked, unanswered=left)


def build(options: BuildOptions, *, scorer: Scorer | None = None, add_files: FileWriter | None = None) -> BuildSummary:
    """Write a finished run's dataset (both directions, the pivot configs where the run was translated) with its card.

    ``scorer`` measures the set for the card's difficulty and ``add_files`` writes what is made from the finished
    folder; the generator does not import the plugin, so ``clsd build`` hands in the plugin's
    (:func:`clsd_mteb.difficulty_scores.difficulty_of`, :func:`clsd_mteb.publishing.hub_eval.write_eval_config`)."""
    from clsd_generation.dataset.builder import build_dataset

    return build_dataset(
        options.run_dir,
        options.out,
        options.description,
        allow_incomplete=options.allow_incomplete,
        drop_invalid=options.drop_invalid,
        scorer=None if options.no_score else scorer,
        add_files=add_files,
        keep_refused_translations=options.keep_refused_translations,
    )


__all__ = ["GenerationResult", "JudgeResult", "TranslationResult", "build", "generate", "judge", "translate"]
