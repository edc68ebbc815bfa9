"""The judge's settings, declared once (``clsd judge`` is made from them), kept free of the judge's imports.

:class:`JudgeSettings` nests the endpoint's :class:`~clsd_generation.core.settings.LLMSettings` with the judge's own
token limit, so that ``clsd judge --help`` reads them without loading the client (tqdm, openai).
"""

from __future__ import annotations

from dataclasses import dataclass

from clsd_format.declared_settings import DeclaredSettings, option_name, setting
from clsd_format.errors import CLSDError
from clsd_generation.core.settings import DEFAULT_MAX_ATTEMPTS, LLM_ENDPOINT, LLMSettings

JUDGE_MAX_TOKENS = 16  # a verdict is a word (or a one-key JSON object); more would only pay for chatter


@dataclass(frozen=True)
class JudgeSettings(DeclaredSettings):
    """The judge's endpoint and model (``clsd judge`` offers its fields) and how it is asked; all but the transport
    settings are bound to the run."""

    llm: LLMSettings = LLMSettings(max_tokens=JUDGE_MAX_TOKENS)
    max_attempts: int = setting(  # answers asked per question before it is recorded as unclear
        DEFAULT_MAX_ATTEMPTS,
        help="Answers asked per question until it is yes or no; then 'unclear'.",
        panel=LLM_ENDPOINT,
        minimum=1,
        fingerprint=True,
    )

    def check(self) -> None:
        if not self.llm.model:
            raise CLSDError(f"the judge needs {option_name(LLMSettings, 'model')}: the judge LLM, as your endpoint names it.")


__all__ = ["JUDGE_MAX_TOKENS", "JudgeSettings"]
