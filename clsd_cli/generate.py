"""``clsd generate``: four distractors per sentence of a parallel corpus, by LLM or by rule, resumable.

The command's options are the declared fields of :class:`clsd_generation.run.settings.GenerationSettings`
(:mod:`clsd_cli.declared`); it hands the settings, whole, to :func:`clsd_generation.run.steps.generate` and prints
what that returns. Its help lists the options by what they are for (:mod:`clsd_cli.help_panels`). The options of
answer checks from other packages are made when the command runs (:class:`clsd_cli.declared.PluginOptionsCommand`), so
a broken one stops this command alone, in one line. Nothing of the generator's heavy parts is imported before the
command runs, so ``clsd --help`` stays fast.
"""

from __future__ import annotations

import typer

from clsd_cli.declared import PluginOptionsCommand, declared_command
from clsd_cli.step_result import print_result
from clsd_generation.checks.registry import plugin_settings
from clsd_generation.core.settings import GENERATE_PANELS
from clsd_generation.run.settings import GenerationSettings

app = typer.Typer()


@declared_command(app, panels=GENERATE_PANELS, plugins=plugin_settings, cls=PluginOptionsCommand)
def generate(settings: GenerationSettings, plugins: tuple[object, ...] = ()) -> None:
    """Make four distractors per sentence of both languages.

    Resumable (every answer is stored in RUN_DIR/checkpoint.sqlite as it arrives): run the same command again after an interruption, even kill -9. A different input, model, prompt or rule setting is refused."""
    from clsd_generation.run.steps import generate as generate_run

    settings = settings.with_check_settings(plugins)  # the settings of answer checks other packages register
    print_result(generate_run(settings, announce=typer.echo))
