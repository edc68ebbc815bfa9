"""``clsd analyze``: the analysis command (a typer app the top-level ``clsd`` command mounts)."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated, Optional

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
    return " ".join(shlex.quote(p) for p in parts)


@app.command()
def analyze(
    results_dir: Annotated[Path, typer.Argument(help="Folder written by `clsd evaluate --output` (holds results/ and predictions/).")],
    out: Annotated[Path, typer.Option("--out", help="Report folder to write (report.md, tables/, figures/).")],
    data_dir: Annotated[
        Optional[Path],
        typer.Option("--data-dir", envvar="CLSD_DATA_DIR", help="Folder with the release CSV/TSV files (or a Hub-format export), e.g. ../shared/data/clsd-release."),
    ] = None,
    dataset: Annotated[
        Optional[list[Path]], typer.Option("--dataset", help="Hub-format dataset folder of other CLSD tasks (repeatable).")
    ] = None,
    model: Annotated[
        Optional[list[str]], typer.Option("--model", help="NAME=PATH: a local copy of a model in the results (repeatable).")
    ] = None,
    pos_shift: Annotated[bool, typer.Option("--pos-shift/--no-pos-shift", help="Run the one-word-change analysis (needs the models).")] = True,
    stanza_dir: Annotated[Optional[Path], typer.Option("--stanza-dir", help="Folder with Stanza models (datasets without annotation files).")] = None,
    stanza_download: Annotated[bool, typer.Option("--stanza-download", help="Let Stanza download missing models.")] = False,
    cache_dir: Annotated[Optional[Path], typer.Option("--cache-dir", help="Embedding cache (default: $CLSD_CACHE_DIR/embeddings or ~/.cache/clsd_mteb/embeddings).")] = None,
    batch_size: Annotated[int, typer.Option("--batch-size", min=1)] = 32,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace an existing report in --out.")] = False,
) -> None:
    """Write a Markdown report with tables (Markdown, LaTeX, CSV) and figures (PNG, PDF) for RESULTS_DIR."""
    from clsd_analysis.report import AnalysisOptions, build_report

    try:
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
            command=_command_line(results_dir, out, data_dir, dataset, model, pos_shift, stanza_dir),
        )
        path = build_report(results_dir, out, options)
    except CLSDError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(code=2) from exc
    typer.echo(f"wrote {path}")


if __name__ == "__main__":
    app()
