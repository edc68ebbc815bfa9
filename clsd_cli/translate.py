"""``clsd translate``: a run's texts to English (the pivot setting), by M2M-100/NLLB or an LLM endpoint."""

from __future__ import annotations

import typer

from clsd_cli.declared import declared_command
from clsd_format.errors import CLSDError
from clsd_generation.run.options import Endpoint, RunFolder, TranslateOptions

app = typer.Typer()


@declared_command(app)
def translate(folder: RunFolder, options: TranslateOptions, endpoint: Endpoint) -> None:
    """Translate a run's texts to English (the pivot setting).

    Every source, target and distractor, as in the paper's pivot setting, by M2M-100/NLLB or (--backend llm) by an
    LLM with a fixed prompt. Resumable: translations are stored as they come; run again to continue. Every stored
    translation is then checked as a translation of its source (no template shared across rows, the source's numbers
    kept, a length in proportion) and the share refused is printed per language. `clsd build` then adds the -pivot-en
    configs without the rows of refused translations, or none when more than half of a language's are refused.
    """
    from clsd_generation.dataset.pivot import translate_run, untranslated_count
    from clsd_generation.llm.translate import pivot_refusal_lines

    llm = options.llm(endpoint)
    done = translate_run(folder.run_dir, options.translation(), progress=not folder.quiet, llm=llm)
    for code, count in done.items():
        typer.echo(f"{code}->en: {count} texts translated in this run")
    for line in pivot_refusal_lines(folder.run_dir):
        typer.echo(line)
    left = untranslated_count(folder.run_dir)
    if left:
        raise CLSDError(f"{left} text(s) are untranslated after retries; run the same command again to continue.")
