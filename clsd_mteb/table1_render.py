"""Table 1 as text, and the helpers every table of the project is written with: Markdown, LaTeX (booktabs), terminal.

The paper's Table 1 (:class:`clsd_mteb.table1.Table1`): :func:`table1_rich` (what ``clsd evaluate`` prints on a
terminal), :func:`table1_markdown` (what it prints elsewhere, what a notebook shows of a run) and
:func:`table1_latex`; each task's Precision@1 (%) as "direct / pivot", the best value of each column in bold,
separately for each setting. The analysis writes its DataFrames with the same helpers
(:mod:`clsd_analysis.render`), so every table of a report looks alike.

Missing values (None/NaN) print as :data:`MISSING` in Markdown and ``--`` in LaTeX, so they can never be mistaken
for a zero. Neither pandas nor rich is imported at module level: ``clsd evaluate`` prints Table 1 in the base install.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import numpy as np

from clsd_mteb.alignment import HEADINGS, KINDS
from clsd_mteb.naming import DIRECT, short_task
from clsd_mteb.table1 import AVERAGE

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.table import Table as RichTable
    from rich.text import Text

    from clsd_mteb.table1 import Table1

MISSING = "—"
# What the ✓/✗ of the "Alignment" columns say (see clsd_analysis.alignment); the terminal table heads them with a letter.
ALIGNMENT_LEGEND = "Alignment columns: ✓ the model was trained with that kind of objective, ✗ it was not, blank: unknown."
TERMINAL_HEADINGS = {"cross_lingual": "X", "paraphrase": "P", "retrieval": "R"}
TERMINAL_LEGEND = (
    "X, P, R: trained with cross-lingual, paraphrase, retrieval objectives? ✓ yes, ✗ no, blank: unknown. Best values in bold."
)
TIED = "≈"
# What the ± and ≈ of a Table 1 with intervals say; printed under it in every form.
INTERVAL_LEGEND = (
    "± half the width of the 95% interval (Wilson per task, a bootstrap stratified by task for averages); "
    "bold: the column's best; ≈: not significantly below it (exact McNemar test on the same rows, Holm-adjusted, 5%)."
)
LATEX_MISSING = "--"
BOLD_SPAN = re.compile(r"\*\*(.+?)\*\*")  # Markdown **bold** inside a cell (marked words) becomes \textbf in LaTeX
_LATEX_SPECIALS = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "→": r"$\rightarrow$",
    "Δ": r"$\Delta$",
    "−": r"$-$",
    "±": r"$\pm$",
    "≈": r"$\approx$",
    "✓": r"\checkmark{}",
    "✗": r"$\times$",
}

Formatter = Callable[[Any], str]


def latex_escape(text: str) -> str:
    """``text`` with LaTeX's special characters (and the arrows, marks and signs of the tables) escaped."""
    return "".join(_LATEX_SPECIALS.get(ch, ch) for ch in text)


def is_missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def number(digits: int = 2) -> Formatter:
    """A cell formatter: ``digits`` decimals for floats, integers as they are, booleans as yes/no, missing as :data:`MISSING`."""

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


# Shared by both kinds of table.


