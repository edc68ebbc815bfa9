"""The section protocol: one analysis of the report, holding its own options, writing its own part.

Kept free of the analysis's heavy imports, as every section module is at its top: ``clsd analyze --help`` reads the
sections to show their options, and must answer at once.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, ClassVar

from clsd_format.declared_settings import DeclaredSettings

if TYPE_CHECKING:
    from clsd_analysis.report_context import ReportContext

__all__ = ["Section"]


class Section(DeclaredSettings, ABC):
    """One numbered part of the report. A subclass is a frozen dataclass whose fields are the section's options.

    A field made with :func:`clsd_format.declared_settings.setting` is also an option of ``clsd analyze`` (made when
    the command runs, a package's section's too), its default written once, on the field; its declared minimum and
    choices are checked when the section is built, naming the option, and :meth:`check` checks what they cannot. The
    report writes ``## <number>. <title>``, then ``intro`` (a paragraph that holds whatever the data and options are),
    then calls :meth:`write`, which adds the rest of the section's text, tables and figures through ``report.writer``
    and may add lines to ``report.notes``. ``order`` places a built-in section; a package's come after them, by
    entry-point name.
    """

    title: ClassVar[str]
    order: ClassVar[int] = 1000
    intro: ClassVar[str] = ""  # the paragraph under the heading, written before write's part ("": none)

    @abstractmethod
    def write(self, report: ReportContext) -> None: ...
