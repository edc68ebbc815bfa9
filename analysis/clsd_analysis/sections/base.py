"""The section protocol: one analysis of the report, holding its own options, writing its own part."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar

from clsd_analysis.report_context import ReportContext


class Section(ABC):
    """One numbered part of the report. A subclass is a frozen dataclass whose fields are the section's options.

    The report writes ``## <number>. <title>`` and then calls :meth:`write`, which adds the section's text,
    tables and figures through ``report.writer`` and may add lines to ``report.notes``.
    """

    title: ClassVar[str]

    @abstractmethod
    def write(self, report: ReportContext) -> None: ...
