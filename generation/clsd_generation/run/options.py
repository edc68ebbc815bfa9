"""The settings of the generator's other commands (``translate``, ``judge``, ``build``), declared once.

Each is a frozen dataclass whose fields declare their ``clsd`` option (:mod:`clsd_format.declared_settings`); a
setting one of them shares with ``clsd generate`` (the run folder, the endpoint) is declared as that setting
(:func:`~clsd_format.declared_settings.same_as`), so its help, default and checks are written once. Each command is
made from its dataclass (:mod:`clsd_cli.declared`) and hands the library keyword-built settings, never positions.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from clsd_format.declared_settings import same_as, setting
from clsd_format.errors import CLSDError
from clsd_format.folders import folder_callback
from clsd_generation.core.settings import DEFAULT_MAX_ATTEMPTS, LLMSettings, TranslationSettings
from clsd_generation.run.settings import RunChoices

OPTIONS = "Options"
TRANSLATION_BACKENDS = ("m2m", "llm")


@dataclass(frozen=True)
class RunFolder:
    """The run folder a command reads (and adds to), and whether it shows progress bars."""

    run_dir: Path = same_as(RunChoices, "run_dir", panel=OPTIONS)
    quiet: bool = same_as(RunChoices, "quiet", panel=OPTIONS)


@dataclass(frozen=True)
class Endpoint:
    """An OpenAI-compatible endpoint as ``clsd translate --backend llm`` and ``clsd judge`` ask it."""

    base_url: str | None = same_as(LLMSettings, "base_url", panel=OPTIONS)
    api_key_env: str = same_as(LLMSettings, "api_key_env", panel=OPTIONS)
    concurrency: int = same_as(LLMSettings, "concurrency", panel=OPTIONS)
    timeout: float = same_as(LLMSettings, "timeout", panel=OPTIONS)
    max_retries: int = same_as(LLMSettings, "max_retries", panel=OPTIONS)
    accepted_models: tuple[str, ...] = same_as(LLMSettings, "accepted_models", panel=OPTIONS)

    def settings(self, model: str, **more: object) -> LLMSettings:
        """The endpoint's :class:`LLMSettings` for ``model`` (and ``more`` of its fields), the API key checked."""
        llm = LLMSettings(
            model=model,
            base_url=self.base_url,
            api_key_env=self.api_key_env,
            concurrency=self.concurrency,
            timeout=self.timeout,
            max_retries=self.max_retries,
            accepted_models=self.accepted_models,
            **more,  # type: ignore[arg-type]
        )
        llm.api_key()
        return llm


@dataclass(frozen=True)
class TranslateOptions:
    """``clsd translate``: the backend and model of the English pivot."""

    backend: str = setting(
        "m2m",
        help="'m2m': an M2M-100 or NLLB model (GPU advised). 'llm': any OpenAI-compatible endpoint, no GPU.",
        panel=OPTIONS,
    )
    model: str = setting(
        TranslationSettings.model,
        help="M2M-100 or NLLB model: Hub name or local folder (paper: facebook/m2m100_1.2B); with --backend llm, the LLM.",
        panel=OPTIONS,
    )
    batch_size: int = setting(TranslationSettings.batch_size, help="Texts per forward pass.", panel=OPTIONS)
    num_beams: int | None = setting(None, help="Beam size (default: the model's generation config).", panel=OPTIONS)
    max_new_tokens: int = setting(
        TranslationSettings.max_new_tokens, help="Longest translation, in tokens (both backends).", panel=OPTIONS
    )
    device: str | None = setting(None, help="cpu, cuda, cuda:1 ... (default: CUDA if available).", panel=OPTIONS)

    def __post_init__(self) -> None:
        if self.backend not in TRANSLATION_BACKENDS:
            raise CLSDError(f"unknown translation backend {self.backend!r}; use one of {', '.join(TRANSLATION_BACKENDS)}.")

    def translation(self) -> TranslationSettings:
        return TranslationSettings(
            model=self.model,
            batch_size=self.batch_size,
            num_beams=self.num_beams,
            max_new_tokens=self.max_new_tokens,
            device=self.device,
        )

    def llm(self, endpoint: Endpoint) -> LLMSettings | None:
        """The endpoint that translates with --backend llm (its model named, its key set); None for M2M-100/NLLB."""
        if self.backend != "llm":
            return None
        if self.model == TranslationSettings.model:
            raise CLSDError("--backend llm needs --model: the name your endpoint gives the LLM that translates.")
        return endpoint.settings(self.model, max_tokens=self.max_new_tokens)


