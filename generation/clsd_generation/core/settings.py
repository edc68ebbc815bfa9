"""Settings of the generation steps: defaults, validation and the options that set them, declared once.

Each field a ``clsd`` command offers is made with :func:`clsd_format.declared_settings.setting` (its help text and help
panel), and the command's options are made from these fields (:mod:`clsd_cli.declared`). Kept free of every heavy
import (no tqdm, openai, torch, yaml), so that ``clsd generate --help`` and ``clsd translate --help`` can show these
defaults without loading the backends.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from clsd_format.declared_settings import DeclaredSettings, option_name, setting
from clsd_format.errors import CLSDError
from clsd_format.redaction import register_secret

DEFAULT_MAX_ATTEMPTS = 3  # answers asked per sentence before it is recorded as failed
DEFAULT_RULES_SEED = 0  # seed of the rule backend
DEFAULT_TRANSLATION_MODEL = "facebook/m2m100_1.2B"  # the paper's pivot model

# Completion tokens one answer may use. The release's longest set of four distractors, written as a numbered list, is
# 933 tokens in SmolLM2's tokenizer (2,521 characters; median 214 tokens); GPT-4's tokenizer needs fewer for German
# and French. 2,048 is over twice the longest and ten times the median: room for chatter around the list, and a
# stop for an answer that runs on (one of SmolLM2's ran to 2,009 tokens).
DEFAULT_MAX_TOKENS = 2048

DISTRACTORS_PER_SENTENCE = 4
# What happens to an answer (see clsd_generation.checks.candidates); part of the checkpoint fingerprint and the card.
VALIDATED = "validated"
PAPER = "paper"
PROTOCOLS = (VALIDATED, PAPER)

# The help panels of `clsd generate --help`, in the order it lists them; each declared setting names its panel.
INPUT = "Input"
RUN = "Run folder"
BACKEND = "Backend and protocol"
LLM_ENDPOINT = "LLM backend: endpoint and sampling"
LLM_BATCH = "LLM backend: Batch API and request files"
CHECKS = "Checks of every distractor"
ANSWER_CHECKS = "Checks of LLM answers"
RULES_PANEL = "Rule backend"
GENERATE_PANELS = (INPUT, RUN, BACKEND, LLM_ENDPOINT, LLM_BATCH, CHECKS, ANSWER_CHECKS, RULES_PANEL)


@dataclass(frozen=True)
class LLMSettings(DeclaredSettings):
    """The OpenAI-compatible endpoint and how hard to try it; transport retries are the openai client's."""

    PANEL = LLM_ENDPOINT

    model: str = setting(
        "",
        help="LLM name, e.g. gpt-4-0613 (the paper's), or whatever your server calls its model.",
        fingerprint=True,
    )
    # None: the openai client's default (OPENAI_BASE_URL or api.openai.com)
    base_url: str | None = setting(
        None, help="OpenAI-compatible endpoint, e.g. http://localhost:8000/v1 for vLLM (default: OpenAI)."
    )
    api_key_env: str = setting("OPENAI_API_KEY", help="Environment variable holding the API key.")
    concurrency: int = setting(16, help="Requests in flight at once (live mode).", minimum=1)
    timeout: float = setting(120.0, help="Seconds before one request attempt is abandoned and retried.", minimum=0.001)
    max_retries: int = setting(  # transport retries per request, done by the openai client
        6,
        help="Retries per request on 429, 5xx, timeouts and dropped connections (backoff with jitter, Retry-After honoured).",
        minimum=0,
    )
    max_tokens: int = setting(  # completion tokens per answer; an answer cut there is asked again
        DEFAULT_MAX_TOKENS,
        help="Completion tokens per answer (default: over twice the release's longest set of four); a cut answer is asked again.",
        minimum=1,
        fingerprint=True,
    )
    structured: bool = setting(  # ask for the distractors as JSON through response_format (JSON schema)
        False,
        help="Ask for the four distractors as JSON (response_format with a JSON schema); a server that refuses it is asked for text.",
        flag="--structured",
        fingerprint=True,
    )
    # Models whose answers are read although they are not the model asked for (core.reading.answered_as_asked): a
    # provider's alias, the model behind an Azure deployment, or the file path a llama.cpp server names. Not part of the run's fingerprint: each attempt
    # records the model that answered it, and the card names them all.
    accepted_models: tuple[str, ...] = setting(
        (),
        help="Read the answers that name the model NAME although {--model} asked for another (repeatable). Without it, an "
        "answer naming another model than {--model} (or {--model} with a date or version added, or a vendor's prefix: "
        "openai/gpt-4o) is refused and asked again, and a run whose first answers all do stops before sending more.",
        panel=ANSWER_CHECKS,
        flag="--accept-answering-model",
        metavar="NAME",
    )

    def check(self) -> None:
        if any(not name.strip() for name in self.accepted_models):
            option = option_name(LLMSettings, "accepted_models")
            raise CLSDError(f"{option} needs a model name, as the answers name it (got an empty one).")

    def for_model(self, model: str, max_tokens: int) -> LLMSettings:
        """This endpoint asked for another model with another token limit (the pivot's translator), its key checked."""
        llm = replace(self, model=model, max_tokens=max_tokens)
        llm.api_key()
        return llm

    def api_key(self) -> str:
        key = os.environ.get(self.api_key_env)
        if not key:
            raise CLSDError(
                f"environment variable {self.api_key_env} is not set. Put the API key there (a local server that "
                f"needs no key accepts any value, e.g. {self.api_key_env}=none), or name another variable with "
                f"{option_name(LLMSettings, 'api_key_env')}."
            )
        register_secret(key)  # redacted from every error line and log record from now on
        return key


