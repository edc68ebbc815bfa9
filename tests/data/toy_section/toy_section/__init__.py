"""A report section from a package of its own: how many rows each task of the results has.

Added to ``clsd analyze``'s report through the entry point of its dist-info beside this folder, with no file of
clsd-mteb changed (tests/analysis/test_toy_section.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from clsd_analysis.report_context import ReportContext
from clsd_analysis.sections import Section


@dataclass(frozen=True)
class RowCount(Section):
    title = "Rows per task"

    def write(self, report: ReportContext) -> None:
        rows = {task: len(report.catalog.get(task).rows) for task in report.results.task_names}
        report.writer.add("".join(f"- {task}: {count} rows\n" for task, count in sorted(rows.items())))
