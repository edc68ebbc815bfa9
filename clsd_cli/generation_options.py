"""The options of the generator's commands (``generate``, ``translate``, ``judge``, ``check-sample``, ``build``), declared once.

Defaults come from :mod:`clsd_generation.core.settings` and :mod:`clsd_generation.llm.prompts`, so the help and the
code agree. Each option names the help panel it belongs to (:mod:`clsd_cli.help_panels`): ``clsd generate --help``
lists them by what they are for, each backend's apart.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from clsd_format.folders import folder_callback
from clsd_generation.rules.registry import DEFAULT_RULES, OPT_IN_RULES, RULES

INPUT = "Input"
RUN = "Run folder"
BACKEND = "Backend and protocol"
LLM_ENDPOINT = "LLM backend: endpoint and sampling"
LLM_BATCH = "LLM backend: Batch API and request files"
CHECKS = "Checks of every distractor"
ANSWER_CHECKS = "Checks of LLM answers"
RULES_PANEL = "Rule backend"

RunDir = Annotated[
    Path,
    typer.Option(
        "--run-dir",
        rich_help_panel=RUN,
        callback=folder_callback("run folder", may_be_missing=True),
        help="Folder holding the run's checkpoint (created if absent). Repeat a command with the same folder to resume.",
    ),
]
Quiet = Annotated[bool, typer.Option("--quiet", rich_help_panel=RUN, help="No progress bars.")]
InputSource = Annotated[
    str,
    typer.Argument(
        rich_help_panel=INPUT,
        help="Parallel sentences: a .csv/.tsv/.jsonl/.parquet file, a saved `datasets` folder, or a Hub dataset id (owner/name).",
    ),
]
SourceColumn = Annotated[str, typer.Option(rich_help_panel=INPUT, help="Column holding the first language's sentences.")]
TargetColumn = Annotated[str, typer.Option(rich_help_panel=INPUT, help="Column holding the second language's sentences.")]
SourceLang = Annotated[
    str,
    typer.Option(
        rich_help_panel=INPUT,
        help="First language: a code (de, fr, en, ...) or code:Name:mteb-code, e.g. 'gsw:Swiss German:gsw-Latn'.",
    ),
]
TargetLang = Annotated[str, typer.Option(rich_help_panel=INPUT, help="Second language, as --source-lang.")]
BackendName = Annotated[
    str,
    typer.Option(
        rich_help_panel=BACKEND,
        help="'rules': no LLM, no network; edits checked with offline taggers (de, fr, en). 'llm': any OpenAI-compatible endpoint.",
    ),
]
IdColumn = Annotated[
    str | None,
    typer.Option(rich_help_panel=INPUT, help="Column with a unique id per pair (default: row<N>, the data row number)."),
]
Split = Annotated[str, typer.Option(rich_help_panel=INPUT, help="Split of a datasets folder or Hub dataset.")]
HubConfig = Annotated[str | None, typer.Option(rich_help_panel=INPUT, help="Config of a Hub dataset.")]
Limit = Annotated[
    int | None,
    typer.Option(rich_help_panel=INPUT, help="Use only the first N rows (a trial run; part of the input fingerprint)."),
]
ModelName = Annotated[
    str | None,
    typer.Option(
        rich_help_panel=LLM_ENDPOINT, help="LLM name, e.g. gpt-4-0613 (the paper's), or whatever your server calls its model."
    ),
]
BaseUrl = Annotated[
    str | None,
    typer.Option(
        rich_help_panel=LLM_ENDPOINT, help="OpenAI-compatible endpoint, e.g. http://localhost:8000/v1 for vLLM (default: OpenAI)."
    ),
]
ApiKeyEnv = Annotated[str, typer.Option(rich_help_panel=LLM_ENDPOINT, help="Environment variable holding the API key.")]
PromptFile = Annotated[
    Path | None,
    typer.Option(
        rich_help_panel=LLM_ENDPOINT,
        help="YAML file of prompt templates: 'default' and/or per language code, with {language} and {sentence}. Default: the paper's prompt.",
    ),
]
Temperature = Annotated[float, typer.Option(rich_help_panel=LLM_ENDPOINT, help="Sampling temperature (paper: 1.0).")]
TopP = Annotated[float, typer.Option(rich_help_panel=LLM_ENDPOINT, help="Nucleus sampling (paper: 1.0).")]
Concurrency = Annotated[int, typer.Option(rich_help_panel=LLM_ENDPOINT, help="Requests in flight at once (live mode).")]
Timeout = Annotated[
    float, typer.Option(rich_help_panel=LLM_ENDPOINT, help="Seconds before one request attempt is abandoned and retried.")
]
MaxRetries = Annotated[
    int,
    typer.Option(
        rich_help_panel=LLM_ENDPOINT,
        help="Retries per request on 429, 5xx, timeouts and dropped connections (backoff with jitter, Retry-After honoured).",
    ),
]
MaxAttempts = Annotated[
    int,
    typer.Option(
        rich_help_panel=BACKEND,
        help="Answers asked per sentence until four distractors are valid; then it is recorded as failed.",
    ),
]
UseBatch = Annotated[
    bool,
    typer.Option(
        "--batch",
        rich_help_panel=LLM_BATCH,
        help="Use the OpenAI Batch API (cheaper, answers within 24 h) instead of live requests.",
    ),
]
PollInterval = Annotated[float, typer.Option(rich_help_panel=LLM_BATCH, help="Seconds between Batch API status checks.")]
BatchMaxRequests = Annotated[
    int,
    typer.Option(
        rich_help_panel=LLM_BATCH,
        help="Requests per Batch API input file (OpenAI's limit); a larger round is sent as several batches.",
    ),
]
BatchMaxMb = Annotated[
    float,
    typer.Option(
        rich_help_panel=LLM_BATCH,
        help="Megabytes per Batch API input file (OpenAI's limit); a larger round is sent as several batches.",
    ),
]
RequestsOut = Annotated[
    Path | None,
    typer.Option(
        "--requests-out",
        rich_help_panel=LLM_BATCH,
        metavar="FILE",
        help="Write the requests of the sentences still short of four distractors to FILE (OpenAI batch format: for "
        "vllm run-batch, a Ray Data job or a batch service) instead of sending them.",
    ),
]
AnswersFile = Annotated[
    Path | None,
    typer.Option(
        "--answers",
        rich_help_panel=LLM_BATCH,
        metavar="FILE",
        help="The engine's output file for the request file written before: its answers are judged as live ones "
        "(with --requests-out, the next round's requests are written after).",
    ),
]
MinJaccard = Annotated[
    float,
    typer.Option(rich_help_panel=CHECKS, help="Lowest word-level Jaccard similarity to the original a distractor may have."),
]
MaxJaccard = Annotated[
    float, typer.Option(rich_help_panel=CHECKS, help="Highest word-level Jaccard similarity (1.0 allows reordered words).")
]
MinLengthRatio = Annotated[
    float, typer.Option(rich_help_panel=CHECKS, help="Shortest distractor, as a share of the original's length in characters.")
]
MaxLengthRatio = Annotated[
    float, typer.Option(rich_help_panel=CHECKS, help="Longest distractor, as a multiple of the original's length.")
]
ProtocolName = Annotated[
    str,
    typer.Option(
        rich_help_panel=BACKEND,
        help="'validated': the checks below, re-asked until four are valid. 'paper': the paper's prompt and sampling, "
        "first four parsed items kept unchecked, re-asked only when unparseable (needs --backend llm).",
    ),
]
MaxTokens = Annotated[
    int,
    typer.Option(
        rich_help_panel=LLM_ENDPOINT,
        help="Completion tokens per answer (default: over twice the release's longest set of four); a cut answer is asked again.",
    ),
]
Structured = Annotated[
    bool,
    typer.Option(
        "--structured",
        rich_help_panel=LLM_ENDPOINT,
        help="Ask for the four distractors as JSON (response_format with a JSON schema); a server that refuses it is asked for text.",
    ),
]
LanguageCheck = Annotated[
    bool,
    typer.Option(
        rich_help_panel=ANSWER_CHECKS,
        help="Refuse an LLM candidate that is not in the target language (py3langid; LLM answers only).",
    ),
]
NearCopyEdits = Annotated[
    int,
    typer.Option(
        rich_help_panel=ANSWER_CHECKS,
        help="Refuse an LLM candidate this many character edits from the original with no new real word (0: off).",
    ),
]
MaxUnknownShare = Annotated[
    float,
    typer.Option(
        rich_help_panel=ANSWER_CHECKS,
        help="Refuse an LLM candidate from this share of words the language's lexicon does not know (wordfreq).",
    ),
]
MaxUnknownLowercase = Annotated[
    int,
    typer.Option(
        rich_help_panel=ANSWER_CHECKS, help="Refuse an LLM candidate from this many unknown words that start lower-case (0: off)."
    ),
]
AcceptNeighbour = Annotated[
    list[str] | None,
    typer.Option(
        "--accept-neighbour",
        rich_help_panel=ANSWER_CHECKS,
        metavar="TARGET:NEIGHBOUR",
        help="Let an LLM candidate the language identifier names NEIGHBOUR pass the language check for TARGET, e.g. ru:bg "
        "(repeatable). Without it, another language passes only as a close neighbour or within a margin measured on real text.",
    ),
]
AcceptAnsweringModel = Annotated[
    list[str] | None,
    typer.Option(
        "--accept-answering-model",
        rich_help_panel=ANSWER_CHECKS,
        metavar="NAME",
        help="Read the answers that name the model NAME although --model asked for another (repeatable). Without it, an "
        "answer naming another model than --model (or --model with a date or version added) is refused and asked again.",
    ),
]
RulesSeed = Annotated[int, typer.Option(rich_help_panel=RULES_PANEL, help="Seed of the rule backend.")]
RunAnyway = Annotated[
    bool,
    typer.Option(
        "--run-anyway",
        rich_help_panel=RULES_PANEL,
        help="Run the rules on every sentence although they would give no sentence of a language its distractors, "
        "measured on its first 200 still to do (without it such a run stops there, exit status 2, saying why).",
    ),
]
RuleNames = Annotated[
    str,
    typer.Option(
        "--rules",
        rich_help_panel=RULES_PANEL,
        metavar="NAME[,NAME...]|all",
        help=f"Rules of the rule backend: {'; '.join(f'{r.name} ({r.description})' for r in RULES)}; or 'all'. "
        f"Default: {', '.join(DEFAULT_RULES)}; {', '.join(OPT_IN_RULES)} are opt-in (read strictly, too few of their "
        "distractors were valid; see docs/generation.md).",
    ),
]
