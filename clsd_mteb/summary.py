"""The paper's Table 1, built and rendered in one place (Markdown for the terminal and reports, LaTeX for papers).

Per model: the "Alignment" check marks (cross-lingual, paraphrase, retrieval training; blank when
unknown, see :mod:`clsd_mteb.alignment`), then each task's Precision@1 (%) as "direct / pivot" (a
released task and its ``-PivotEN`` twin share a column; a task without a twin gets a plain column),
then the averages. As in the paper, the best value of each column is in bold, separately for the
direct and the pivot block. An average is only given when the model has every task of its block
(an average over a subset would compare models on different data), and a missing result prints as
:data:`MISSING`, never as 0.

``clsd evaluate`` prints it through :func:`table1_markdown`; ``clsd analyze`` writes it through
:func:`table1_markdown` and :func:`table1_latex` with the per-setting numbers of :attr:`Table1.values`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from clsd_mteb.alignment import HEADINGS, KINDS, Alignment, alignment_for
from clsd_mteb.naming import DIRECT, short_task, split_pivot

MISSING = "—"
AVERAGE = "average"
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
    "✓": r"\checkmark{}",
    "✗": r"$\times$",
}


def latex_escape(text: str) -> str:
    return "".join(_LATEX_SPECIALS.get(ch, ch) for ch in text)


@dataclass
class Table1:
    """Precision@1 in percent per (model, column, setting); column is a direct task name or :data:`AVERAGE`."""

    models: list[str]
    columns: list[str]  # direct task names, in first-seen order
    settings: list[str]  # "direct", then e.g. "pivot EN"
    values: dict[str, dict[tuple[str, str], float | None]]
    alignment: dict[str, Alignment] = field(default_factory=dict)

    def settings_of(self, column: str) -> list[str]:
        """The settings a column shows: the ones some model has a result for (all, for the average)."""
        if column == AVERAGE:
            return [s for s in self.settings if any(s in self.settings_of(c) for c in self.columns)]
        return [s for s in self.settings if any(self.values[m].get((column, s)) is not None for m in self.models)] or [DIRECT]

    def best(self, column: str, setting: str) -> float | None:
        """The column's top value; None below two models with a value (a lone value is not "best" of anything)."""
        found = [v for m in self.models if (v := self.values[m].get((column, setting))) is not None]
        return max(found) if len(found) > 1 else None

    def is_best(self, model: str, column: str, setting: str) -> bool:
        value, top = self.values[model].get((column, setting)), self.best(column, setting)
        return value is not None and top is not None and math.isclose(value, top, abs_tol=1e-9)


def build_table1(scores: Mapping[str, Mapping[str, float | None]], alignment: Mapping[str, Alignment] | None = None) -> Table1:
    """``scores``: {model: {task name: precision_at_1 in 0-1}}; ``alignment``: user entries over the built-in ones."""
    columns: list[str] = []
    settings = [DIRECT]
    values: dict[str, dict[tuple[str, str], float | None]] = {}
    for model, per_task in scores.items():
        values[model] = {}
        for task, score in per_task.items():
            base, language = split_pivot(task)
            setting = DIRECT if language is None else f"pivot {language}"
            if base not in columns:
                columns.append(base)
            if setting not in settings:
                settings.append(setting)
            values[model][(base, setting)] = None if score is None else 100.0 * float(score)
    settings = [DIRECT, *sorted(s for s in settings if s != DIRECT)]
    table = Table1(list(scores), columns, settings, values, alignment_for(list(scores), alignment))
    for model in table.models:
        for setting in settings:
            block = [c for c in columns if setting in table.settings_of(c)]
            found = [values[model].get((c, setting)) for c in block]
            complete = bool(found) and all(v is not None for v in found)
            values[model][(AVERAGE, setting)] = sum(found) / len(found) if complete else None  # type: ignore[arg-type]
    return table


def _number(value: float | None) -> str:
    return MISSING if value is None else f"{value:.2f}"


def _cells(table: Table1, model: str, bold: tuple[str, str]) -> list[str]:
    """Alignment marks, then one "direct / pivot" cell per column and the average; ``bold`` wraps the best values."""
    cells = []
    if table.alignment:
        entry = table.alignment.get(model)
        cells += ["" if entry is None or entry.value(k) is None else ("✓" if entry.value(k) else "✗") for k in KINDS]
    for column in [*table.columns, AVERAGE]:
        parts = []
        for setting in table.settings_of(column):
            text = _number(table.values[model].get((column, setting)))
            parts.append(f"{bold[0]}{text}{bold[1]}" if table.is_best(model, column, setting) else text)
        cells.append(" / ".join(parts))
    return cells


def _headings(table: Table1) -> list[str]:
    def label(column: str) -> str:
        settings = table.settings_of(column)
        name = AVERAGE if column == AVERAGE else short_task(column)
        return f"{name} ({' / '.join(settings)})" if settings != [DIRECT] else name

    return [*(HEADINGS[k] for k in KINDS if table.alignment), *(label(c) for c in [*table.columns, AVERAGE])]


def render_markdown(table: Table1) -> str:
    header = ["model", *_headings(table)]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join([model, *_cells(table, model, ("**", "**"))]) + " |" for model in table.models]
    return "\n".join(lines)


def table1_latex(table: Table1, caption: str = "Precision@1 (%), direct / pivot.", label: str = "tab:table1") -> str:
    """A booktabs table; best values in \\textbf, an "Alignment" group heading over the check marks."""
    n_align = len(KINDS) if table.alignment else 0
    n_scores = len(table.columns) + 1
    lines = [
        r"\begin{table}[t]",
        r"\centering",
        r"\small",
        r"\begin{tabular}{l" + "c" * n_align + "r" * n_scores + "}",
        r"\toprule",
    ]
    if n_align:
        lines.append(rf" & \multicolumn{{{n_align}}}{{c}}{{Alignment}} & \multicolumn{{{n_scores}}}{{c}}{{Precision@1 (\%)}} \\")
        lines.append(rf"\cmidrule(lr){{2-{1 + n_align}}} \cmidrule(lr){{{2 + n_align}-{1 + n_align + n_scores}}}")
    lines.append(" & ".join(latex_escape(h) for h in ["model", *_headings(table)]) + r" \\")
    lines.append(r"\midrule")
    for model in table.models:
        cells = [latex_escape(c).replace(latex_escape(MISSING), "--") for c in _cells(table, model, ("\x00", "\x01"))]
        cells = [c.replace("\x00", r"\textbf{").replace("\x01", "}") for c in cells]
        lines.append(" & ".join([latex_escape(model), *cells]) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", rf"\caption{{{latex_escape(caption)}}}", rf"\label{{{label}}}", r"\end{table}"]
    return "\n".join(lines) + "\n"


def table1_markdown(scores: Mapping[str, Mapping[str, float | None]], alignment: Mapping[str, Alignment] | None = None) -> str:
    """Markdown Table 1 from ``{model: {task_name: precision_at_1 (0-1)}}``; values shown in %."""
    return render_markdown(build_table1(scores, alignment))
