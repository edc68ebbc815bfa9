"""A report section from a package of its own: how many rows each task of the results has, with an option.

Added to ``clsd analyze``'s report through the entry point of its dist-info beside this folder, with no file of
clsd-mteb changed (tests/analysis/test_toy_section.py); its field made with ``setting`` is an option of
``clsd analyze`` (``--toy-unit``), its default written once, here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from clsd_analysis.sections import Section
from clsd_format.declared_settings import setting

if TYPE_CHECKING:
    from clsd_analysis.report_context import ReportContext


@dataclass(frozen=True)
class RowCount(Section):
    title = "Rows per task"
    unit: str = setting("rows", help="The word the toy section counts in.", flag="--toy-unit")

    def write(self, report: ReportContext) -> None:
        rows = {task: len(report.catalog.get(task).rows) for task in report.results.task_names}
        report.writer.add("".join(f"- {task}: {count} {self.unit}\n" for task, count in sorted(rows.items())))
