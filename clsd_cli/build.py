"""``clsd build``: a generation run to a Hub-format dataset, its card measured by the plugin.

The command lives here rather than with the generator's other commands because the card's difficulty is
scored with the plugin's models (:mod:`clsd_mteb.difficulty_scores`) and the Hub's ``eval.yaml`` is written with the
plugin's tasks (:mod:`clsd_mteb.publishing.hub_eval`), and the generator does not import the plugin. It hands both to
:func:`clsd_generation.run.steps.build` and prints what that returns.
"""

from __future__ import annotations

import typer

from clsd_cli.declared import declared_command
from clsd_cli.step_result import print_result
from clsd_generation.dataset.options import BuildOptions

app = typer.Typer()


@declared_command(app)
def build(options: BuildOptions) -> None:
    """Write a run's dataset with its card, ready to evaluate.

    Both directions, plus the pivot configs when the run was translated (unless most translations are refused);
    then `clsd evaluate --data-dir OUT`.
    The card reports how hard the set is: P@1 of the character n-gram baseline and of the default model, beside
    their P@1 on the release. Beside it, eval.yaml declares the tasks for the Hub's leaderboards (mteb's format).
    """
    from clsd_generation.run.steps import build as build_run
    from clsd_mteb.difficulty_scores import difficulty_of
    from clsd_mteb.publishing.hub_eval import write_eval_config

    print_result(build_run(options, scorer=difficulty_of, add_files=write_eval_config))
