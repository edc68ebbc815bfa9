"""Section 7: what fooled the model, by edit type (number, name, negation, one content word, ...)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from clsd_analysis.sections.base import Section
from clsd_analysis.success_rules import TIES_OR_BEATS

if TYPE_CHECKING:
    import pandas as pd

    from clsd_analysis.report_context import ReportContext
    from clsd_analysis.typing_agreement import Agreement

_INTRODUCTION = (
    "Each distractor's edit type, one vocabulary for every source: a rule-made dataset declares it (the type of the "
    "rule that made the distractor); any other distractor is typed from its difference to T with the offline taggers: "
    "**word order** (T's words only, reordered or re-punctuated), **rewritten** (under half of T's words stay in place), "
    "else from the changed stretches: **negation** added or removed, **number or date** changed, **name** replaced, one "
    "**content word** replaced, added or removed (with its part of speech), or **several edits**. A distractor *beats* T "
    "when its cosine ties or beats T's (a tie is a miss, as in scoring).\n"
)


def _agreement(report: ReportContext) -> Agreement | None:
    """The typing against the release's annotated one-word changes, where the annotation files and released tasks are."""
    from clsd_analysis.annotations import release_annotations
    from clsd_analysis.typing_agreement import typing_agreement
    from clsd_format.languages import code_from_mteb
    from clsd_format.release import RELEASE_TASK_NAMES
    from clsd_mteb.naming import is_pivot

    folder = report.annotation_dir
    annotations = release_annotations(folder) if folder is not None else {}
    if not annotations:
        return None
    typed = report.edit_types.lookup()
    texts, found = {}, {}
    for task in report.results.task_names:
        data = report.catalog.get(task)
        if task not in RELEASE_TASK_NAMES or is_pivot(task) or data is None:
            continue
        language = code_from_mteb(data.languages[1])
        for row_id, row in data.rows.items():
            for slot, text in enumerate(row["distractors"], start=1):
                if (task, row_id, slot) in typed:
                    texts[(row_id, language, slot)] = text
                    found[(row_id, language, slot)] = typed[(task, row_id, slot)]
    return typing_agreement(annotations, texts, found) if found else None


def _write_agreement(report: ReportContext, agreement: Agreement) -> None:
    from clsd_analysis import render

    if not agreement.compared:
        return
    pos_pairs, pos_agree = agreement.pos_counts()
    report.writer.add(
        f"**How far the typing can be trusted**: on the release's {agreement.compared} annotated one-word changes (the "
        f"annotation files; operation, entity type and part of speech by a linguist), the typing gives the type the "
        f"annotation implies for {agreement.agreeing} ({100 * agreement.agreeing / agreement.compared:.1f}%); where both "
        f"call it a content-word change, the part of speech agrees for {pos_agree} of {pos_pairs}"
        f"{f' ({100 * pos_agree / pos_pairs:.1f}%)' if pos_pairs else ''}. These are small edits only: the agreement does "
        "not test where several edits end and a rewrite begins.\n"
    )
    report.writer.table(
        "edit_type_agreement",
        agreement.confusion(),
        caption="Annotated one-word changes: the type the annotation implies (rows) against the typed type (columns).",
        fmt=render.number(1),
        index_name="annotation says",
    )
    report.writer.csv("edit_type_agreement_pairs", agreement.pairs)


def _focus_pos_table(report: ReportContext, typed: pd.DataFrame) -> None:
    """Content-word changes of the report's model by part of speech (POS with at least 10 distractors)."""
    import pandas as pd

    from clsd_analysis import render
    from clsd_format import edit_types

    block = typed[(typed["model"] == report.focus) & (typed["edit_type"] == edit_types.CONTENT_WORD) & typed["pos"].notna()]
    if block.empty:
        return
    cells: dict[str, dict[str, str]] = {}
    for (pos, setting), group in block.groupby(["pos", "setting"], sort=True):
        if len(group) >= 10:
            wins = int(group[TIES_OR_BEATS].sum())
            cells.setdefault(pos, {})[setting] = f"{100 * wins / len(group):.1f} ({wins}/{len(group)})"
    if cells:
        frame = pd.DataFrame.from_dict(cells, orient="index").fillna(render.MISSING)
        report.writer.table(
            "edit_types_content_word_pos",
            frame,
            caption=f"`{report.focus}`: one-content-word distractors by part of speech of the changed word: % that beat T (beat / all).",
            index_name="part of speech",
        )


@dataclass(frozen=True)
class EditTypes(Section):
    title = "What fooled the model: edit types"
    order = 70
    intro = _INTRODUCTION

    def write(self, report: ReportContext) -> None:
        import pandas as pd

        from clsd_analysis import figures
        from clsd_analysis.edit_type_table import edit_type_summary, rates_wide, shares_wide, typed_distractors
        from clsd_mteb.naming import pivot_base

        writer, found = report.writer, report.edit_types
        if found.frame.empty:
            writer.add("No task texts available.\n")
            return
        tasks = set(found.frame["task"])
        own = found.frame[[pivot_base(task) not in tasks for task in found.frame["task"]]]  # a pivot task keeps its base's types
        declared = int(own["declared"].sum())
        writer.add(
            f"{len(own)} distractors made (a pivot task's are translations: they keep the type of the distractor they "
            f"translate): {declared} with a declared type, {len(own) - declared} typed from the text.\n"
        )
        if found.untyped_languages:
            report.notes.append(
                f"Edit types of language(s) {', '.join(sorted(found.untyped_languages))} were typed without a tagger: no names, no part of speech."
            )
        writer.table(
            "edit_type_shares", shares_wide(own), caption="Distractors per task by edit type: count (share %).", index_name="task"
        )
        typed = typed_distractors(report.distractors, found.frame) if not report.distractors.empty else pd.DataFrame()
        if typed.empty:
            writer.add("No predictions with task texts available.\n")
        else:
            summary = edit_type_summary(typed)
            writer.csv("edit_types_long", summary)
            writer.table(
                "edit_types",
                rates_wide(summary),
                caption="Distractors that beat T, by edit type: % (beat T / distractors of the type), per model and setting.",
                index_name="model · setting",
            )
            writer.figure(figures.edit_type_rates(summary, report.styles, writer.figures), "Edit types that beat T")
            _focus_pos_table(report, typed)
        agreement = _agreement(report)
        if agreement is not None:
            _write_agreement(report, agreement)
