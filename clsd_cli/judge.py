"""``clsd judge``: a judge model reads each distractor by the paper's criteria; ``--against`` compares it with people."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from clsd_cli.generation_options import (
    ApiKeyEnv,
    BaseUrl,
    Concurrency,
    MaxRetries,
    Quiet,
    RunDir,
    Structured,
    Timeout,
)
from clsd_format.errors import CLSDError
from clsd_generation.core.settings import DEFAULT_MAX_ATTEMPTS, LLMSettings

app = typer.Typer()


@app.command()
def judge(
    run_dir: RunDir,
    model: Annotated[str, typer.Option(help="The judge LLM, as your endpoint names it.")],
    base_url: BaseUrl = None,
    api_key_env: ApiKeyEnv = LLMSettings.api_key_env,
    concurrency: Concurrency = LLMSettings.concurrency,
    timeout: Timeout = LLMSettings.timeout,
    max_retries: MaxRetries = LLMSettings.max_retries,
    max_tokens: Annotated[int, typer.Option(help="Completion tokens per verdict.")] = 16,
    max_attempts: Annotated[
        int, typer.Option(help="Answers asked per question until it is yes or no; then 'unclear'.")
    ] = DEFAULT_MAX_ATTEMPTS,
    structured: Structured = False,
    sample: Annotated[
        int | None, typer.Option(help="Judge a seeded sample of N distractors per language (default: all).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Sampling seed.")] = 0,
    against: Annotated[
        Path | None,
        typer.Option(help="A sheet filled by annotators (`clsd check-sample`): report the judge's agreement with it."),
    ] = None,
    quiet: Quiet = False,
) -> None:
    """Judge each distractor by the paper's criteria.

    Prints the judged valid share per language with a 95% Wilson interval. Three yes/no questions per distractor (fluent; a correct translation of the source, then invalid; a small edit of
    the target). Resumable: each verdict is stored as it arrives. `clsd build` writes the shares into the card.
    """
    from clsd_generation.llm.judge import JudgeSettings, judge_run

    llm = LLMSettings(model, base_url, api_key_env, concurrency, timeout, max_retries, max_tokens, structured)
    llm.api_key()
    settings = JudgeSettings(llm, max_attempts)
    if against is not None:
        from clsd_generation.dataset.judge_calibration import calibrate

        for line in calibrate(run_dir, against, settings, progress=not quiet).lines():
            typer.echo(line)
        return
    share, asked, left = judge_run(run_dir, settings, per_language=sample, seed=seed, progress=not quiet)
    for line in share.lines(model):
        typer.echo(line)
    typer.echo(f"questions asked in this run: {asked}")
    if left:
        raise CLSDError(f"{left} question(s) are unanswered after retries; run the same command again to continue.")
