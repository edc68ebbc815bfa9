"""Section 5: distractor statistics (Jaccard within and against the original, length ratios)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from clsd_analysis.sections.base import Section

if TYPE_CHECKING:
    from clsd_analysis.report_context import ReportContext


# Declared as every section is (a title, a place, an intro) before a write that tables its own measure.
@dataclass(frozen=True)
class Statistics(Section):
    title = "Distractor statistics"
    order = 50
    intro = (
        "Word-level Jaccard with the paper's words (lower-cased, two or more word characters), per distractor: "
        "**intra-distractor** = mean Jaccard to the other distractors of the same row (what the paper reports as "
        '"0.47, sd 0.17"; 0.471 / 0.172 on the release), and **original-distractor** = Jaccard to the true '
        "translation (0.516 / 0.190 on the release); then distractor/original length ratios.\n"
    )

    def write(self, report: ReportContext) -> None:
        from clsd_analysis import render
        from clsd_analysis.distractor_stats import POOLED, distractor_statistics

        writer = report.writer
        stats = distractor_statistics(report.results.task_names, report.catalog)
        if stats.empty:
            writer.add("No task texts available.\n")
            return
        writer.table("distractor_stats", stats, caption="Distractor statistics per task.", fmt=render.number(3))
        if POOLED in stats.index:
            pooled = stats.loc[POOLED]
            writer.add(
                f"Pooled over {int(pooled['distractors'])} direct distractors: intra-distractor Jaccard "
                f"{pooled['jaccard_intra_distractor_mean']:.3f} (sd {pooled['jaccard_intra_distractor_sd']:.3f}), "
                f"original-distractor {pooled['jaccard_original_distractor_mean']:.3f} (sd {pooled['jaccard_original_distractor_sd']:.3f}).\n"
            )
