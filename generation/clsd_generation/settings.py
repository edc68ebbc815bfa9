"""Settings of the generation steps and their defaults, written once for the library and the CLI.

Kept free of every heavy import (no tqdm, openai, torch, yaml), so that ``clsd generate --help`` and
``clsd translate --help`` can show these defaults without loading the backends.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from clsd_format.errors import CLSDError
from clsd_format.redaction import register_secret

DEFAULT_MAX_ATTEMPTS = 3  # answers asked per sentence before it is recorded as failed
DEFAULT_RULES_SEED = 0  # seed of the rule backend
DEFAULT_TRANSLATION_MODEL = "facebook/m2m100_1.2B"  # the paper's pivot model

DISTRACTORS_PER_SENTENCE = 4
# What happens to an answer (see clsd_generation.validation); part of the checkpoint fingerprint and the card.
VALIDATED = "validated"
PAPER = "paper"
PROTOCOLS = (VALIDATED, PAPER)


@dataclass(frozen=True)
class LLMSettings:
    """The OpenAI-compatible endpoint and how hard to try it; transport retries are the openai client's."""

    model: str
    base_url: str | None = None  # None: the openai client's default (OPENAI_BASE_URL or api.openai.com)
    api_key_env: str = "OPENAI_API_KEY"
    concurrency: int = 16
    timeout: float = 120.0  # seconds per request attempt
    max_retries: int = 6  # transport retries per request, done by the openai client

    def api_key(self) -> str:
        key = os.environ.get(self.api_key_env)
        if not key:
            raise CLSDError(
                f"environment variable {self.api_key_env} is not set. Put the API key there (a local server that "
                f"needs no key accepts any value, e.g. {self.api_key_env}=none), or name another variable with --api-key-env."
            )
        register_secret(key)  # redacted from every error line and log record from now on
        return key


@dataclass(frozen=True)
class ValidationBounds:
    """Which candidates count as distractors under the validated protocol; the paper protocol ignores the bounds.

    The defaults are measured on the released GPT-4 distractors (18,928, both languages): word-level
    Jaccard to the original (:func:`clsd_format.text_measures.jaccard`, the paper's tokenisation:
    lower-cased words of two or more characters) ranges 0.03-1.0 with 99.87% at or above 0.1, and
    length ratios 0.33-4.4 with 99.9% inside 0.5-2.0. So Jaccard 0.1-1.0 and length ratio 0.5-2.0
    keep what the paper's distractors look like and drop answers that are chatter or a different
    sentence altogether. Jaccard 1.0 stays allowed on purpose: reordering words ("the dog bit the
    man" / "the man bit the dog") changes the meaning and keeps every word.
    """

    min_jaccard: float = 0.1
    max_jaccard: float = 1.0
    min_length_ratio: float = 0.5
    max_length_ratio: float = 2.0
    needed: int = DISTRACTORS_PER_SENTENCE
    protocol: str = VALIDATED  # PAPER: keep the first four parsed items, no bounds

    def __post_init__(self) -> None:
        if self.protocol not in PROTOCOLS:
            raise CLSDError(f"unknown protocol {self.protocol!r}; use one of {', '.join(PROTOCOLS)}.")
        if not 0.0 <= self.min_jaccard <= self.max_jaccard <= 1.0:
            raise CLSDError(f"Jaccard bounds must satisfy 0 <= min <= max <= 1 (got {self.min_jaccard}, {self.max_jaccard}).")
        if not 0.0 < self.min_length_ratio <= 1.0 <= self.max_length_ratio:
            raise CLSDError(
                f"length-ratio bounds must satisfy 0 < min <= 1 <= max (got {self.min_length_ratio}, {self.max_length_ratio})."
            )
        if self.needed < 1:
            raise CLSDError("at least one distractor per sentence is needed.")


@dataclass(frozen=True)
class BatchSettings:
    """The OpenAI Batch API mode of the LLM backend."""

    poll_interval: float = 60.0  # seconds between status checks
    completion_window: str = "24h"
    extra_rounds: int = 2  # rounds beyond max_attempts, for requests that failed inside a batch


@dataclass(frozen=True)
class TranslationSettings:
    """The English pivot: an M2M-100 or NLLB model, by Hub name or local folder."""

    model: str = DEFAULT_TRANSLATION_MODEL
    batch_size: int = 16  # texts per forward pass
    num_beams: int | None = None  # None: the model's generation config (M2M-100: 5)
    max_new_tokens: int = 256
    device: str | None = None  # None: CUDA when available, else CPU