@dataclass(frozen=True)
class JudgeOptions:
    """``clsd judge``: the judge model, how it is asked, which distractors, and the annotators' sheet to compare with."""

    model: str = setting(help="The judge LLM, as your endpoint names it.", panel=OPTIONS)
    max_tokens: int = setting(16, help="Completion tokens per verdict.", panel=OPTIONS)
    max_attempts: int = setting(
        DEFAULT_MAX_ATTEMPTS, help="Answers asked per question until it is yes or no; then 'unclear'.", panel=OPTIONS
    )
    structured: bool = same_as(LLMSettings, "structured", panel=OPTIONS)
    sample: int | None = setting(None, help="Judge a seeded sample of N distractors per language (default: all).", panel=OPTIONS)
    seed: int = setting(0, help="Sampling seed.", panel=OPTIONS)
    against: Path | None = setting(
        None, help="A sheet filled by annotators (`clsd check-sample`): report the judge's agreement with it.", panel=OPTIONS
    )


@dataclass(frozen=True)
class BuildOptions:
    """``clsd build``: the run, where its dataset goes, what its card says, and which sentences it keeps."""

    run_dir: Path = same_as(RunChoices, "run_dir", panel=OPTIONS)
    out: Path = setting(
        help="New folder for the Hub-format dataset (must not exist or be empty).",
        panel=OPTIONS,
        check=folder_callback("folder to write into", may_be_missing=True),
    )
    name: str = setting(help="Dataset name used in task names: CLSD-<NAME>-DE-FR.", panel=OPTIONS)
    license: str | None = setting(
        None, help="Licence of the dataset, a Hub licence id (cc-by-4.0, ...); default: not specified.", panel=OPTIONS
    )
    domain: tuple[str, ...] = setting((), help="mteb domain of the texts (News, Legal, ...); repeatable.", panel=OPTIONS)
    date_from: str | None = setting(None, help="Earliest date of the texts (ISO); default: generation dates.", panel=OPTIONS)
    date_to: str | None = setting(None, help="Latest date of the texts (ISO).", panel=OPTIONS)
    reference: str | None = setting(None, help="URL describing the corpus.", panel=OPTIONS)
    source_dataset: tuple[str, ...] = setting(
        (), help="Hub id of the corpus (owner/name), for the card; repeatable.", panel=OPTIONS
    )
    allow_incomplete: bool = setting(
        False, help="Build although some sentences are unfinished.", panel=OPTIONS, flag="--allow-incomplete"
    )
    drop_invalid: bool = setting(
        False,
        help="Leave out every sentence with a distractor `clsd judge` found invalid (the card counts them; unjudged ones stay).",
        panel=OPTIONS,
        flag="--drop-invalid",
    )
    no_score: bool = setting(
        False,
        help="Do not score the set for the card (character n-gram baseline and default model).",
        panel=OPTIONS,
        flag="--no-score",
    )
    keep_refused_translations: bool = setting(
        False,
        help="Build the pivot configs from every non-empty translation, also those refused as not translating their "
        "source (the card says so).",
        panel=OPTIONS,
        flag="--keep-refused-translations",
    )

    def __post_init__(self) -> None:
        if (self.date_from is None) != (self.date_to is None):
            raise CLSDError("give both --date-from and --date-to, or neither.")


__all__ = ["BuildOptions", "Endpoint", "JudgeOptions", "RunFolder", "TranslateOptions"]