@dataclass(frozen=True)
class ReadingChecks(DeclaredSettings):
    """What a careful reader checks in an LLM's candidate (:mod:`clsd_generation.checks.answers`); not for rule-made ones.

    Measured on the released GPT-4 distractors (18,928; scripts/measure_answer_checks.py, docs/generation.md):
    the language check keeps all, the near-copy check all but 6, the invented-word check all but 19 (99.90%), the
    three together 99.87%. Under the paper protocol these are counted, not refused. Each check is one entry of
    :mod:`clsd_generation.checks.registry`; a check from another package keeps its settings in ``plugins``.
    """

    PANEL = ANSWER_CHECKS

    language: bool = setting(  # the candidate is in the target language (or in the language the original reads as)
        True,
        help="Refuse an LLM candidate that is not in the target language (py3langid; LLM answers only).",
        flag="--language-check/--no-language-check",
    )
    near_copy_edits: int = setting(  # the original up to this many character edits, no new real word: "same meaning"
        2,
        help="Refuse an LLM candidate this many character edits from the original with no new real word (0: off).",
        minimum=0,
    )
    max_unknown_share: float = setting(  # refused from this share of words the lexicon does not know (above 1: off)
        0.15,
        help="Refuse an LLM candidate from this share of words the language's lexicon does not know (wordfreq).",
    )
    max_unknown_lowercase: int = setting(  # refused from this many unknown words that start lower-case (0: off)
        2,
        help="Refuse an LLM candidate from this many unknown words that start lower-case (0: off).",
        minimum=0,
    )
    # "target:neighbour" in the language identifier's codes ("ru:bg"; checks.answers.accepted_neighbour reads
    # --accept-neighbour): a candidate the identifier names the neighbour passes the language check for that target.
    accepted_neighbours: tuple[str, ...] = setting(
        (),
        help="Let an LLM candidate the language identifier names NEIGHBOUR pass the language check for TARGET, e.g. ru:bg "
        "(repeatable). Without it, another language passes only as a close neighbour or within a margin measured on real text.",
        flag="--accept-neighbour",
        metavar="TARGET:NEIGHBOUR",
    )

    # The settings objects of the answer checks other packages register (clsd_generation.checks.registry), each a
    # frozen dataclass of that package's; empty unless such a check is installed (no option sets it directly).
    plugins: tuple[Any, ...] = ()

    def check(self) -> None:
        for spec in self.accepted_neighbours:
            if len(spec.split(":")) != 2 or not all(spec.split(":")):
                option = option_name(ReadingChecks, "accepted_neighbours")
                raise CLSDError(f"{option} {spec!r}: write TARGET:NEIGHBOUR, two language codes (e.g. ru:bg).")
        if not 0.0 < self.max_unknown_share:
            option = option_name(ReadingChecks, "max_unknown_share")
            raise CLSDError(f"{option} must be above 0 (got {self.max_unknown_share}).")


@dataclass(frozen=True)
class ValidationBounds(DeclaredSettings):
    """Which candidates count as distractors under the validated protocol; the paper protocol ignores the bounds.

    The defaults are measured on the released GPT-4 distractors (18,928, both languages): word-level
    Jaccard to the original (:func:`clsd_format.text_measures.jaccard`, the paper's tokenisation:
    lower-cased words of two or more characters) ranges 0.03-1.0 with 99.87% at or above 0.1, and
    length ratios 0.33-4.4 with 99.9% inside 0.5-2.0. So Jaccard 0.1-1.0 and length ratio 0.5-2.0
    keep what the paper's distractors look like and drop answers that are chatter or a different
    sentence altogether. Jaccard 1.0 stays allowed on purpose: reordering words ("the dog bit the
    man" / "the man bit the dog") changes the meaning and keeps every word.
    """

    PANEL = CHECKS

    min_jaccard: float = setting(0.1, help="Lowest word-level Jaccard similarity to the original a distractor may have.")
    max_jaccard: float = setting(1.0, help="Highest word-level Jaccard similarity (1.0 allows reordered words).")
    min_length_ratio: float = setting(0.5, help="Shortest distractor, as a share of the original's length in characters.")
    max_length_ratio: float = setting(2.0, help="Longest distractor, as a multiple of the original's length.")
    needed: int = DISTRACTORS_PER_SENTENCE
    protocol: str = setting(  # PAPER: keep the first four parsed items, no bounds
        VALIDATED,
        help="'validated': the checks below, re-asked until four are valid. 'paper': the paper's prompt and sampling, "
        "first four parsed items kept unchecked, re-asked only when unparseable (needs {--backend} llm).",
        panel=BACKEND,
        choices=PROTOCOLS,
    )
    reading: ReadingChecks = ReadingChecks()  # LLM answers only: the rules' edits have checks of their own

    def check(self) -> None:
        if not 0.0 <= self.min_jaccard <= self.max_jaccard <= 1.0:
            raise CLSDError(f"Jaccard bounds must satisfy 0 <= min <= max <= 1 (got {self.min_jaccard}, {self.max_jaccard}).")
        if not 0.0 < self.min_length_ratio <= 1.0 <= self.max_length_ratio:
            raise CLSDError(
                f"length-ratio bounds must satisfy 0 < min <= 1 <= max (got {self.min_length_ratio}, {self.max_length_ratio})."
            )
        if self.needed < 1:
            raise CLSDError("at least one distractor per sentence is needed.")


