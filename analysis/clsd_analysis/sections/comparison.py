"""Section 1: the model comparison, the paper's Table 1, and P@1 direct versus pivot."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from clsd_analysis import figures
from clsd_analysis.alignment import Alignment
from clsd_analysis.report_context import ReportContext
from clsd_analysis.sections.base import Section
from clsd_analysis.tables import comparison_table


@dataclass(frozen=True)
class Comparison(Section):
    title = "Model comparison (Table 1)"
    alignment: Mapping[str, Alignment] = field(default_factory=dict)  # user entries over the built-in ones

    def write(self, report: ReportContext) -> None:
        report.writer.add(
            'Precision@1 (%) from the result files as "direct / pivot"; ties between the true translation and a distractor '
            "count as misses. Averages only where a model has every task of the block; **bold** is the best per column and "
            "block (among two or more models); — means no result. Alignment: trained with cross-lingual, paraphrase or "
            "retrieval objectives (✓ yes, ✗ no, blank unknown; from the models' papers and cards, or `--alignment FILE`). "
            "The CSV also holds, per pivot setting, Δ = pivot average minus direct average over the same tasks.\n"
        )
        report.writer.table1(
            "comparison", comparison_table(report.results, self.alignment), caption="Precision@1 (%) per task, direct / pivot."
        )
        report.writer.figure(
            figures.p1_direct_vs_pivot(report.results, report.styles, report.writer.figures), "P@1 direct vs pivot"
        )
