"""``clsd analyze``: tables, figures and the report from results folders, calling :mod:`clsd_analysis`."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated

import typer

from clsd_format.errors import CLSDError
from clsd_format.folders import folder_callback

# rich_markup_mode=None: click's plain help, as `clsd` prints it (whole words wrapped at any width)
app = typer.Typer(
    help="Analyse CLSD results: tables, figures and a Markdown report.", no_args_is_help=True, rich_markup_mode=None
)


def _model_paths(values: list[str]) -> dict[str, str]:
    paths = {}
    for value in values:
        name, sep, path = value.partition("=")
        if not sep or not name or not path:
            raise CLSDError(f"--model expects NAME=PATH (e.g. intfloat/multilingual-e5-large=/models/e5-large), got {value!r}.")
        paths[name] = path
    return paths


# Options that say where things are cached or how fast they run, not what the report holds: not quoted in it.
NOT_QUOTED = frozenset({"cache_dir", "batch_size", "overwrite", "stanza_download"})


def quoted_command(ctx: typer.Context) -> str:
    """The command as the report quotes it: every option that changes its content, as given or defaulted.

    Read from the command's own parameters, so a new option is quoted without a line here.
    """
    parts = ["clsd", "analyze"]
    for param in ctx.command.params:
        value = ctx.params.get(param.name or "")
        if param.name in NOT_QUOTED or value is None or value == [] or value == ():
            continue
        if param.param_type_name == "argument":
            parts += [str(v) for v in (value if isinstance(value, list | tuple) else [value])]
        elif getattr(param, "is_flag", False):
            if value != param.default:
                parts.append((param.opts if value else param.secondary_opts)[0])
        else:
            parts += [item for v in (value if param.multiple else [value]) for item in (param.opts[0], str(v))]
    return " ".join(shlex.quote(p) for p in parts)


# The options of ``analyze``, declared once here so that the command's signature stays readable.
ResultsDirArg = Annotated[
    list[Path],
    typer.Argument(
        callback=folder_callback("results folder"),
        help="Folder(s) written by `clsd evaluate --output` (each holds results/ and predictions/); several are read as one.",
    ),
]
OutOpt = Annotated[
    Path,
    typer.Option(
        "--out",
        callback=folder_callback("report folder", may_be_missing=True),
        help="Report folder to write (report.md, tables/, figures/).",
    ),
]
DataDirOpt = Annotated[
    Path | None,
    typer.Option(
        "--data-dir",
        envvar="CLSD_DATA_DIR",
        callback=folder_callback("data folder"),
        help="Folder with the release CSV/TSV files (or a Hub-format export). Default: the release as `clsd evaluate` fetches it.",
    ),
]
DatasetOpt = Annotated[
    list[Path] | None,
    typer.Option(
        "--dataset",
        callback=folder_callback("dataset folder"),
        help="Hub-format dataset folder of other CLSD tasks (repeatable).",
    ),
]
ModelOpt = Annotated[
    list[str] | None, typer.Option("--model", help="NAME=PATH: a local copy of a model in the results (repeatable).")
]
PosShiftOpt = Annotated[
    bool, typer.Option("--pos-shift/--no-pos-shift", help="Run the one-word-change analysis (needs the models).")
]
StanzaDirOpt = Annotated[
    Path | None,
    typer.Option(
        "--stanza-dir",
        callback=folder_callback("folder of Stanza models", may_be_missing=True),
        help="Folder with Stanza models (datasets without annotation files).",
    ),
]
StanzaDownloadOpt = Annotated[bool, typer.Option("--stanza-download", help="Let Stanza download missing models.")]
CacheDirOpt = Annotated[
    Path | None,
    typer.Option(
        "--cache-dir",
        callback=folder_callback("cache folder", may_be_missing=True),
        help="Embedding cache (default: $CLSD_CACHE_DIR/embeddings or ~/.cache/clsd_mteb/embeddings).",
    ),
]
BatchSizeOpt = Annotated[int, typer.Option("--batch-size", min=1)]
OverwriteOpt = Annotated[bool, typer.Option("--overwrite", help="Replace an existing report in --out.")]
AlignmentOpt = Annotated[
    Path | None,
    typer.Option(
        "--alignment",
        help="CSV of Table 1's alignment marks: model,cross_lingual,paraphrase,retrieval[,source] (yes/no/empty).",
    ),
]
SuccessRuleOpt = Annotated[
    str,
    typer.Option("--success-rule", help="Successful distractors in the examples: 'top' (the paper's) or 'ties-or-beats'."),
]
PosSelectionOpt = Annotated[
    str,
    typer.Option(
        "--pos-selection", help="Annotated one-word pairs used: 'paper' (closest to the paper's counts), 'swaps' or 'all'."
    ),
]
ExamplesOpt = Annotated[int, typer.Option("--examples", min=0, help="Successful-distractor examples to sample.")]
SeedOpt = Annotated[int, typer.Option("--seed", help="Seed of the example sample.")]
FocusOpt = Annotated[
    str | None,
    typer.Option("--focus", help="The model the report is about (its examples first). Default: the highest mean direct P@1."),
]


def _check_choices(success_rule: str, pos_selection: str) -> None:
    """Typer takes these as plain strings (their help names the choices), so their values are checked here."""
    from clsd_analysis.annotations import SELECTIONS
    from clsd_analysis.edit_distance import SUCCESS_RULES

    if success_rule not in SUCCESS_RULES or pos_selection not in SELECTIONS:
        raise CLSDError(f"--success-rule is one of {', '.join(SUCCESS_RULES)}; --pos-selection one of {', '.join(SELECTIONS)}.")


@app.command()
def analyze(
    ctx: typer.Context,
    results_dir: ResultsDirArg,
    out: OutOpt,
    data_dir: DataDirOpt = None,
    dataset: DatasetOpt = None,
    model: ModelOpt = None,
    pos_shift: PosShiftOpt = True,
    stanza_dir: StanzaDirOpt = None,
    stanza_download: StanzaDownloadOpt = False,
    cache_dir: CacheDirOpt = None,
    batch_size: BatchSizeOpt = 32,
    overwrite: OverwriteOpt = False,
    alignment: AlignmentOpt = None,
    success_rule: SuccessRuleOpt = "top",
    pos_selection: PosSelectionOpt = "paper",
    examples: ExamplesOpt = 10,
    seed: SeedOpt = 0,
    focus: FocusOpt = None,
) -> None:
    """Write tables, figures and a report from results folders.

    A Markdown report with tables (Markdown, LaTeX, CSV) and figures (PNG, PDF), and the same report in one
    HTML file with a row explorer (report.html; opens from disk, no network).
    """
    from clsd_analysis.alignment import read_alignment_csv
    from clsd_analysis.annotations import SELECTIONS
    from clsd_analysis.report import AnalysisOptions, build_report
    from clsd_analysis.sections import Comparison, Examples, PosShift, with_options

    _check_choices(success_rule, pos_selection)
    sections = with_options(
        Comparison(alignment=read_alignment_csv(alignment) if alignment is not None else {}),
        Examples(n=examples, seed=seed, rule=success_rule),
        PosShift(
            enabled=pos_shift,
            selection=SELECTIONS[pos_selection],
            model_paths=_model_paths(list(model or [])),
            stanza_dir=stanza_dir,
            stanza_download=stanza_download,
            cache_dir=cache_dir,
            batch_size=batch_size,
        ),
    )
    options = AnalysisOptions(
        data_dir=data_dir,
        dataset_folders=list(dataset or []),
        overwrite=overwrite,
        command=quoted_command(ctx),
        focus=focus,
        sections=sections,
    )
    typer.echo(f"wrote {build_report(results_dir, out, options)}")
