"""``clsd generate``: four distractors per sentence of a parallel corpus, by LLM or by rule, resumable.

The command reads its options and hands them to :func:`clsd_generation.run.generate.generate_distractors`; the backend
is chosen by :mod:`clsd_generation.run.backends`. Its help lists the options by what they are for
(:mod:`clsd_cli.help_panels`). Nothing of the generator's heavy parts is imported before the command runs, so
``clsd --help`` stays fast.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from clsd_cli.generation_options import (
    AcceptAnsweringModel,
    AcceptNeighbour,
    AnswersFile,
    ApiKeyEnv,
    BackendName,
    BaseUrl,
    BatchMaxMb,
    BatchMaxRequests,
    Concurrency,
    HubConfig,
    IdColumn,
    InputSource,
    LanguageCheck,
    Limit,
    MaxAttempts,
    MaxJaccard,
    MaxLengthRatio,
    MaxRetries,
    MaxTokens,
    MaxUnknownLowercase,
    MaxUnknownShare,
    MinJaccard,
    MinLengthRatio,
    ModelName,
    NearCopyEdits,
    PollInterval,
    PromptFile,
    ProtocolName,
    Quiet,
    RequestsOut,
    RuleNames,
    RulesSeed,
    RunAnyway,
    RunDir,
    SourceColumn,
    SourceLang,
    Split,
    Structured,
    TargetColumn,
    TargetLang,
    Temperature,
    Timeout,
    TopP,
    UseBatch,
)
from clsd_cli.help_panels import PanelledCommand
from clsd_format.errors import CLSDError
from clsd_generation.core.settings import (
    DEFAULT_MAX_ATTEMPTS,
    DEFAULT_RULES_SEED,
    PAPER,
    VALIDATED,
    BatchSettings,
    LLMSettings,
    ReadingChecks,
    RequestFiles,
    ValidationBounds,
)
from clsd_generation.llm.prompts import PAPER_TEMPERATURE, PAPER_TOP_P, PromptSettings, load_prompt_settings
from clsd_generation.rules.registry import ALL_RULES, DEFAULT_RULES

if TYPE_CHECKING:
    from clsd_format.languages import Language
    from clsd_generation.core.inputs import ParallelCorpus
    from clsd_generation.core.summary import RunReport
    from clsd_generation.jobs.backend import DistractorBackend

BACKEND_NAMES = ("rules", "llm")

app = typer.Typer()


@app.command(cls=PanelledCommand)
def generate(
    input: InputSource,
    source_column: SourceColumn,
    target_column: TargetColumn,
    source_lang: SourceLang,
    target_lang: TargetLang,
    run_dir: RunDir,
    backend: BackendName = "rules",
    id_column: IdColumn = None,
    split: Split = "train",
    hub_config: HubConfig = None,
    limit: Limit = None,
    model: ModelName = None,
    base_url: BaseUrl = None,
    api_key_env: ApiKeyEnv = LLMSettings.api_key_env,
    prompt_file: PromptFile = None,
    temperature: Temperature = PAPER_TEMPERATURE,
    top_p: TopP = PAPER_TOP_P,
    concurrency: Concurrency = LLMSettings.concurrency,
    timeout: Timeout = LLMSettings.timeout,
    max_retries: MaxRetries = LLMSettings.max_retries,
    max_attempts: MaxAttempts = DEFAULT_MAX_ATTEMPTS,
    batch: UseBatch = False,
    poll_interval: PollInterval = BatchSettings.poll_interval,
    batch_max_requests: BatchMaxRequests = BatchSettings.max_requests,
    batch_max_mb: BatchMaxMb = BatchSettings.max_bytes / 1_000_000,
    requests_out: RequestsOut = None,
    answers: AnswersFile = None,
    min_jaccard: MinJaccard = ValidationBounds.min_jaccard,
    max_jaccard: MaxJaccard = ValidationBounds.max_jaccard,
    min_length_ratio: MinLengthRatio = ValidationBounds.min_length_ratio,
    max_length_ratio: MaxLengthRatio = ValidationBounds.max_length_ratio,
    protocol: ProtocolName = VALIDATED,
    max_tokens: MaxTokens = LLMSettings.max_tokens,
    structured: Structured = False,
    language_check: LanguageCheck = ReadingChecks.language,
    near_copy_edits: NearCopyEdits = ReadingChecks.near_copy_edits,
    max_unknown_share: MaxUnknownShare = ReadingChecks.max_unknown_share,
    max_unknown_lowercase: MaxUnknownLowercase = ReadingChecks.max_unknown_lowercase,
    accept: AcceptAnsweringModel = None,
    accept_neighbour: AcceptNeighbour = None,
    seed: RulesSeed = DEFAULT_RULES_SEED,
    rules: RuleNames = "default",
    run_anyway: RunAnyway = False,
    quiet: Quiet = False,
) -> None:
    """Make four distractors per sentence of both languages.

    Resumable (every answer is stored in RUN_DIR/checkpoint.sqlite as it arrives): run the same command again after an interruption, even kill -9. A different input, model, prompt or rule setting is refused."""
    prompts = _prompts(protocol, backend, prompt_file, temperature, top_p)
    languages = _parse_languages(source_lang, target_lang)
    reading = _reading(language_check, near_copy_edits, max_unknown_share, max_unknown_lowercase, accept_neighbour, languages)
    bounds = ValidationBounds(min_jaccard, max_jaccard, min_length_ratio, max_length_ratio, protocol=protocol, reading=reading)
    endpoint = LLMSettings(model or "", base_url, api_key_env, concurrency, timeout, max_retries, max_tokens, structured)
    llm, files = _llm_settings(backend, batch, endpoint, RequestFiles(requests_out, answers), accept)
    corpus = _read_corpus(input, (source_column, target_column), languages, id_column, split, hub_config, limit)
    batch_settings = BatchSettings(poll_interval, max_requests=batch_max_requests, max_bytes=int(batch_max_mb * 1_000_000))
    chosen = _choose_backend(llm, prompts, batch_settings if batch else files, seed, (rules, run_anyway))
    _run(corpus, languages, run_dir, (chosen, bounds), max_attempts, quiet)


def _run(
    corpus: ParallelCorpus,
    languages: tuple[Language, Language],
    run_dir: Path,
    how: tuple[DistractorBackend, ValidationBounds],
    max_attempts: int,
    quiet: bool,
) -> None:
    """The run itself, its report and the next step."""
    from clsd_generation.run.generate import RunOptions, generate_distractors

    options = RunOptions(max_attempts=max_attempts, progress=not quiet, announce=typer.echo)
    _print_outcome(generate_distractors(corpus, languages, run_dir, *how, options), run_dir)


def _choose_backend(
    llm: LLMSettings | None,
    prompts: PromptSettings,
    mode: BatchSettings | RequestFiles | None,
    seed: int,
    rules: tuple[str, bool],
) -> DistractorBackend:
    """The LLM backend where --backend llm gave an endpoint (``llm``; live, Batch API or request files), else the rules
    (``rules``: --rules and --run-anyway)."""
    from clsd_generation.run.backends import LLMBackend, RuleBackend

    names, run_anyway = rules
    if llm is None:
        return RuleBackend(seed, _rule_names(names), run_anyway)
    if run_anyway:
        raise CLSDError("--run-anyway is for --backend rules: the LLM backend makes no estimate to stop at.")
    batch = mode if isinstance(mode, BatchSettings) else None
    return LLMBackend(llm, prompts, batch, mode if isinstance(mode, RequestFiles) else None)


def _rule_names(value: str) -> tuple[str, ...]:
    if value == "default":
        return DEFAULT_RULES
    if value == "all":
        return ALL_RULES
    names = tuple(dict.fromkeys(name.strip() for name in value.split(",") if name.strip()))
    unknown = [name for name in names if name not in ALL_RULES]
    if unknown or not names:
        raise CLSDError(f"--rules: unknown rule(s) {unknown or [value]}; the rules are {', '.join(ALL_RULES)}, or 'all'.")
    return tuple(rule for rule in ALL_RULES if rule in names)  # one order, whatever order they were typed in


def _parse_languages(source_lang: str, target_lang: str) -> tuple[Language, Language]:
    """Both codes checked as they are read (two codes of one language refused), before the input or an endpoint."""
    from clsd_format.languages import parse_pair  # here, not at the top: `clsd --help` stays fast

    return parse_pair(source_lang, target_lang)


def _reading(
    language: bool,
    edits: int,
    unknown_share: float,
    unknown_lowercase: int,
    neighbours: list[str] | None,
    languages: tuple[Language, Language],
) -> ReadingChecks:
    """The answer checks' settings, each --accept-neighbour as the identifier's codes ("ru:bg") once it is checked
    against the run's languages (the identifier is loaded only when one is given)."""
    accepted: tuple[str, ...] = ()
    if neighbours:
        from clsd_generation.checks.answers import accepted_neighbour

        codes = [language.code for language in languages]
        accepted = tuple(sorted({accepted_neighbour(spec, codes) for spec in neighbours}))
    return ReadingChecks(language, edits, unknown_share, unknown_lowercase, accepted)


