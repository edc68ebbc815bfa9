"""Writing the analysis tables as Markdown, LaTeX (booktabs) and CSV.

Table 1 has its own renderer (:mod:`clsd_mteb.summary`, shared with ``clsd evaluate``); this module
takes its missing-value mark and LaTeX escaping from there, so every table of a report looks alike.
A table is a pandas DataFrame whose columns may be a two-level MultiIndex (group, column), plus an
optional set of (row, column) cells to set in bold. Missing values (NaN/None) print as an em dash in
Markdown and LaTeX and as an empty field in CSV, so they can never be mistaken for a zero.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from clsd_mteb.summary import MISSING, latex_escape

_BOLD_SPAN = re.compile(r"\*\*(.+?)\*\*")  # Markdown **bold** inside a cell (marked words) becomes \textbf in LaTeX

Formatter = Callable[[Any], str]


def is_missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def number(digits: int = 2) -> Formatter:
    def fmt(value: Any) -> str:
        if is_missing(value):
            return MISSING
        if isinstance(value, (bool, np.bool_)):
            return "yes" if value else "no"
        if isinstance(value, (int, np.integer)):
            return str(value)
        return f"{float(value):.{digits}f}"

    return fmt


DEFAULT_FORMAT = number()


def _cell(value: Any, fmt: Formatter) -> str:
    if is_missing(value):
        return MISSING
    if isinstance(value, str):
        return value
    return fmt(value)


def _rows(frame: pd.DataFrame) -> Iterator[tuple[Any, list[tuple[Any, Any]]]]:
    """(label, [(column, value)]) keeping each column's own dtype (iterrows would turn ints into floats)."""
    for i, label in enumerate(frame.index):
        yield label, [(column, frame.iat[i, j]) for j, column in enumerate(frame.columns)]


def _flat_columns(frame: pd.DataFrame) -> list[str]:
    if isinstance(frame.columns, pd.MultiIndex):
        return [" ".join(str(p) for p in col if str(p)) for col in frame.columns]
    return [str(c) for c in frame.columns]


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def to_markdown(
    frame: pd.DataFrame,
    fmt: Formatter = DEFAULT_FORMAT,
    bold: Iterable[tuple[Any, Any]] = (),
    index_name: str | None = None,
) -> str:
    bold = set(bold)
    header = [index_name or frame.index.name or "", *_flat_columns(frame)]
    lines = ["| " + " | ".join(_md_escape(h) for h in header) + " |", "|" + "---|" * len(header)]
    for label, row in _rows(frame):
        cells = [_md_escape(str(label))]
        for column, value in row:
            text = _md_escape(_cell(value, fmt))
            cells.append(f"**{text}**" if (label, column) in bold and not is_missing(value) else text)
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def to_latex(
    frame: pd.DataFrame,
    fmt: Formatter = DEFAULT_FORMAT,
    bold: Iterable[tuple[Any, Any]] = (),
    caption: str | None = None,
    label: str | None = None,
    index_name: str | None = None,
) -> str:
    """A booktabs table; a two-level header gets \\cmidrule'd group headings."""
    bold = set(bold)
    n = len(frame.columns)
    lines = [r"\begin{table}[t]", r"\centering", r"\small", r"\begin{tabular}{l" + "r" * n + "}", r"\toprule"]
    if isinstance(frame.columns, pd.MultiIndex):
        groups: list[tuple[str, int]] = []
        for top, *_ in frame.columns:
            if groups and groups[-1][0] == top:
                groups[-1] = (top, groups[-1][1] + 1)
            else:
                groups.append((top, 1))
        heads, rules, start = [""], [], 2
        for top, span in groups:
            heads.append(rf"\multicolumn{{{span}}}{{c}}{{{latex_escape(str(top))}}}" if top else "")
            if top:
                rules.append(rf"\cmidrule(lr){{{start}-{start + span - 1}}}")
            start += span
        lines.append(" & ".join(heads) + r" \\")
        if rules:
            lines.append(" ".join(rules))
        bottom = [str(col[-1]) for col in frame.columns]
    else:
        bottom = [str(c) for c in frame.columns]
    lines.append(" & ".join([latex_escape(index_name or frame.index.name or "")] + [latex_escape(b) for b in bottom]) + r" \\")
    lines.append(r"\midrule")
    for label_, row in _rows(frame):
        cells = [latex_escape(str(label_))]
        for column, value in row:
            text = _cell(value, fmt)
            text = "--" if text == MISSING else _BOLD_SPAN.sub(r"\\textbf{\1}", latex_escape(text))
            cells.append(rf"\textbf{{{text}}}" if (label_, column) in bold and not is_missing(value) else text)
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    if caption:
        lines.append(rf"\caption{{{latex_escape(caption)}}}")
    if label:
        lines.append(rf"\label{{{label}}}")
    lines.append(r"\end{table}")
    return "\n".join(lines) + "\n"


def write_csv(frame: pd.DataFrame, path: Path, index_name: str | None = None) -> None:
    """Full-precision values; missing stays an empty field."""
    out = frame.copy()
    out.columns = _flat_columns(frame)
    out.index.name = index_name or frame.index.name
    out.to_csv(path, na_rep="")
