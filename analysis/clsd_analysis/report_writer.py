"""The report's files: Markdown collected in order, each table in three formats beside it, the figures.

Layout of a report folder::

    report.md                    the report; embeds the tables and figures below
    report.html                  the same report and a row explorer, in one self-contained file
    tables/<name>.md|.tex|.csv   each table as Markdown, LaTeX (booktabs) and CSV
    figures/<name>.png|.pdf      the figures
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from clsd_analysis import render
from clsd_analysis.tables import comparison_frame
from clsd_mteb import table1_render
from clsd_mteb.table1 import Table1

REPORT_FILE = "report.md"


class ReportWriter:
    """Collects Markdown and writes each table in three formats next to it."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.tables = out / "tables"
        self.figures = out / "figures"
        self.tables.mkdir(parents=True, exist_ok=True)
        self.parts: list[str] = []
        self.frames: dict[str, pd.DataFrame] = {}  # every table written, by name, as its CSV holds it

    def csv(self, name: str, frame: pd.DataFrame) -> None:
        """A table as CSV alone (``tables/<name>.csv``, without the index): one too long to show in the report."""
        frame.to_csv(self.tables / f"{name}.csv", index=False)
        self.frames[name] = frame

    def add(self, text: str) -> None:
        self.parts.append(text.rstrip() + "\n")

    def _files_line(self, name: str, caption: str) -> None:
        self.add(f"*{caption}* Files: [CSV](tables/{name}.csv), [LaTeX](tables/{name}.tex), [Markdown](tables/{name}.md).\n")

    def table(
        self,
        name: str,
        frame: pd.DataFrame,
        *,
        caption: str,
        fmt: render.Formatter = render.DEFAULT_FORMAT,
        bold: set | None = None,
        embed: bool = True,
        index_name: str | None = None,
        column_formats: Mapping[str, render.Formatter] | None = None,
    ) -> None:
        render.write_csv(frame, self.tables / f"{name}.csv", index_name=index_name)
        self.frames[name] = frame
        markdown = render.to_markdown(frame, fmt, bold or set(), index_name=index_name, column_formats=column_formats)
        (self.tables / f"{name}.md").write_text(markdown, encoding="utf-8")
        latex = render.to_latex(
            frame, fmt, bold or set(), caption=caption, label=f"tab:{name}", index_name=index_name, column_formats=column_formats
        )
        (self.tables / f"{name}.tex").write_text(latex, encoding="utf-8")
        if embed:
            self.add(markdown)
        self._files_line(name, caption)

    def table1(self, name: str, table: Table1, *, caption: str) -> None:
        """Table 1 as ``clsd evaluate`` prints it; the CSV holds the numbers per setting at full precision."""
        self.frames[name] = comparison_frame(table)
        render.write_csv(self.frames[name], self.tables / f"{name}.csv")
        markdown = table1_render.table1_markdown(table) + "\n"
        (self.tables / f"{name}.md").write_text(markdown, encoding="utf-8")
        latex = table1_render.table1_latex(table, caption=caption, label=f"tab:{name}")
        (self.tables / f"{name}.tex").write_text(latex, encoding="utf-8")
        self.add(markdown)
        self._files_line(name, caption)

    def figure(self, paths: list[Path], alt: str) -> None:
        if not paths:
            self.add(f"*(no figure: {alt} has no data)*\n")
            return
        png, pdf = paths
        self.add(f"![{alt}](figures/{png.name})\n\n[PDF](figures/{pdf.name})\n")

    @property
    def markdown(self) -> str:
        return "\n".join(self.parts)

    def write(self) -> Path:
        path = self.out / REPORT_FILE
        path.write_text(self.markdown, encoding="utf-8")
        return path
