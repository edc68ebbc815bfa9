"""Section 1: the model comparison, the paper's Table 1 with intervals and ties, the paired tests, and P@1 direct versus pivot."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clsd_analysis.sections.base import Section
from clsd_format.declared_settings import option_name, setting

if TYPE_CHECKING:
    import pandas as pd

    from clsd_analysis.report_context import ReportContext
    from clsd_mteb.alignment import Alignment
    from clsd_mteb.comparisons import PairedComparison, PivotTest


def statistic_format(value: Any) -> str:
    """Percentage points with two decimals, counts as they are, small p-values in scientific notation."""
    from clsd_analysis import render

    if isinstance(value, float) and 0 < abs(value) < 0.001:
        return f"{value:.1e}"
    return render.DEFAULT_FORMAT(value)


def p_value_format(value: Any) -> str:
    """A p-value to two significant digits (0.0031, not 0.00); one below a float's range (computed as 0) as ``<1e-300``."""
    from clsd_analysis import render

    if not isinstance(value, float) or render.is_missing(value):
        return statistic_format(value)
    return "<1e-300" if value == 0 else f"{value:.2g}"


P_COLUMNS = {"p_value": p_value_format, "p_holm": p_value_format}


def statistics_frame(rows: Sequence[PairedComparison] | Sequence[PivotTest], row_type: type) -> pd.DataFrame:
    """The rows as a frame indexed by its first column (``task`` or ``model``), so the CSV has exactly the columns."""
    import pandas as pd

    from clsd_mteb.comparisons import columns_of, rows_of

    columns = columns_of(row_type)
    return pd.DataFrame(rows_of(rows), columns=columns).set_index(columns[0])


@dataclass(frozen=True)
class Comparison(Section):
    title = "Model comparison (Table 1)"
    order = 10
    alignment: Path | None = setting(
        None,
        help="CSV of Table 1's alignment marks: model,cross_lingual,paraphrase,retrieval[,source] (yes/no/empty).",
    )

    def check(self) -> None:
        _ = self.marks  # a file that cannot be read stops the report before anything is written

    @cached_property
    def marks(self) -> Mapping[str, Alignment]:
        """The alignment marks of ``alignment``, over the built-in ones (none given: the built-in ones alone)."""
        from clsd_mteb.alignment import read_alignment_csv

        return read_alignment_csv(self.alignment) if self.alignment is not None else {}

    def write(self, report: ReportContext) -> None:
        from clsd_analysis import figures
        from clsd_analysis.tables import comparison_table
        from clsd_mteb.comparisons import mark_ties

        report.writer.add(
            'Precision@1 (%) from the result files as "direct / pivot", each with ± half its 95% interval (Wilson per '
            "task; for an average, a bootstrap stratified by task, seeded); ties between the true translation and a "
            "distractor count as misses. Averages only where a model has every task of the block; **bold** is the best "
            "per column and block (among two or more models), ≈ marks every model not significantly below it (exact "
            "McNemar test on the same rows, Holm-adjusted over the comparisons of the task, 5%): the rows cannot tell "
            "them apart; — means no result. Alignment: trained with cross-lingual, paraphrase or retrieval objectives "
            f"(✓ yes, ✗ no, blank unknown; from the models' papers and cards, or `{option_name(Comparison, 'alignment')} FILE`). "
            "The CSV also "
            "holds each interval's bounds and, per pivot setting, Δ = pivot average minus direct average over the same tasks.\n"
        )
        table = comparison_table(report.results, self.marks)
        mark_ties(table, report.comparisons, report.left_out)
        report.writer.table1("comparison", table, caption="Precision@1 (%) per task, direct / pivot, with 95% intervals.")
        self._paired_tests(report)
        report.writer.figure(
            figures.p1_direct_vs_pivot(report.results, report.styles, report.writer.figures), "P@1 direct vs pivot"
        )

    @staticmethod
    def _paired_tests(report: ReportContext) -> None:
        from clsd_mteb.comparisons import PairedComparison, PivotTest

        if report.comparisons:
            report.writer.add(
                "Every pair of models on the same rows: P@1 of each (%), Δ = a − b in points with its paired 95% interval, "
                "the rows only one of them gets right, and the exact McNemar p-value, Holm-adjusted over the comparisons "
                "of one task (`p_holm`). The interval is the exact test inverted (Clopper-Pearson on the rows only one "
                "side gets right), so it excludes 0 exactly when p < 5%. The pooled rows test every task of a setting "
                "together: P@1, Δ, interval and test on the rows of all its tasks at once (discordant rows summed).\n"
            )
            frame = statistics_frame(report.comparisons, PairedComparison)
            report.writer.table(
                "model_comparisons",
                frame,
                caption="Paired comparisons of models.",
                fmt=statistic_format,
                embed=False,
                column_formats=P_COLUMNS,
            )
        if report.left_out:
            report.writer.add(
                "Not compared, since their results are not on the same rows of the same data (a trial, or another "
                "dataset of the same name): "
                + "; ".join(f"`{a}` and `{b}` on `{task}` ({why})" for (task, a, b), why in report.left_out.items())
                + ".\n"
            )
        if report.pivot_tests:
            report.writer.add(
                "Direct or pivot, tested: per model and task, P@1 directly and through the English pivot on the same "
                "row ids, Δ = pivot − direct with its paired 95% interval, the rows right only directly / only through "
                "the pivot, and the exact McNemar p-value, Holm-adjusted over the model's tasks; `all` pools the tasks "
                "(summed discordant rows).\n"
            )
            frame = statistics_frame(report.pivot_tests, PivotTest)
            report.writer.table(
                "pivot_tests", frame, caption="Pivot minus direct, paired by row.", fmt=statistic_format, column_formats=P_COLUMNS
            )
