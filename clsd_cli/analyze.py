"""``clsd analyze``: tables, figures and the report from results folders, printing what :func:`clsd_analysis.analyze`
returns (the answer, where the report is); the command computes nothing of its own.

The report's sections, clsd-mteb's and other packages', are read when the command runs (:mod:`clsd_analysis.sections`),
and each section's declared options are options of this command, made then (:class:`clsd_cli.declared.PluginOptionsCommand`):
a broken section stops this command alone, in one line, and leaves no partial report; ``--skip-failing-sections``
writes the report without it.
"""

from __future__ import annotations

import functools
import shlex
from collections.abc import Sequence

import typer

from clsd_analysis.command_options import ReportSources
from clsd_cli.declared import PluginOptionsCommand, declared_command
from clsd_format.declared_settings import DeclaredField, declared_fields

# rich_markup_mode=None: click's plain help, as `clsd` prints it (whole words wrapped at any width)
app = typer.Typer(
    help="Analyse CLSD results: tables, figures and a Markdown report.", no_args_is_help=True, rich_markup_mode=None
)

# Options that say where things are cached or how fast they run, not what the report holds: not quoted in it.
NOT_QUOTED = frozenset({"cache_dir", "batch_size", "overwrite", "stanza_download"})


def section_classes() -> list[type]:
    """The report's sections whose fields are options of this command: every one that can be loaded (one that cannot
    stops the report when it runs, unless ``--skip-failing-sections``)."""
    from clsd_analysis.sections import registered

    return list(registered(skip_failing=True))


def _names(item: DeclaredField) -> tuple[str, str]:
    """The option's name and, for an on/off flag, its off name ("" when it has none)."""
    flag = (item.declared.flag or f"--{item.path[-1].replace('_', '-')}").split(",")[0]
    on, _, off = flag.partition("/")
    return on, off


def quoted_command(settings: Sequence[object]) -> str:
    """The command as the report quotes it: every option that changes its content, as given or defaulted.

    Read from the declared fields of the command's settings objects (the sections' among them), so a new option is
    quoted without a line here.
    """
    parts = ["clsd", "analyze"]
    for given in settings:
        for item in declared_fields(type(given)):
            value = functools.reduce(getattr, item.path, given)
            if item.name in NOT_QUOTED or value is None or value == ():
                continue
            on, off = _names(item)
            if item.declared.argument:
                parts += [str(v) for v in (value if isinstance(value, tuple) else [value])]
            elif isinstance(value, bool):
                parts += [on if value else off] if value != item.default else []
            else:
                parts += [name for v in (value if isinstance(value, tuple) else [value]) for name in (on, str(v))]
    return " ".join(shlex.quote(p) for p in parts)


@declared_command(app, plugins=section_classes, cls=PluginOptionsCommand)
def analyze(sources: ReportSources, plugins: tuple[object, ...] = ()) -> None:
    """Write tables, figures and a report from results folders.

    A Markdown report with tables (Markdown, LaTeX, CSV) and figures (PNG, PDF), and the same report in one
    HTML file with a row explorer (report.html; opens from disk, no network).
    """
    from clsd_analysis.report import AnalysisOptions, analyze
    from clsd_analysis.sections import Section

    options = AnalysisOptions(
        data_dir=sources.data_dir,
        dataset_folders=list(sources.dataset),
        overwrite=sources.overwrite,
        command=quoted_command([sources, *plugins]),
        focus=sources.focus,
        sections=[section for section in plugins if isinstance(section, Section)],  # with the options given, in order
        skip_failing_sections=sources.skip_failing_sections,
    )
    for line in analyze(list(sources.results_dir), sources.out, options).lines():
        typer.echo(line)
