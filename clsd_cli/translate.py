"""``clsd translate``: a run's texts to English (the pivot setting), by M2M-100/NLLB or an LLM endpoint."""

from __future__ import annotations

from typing import Annotated

import typer

from clsd_cli.generation_options import (
    ApiKeyEnv,
    BaseUrl,
    Concurrency,
    MaxRetries,
    Quiet,
    RunDir,
    Timeout,
)
from clsd_format.errors import CLSDError
from clsd_generation.core.settings import LLMSettings, TranslationSettings

app = typer.Typer()

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
    LLM with a fixed prompt. Resumable: translations are stored as they come; run again to continue. Every stored
    translation is then checked as a translation of its source (no template shared across rows, the source's numbers
    kept, a length in proportion) and the share refused is printed per language. `clsd build` then adds the -pivot-en
    configs without the rows of refused translations, or none when more than half of a language's are refused.
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
