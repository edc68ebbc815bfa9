"""``clsd analyze``: every analysis over one results folder (or several read as one), written as a report with its files.

The report is a list of sections (:mod:`clsd_analysis.sections`), each an object holding its own
options; the report numbers them in order, and every section reads the shared results, texts and
computed tables through one :class:`~clsd_analysis.report_context.ReportContext`. Besides ``report.md``
and its tables and figures (:mod:`clsd_analysis.report_writer`), ``report.html`` holds the same report
and a row explorer in one file (:mod:`clsd_analysis.html_report`).

An existing report is never replaced silently: a folder holding ``report.md`` is refused unless
``overwrite`` is set. The report is written in a staging folder beside its target and moved in place once every
section has written (:func:`clsd_format.files.staged_folder`): a section that fails (another package's raising, one
line naming it) leaves no half-written report, and the target as it was. Asked to go on without a failing section
(``skip_failing_sections``), the report keeps its heading with the one line of why it is missing, and its notes
name it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from clsd_analysis.command_options import ReportSources
from clsd_analysis.report_context import ReportContext
from clsd_analysis.report_writer import REPORT_FILE, ReportWriter
from clsd_analysis.results import ResultsFolder, load_results
from clsd_analysis.sections import Section, default_sections, refused, registered, write_section
from clsd_analysis.task_data import TaskCatalog
from clsd_format.declared_settings import option_name
from clsd_format.errors import CLSDError
from clsd_format.files import staged_folder
from clsd_mteb.evaluation import ANSWER_HEADING, CLSDRun
from clsd_mteb.source_record import RecordedSource, SourceKey
from clsd_mteb.trials import whole_task_revision

if TYPE_CHECKING:
    import pandas as pd

HTML_FILE = "report.html"
# What a report is made from: results folders (as `clsd evaluate --output` writes them) or runs (each read from its folder).
Results = str | Path | CLSDRun | Sequence[str | Path | CLSDRun]


class ReportExists(CLSDError):
    """The report folder already holds a report."""


@dataclass
class AnalysisOptions:
    """What the whole report shares; each section's own options live on its object in ``sections``."""

    data_dir: str | Path | None = None
    dataset_folders: Sequence[str | Path] = ()
    overwrite: bool = False
    command: str | None = None  # the command line, quoted in the report
    focus: str | None = None  # the model the report is about (its examples first); None: the best
    html: bool = True  # also write report.html
    sections: Sequence[Section] = field(default_factory=default_sections)
    skip_failing_sections: bool = False  # a section that fails is left out, its heading saying why; else nothing is written


@dataclass(frozen=True)
class Report:
    """What :func:`analyze` made of the results: the answer, the tables, and the files it wrote.

    ``answer``: the lines the report opens with, computed by :mod:`clsd_mteb.answer` from the same Table 1 and paired
    tests as ``clsd evaluate`` and :meth:`clsd_mteb.CLSDRun.answer` (the same lines, the same marks); empty when the
    results offer no choice. ``tables``: every table of the report by name, as a frame holding what its CSV holds
    (``comparison`` is Table 1). ``files``: every file written, under ``folder``.
    """

    folder: Path
    answer: tuple[str, ...]
    tables: Mapping[str, pd.DataFrame]
    files: tuple[Path, ...]

    @property
    def markdown(self) -> Path:
        """``report.md``."""
        return self.folder / REPORT_FILE

    def lines(self) -> list[str]:
        """What ``clsd analyze`` prints: the answer under the heading ``clsd evaluate`` gives it, then where the report is."""
        answer = [f"{ANSWER_HEADING}", *(f"- {line}" for line in self.answer), ""] if self.answer else []
        return [*answer, f"wrote {self.markdown}"]


def _check_target(out: Path, overwrite: bool) -> None:
    out_option = option_name(ReportSources, "out")
    if (out / REPORT_FILE).exists() and not overwrite:
        raise ReportExists(
            f"{out / REPORT_FILE} already exists; choose another {out_option} folder or pass "
            f"{option_name(ReportSources, 'overwrite')} to replace the report."
        )
    if out.exists() and not out.is_dir():
        raise CLSDError(f"{out_option} {out} exists and is not a folder.")


