"""``clsd translate``: a run's texts to English (the pivot setting), by M2M-100/NLLB or an LLM endpoint.

Prints what :func:`clsd_generation.run.steps.translate` returns for the settings made from its options."""

from __future__ import annotations

from typing import Annotated

import typer

from clsd_cli.declared import Offered, declared_command
from clsd_cli.step_result import print_result
from clsd_format.declared_settings import OPTIONS
from clsd_generation.core.run_folder import RunFolder
from clsd_generation.core.settings import LLMSettings, TranslationSettings

app = typer.Typer()
# The endpoint's settings; the model and its token limit are the translation's own (--model, --max-new-tokens).
ENDPOINT = Offered(without=("model", "max_tokens", "structured"), panel=OPTIONS)


@declared_command(app)
def translate(folder: RunFolder, settings: TranslationSettings, endpoint: Annotated[LLMSettings, ENDPOINT]) -> None:
    """Translate a run's texts to English (the pivot setting).

    Every source, target and distractor, as in the paper's pivot setting, by M2M-100/NLLB or (--backend llm) by an
    LLM with a fixed prompt. Resumable: translations are stored as they come; run again to continue. Every stored
    translation is then checked as a translation of its source (no template shared across rows, the source's numbers
    kept, a length in proportion) and the share refused is printed per language. `clsd build` then adds the -pivot-en
    configs without the rows of refused translations, or none when more than half of a language's are refused.
    """
    from clsd_generation.run.steps import translate as translate_run

    print_result(translate_run(folder, settings, endpoint))
