"""Section 2: rows a model gets right directly and wrong through the pivot, and the reverse."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from clsd_analysis.sections.base import Section

if TYPE_CHECKING:
    import pandas as pd

    from clsd_analysis.report_context import ReportContext
    from clsd_analysis.task_data import TaskCatalog


def focus_first(rows: pd.DataFrame, focus: str) -> pd.DataFrame:
    """The report's model's rows first, then the others', each in their own order."""
    import pandas as pd

    return pd.concat([rows[rows["model"] == focus], rows[rows["model"] != focus]])


def example_line(row: pd.Series, kind: str, catalog: TaskCatalog) -> str:
    """One disagreement as a list item: the strongest distractor of each setting with its changes to T in bold.

    Each text is written in its row's language and direction (:func:`clsd_format.html_text.in_language`), so an Arabic
    or Hebrew sentence inside the English line reads right to left.
    """
    from clsd_analysis.changed_words import marked_changes
    from clsd_format.html_text import in_language

    s_lang, t_lang = _languages(catalog, row["direct_task"], row["id"])
    pivot_lang = _languages(catalog, row["pivot_task"], row["id"])[1]
    direct = in_language(marked_changes(row["direct_target"], row["direct_top_distractor"]), t_lang)
    pivot = in_language(marked_changes(row["pivot_target"], row["pivot_top_distractor"]), pivot_lang)
    return (
        f"- *{kind}* — `{row['model']}`, `{row['direct_task']}` `{row['id']}`: S = “{in_language(row['direct_source'], s_lang)}”; "
        f"T = “{in_language(row['direct_target'], t_lang)}”; strongest distractor direct = “{direct}”; "
        f"through the pivot, T = “{in_language(row['pivot_target'], pivot_lang)}”, strongest distractor = “{pivot}”"
    )


def _languages(catalog: TaskCatalog, task: str, row_id: str) -> tuple[str, str]:
    """The languages of a row's source and target, as the row gives them (mteb codes)."""
    from clsd_format import schema

    data = catalog.get(task)
    assert data is not None  # a disagreement with texts has its task's data
    row = data.rows[row_id]
    return row[schema.SOURCE_LANG], row[schema.TARGET_LANG]


@dataclass(frozen=True)
class Disagreements(Section):
    title = "Direct versus pivot disagreements"
    order = 20
    examples_per_kind: int = 3

    def write(self, report: ReportContext) -> None:
        from clsd_analysis import render
        from clsd_analysis.disagreements import DIRECT_ONLY, PIVOT_ONLY, find_disagreements
        from clsd_mteb.comparisons import ALL_TASKS
        from clsd_mteb.confidence import p_text

        writer = report.writer
        disagreements = find_disagreements(report.results, report.catalog)
        if disagreements.counts.empty:
            writer.add("No model has predictions for both a direct task and its pivot version.\n")
            return
        writer.table(
            "disagreement_counts",
            disagreements.counts,
            caption="Rows right in one setting and wrong in the other, summed over task pairs.",
            fmt=render.number(0),
        )
        writer.csv("disagreements", disagreements.rows)
        pooled = [t for t in report.pivot_tests if t.task == ALL_TASKS]
        if pooled:
            tested = "; ".join(
                f"`{t.model}`: {t.only_direct} against {t.only_pivot}, Δ = {t.delta:+.2f} points, {p_text(t.p_value)}"
                for t in pooled
            )
            writer.add(
                "These counts are the discordant rows of the paired test of pivot against direct (section 1, "
                f"`tables/pivot_tests.csv`; exact McNemar, pooled over the task pairs): {tested}.\n"
            )
        if disagreements.rows.empty or self.examples_per_kind == 0:
            return
        with_texts = disagreements.rows.dropna(subset=["direct_target", "pivot_target"])
        writer.add(
            "All rows with their texts: [tables/disagreements.csv](tables/disagreements.csv). Examples, "
            f"`{report.focus}` first; in bold, the words of the strongest distractor that are not in T:\n"
        )
        rows = focus_first(with_texts, report.focus)
        for kind in (DIRECT_ONLY, PIVOT_ONLY):
            for _, row in rows[rows["kind"] == kind].head(self.examples_per_kind).iterrows():
                writer.add(example_line(row, kind, report.catalog))
        writer.add("")