def _prompts(protocol: str, backend: str, prompt_file: Path | None, temperature: float, top_p: float) -> PromptSettings:
    """The prompt and sampling of the run, once the settings are checked: an unknown backend is refused; the paper
    protocol is the paper's LLM request, so settings that would make it something else are refused."""
    _check_protocol(protocol, backend, prompt_file, temperature, top_p)
    return load_prompt_settings(prompt_file, temperature=temperature, top_p=top_p)


def _check_protocol(protocol: str, backend: str, prompt_file: Path | None, temperature: float, top_p: float) -> None:
    if backend not in BACKEND_NAMES:
        raise CLSDError(f"unknown backend {backend!r}; use one of {', '.join(BACKEND_NAMES)}.")
    if protocol != PAPER:
        return
    if backend != "llm":
        raise CLSDError("--protocol paper needs --backend llm (the paper asked GPT-4; the rules backend has no paper protocol).")
    if prompt_file is not None or temperature != PAPER_TEMPERATURE or top_p != PAPER_TOP_P:
        raise CLSDError(
            f"--protocol paper uses the paper's prompt, temperature {PAPER_TEMPERATURE} and top_p {PAPER_TOP_P}; "
            "drop --prompt-file/--temperature/--top-p, or use --protocol validated."
        )


def _llm_settings(
    backend: str, batch: bool, llm: LLMSettings, files: RequestFiles, accept: list[str] | None = None
) -> tuple[LLMSettings | None, RequestFiles | None]:
    """The endpoint of --backend llm with the models allowed to answer for it (``accept``), checked (model named, API key
    set) before the input is read, and the request files when asked for; (None, None) for rules."""
    wants_files = files.requests_out is not None or files.answers is not None
    if backend != "llm":
        if batch or wants_files or accept:
            raise CLSDError("--batch, --requests-out, --answers and --accept-answering-model need --backend llm.")
        return None, None
    llm = replace(llm, accepted_models=tuple(accept or ()))
    if batch and wants_files:
        raise CLSDError("--batch sends the requests to the Batch API; --requests-out and --answers hand them to another engine.")
    if not llm.model:
        raise CLSDError("--backend llm needs --model (e.g. gpt-4-0613, or the name your server gives its model).")
    if not wants_files:
        llm.api_key()  # request files send nothing: no key needed
    return llm, files if wants_files else None