@dataclass(frozen=True)
class BatchSettings(DeclaredSettings):
    """The OpenAI Batch API mode of the LLM backend."""

    PANEL = LLM_BATCH

    poll_interval: float = setting(60.0, help="Seconds between Batch API status checks.")
    completion_window: str = "24h"
    extra_rounds: int = 2  # rounds beyond max_attempts, for requests that failed inside a batch
    # A round larger than either limit is sent as several batches. OpenAI's: 50,000 requests and 200 MB per input file.
    max_requests: int = setting(
        50_000,
        help="Requests per Batch API input file (OpenAI's limit); a larger round is sent as several batches.",
        flag="--batch-max-requests",
        minimum=1,
    )
    max_bytes: int = setting(
        200_000_000,
        help="Megabytes per Batch API input file (OpenAI's limit); a larger round is sent as several batches.",
        flag="--batch-max-mb",
        unit=1_000_000,
        minimum=1,
    )
    # A batch's answers are stored this many to a transaction as its output downloads: the client's memory is bounded
    # by it, not by the batch.
    answers_per_transaction: int = 1_000

    def check(self) -> None:
        if self.answers_per_transaction < 1:
            raise CLSDError("answers_per_transaction must be above 0.")


@dataclass(frozen=True)
class RequestFiles:
    """The LLM backend through files, for any batch engine (vllm run-batch, a Ray Data job, a batch service).

    ``requests_out``: where to write the requests of the sentences still short of four distractors;
    ``answers``: the engine's output file for the request file written before, read first.
    """

    PANEL = LLM_BATCH

    requests_out: Path | None = setting(
        None,
        help="Write the requests of the sentences still short of four distractors to FILE (OpenAI batch format: for "
        "vllm run-batch, a Ray Data job or a batch service) instead of sending them.",
        metavar="FILE",
    )
    answers: Path | None = setting(
        None,
        help="The engine's output file for the request file written before: its answers are judged as live ones "
        "(with {--requests_out}, the next round's requests are written after).",
        metavar="FILE",
    )


TRANSLATION_BACKENDS = ("m2m", "llm")


# Declarations of settings, shaped alike as every declared field is (a default, help, a check); none repeats another's logic.
@dataclass(frozen=True)
class TranslationSettings(DeclaredSettings):
    """The English pivot (``clsd translate``): an M2M-100 or NLLB model by Hub name or local folder, or (``backend``
    "llm") an LLM of an OpenAI-compatible endpoint, named by ``model``."""

    backend: str = setting(
        "m2m",
        help="'m2m': an M2M-100 or NLLB model (GPU advised). 'llm': any OpenAI-compatible endpoint, no GPU.",
        choices=TRANSLATION_BACKENDS,
    )
    model: str = setting(
        DEFAULT_TRANSLATION_MODEL,
        help="M2M-100 or NLLB model: Hub name or local folder (paper: facebook/m2m100_1.2B); with {--backend} llm, the LLM.",
        fingerprint=True,
    )
    batch_size: int = setting(16, help="Texts per forward pass.", minimum=1)
    # None: the model's generation config (M2M-100: 5)
    num_beams: int | None = setting(None, help="Beam size (default: the model's generation config).", minimum=1, fingerprint=True)
    max_new_tokens: int = setting(256, help="Longest translation, in tokens (both backends).", minimum=1, fingerprint=True)
    # None: CUDA when available, else CPU
    device: str | None = setting(None, help="cpu, cuda, cuda:1 ... (default: CUDA if available).")

    def check(self) -> None:
        if self.backend == "llm" and self.model == DEFAULT_TRANSLATION_MODEL:
            backend, model = option_name(TranslationSettings, "backend"), option_name(TranslationSettings, "model")
            raise CLSDError(f"{backend} llm needs {model}: the name your endpoint gives the LLM that translates.")
