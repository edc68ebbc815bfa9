"""The options of ``clsd analyze`` the whole report shares, declared once: where the results are, where the report
goes, and whom it is about.

A frozen dataclass whose fields declare their option (:mod:`clsd_format.declared_settings`); ``clsd analyze`` is made
from it (:mod:`clsd_cli.declared`). Each section declares its own options on its own class
(:mod:`clsd_analysis.sections`). Kept free of the analysis's heavy imports, so that ``clsd analyze --help`` answers
at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from clsd_format.declared_settings import option_name, setting
from clsd_format.evaluation_settings import EvaluationSettings
from clsd_format.folders import folder_callback
from clsd_format.release import DATA_DIR_ENV


@dataclass(frozen=True)
class ReportSources:
    """The results read, the data their rows come from, where the report goes, and whom it is about."""

    results_dir: tuple[Path, ...] = setting(
        help=f"Folder(s) written by `clsd evaluate {option_name(EvaluationSettings, 'output')}` (each holds results/ and "
        "predictions/); several are read as one.",
        argument=True,
        check=folder_callback("results folder"),
    )
    out: Path = setting(
        help="Report folder to write (report.md, tables/, figures/).",
        check=folder_callback("report folder", may_be_missing=True),
    )
    data_dir: Path | None = setting(
        None,
        help="Folder with the release CSV/TSV files (or a Hub-format export). Default: the release as `clsd evaluate` fetches it.",
        envvar=DATA_DIR_ENV,
        check=folder_callback("data folder"),
    )
    dataset: tuple[Path, ...] = setting(
        (),
        help="Hub-format dataset folder of other CLSD tasks (repeatable).",
        check=folder_callback("dataset folder"),
    )
    overwrite: bool = setting(False, help="Replace an existing report in {--out}.", flag="--overwrite")
    skip_failing_sections: bool = setting(
        False,
        help="Write the report without a section that fails (a package's that raises or cannot be loaded): its "
        "heading and the notes say which and why. Without it, a failing section stops the report and nothing is written.",
        flag="--skip-failing-sections",
    )
    focus: str | None = setting(
        None,
        help="The model the report is about (its examples first). Default: the highest mean direct P@1.",
    )


__all__ = ["ReportSources"]