def _title(report: ReportContext, options: AnalysisOptions) -> None:
    """The title and what a reader must know before the answer: trials are not the tasks' scores."""
    writer, results = report.writer, report.results
    writer.add("# CLSD analysis report\n")
    if results.trials:
        trials = "; ".join(f"`{run.name}` on `{task}`: first {rows} rows" for (run, task), rows in sorted(results.trials.items()))
        writer.add(f"**Trials, not the tasks' scores:** these results cover only the first rows of their task ({trials}).\n")
    if options.html:
        writer.add(
            f"The same report with a row explorer (the rows a model got wrong, their distractors and edit types): [{HTML_FILE}]({HTML_FILE}).\n"
        )


def _header(report: ReportContext, options: AnalysisOptions) -> None:
    """What the report was made from, after the answer: the command, the folders, the models and their labels, the tasks."""
    writer, results = report.writer, report.results
    writer.add("## What this report read\n")
    if options.command:
        writer.add(f"Produced by:\n\n```\n{options.command}\n```\n")
    key = "\n".join(
        f"| {report.styles[label].short} | `{run.name}` | `{run.revision}` |"
        for run, label in zip(results.runs, report.labels, strict=True)
    )
    folders = ", ".join(f"`{root}`" for root in results.roots or [results.root])
    writer.add(
        f"Results folder{'s' if len(results.roots) > 1 else ''}: {folders}. Models, with the short labels the figures use:\n"
    )
    writer.add(f"| label | model | revision |\n|---|---|---|\n{key}\n")
    focus = option_name(ReportSources, "focus")
    chosen = f"chosen with `{focus}`" if options.focus else f"the highest mean direct P@1; `{focus} MODEL` chooses another"
    writer.add(f"The report is about `{report.focus}` ({chosen}): its examples come first.\n")
    writer.add(f"Tasks: {', '.join(f'`{t}`' for t in results.task_names)}.\n")


def _check_texts_found(catalog: TaskCatalog, task_names: Sequence[str]) -> None:
    """Stop before anything is written when the texts of a task cannot be found: a report without them says little."""
    missing = catalog.unlocated(task_names)
    if missing:
        raise CLSDError(
            f"the results hold task(s) of a dataset other than the CLSD release ({', '.join(missing)}) and do not say "
            "where its rows are (or the folder they name is gone): pass the dataset's Hub-format folder with "
            f"{option_name(ReportSources, 'dataset')} FOLDER"
        )


def answer_lines(report: ReportContext) -> list[str]:
    """The report's opening answer (:mod:`clsd_mteb.answer`), from the same tables as section 1, opening with who
    made the distractors of the data (the lines ``clsd evaluate`` and :meth:`clsd_mteb.CLSDRun.answer` open with)."""
    from clsd_analysis.tables import comparison_table
    from clsd_mteb.answer import answer_lines as lines_of
    from clsd_mteb.comparisons import mark_ties
    from clsd_mteb.table1 import mark_untrained

    table = comparison_table(report.results)
    mark_ties(table, report.comparisons, report.left_out)
    mark_untrained(table, _untrained(report.results))
    lines = lines_of(table, report.pivot_tests, report.pivot_left_out, report.catalog.pivot_not_built())
    lines = [*report.catalog.origins(report.results.task_names), *lines] if lines else lines
    if report.left_out:
        lines.append(
            f"{len(report.left_out)} pair(s) of results are not compared: they are not on the same rows of the same data "
            "(a trial, or another dataset of the same name); section 1 and the notes say which and why."
        )
    return lines


def _write_answer(report: ReportContext, lines: Sequence[str]) -> None:
    """The answer under its heading, the report's first part."""
    if lines:
        report.writer.add("## The answer\n")
        report.writer.add(
            "Which model for each direction, directly and through the English pivot, with its 95% interval, the rows it "
            "rests on and the P@1 of guessing, and which models the rows cannot tell from it (exact McNemar test on the "
            "same rows, Holm-adjusted, 5%); then, per direction, whether the English pivot helps (pivot − direct on the "
            "same rows, exact McNemar test at 5%, its interval the test inverted), and over all sets. Section 1 holds "
            "every number.\n"
        )
        report.writer.add("\n".join(f"- {line}" for line in lines) + "\n")


def _untrained(results: ResultsFolder) -> dict[str, dict[str, list[str]]]:
    """By display label: the tasks holding a language each model declares no training in, read from the results' files."""
    from clsd_mteb.model_languages import untrained_in_results

    by_name = untrained_in_results(results.roots or [results.root])
    return {results.label(run): by_name.get(run.name, {}) for run in results.runs}


def _recorded_sources(results: ResultsFolder) -> dict[SourceKey, RecordedSource]:
    """What ``clsd evaluate`` recorded of the data sources in every folder read (the first folder's entry of a key wins)."""
    found: dict[SourceKey, RecordedSource] = {}
    for root in reversed(results.roots or [results.root]):
        found.update(results.recorded_sources(root))
    return found


