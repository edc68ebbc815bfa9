"""``clsd judge``: a judge model reads each distractor by the paper's criteria; ``--against`` compares it with people.

Prints what :func:`clsd_generation.run.steps.judge` returns for the settings made from its options."""

from __future__ import annotations

from typing import Annotated

import typer

from clsd_cli.declared import Offered, declared_command
from clsd_cli.step_result import print_result
from clsd_format.declared_settings import OPTIONS
from clsd_generation.core.run_folder import RunFolder
from clsd_generation.llm.judge_settings import JudgeSettings
from clsd_generation.run.options import JudgeOptions

app = typer.Typer()
# The judge's endpoint, listed with the command's options, its model and token limit said as a judge's.
JUDGE = Offered(
    panel=OPTIONS,
    help={
        "model": "The judge LLM, as your endpoint names it.",
        "max_tokens": "Completion tokens per verdict.",
        "structured": "Ask for each verdict as JSON (response_format with a JSON schema); a server that refuses it is asked for text.",
    },
)


@declared_command(app)
def judge(folder: RunFolder, settings: Annotated[JudgeSettings, JUDGE], options: JudgeOptions) -> None:
    """Judge each distractor by the paper's criteria.

    Prints the judged valid share per language with a 95% Wilson interval. Three yes/no questions per distractor (fluent; a correct translation of the source, then invalid; a small edit of
    the target). Resumable: each verdict is stored as it arrives. `clsd build` writes the shares into the card.
    """
    from clsd_generation.run.steps import judge as judge_run

    print_result(judge_run(folder, settings, options))
