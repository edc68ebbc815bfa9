"""Commands to make a CLSD dataset: generate -> (translate) -> judge, plus the human check.

``clsd build`` and ``clsd push`` use the plugin too (the card's difficulty, the Hub's ``eval.yaml``), so they live in
:mod:`clsd_cli.build` and :mod:`clsd_cli.publish`.

Mounted into the top-level ``clsd`` command; each command is defined on ``app`` directly. Errors
the user can fix raise :class:`clsd_format.errors.CLSDError`; the top-level CLI prints the message
and exits with status 2.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

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
    TranslationSettings,
    ValidationBounds,
)
from clsd_generation.llm.prompts import PAPER_TEMPERATURE, PAPER_TOP_P, PromptSettings, load_prompt_settings
from clsd_generation.rules.registry import ALL_RULES, DEFAULT_RULES, OPT_IN_RULES, RULES

if TYPE_CHECKING:
    from clsd_format.languages import Language
    from clsd_generation.core.inputs import ParallelCorpus
    from clsd_generation.core.summary import RunReport
    from clsd_generation.jobs.backend import DistractorBackend

BACKEND_NAMES = ("rules", "llm")

app = typer.Typer(
    help="Make CLSD datasets from any parallel corpus: distractors by LLM or by rule, English pivot, Hub upload.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,  # click's plain help, as `clsd` prints it: whole words wrapped at any width
)

# The options, declared once; their defaults come from clsd_generation.core.settings and .prompts.
RunDir = Annotated[
    Path,
    typer.Option(
        "--run-dir",
        help="Folder holding the run's checkpoint (created if absent). Repeat a command with the same folder to resume.",
    ),
]
Quiet = Annotated[bool, typer.Option("--quiet", help="No progress bars.")]
InputSource = Annotated[
    str,
    typer.Argument(
        help="Parallel sentences: a .csv/.tsv/.jsonl/.parquet file, a saved `datasets` folder, or a Hub dataset id (owner/name)."
    ),
]
SourceColumn = Annotated[str, typer.Option(help="Column holding the first language's sentences.")]
TargetColumn = Annotated[str, typer.Option(help="Column holding the second language's sentences.")]
SourceLang = Annotated[
    str,
    typer.Option(help="First language: a code (de, fr, en, ...) or code:Name:mteb-code, e.g. 'gsw:Swiss German:gsw-Latn'."),
]
TargetLang = Annotated[str, typer.Option(help="Second language, as --source-lang.")]
BackendName = Annotated[
    str,
    typer.Option(
        help="'rules': no LLM, no network; edits checked with offline taggers (de, fr, en). 'llm': any OpenAI-compatible endpoint."
    ),
]
IdColumn = Annotated[str | None, typer.Option(help="Column with a unique id per pair (default: row<N>, the data row number).")]
Split = Annotated[str, typer.Option(help="Split of a datasets folder or Hub dataset.")]
HubConfig = Annotated[str | None, typer.Option(help="Config of a Hub dataset.")]
Limit = Annotated[int | None, typer.Option(help="Use only the first N rows (a trial run; part of the input fingerprint).")]
ModelName = Annotated[
    str | None, typer.Option(help="LLM name, e.g. gpt-4-0613 (the paper's), or whatever your server calls its model.")
]
BaseUrl = Annotated[
    str | None, typer.Option(help="OpenAI-compatible endpoint, e.g. http://localhost:8000/v1 for vLLM (default: OpenAI).")
]
ApiKeyEnv = Annotated[str, typer.Option(help="Environment variable holding the API key.")]
PromptFile = Annotated[
    Path | None,
    typer.Option(
        help="YAML file of prompt templates: 'default' and/or per language code, with {language} and {sentence}. Default: the paper's prompt."
    ),
]
Temperature = Annotated[float, typer.Option(help="Sampling temperature (paper: 1.0).")]
TopP = Annotated[float, typer.Option(help="Nucleus sampling (paper: 1.0).")]
Concurrency = Annotated[int, typer.Option(help="Requests in flight at once (live mode).")]
Timeout = Annotated[float, typer.Option(help="Seconds before one request attempt is abandoned and retried.")]
MaxRetries = Annotated[
    int,
    typer.Option(
        help="Retries per request on 429, 5xx, timeouts and dropped connections (backoff with jitter, Retry-After honoured)."
    ),
]
MaxAttempts = Annotated[
    int, typer.Option(help="Answers asked per sentence until four distractors are valid; then it is recorded as failed.")
]
UseBatch = Annotated[
    bool, typer.Option("--batch", help="Use the OpenAI Batch API (cheaper, answers within 24 h) instead of live requests.")
]
PollInterval = Annotated[float, typer.Option(help="Seconds between Batch API status checks.")]
BatchMaxRequests = Annotated[
    int, typer.Option(help="Requests per Batch API input file (OpenAI's limit); a larger round is sent as several batches.")
]
BatchMaxMb = Annotated[
    float, typer.Option(help="Megabytes per Batch API input file (OpenAI's limit); a larger round is sent as several batches.")
]
RequestsOut = Annotated[
    Path | None,
    typer.Option(
        "--requests-out",
        metavar="FILE",
        help="Write the requests of the sentences still short of four distractors to FILE (OpenAI batch format: for "
        "vllm run-batch, a Ray Data job or a batch service) instead of sending them.",
    ),
]
AnswersFile = Annotated[
    Path | None,
    typer.Option(
        "--answers",
        metavar="FILE",
        help="The engine's output file for the request file written before: its answers are judged as live ones "
        "(with --requests-out, the next round's requests are written after).",
    ),
]
MinJaccard = Annotated[float, typer.Option(help="Lowest word-level Jaccard similarity to the original a distractor may have.")]
MaxJaccard = Annotated[float, typer.Option(help="Highest word-level Jaccard similarity (1.0 allows reordered words).")]
MinLengthRatio = Annotated[float, typer.Option(help="Shortest distractor, as a share of the original's length in characters.")]
MaxLengthRatio = Annotated[float, typer.Option(help="Longest distractor, as a multiple of the original's length.")]
ProtocolName = Annotated[
    str,
    typer.Option(
        help="'validated': the bounds above, re-asked until four are valid. 'paper': the paper's prompt and sampling, "
        "first four parsed items kept unchecked, re-asked only when unparseable (needs --backend llm)."
    ),
]
MaxTokens = Annotated[
    int,
    typer.Option(
        help="Completion tokens per answer (default: over twice the release's longest set of four); a cut answer is asked again."
    ),
]
Structured = Annotated[
    bool,
    typer.Option(
        "--structured",
        help="Ask for the four distractors as JSON (response_format with a JSON schema); a server that refuses it is asked for text.",
    ),
]
LanguageCheck = Annotated[
    bool, typer.Option(help="Refuse an LLM candidate that is not in the target language (py3langid; LLM answers only).")
]
NearCopyEdits = Annotated[
    int, typer.Option(help="Refuse an LLM candidate this many character edits from the original with no new real word (0: off).")
]
MaxUnknownShare = Annotated[
    float, typer.Option(help="Refuse an LLM candidate from this share of words the language's lexicon does not know (wordfreq).")
]
MaxUnknownLowercase = Annotated[
    int, typer.Option(help="Refuse an LLM candidate from this many unknown words that start lower-case (0: off).")
]
RulesSeed = Annotated[int, typer.Option(help="Seed of the rule backend.")]
RuleNames = Annotated[
    str,
    typer.Option(
        "--rules",
        metavar="NAME[,NAME...]|all",
        help=f"Rules of the rule backend: {'; '.join(f'{r.name} ({r.description})' for r in RULES)}; or 'all'. "
        f"Default: {', '.join(DEFAULT_RULES)}; {', '.join(OPT_IN_RULES)} are opt-in (read strictly, too few of their "
        "distractors were valid; see docs/generation.md).",
    ),
]


@app.command()
def generate(
    input: InputSource,
    run_dir: RunDir,
    source_column: SourceColumn,
    target_column: TargetColumn,
    source_lang: SourceLang,
    target_lang: TargetLang,
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
    seed: RulesSeed = DEFAULT_RULES_SEED,
    rules: RuleNames = "default",
    quiet: Quiet = False,
) -> None:
    """Make four distractors per sentence of both languages.

    Resumable (every answer is stored in RUN_DIR/checkpoint.sqlite as it arrives): run the same command again after an interruption, even kill -9. A different input, model, prompt or rule setting is refused."""
    from clsd_generation.run.generate import RunOptions, generate_distractors

    _check_protocol(protocol, backend, prompt_file, temperature, top_p)
    languages = _parse_languages(source_lang, target_lang)
    reading = ReadingChecks(language_check, near_copy_edits, max_unknown_share, max_unknown_lowercase)
    bounds = ValidationBounds(min_jaccard, max_jaccard, min_length_ratio, max_length_ratio, protocol=protocol, reading=reading)
    endpoint = LLMSettings(model or "", base_url, api_key_env, concurrency, timeout, max_retries, max_tokens, structured)
    llm, files = _llm_settings(backend, batch, endpoint, RequestFiles(requests_out, answers))
    prompts = load_prompt_settings(prompt_file, temperature=temperature, top_p=top_p)
    corpus = _read_corpus(input, (source_column, target_column), id_column, split, hub_config, limit)
    batch_settings = BatchSettings(poll_interval, max_requests=batch_max_requests, max_bytes=int(batch_max_mb * 1_000_000))
    chosen = _choose_backend(llm, prompts, batch_settings if batch else files, seed, rules)
    options = RunOptions(max_attempts=max_attempts, progress=not quiet, announce=typer.echo)
    _print_outcome(generate_distractors(corpus, languages, run_dir, chosen, bounds, options), run_dir)


def _choose_backend(
    llm: LLMSettings | None, prompts: PromptSettings, mode: BatchSettings | RequestFiles | None, seed: int, rules: str
) -> DistractorBackend:
    """The LLM backend where --backend llm gave an endpoint (``llm``; live, Batch API or request files), else the rules."""
    from clsd_generation.run.backends import LLMBackend, RuleBackend

    if llm is None:
        return RuleBackend(seed, _rule_names(rules))
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
    from clsd_generation.core.languages import parse_language  # here, not at the top: `clsd --help` stays fast

    return parse_language(source_lang), parse_language(target_lang)


def _check_protocol(protocol: str, backend: str, prompt_file: Path | None, temperature: float, top_p: float) -> None:
    """An unknown backend is refused; the paper protocol is the paper's LLM request: refuse settings that would make it
    something else."""
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
    backend: str, batch: bool, llm: LLMSettings, files: RequestFiles
) -> tuple[LLMSettings | None, RequestFiles | None]:
    """The endpoint of --backend llm, checked (model named, API key set) before the input is read, and the request
    files when asked for; (None, None) for rules."""
    wants_files = files.requests_out is not None or files.answers is not None
    if backend != "llm":
        if batch or wants_files:
            raise CLSDError("--batch, --requests-out and --answers need --backend llm.")
        return None, None
    if batch and wants_files:
        raise CLSDError("--batch sends the requests to the Batch API; --requests-out and --answers hand them to another engine.")
    if not llm.model:
        raise CLSDError("--backend llm needs --model (e.g. gpt-4-0613, or the name your server gives its model).")
    if not wants_files:
        llm.api_key()  # request files send nothing: no key needed
    return llm, files if wants_files else None


def _read_corpus(
    input: str, columns: tuple[str, str], id_column: str | None, split: str, hub_config: str | None, limit: int | None
) -> ParallelCorpus:
    from clsd_generation.core.inputs import read_parallel  # here, not at the top: `clsd --help` stays fast

    return read_parallel(input, columns, id_column=id_column, split=split, hub_config=hub_config, limit=limit)


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
    typer.echo(f"next: clsd build --run-dir {run_dir} --out <folder> --name <NAME>")


TRANSLATION_BACKENDS = ("m2m", "llm")


@app.command()
def translate(
    run_dir: RunDir,
    backend: Annotated[
        str, typer.Option(help="'m2m': an M2M-100 or NLLB model (GPU advised). 'llm': any OpenAI-compatible endpoint, no GPU.")
    ] = "m2m",
    model: Annotated[
        str,
        typer.Option(
            help="M2M-100 or NLLB model: Hub name or local folder (paper: facebook/m2m100_1.2B); with --backend llm, the LLM."
        ),
    ] = TranslationSettings.model,
    batch_size: Annotated[int, typer.Option(help="Texts per forward pass.")] = TranslationSettings.batch_size,
    num_beams: Annotated[int | None, typer.Option(help="Beam size (default: the model's generation config).")] = None,
    max_new_tokens: Annotated[
        int, typer.Option(help="Longest translation, in tokens (both backends).")
    ] = TranslationSettings.max_new_tokens,
    device: Annotated[str | None, typer.Option(help="cpu, cuda, cuda:1 ... (default: CUDA if available).")] = None,
    base_url: BaseUrl = None,
    api_key_env: ApiKeyEnv = LLMSettings.api_key_env,
    concurrency: Concurrency = LLMSettings.concurrency,
    timeout: Timeout = LLMSettings.timeout,
    max_retries: MaxRetries = LLMSettings.max_retries,
    quiet: Quiet = False,
) -> None:
    """Translate a run's texts to English (the pivot setting).

    Every source, target and distractor, as in the paper's pivot setting, by M2M-100/NLLB or (--backend llm) by an
    LLM with a fixed prompt. Resumable: translations are stored as they come; run again to continue. `clsd build`
    then adds the -pivot-en configs.
    """
    from clsd_generation.dataset.pivot import translate_run, untranslated_count
    from clsd_generation.llm.translate import pivot_refusal_lines

    if backend not in TRANSLATION_BACKENDS:
        raise CLSDError(f"unknown translation backend {backend!r}; use one of {', '.join(TRANSLATION_BACKENDS)}.")
    llm = None
    if backend == "llm":
        if model == TranslationSettings.model:
            raise CLSDError("--backend llm needs --model: the name your endpoint gives the LLM that translates.")
        llm = LLMSettings(model, base_url, api_key_env, concurrency, timeout, max_retries, max_new_tokens)
        llm.api_key()
    settings = TranslationSettings(model, batch_size, num_beams, max_new_tokens, device)
    done = translate_run(run_dir, settings, progress=not quiet, llm=llm)
    for code, count in done.items():
        typer.echo(f"{code}->en: {count} texts translated in this run")
    for line in pivot_refusal_lines(run_dir):
        typer.echo(line)
    left = untranslated_count(run_dir)
    if left:
        raise CLSDError(f"{left} text(s) are untranslated after retries; run the same command again to continue.")


@app.command()
def judge(
    run_dir: RunDir,
    model: Annotated[str, typer.Option(help="The judge LLM, as your endpoint names it.")],
    base_url: BaseUrl = None,
    api_key_env: ApiKeyEnv = LLMSettings.api_key_env,
    concurrency: Concurrency = LLMSettings.concurrency,
    timeout: Timeout = LLMSettings.timeout,
    max_retries: MaxRetries = LLMSettings.max_retries,
    max_tokens: Annotated[int, typer.Option(help="Completion tokens per verdict.")] = 16,
    max_attempts: Annotated[
        int, typer.Option(help="Answers asked per question until it is yes or no; then 'unclear'.")
    ] = DEFAULT_MAX_ATTEMPTS,
    structured: Structured = False,
    sample: Annotated[
        int | None, typer.Option(help="Judge a seeded sample of N distractors per language (default: all).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Sampling seed.")] = 0,
    against: Annotated[
        Path | None, typer.Option(help="A sheet filled by annotators (`clsd sample`): report the judge's agreement with it.")
    ] = None,
    quiet: Quiet = False,
) -> None:
    """Judge each distractor by the paper's criteria.

    Prints the judged valid share per language with a 95% Wilson interval. Three yes/no questions per distractor (fluent; a correct translation of the source, then invalid; a small edit of
    the target). Resumable: each verdict is stored as it arrives. `clsd build` writes the shares into the card.
    """
    from clsd_generation.llm.judge import JudgeSettings, judge_run

    llm = LLMSettings(model, base_url, api_key_env, concurrency, timeout, max_retries, max_tokens, structured)
    llm.api_key()
    settings = JudgeSettings(llm, max_attempts)
    if against is not None:
        from clsd_generation.dataset.judge_calibration import calibrate

        for line in calibrate(run_dir, against, settings, progress=not quiet).lines():
            typer.echo(line)
        return
    share, asked, left = judge_run(run_dir, settings, per_language=sample, seed=seed, progress=not quiet)
    for line in share.lines(model):
        typer.echo(line)
    typer.echo(f"questions asked in this run: {asked}")
    if left:
        raise CLSDError(f"{left} question(s) are unanswered after retries; run the same command again to continue.")


@app.command()
def sample(
    run_dir: RunDir,
    sheet: Annotated[Path, typer.Option(help="CSV sheet to write for annotators.")],
    per_language: Annotated[int, typer.Option(help="Distractors sampled per language (paper: 200).")] = 200,
    seed: Annotated[int, typer.Option(help="Sampling seed.")] = 0,
) -> None:
    """Export a sample of distractors for a human check.

    A seeded random sample; annotators answer yes or no per criterion. For a rule run the sheet also names each distractor's rule and its automatic-check verdict, and
    the command prints the share passing and the mix of rules per language.
    """
    from clsd_generation.dataset.human_check import export_sample

    summary = export_sample(run_dir, sheet, per_language=per_language, seed=seed)
    typer.echo(", ".join(f"{code}: {n}" for code, n in summary.counts.items()) + f" distractors in {sheet}")
    for line in summary.lines():  # rule runs: the automatic checks and the mix of rules in the sample
        typer.echo(line)


@app.command("import-sample")
def import_sample_command(
    sheet: Annotated[Path, typer.Argument(help="The sheet from `clsd sample`, filled in (yes/no in each criterion column).")],
) -> None:
    """Report the share of checked distractors that pass.

    Those meeting all criteria in the filled-in sheet (the paper: over 98%).
    """
    from clsd_generation.dataset.human_check import import_sample

    report = import_sample(sheet)
    for code in report.judged:
        typer.echo(f"{code}: {report.meeting[code]} of {report.judged[code]} meet the criteria ({report.share(code):.1%})")
    typer.echo(f"all: {sum(report.meeting.values())} of {sum(report.judged.values())} ({report.share():.1%})")


if __name__ == "__main__":
    from clsd_format.console import run_cli

    run_cli(app, prog_name="python -m clsd_generation.cli")
