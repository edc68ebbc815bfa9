"""``clsd judge``: a judge model reads each distractor by the paper's criteria; ``--against`` compares it with people."""

from __future__ import annotations

import typer

from clsd_cli.declared import declared_command
from clsd_format.errors import CLSDError
from clsd_generation.run.options import Endpoint, JudgeOptions, RunFolder

app = typer.Typer()


@declared_command(app)
def judge(folder: RunFolder, options: JudgeOptions, endpoint: Endpoint) -> None:
    """Judge each distractor by the paper's criteria.

    Prints the judged valid share per language with a 95% Wilson interval. Three yes/no questions per distractor (fluent; a correct translation of the source, then invalid; a small edit of
    the target). Resumable: each verdict is stored as it arrives. `clsd build` writes the shares into the card.
    """
    from clsd_generation.llm.judge import JudgeSettings, judge_run

    llm = endpoint.settings(options.model, max_tokens=options.max_tokens, structured=options.structured)
    settings = JudgeSettings(llm=llm, max_attempts=options.max_attempts)
    if options.against is not None:
        from clsd_generation.dataset.judge_calibration import calibrate

        for line in calibrate(folder.run_dir, options.against, settings, progress=not folder.quiet).lines():
            typer.echo(line)
        return
    share, asked, left = judge_run(
        folder.run_dir, settings, per_language=options.sample, seed=options.seed, progress=not folder.quiet
    )
    for line in share.lines(options.model):
        typer.echo(line)
    typer.echo(f"questions asked in this run: {asked}")
    if left:
        raise CLSDError(f"{left} question(s) are unanswered after retries; run the same command again to continue.")