def _result_revisions(results: ResultsFolder) -> dict[str, set[str]]:
    """Per task: the dataset revisions of the whole task the results were computed on (a trial's cut aside)."""
    found: dict[str, set[str]] = {}
    for (_, task), revision in results.dataset_revisions.items():
        found.setdefault(task, set()).add(whole_task_revision(revision))
    return found


def _failure_line(exc: Exception) -> str:
    """A failed section's one line: the user's error as it is (a plug-in's names it), any other with its type."""
    return str(exc) if isinstance(exc, CLSDError) else f"{type(exc).__name__}: {exc}"


def _sections(report: ReportContext, options: AnalysisOptions, show_progress_bar: bool) -> None:
    """Each section under its numbered heading; one that fails stops the report, or with ``skip_failing_sections``
    leaves its heading with why it is missing (what it had added taken back) and a note."""
    from tqdm.auto import tqdm

    bar = tqdm(options.sections, desc="CLSD report", unit="section", disable=not show_progress_bar, leave=False)
    for number, section in enumerate(bar, start=1):
        report.writer.add(f"## {number}. {section.title}\n")
        written = len(report.writer.parts)
        try:
            write_section(section, report)
        except Exception as exc:
            if not options.skip_failing_sections:
                raise
            del report.writer.parts[written:]
            line = _failure_line(exc)
            skip = option_name(ReportSources, "skip_failing_sections")
            report.writer.add(f"*This section failed and is left out (`{skip}`): {line}*\n")
            report.notes.append(f"Section {number} ({section.title}) failed and is left out: {line}")
    if options.skip_failing_sections:
        report.notes += [f"A report section of another package is left out: {exc}" for exc in refused()]


def _folders(results: Results) -> list[Path]:
    """The results folders to read: each one given, or the folder each run was written to."""
    given = [results] if isinstance(results, str | Path | CLSDRun) else list(results)
    return [Path(item.output if isinstance(item, CLSDRun) else item) for item in given]


def analyze(
    results: Results, out: str | Path, options: AnalysisOptions | None = None, *, show_progress_bar: bool = True
) -> Report:
    """Every section over the results, written as a report in ``out``: what ``clsd analyze`` runs and prints.

    ``results``: a results folder of ``clsd evaluate --output`` or :func:`clsd_mteb.evaluate`, a
    :class:`clsd_mteb.CLSDRun`, or a list of these, read as one. Written in a staging folder beside ``out`` and moved
    in place at the end: a failure leaves ``out`` as it was. A bar over the sections on stderr unless
    ``show_progress_bar`` is False; nothing is printed to stdout.
    """
    options = options or AnalysisOptions()
    out = Path(out)
    _check_target(out, options.overwrite)
    if not options.skip_failing_sections:
        registered()  # a section of another package that cannot be used stops the report here, in one line
    results_folder = load_results(_folders(results))
    catalog = TaskCatalog(
        options.data_dir, options.dataset_folders, _recorded_sources(results_folder), _result_revisions(results_folder)
    )
    _check_texts_found(catalog, results_folder.task_names)
    with staged_folder(out) as staging:
        report = ReportContext(
            results=results_folder,
            catalog=catalog,
            writer=ReportWriter(staging),
            data_dir=options.data_dir,
            focus_request=options.focus,
            notes=[f"Skipped file {s}" for s in results_folder.skipped],
        )
        answer = answer_lines(report)
        _write_report(report, options, answer, show_progress_bar)
        written = tuple(sorted(out / path.relative_to(staging) for path in staging.rglob("*") if path.is_file()))
    return Report(folder=out, answer=tuple(answer), tables=dict(report.writer.frames), files=written)


def _write_report(report: ReportContext, options: AnalysisOptions, answer: Sequence[str], show_progress_bar: bool) -> None:
    """The report's parts in order, then its files: the title, the answer, what was read, the sections, the notes."""
    _title(report, options)
    _write_answer(report, answer)  # the report opens on the answer
    _header(report, options)
    _sections(report, options, show_progress_bar)
    report.notes += [f"Task `{name}`: {why}" for name, why in report.catalog.problems.items()]
    if report.notes:
        report.writer.add("## Notes\n")
        report.writer.add("\n".join(f"- {n}" for n in report.notes) + "\n")
    report.writer.write()
    if options.html:
        from clsd_analysis.html_report import write_html_report

        write_html_report(report, report.writer.out / HTML_FILE)