def _read_corpus(
    input: str,
    columns: tuple[str, str],
    languages: tuple[Language, Language],
    id_column: str | None,
    split: str,
    hub_config: str | None,
    limit: int | None,
) -> ParallelCorpus:
    """The corpus, each column's letters checked against its language's script before anything is asked (refused,
    or one warning line each)."""
    from clsd_generation.core.inputs import check_scripts, read_parallel  # here, not at the top: `clsd --help` stays fast

    corpus = read_parallel(input, columns, id_column=id_column, split=split, hub_config=hub_config, limit=limit)
    for line in check_scripts(corpus, languages):
        typer.echo(line, err=True)
    return corpus


def _print_outcome(report: RunReport, run_dir: Path) -> None:
    """The run report, then the next step; unfinished sentences make the command fail, so that scripts repeat it."""
    for line in report.lines():
        typer.echo(line)
    if report.requests_written:
        typer.echo(
            f"next: run {report.requests_file} through your batch engine (vllm run-batch, a Ray Data job, a batch service), "
            "then repeat this command with --answers <its output file>"
        )
    if report.limited:
        raise CLSDError(
            f"{report.limited} sentence(s) are unfinished: the token limit (--max-tokens {report.token_limit}) cut every "
            "answer. Run the same command with a larger --max-tokens to continue this run folder."
        )
    if report.requests_written:
        return
    if report.unfinished and "request files" in report.backend:
        raise CLSDError(f"{report.unfinished} sentence(s) still need answers: add --requests-out FILE to write their requests.")
    if report.unfinished:
        raise CLSDError(f"{report.unfinished} sentence(s) are unfinished after retries; run the same command again to continue.")
    empty = report.without_distractors()
    if empty:  # `clsd build` would refuse: a direction needs distractors in its target language
        typer.echo(f"nothing to build: no {' and no '.join(empty)} sentence has distractors (why: the failed lines above).")
        return
    typer.echo(f"next: clsd build --run-dir {run_dir} --out <folder> --name <NAME>")
