"""Settings of the generation steps and their defaults, written once for the library and the CLI.

Kept free of every heavy import (no tqdm, openai, torch), so that ``clsd generate --help`` and
``clsd translate --help`` can show these defaults without loading the backends.
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_MAX_ATTEMPTS = 3  # answers asked per sentence before it is recorded as failed
DEFAULT_RULES_SEED = 0  # seed of the rule backend
DEFAULT_TRANSLATION_MODEL = "facebook/m2m100_1.2B"  # the paper's pivot model


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
