"""The edit type of every distractor of the analysed tasks: declared by the dataset, or typed from the text.

One vocabulary for every source (:mod:`clsd_format.edit_types`):

* a dataset whose rows carry ``distractor_edit_types`` (rule-made data: the type of the rule that made each
  distractor, with the rule itself in ``distractor_rules``) is read as declared;
* any other distractor (the release's, an LLM's) is typed from its difference to T
  (:mod:`clsd_analysis.edit_typing`).

A pivot task's distractors are translations of its direct task's: they keep the type of the distractor they
translate (what was made, not what the translation did to it). Only where the direct task's texts are
unknown is the pivot text typed itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import pandas as pd

from clsd_analysis.edit_typing import TaggerFactory, TypedEdit, offline_tagger, type_edits
from clsd_analysis.task_data import TaskCatalog, TaskData
from clsd_format import edit_types, schema
from clsd_format.languages import code_from_mteb
from clsd_mteb.naming import pivot_base

COLUMNS = ["task", "id", "slot", "edit_type", "pos", "rule", "declared"]


@dataclass
class DistractorTypes:
    """Every typed distractor (one line per task, row and slot) and what the typing could not do."""

    frame: pd.DataFrame  # COLUMNS
    untyped_languages: set[str] = field(default_factory=set)  # languages typed without a tagger (no names, no POS)
    unknown_declared: int = 0  # declared types outside the vocabulary (typed from the text instead)

    def lookup(self) -> dict[tuple[str, str, int], TypedEdit]:
        """(task, row id, slot) -> its edit type."""
        return {
            (task, row_id, slot): TypedEdit(edit_type, pos if isinstance(pos, str) else None, bool(declared))
            for task, row_id, slot, edit_type, pos, declared in self.frame[
                ["task", "id", "slot", "edit_type", "pos", "declared"]
            ].itertuples(index=False)
        }

    def rules(self) -> dict[tuple[str, str, int], str]:
        """(task, row id, slot) -> the rule that made the distractor, where the dataset names one."""
        named = self.frame[self.frame["rule"].notna()]
        return {(t, i, s): r for t, i, s, r in named[["task", "id", "slot", "rule"]].itertuples(index=False)}

    @property
    def declared(self) -> int:
        return int(self.frame["declared"].sum()) if len(self.frame) else 0


def _declared(row: dict, slot: int) -> str | None:
    declared = row.get(schema.DISTRACTOR_EDIT_TYPES)
    return declared[slot] if declared is not None and slot < len(declared) else None


def _rule(row: dict, slot: int) -> str | None:
    rules = row.get(schema.DISTRACTOR_RULES)
    return rules[slot] if rules is not None and slot < len(rules) else None


def _type_task(data: TaskData, tagger_factory: TaggerFactory, found: DistractorTypes) -> list[list]:
    """Lines of COLUMNS for one task's own texts."""
    language = code_from_mteb(data.languages[1])
    rows = list(data.rows.values())
    need = [
        row
        for row in rows
        if any(_declared(row, slot) not in edit_types.EDIT_TYPES for slot in range(len(row[schema.DISTRACTORS])))
    ]
    tagger = tagger_factory(language) if need else None
    if need and tagger is None:
        found.untyped_languages.add(language)
    typed = dict(
        zip(
            (row[schema.ID] for row in need),
            type_edits([r[schema.TARGET] for r in need], [r[schema.DISTRACTORS] for r in need], language, tagger),
            strict=True,
        )
    )
    lines = []
    for row in rows:
        for slot in range(len(row[schema.DISTRACTORS])):
            declared = _declared(row, slot)
            if declared in edit_types.EDIT_TYPES:
                lines.append([data.name, row[schema.ID], slot + 1, declared, None, _rule(row, slot), True])
                continue
            found.unknown_declared += declared is not None
            edit = typed[row[schema.ID]][slot]
            lines.append([data.name, row[schema.ID], slot + 1, edit.edit_type, edit.pos, _rule(row, slot), False])
    return lines


def distractor_types(
    task_names: Iterable[str], catalog: TaskCatalog, tagger_factory: TaggerFactory = offline_tagger
) -> DistractorTypes:
    """Types of every distractor of the named tasks whose texts the catalog finds (see the module docstring)."""
    found = DistractorTypes(pd.DataFrame(columns=COLUMNS))
    own: dict[str, list[list]] = {}

    def lines_of(task: str) -> list[list] | None:
        if task not in own:
            data = catalog.get(task)
            if data is None:
                return None
            own[task] = _type_task(data, tagger_factory, found)
        return own[task]

    lines: list[list] = []
    for task in task_names:
        base = pivot_base(task)
        base_lines = lines_of(base) if base is not None and catalog.get(task) is not None else None
        if base_lines is not None:
            lines += [[task, *line[1:]] for line in base_lines]
        else:
            lines += lines_of(task) or []
    found.frame = pd.DataFrame.from_records(lines, columns=COLUMNS)
    return found