def md_escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def md_table(header: list[str], rows: Iterable[list[str]]) -> str:
    """A pipe table, every cell escaped; no newline at the end."""
    lines = ["| " + " | ".join(md_escape(h) for h in header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(md_escape(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def latex_open(column_spec: str) -> list[str]:
    return [r"\begin{table}[t]", r"\centering", r"\small", rf"\begin{{tabular}}{{{column_spec}}}", r"\toprule"]


def latex_groups(groups: list[tuple[str, int]]) -> list[str]:
    """A heading row that spans each named group of columns (after the first column), with a \\cmidrule under each."""
    heads, rules, start = [""], [], 2
    for name, span in groups:
        heads.append(rf"\multicolumn{{{span}}}{{c}}{{{latex_escape(name)}}}" if name else "")
        if name:
            rules.append(rf"\cmidrule(lr){{{start}-{start + span - 1}}}")
        start += span
    return [" & ".join(heads) + r" \\", *([" ".join(rules)] if rules else [])]


def latex_close(caption: str | None, label: str | None) -> str:
    lines = [r"\bottomrule", r"\end{tabular}"]
    if caption:
        lines.append(rf"\caption{{{latex_escape(caption)}}}")
    if label:
        lines.append(rf"\label{{{label}}}")
    return "\n".join([*lines, r"\end{table}"]) + "\n"


def latex_row(cells: Iterable[str]) -> str:
    return " & ".join(cells) + r" \\"


# Table 1.


def _marks(table: Table1, model: str) -> list[str]:
    """The "Alignment" cells: ✓ trained so, ✗ not, blank unknown; none when no model of the table has an entry."""
    if not table.alignment:
        return []
    entry = table.alignment.get(model)
    return ["" if entry is None or entry.value(k) is None else ("✓" if entry.value(k) else "✗") for k in KINDS]


def _value(table: Table1, model: str, column: str, setting: str, *, bounds: bool = False) -> str:
    """A value as text: "88.1 ±1.7" (or "88.1 [86.4, 89.8]" with ``bounds``) given its interval, else two decimals."""
    value, interval = table.values[model].get((column, setting)), table.interval(model, column, setting)
    if value is None or interval is None:
        return DEFAULT_FORMAT(value)
    if bounds:
        return f"{value:.1f} [{interval.low:.1f}, {interval.high:.1f}]"
    return f"{value:.1f} ±{(interval.high - interval.low) / 2:.1f}"


def _scores(table: Table1, model: str, *, bounds: bool = False) -> list[list[tuple[str, bool]]]:
    """Per task column and the average: (value as text, is it the best) for each setting the column shows.

    A value not significantly below its column's best carries :data:`TIED`.
    """
    return [
        [
            (
                _value(table, model, column, s, bounds=bounds) + (f" {TIED}" if table.is_tied(model, column, s) else ""),
                table.is_best(model, column, s),
            )
            for s in table.settings_of(column)
        ]
        for column in [*table.columns, AVERAGE]
    ]


def _headings(table: Table1) -> list[str]:
    def label(column: str) -> str:
        settings = table.settings_of(column)
        name = AVERAGE if column == AVERAGE else short_task(column)
        return f"{name} ({' / '.join(settings)})" if settings != [DIRECT] else name

    return [*(HEADINGS[k] for k in KINDS if table.alignment), *(label(c) for c in [*table.columns, AVERAGE])]


def table1_markdown(table: Table1) -> str:
    """Table 1 as a Markdown pipe table (no newline at the end); best values in **bold**."""
    rows = [
        [model, *_marks(table, model), *(" / ".join(f"**{t}**" if best else t for t, best in c) for c in _scores(table, model))]
        for model in table.models
    ]
    return md_table(["model", *_headings(table)], rows)


def table1_rich(table: Table1, title: str | None = None) -> RenderableType:
    """Table 1 for a terminal; best values in bold (no Markdown marks), numbers right-aligned.

    The alignment columns are headed X, P, R: print :data:`TERMINAL_LEGEND` under the table when
    ``table.alignment`` is set. A narrow terminal folds the model names, never a number. With
    intervals, one block per setting, so that the release's tables fit 80 columns; print
    :data:`INTERVAL_LEGEND` under them.
    """
    from rich.console import Group

    if table.intervals:
        return Group(*(_rich_block(table, title, setting) for setting in table.settings_of(AVERAGE)))
    return _rich_table(table, title)


def _rich_frame(table: Table1, title: str | None) -> RichTable:
    """An empty terminal table: its title, the model column and the X, P, R alignment columns."""
    from rich import box
    from rich.table import Table as RichTable

    out = RichTable(title=title, box=box.SIMPLE_HEAD, padding=(0, 1, 0, 0), show_edge=False)
    out.add_column("model", overflow="fold", min_width=12)
    for kind in KINDS if table.alignment else ():
        out.add_column(TERMINAL_HEADINGS[kind], justify="center", no_wrap=True, min_width=1)
    return out


def _rich_cells(table: Table1, model: str, cells: list[list[tuple[str, bool]]]) -> list[Text]:
    from rich.text import Text

    row = [Text(model), *(Text(m) for m in _marks(table, model))]
    for cell in cells:
        text = Text()
        for i, (value, best) in enumerate(cell):
            text.append((" / " if i else "") + value, style="bold" if best else "")
        row.append(text)
    return row


def _rich_block(table: Table1, title: str | None, setting: str) -> RichTable:
    """One setting's values with their intervals: the task columns showing it, and its average."""
    columns = [c for c in [*table.columns, AVERAGE] if setting in table.settings_of(c)]
    out = _rich_frame(table, f"{title}, {setting}" if title else setting)
    for column in columns:
        out.add_column(AVERAGE if column == AVERAGE else short_task(column).replace(" ", "\n"), justify="right", no_wrap=True)
    everything = [*table.columns, AVERAGE]
    for model in table.models:
        cells = _scores(table, model)
        chosen = [
            [v for v, s in zip(cells[everything.index(c)], table.settings_of(c), strict=True) if s == setting] for c in columns
        ]
        out.add_row(*_rich_cells(table, model, chosen))
    return out


def _rich_table(table: Table1, title: str | None) -> RichTable:
    """Every setting of a column in one cell, "direct / pivot" (values without intervals are short enough)."""
    columns = [*table.columns, AVERAGE]
    shared = {tuple(table.settings_of(c)) for c in columns}  # one "direct / pivot" for all: said once, in the title
    settings = " / ".join(next(iter(shared))) if len(shared) == 1 else ""
    if title and settings:
        title = f"{title}, {settings}"
    out = _rich_frame(table, title)
    for column, heading in zip(columns, _headings(table)[len(KINDS) if table.alignment else 0 :], strict=True):
        name = AVERAGE if column == AVERAGE else short_task(column)
        out.add_column(name if settings else heading.replace(" (", "\n("), justify="right", no_wrap=True)
    for model in table.models:
        out.add_row(*_rich_cells(table, model, _scores(table, model)))
    return out


def table1_latex(table: Table1, caption: str = "Precision@1 (%), direct / pivot.", label: str = "tab:table1") -> str:
    """A booktabs table; best values in \\textbf, an "Alignment" group heading over the check marks."""
    n_align, n_scores = len(KINDS) if table.alignment else 0, len(table.columns) + 1
    lines = latex_open("l" + "c" * n_align + "r" * n_scores)
    if n_align:
        lines += latex_groups([("Alignment", n_align), ("Precision@1 (%)", n_scores)])
    lines += [latex_row(latex_escape(h) for h in ["model", *_headings(table)]), r"\midrule"]
    for model in table.models:
        numbers = [
            " / ".join(
                rf"\textbf{{{latex_escape(t)}}}" if best else (LATEX_MISSING if t == MISSING else latex_escape(t))
                for t, best in cell
            )
            for cell in _scores(table, model, bounds=True)
        ]
        lines.append(latex_row([latex_escape(model), *(latex_escape(m) for m in _marks(table, model)), *numbers]))
    return "\n".join(lines) + "\n" + latex_close(caption, label)
