"""``clsd generate``: four distractors per sentence of a parallel corpus, by LLM or by rule, resumable.

The command's options are the declared fields of :class:`clsd_generation.run.settings.GenerationSettings`
(:mod:`clsd_cli.declared`); it hands the settings to :func:`clsd_generation.run.generate.generate_distractors`, the
backend chosen by them (:mod:`clsd_generation.run.backends`). Its help lists the options by what they are for
(:mod:`clsd_cli.help_panels`). The options of answer checks from other packages are made when the command runs
(:class:`clsd_cli.declared.PluginOptionsCommand`), so a broken one stops this command alone, in one line. Nothing of the generator's heavy parts is imported before the command runs, so
``clsd --help`` stays fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from clsd_cli.declared import PluginOptionsCommand, declared_command
from clsd_format.errors import CLSDError
from clsd_generation.checks.registry import plugin_settings
from clsd_generation.core.settings import GENERATE_PANELS
from clsd_generation.run.settings import GenerationSettings

if TYPE_CHECKING:
    from pathlib import Path

    from clsd_format.languages import Language
    from clsd_generation.core.inputs import ParallelCorpus
    from clsd_generation.core.summary import RunReport
    from clsd_generation.run.settings import CorpusInput

app = typer.Typer()


@declared_command(app, panels=GENERATE_PANELS, plugins=plugin_settings, cls=PluginOptionsCommand)
def generate(settings: GenerationSettings, plugins: tuple[object, ...] = ()) -> None:
    """Make four distractors per sentence of both languages.

    Resumable (every answer is stored in RUN_DIR/checkpoint.sqlite as it arrives): run the same command again after an interruption, even kill -9. A different input, model, prompt or rule setting is refused."""
    from clsd_generation.run.generate import RunOptions, generate_distractors

    settings = settings.with_check_settings(plugins)  # the settings of answer checks other packages register
    prompts = settings.prompts()
    languages = settings.input.languages()
    bounds = settings.checked_bounds(languages)
    backend = settings.backend(prompts)
    corpus = _read_corpus(settings.input, languages)
    run = settings.run
    options = RunOptions(max_attempts=run.max_attempts, progress=not run.quiet, announce=typer.echo)
    _print_outcome(generate_distractors(corpus, languages, run.run_dir, backend, bounds, options), run.run_dir)


def _read_corpus(source: CorpusInput, languages: tuple[Language, Language]) -> ParallelCorpus:
    """The corpus, each column's letters checked against its language's script before anything is asked (refused,
    or one warning line each)."""
    from clsd_generation.core.inputs import check_scripts  # here, not at the top: `clsd --help` stays fast

    corpus = source.read()
    for line in check_scripts(corpus, languages):
        typer.echo(line, err=True)
    return corpus


def _print_outcome(report: RunReport, run_dir: Path) -> None:
    """The run report, then the next step. A run stopped because its first answers named another model, unfinished
    sentences and a run folder with nothing to build make the command fail (exit status 2), so that scripts stop there."""
    for line in report.lines():
        typer.echo(line)
    if report.stopped:
        raise CLSDError(report.stopped)
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
    if report.without_distractors():  # `clsd build` would refuse: a direction needs distractors in its target language
        raise CLSDError(report.nothing_made())
    typer.echo(f"next: clsd build --run-dir {run_dir} --out <folder> --name <NAME>")
