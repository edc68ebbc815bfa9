"""The analysis' tables as text: pandas DataFrames in Markdown, LaTeX (booktabs) and CSV, and Table 1's CSV.

A DataFrame's columns may be a two-level MultiIndex (group, column), with an optional set of (row, column) cells to
set in bold: :func:`to_markdown`, :func:`to_latex`, :func:`write_csv`. They are written with the helpers Table 1 is
written with (:mod:`clsd_mteb.table1_render`), so every table of a report looks alike; missing values print as
:data:`MISSING` in Markdown, ``--`` in LaTeX and an empty field in CSV. pandas is not imported here (a DataFrame is
only used through its methods).
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from clsd_format.html_text import LanguageText
from clsd_mteb.table1_render import (
    BOLD_SPAN,
    DEFAULT_FORMAT,
    LATEX_MISSING,
    MISSING,
    Formatter,
    is_missing,
    latex_close,
    latex_escape,
    latex_groups,
    latex_open,
    latex_row,
    md_table,
    number,
)

if TYPE_CHECKING:
    import pandas as pd

    from clsd_mteb.table1 import Table1

__all__ = ["DEFAULT_FORMAT", "MISSING", "Formatter", "is_missing", "number", "table1_csv", "to_latex", "to_markdown", "write_csv"]


def table1_csv(table: Table1) -> str:
    """Table 1's CSV (:func:`clsd_analysis.tables.comparison_frame`, full precision) as text; needs pandas."""
    from clsd_analysis.tables import comparison_frame

    buffer = io.StringIO()
    write_csv(comparison_frame(table), buffer)
    return buffer.getvalue()


def _cell(value: Any, fmt: Formatter) -> str:
    if is_missing(value):
        return MISSING
    if isinstance(value, str):
        return value
    return fmt(value)


def _markdown_cell(value: Any, fmt: Formatter) -> str:
    """A cell's Markdown: a text of the data (:class:`LanguageText`) in a span naming its language and direction."""
    return value.markdown() if isinstance(value, LanguageText) else _cell(value, fmt)


def _rows(frame: pd.DataFrame) -> Iterator[tuple[Any, list[tuple[Any, Any]]]]:
    """(label, [(column, value)]) keeping each column's own dtype (iterrows would turn ints into floats)."""
    for i, label in enumerate(frame.index):
        yield label, [(column, frame.iat[i, j]) for j, column in enumerate(frame.columns)]


def _two_level(frame: pd.DataFrame) -> bool:
    return frame.columns.nlevels > 1


def _flat_columns(frame: pd.DataFrame) -> list[str]:
    if _two_level(frame):
        return [" ".join(str(p) for p in col if str(p)) for col in frame.columns]
    return [str(c) for c in frame.columns]


def to_markdown(
    frame: pd.DataFrame,
    fmt: Formatter = DEFAULT_FORMAT,
    bold: Iterable[tuple[Any, Any]] = (),
    index_name: str | None = None,
    column_formats: Mapping[Any, Formatter] | None = None,
) -> str:
    """A Markdown pipe table ending in a newline; a two-level header is flattened to "group column".

    A :class:`clsd_format.html_text.LanguageText` cell is written in a span naming its language and direction.
    ``column_formats``: a formatter of its own for a column (e.g. p-values), ``fmt`` for the others.
    """
    bold = set(bold)
    own = column_formats or {}
    rows = []
    for label, row in _rows(frame):
        cells = [str(label)]
        for column, value in row:
            text = _markdown_cell(value, own.get(column, fmt))
            cells.append(f"**{text}**" if (label, column) in bold and not is_missing(value) else text)
        rows.append(cells)
    return md_table([index_name or frame.index.name or "", *_flat_columns(frame)], rows) + "\n"


def to_latex(
    frame: pd.DataFrame,
    fmt: Formatter = DEFAULT_FORMAT,
    bold: Iterable[tuple[Any, Any]] = (),
    caption: str | None = None,
    label: str | None = None,
    index_name: str | None = None,
    column_formats: Mapping[Any, Formatter] | None = None,
) -> str:
    """A booktabs table; a two-level header gets \\cmidrule'd group headings (``column_formats`` as in :func:`to_markdown`)."""
    bold = set(bold)
    own = column_formats or {}
    lines = latex_open("l" + "r" * len(frame.columns))
    if _two_level(frame):
        groups: list[tuple[str, int]] = []
        for top, *_ in frame.columns:
            if groups and groups[-1][0] == top:
                groups[-1] = (top, groups[-1][1] + 1)
            else:
                groups.append((top, 1))
        lines += latex_groups([(str(top), span) for top, span in groups])
        bottom = [str(col[-1]) for col in frame.columns]
    else:
        bottom = [str(c) for c in frame.columns]
    lines += [latex_row(latex_escape(h) for h in [index_name or frame.index.name or "", *bottom]), r"\midrule"]
    for label_, row in _rows(frame):
        cells = [latex_escape(str(label_))]
        for column, value in row:
            text = _cell(value, own.get(column, fmt))
            text = LATEX_MISSING if text == MISSING else BOLD_SPAN.sub(r"\\textbf{\1}", latex_escape(text))
            cells.append(rf"\textbf{{{text}}}" if (label_, column) in bold and not is_missing(value) else text)
        lines.append(latex_row(cells))
    return "\n".join(lines) + "\n" + latex_close(caption, label)


def write_csv(frame: pd.DataFrame, path: Path | IO[str], index_name: str | None = None) -> None:
    """Full-precision values; missing stays an empty field. ``path``: a file name or an open text stream."""
    out = frame.copy()
    out.columns = _flat_columns(frame)
    out.index.name = index_name or frame.index.name
    out.to_csv(path, na_rep="")
