"""``clsd analyze``: the analysis command (a typer app the top-level ``clsd`` command mounts)."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated

import typer

from clsd_format.errors import CLSDError

app = typer.Typer(help="Analyse CLSD results: tables, figures and a Markdown report.", no_args_is_help=True)


def _model_paths(values: list[str]) -> dict[str, str]:
    paths = {}
    for value in values:
        name, sep, path = value.partition("=")
        if not sep or not name or not path:
            raise CLSDError(f"--model expects NAME=PATH (e.g. intfloat/multilingual-e5-large=/models/e5-large), got {value!r}.")
        paths[name] = path
    return paths


@app.callback()
def _group() -> None:
    """Keep ``analyze`` a named subcommand when this app runs on its own (python -m clsd_analysis.cli)."""


def _command_line(
    results_dir: Path,
    out: Path,
    data_dir: Path | None,
    dataset: list[Path] | None,
    model: list[str] | None,
    pos_shift: bool,
    stanza_dir: Path | None,
    content_options: tuple[str, ...] = (),  # the other options that change the report, as typed
) -> str:
    """The command as the report quotes it: the options that change its content, not where caches live."""
    parts = ["clsd", "analyze", str(results_dir), "--out", str(out)]
    if data_dir is not None:
        parts += ["--data-dir", str(data_dir)]
    for folder in dataset or []:
        parts += ["--dataset", str(folder)]
    for mapping in model or []:
        parts += ["--model", mapping]
    if not pos_shift:
        parts.append("--no-pos-shift")
    if stanza_dir is not None:
        parts += ["--stanza-dir", str(stanza_dir)]
    parts += list(content_options)
    return " ".join(shlex.quote(p) for p in parts)


@app.command()
def analyze(
    results_dir: Annotated[
        Path, typer.Argument(help="Folder written by `clsd evaluate --output` (holds results/ and predictions/).")
    ],
    out: Annotated[Path, typer.Option("--out", help="Report folder to write (report.md, tables/, figures/).")],
    data_dir: Annotated[
        Path | None,
        typer.Option(
            "--data-dir",
            envvar="CLSD_DATA_DIR",
            help="Folder with the release CSV/TSV files (or a Hub-format export), e.g. ../shared/data/clsd-release.",
        ),
    ] = None,
    dataset: Annotated[
        list[Path] | None, typer.Option("--dataset", help="Hub-format dataset folder of other CLSD tasks (repeatable).")
    ] = None,
    model: Annotated[
        list[str] | None, typer.Option("--model", help="NAME=PATH: a local copy of a model in the results (repeatable).")
    ] = None,
    pos_shift: Annotated[
        bool, typer.Option("--pos-shift/--no-pos-shift", help="Run the one-word-change analysis (needs the models).")
    ] = True,
    stanza_dir: Annotated[
        Path | None, typer.Option("--stanza-dir", help="Folder with Stanza models (datasets without annotation files).")
    ] = None,
    stanza_download: Annotated[bool, typer.Option("--stanza-download", help="Let Stanza download missing models.")] = False,
    cache_dir: Annotated[
        Path | None,
        typer.Option(
            "--cache-dir", help="Embedding cache (default: $CLSD_CACHE_DIR/embeddings or ~/.cache/clsd_mteb/embeddings)."
        ),
    ] = None,
    batch_size: Annotated[int, typer.Option("--batch-size", min=1)] = 32,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace an existing report in --out.")] = False,
    alignment: Annotated[
        Path | None,
        typer.Option(
            "--alignment",
            help="CSV of Table 1's alignment marks: model,cross_lingual,paraphrase,retrieval[,source] (yes/no/empty).",
        ),
    ] = None,
    success_rule: Annotated[
        str,
        typer.Option("--success-rule", help="Successful distractors in the examples: 'top' (the paper's) or 'ties-or-beats'."),
    ] = "top",
    pos_selection: Annotated[
        str,
        typer.Option(
            "--pos-selection", help="Annotated one-word pairs used: 'paper' (closest to the paper's counts), 'swaps' or 'all'."
        ),
    ] = "paper",
    examples: Annotated[int, typer.Option("--examples", min=0, help="Successful-distractor examples to sample.")] = 10,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the example sample.")] = 0,
) -> None:
    """Write a Markdown report with tables (Markdown, LaTeX, CSV) and figures (PNG, PDF) for RESULTS_DIR."""
    from clsd_analysis.annotations import SELECTIONS
    from clsd_analysis.edit_distance import SUCCESS_RULES
    from clsd_analysis.report import AnalysisOptions, build_report
    from clsd_mteb.alignment import read_alignment_csv

    if success_rule not in SUCCESS_RULES or pos_selection not in SELECTIONS:
        raise CLSDError(f"--success-rule is one of {', '.join(SUCCESS_RULES)}; --pos-selection one of {', '.join(SELECTIONS)}.")
    content = ["--success-rule", success_rule, "--pos-selection", pos_selection, "--examples", str(examples), "--seed", str(seed)]
    content += ["--alignment", str(alignment)] if alignment is not None else []

    options = AnalysisOptions(
        data_dir=data_dir,
        dataset_folders=list(dataset or []),
        model_paths=_model_paths(list(model or [])),
        pos_shift=pos_shift,
        stanza_dir=stanza_dir,
        stanza_download=stanza_download,
        cache_dir=cache_dir,
        batch_size=batch_size,
        overwrite=overwrite,
        command=_command_line(results_dir, out, data_dir, dataset, model, pos_shift, stanza_dir, tuple(content)),
        alignment=read_alignment_csv(alignment) if alignment is not None else {},
        success_rule=success_rule,
        selection=SELECTIONS[pos_selection],
        examples=examples,
        seed=seed,
    )
    path = build_report(results_dir, out, options)
    typer.echo(f"wrote {path}")


if __name__ == "__main__":
    from clsd_format.console import run_cli

    run_cli(app, prog_name="python -m clsd_analysis.cli")
