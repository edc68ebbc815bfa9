"""Section 3: successful distractors by edit similarity (the paper's Levenshtein bins)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from clsd_analysis.sections.base import Section
from clsd_analysis.success_rules import SUCCESS_RULES, TOP

if TYPE_CHECKING:
    import pandas as pd

    from clsd_analysis.report_context import ReportContext


def _pct(value: float) -> str:
    from clsd_analysis import render

    return render.MISSING if render.is_missing(value) else f"{100 * value:.1f}"


def bins_wide(bins: pd.DataFrame) -> pd.DataFrame:
    """One line per model · setting · language: share % (successful / bin size) per bin, and the total."""
    import pandas as pd

    wide = {}
    labels = list(dict.fromkeys(bins["bin"]))
    for key, group in bins.groupby(["model", "setting", "target_language"], sort=True):
        cells = group.set_index("bin").reindex(labels)
        wide[" · ".join(key)] = {
            label: f"{_pct(r.share_of_successful)} ({int(r.successful)}/{int(r.bin_size)})" for label, r in cells.iterrows()
        } | {"successful": int(group["successful"].sum())}
    return pd.DataFrame.from_dict(wide, orient="index")


# Declared as every section is (a title, a place, an intro) before a write that tables its own measure.
@dataclass(frozen=True)
class EditSimilarity(Section):
    title = "Successful distractors by edit similarity"
    order = 30
    intro = (
        "Similarity of a distractor to the true translation: python-Levenshtein's `ratio` (normalised indel similarity), "
        "the paper's measure, in the paper's bins (0.9-1.0 includes 1.0; a 0.0-0.3 bin only when some distractor falls "
        "there). |D_bin| counts all distractors of each target language in the bin, over the direct tasks.\n"
    )

    def write(self, report: ReportContext) -> None:
        from clsd_analysis import figures, render
        from clsd_analysis.edit_distance import bin_summary, bin_totals

        writer = report.writer
        totals = bin_totals(report.results.task_names, report.catalog)
        if not totals.empty:
            writer.table(
                "levenshtein_bin_totals",
                totals,
                caption="|D_bin|: all distractors per bin and target language.",
                fmt=render.number(0),
            )
        if report.distractors.empty:
            writer.add("No predictions with task texts available.\n")
            return
        for rule, meaning in SUCCESS_RULES.items():
            bins = bin_summary(report.distractors, rule)
            name = "levenshtein_bins" if rule == TOP else f"levenshtein_bins_{rule.replace('-', '_')}"
            writer.add(f"### Successful = {meaning} (`{rule}`)\n")
            writer.table(
                name,
                bins_wide(bins),
                caption=f"Successful distractors ({rule}) per similarity bin: share % (successful / bin size).",
                index_name="model · setting · target language",
            )
            writer.csv(f"{name}_long", bins)
            if rule == TOP:
                writer.figure(figures.levenshtein_bins(bins, report.styles, writer.figures), "Levenshtein bins")
