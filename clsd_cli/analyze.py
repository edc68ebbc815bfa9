"""``clsd analyze``: tables, figures and the report from results folders, calling :mod:`clsd_analysis`.

The report's sections from other packages are read when the command runs (:mod:`clsd_analysis.sections`): a broken
one stops this command alone, in one line naming it, and leaves no partial report; ``--skip-failing-sections`` writes
the report without it.
"""

from __future__ import annotations

import shlex

import typer

from clsd_analysis.command_options import ExampleOptions, PosShiftOptions, ReportSources
from clsd_cli.declared import declared_command
from clsd_format.errors import CLSDError

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


def _check_choices(success_rule: str, pos_selection: str) -> None:
    """Typer takes these as plain strings (their help names the choices), so their values are checked here."""
    from clsd_analysis.annotations import SELECTIONS
    from clsd_analysis.edit_distance import SUCCESS_RULES

    if success_rule not in SUCCESS_RULES or pos_selection not in SELECTIONS:
        raise CLSDError(f"--success-rule is one of {', '.join(SUCCESS_RULES)}; --pos-selection one of {', '.join(SELECTIONS)}.")


@declared_command(app)
def analyze(ctx: typer.Context, sources: ReportSources, pos: PosShiftOptions, examples: ExampleOptions) -> None:
    """Write tables, figures and a report from results folders.

    A Markdown report with tables (Markdown, LaTeX, CSV) and figures (PNG, PDF), and the same report in one
    HTML file with a row explorer (report.html; opens from disk, no network).
    """
    from clsd_analysis.annotations import SELECTIONS
    from clsd_analysis.report import AnalysisOptions, build_report
    from clsd_analysis.sections import Comparison, Examples, PosShift, with_options
    from clsd_mteb.alignment import read_alignment_csv

    _check_choices(examples.success_rule, examples.pos_selection)
    alignment = read_alignment_csv(examples.alignment) if examples.alignment is not None else {}
    sections = with_options(
        Comparison(alignment=alignment),
        Examples(n=examples.examples, seed=examples.seed, rule=examples.success_rule),
        PosShift(
            enabled=pos.pos_shift,
            selection=SELECTIONS[examples.pos_selection],
            model_paths=_model_paths(list(pos.model)),
            stanza_dir=pos.stanza_dir,
            stanza_download=pos.stanza_download,
            cache_dir=pos.cache_dir,
            batch_size=pos.batch_size,
        ),
        skip_failing=sources.skip_failing_sections,
    )
    options = AnalysisOptions(
        data_dir=sources.data_dir,
        dataset_folders=list(sources.dataset),
        overwrite=sources.overwrite,
        command=quoted_command(ctx),
        focus=examples.focus,
        sections=sections,
        skip_failing_sections=sources.skip_failing_sections,
    )
    typer.echo(f"wrote {build_report(list(sources.results_dir), sources.out, options)}")
