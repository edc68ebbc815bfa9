"""The paper's table of successful-distractor examples: original/distractor pairs that tricked at least one model.

From saved predictions: for each direct task row a model gets wrong, its successful distractor under
a rule of :mod:`clsd_analysis.edit_distance` (default: the paper's, the highest-cosine distractor of a
failed row). Pairs are pooled over models; a seeded random sample (the same seed gives the same
sample, whatever order the files were read in) is shown with the changed words marked (the paper
colours them; here ``**bold**``, ``\\textbf`` in LaTeX), the distractor's edit type and the models each
pair tricked. A report is about one model (``focus``): the sample then starts with pairs that tricked
that model, and only fills up with pairs that tricked others, so a baseline's easy wins do not lead. The texts
know their language (:class:`clsd_format.html_text.LanguageText`): the report's Markdown writes each with its
``lang`` and ``dir``, so an Arabic or Hebrew example reads right to left in any browser.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

import pandas as pd

from clsd_analysis.changed_words import marked_changes
from clsd_analysis.edit_distance import TOP, distractor_table
from clsd_analysis.edit_typing import TypedEdit
from clsd_analysis.results import ResultsFolder
from clsd_analysis.task_data import TaskCatalog
from clsd_format import schema
from clsd_format.html_text import LanguageText
from clsd_mteb.naming import DIRECT, short_task

COLUMNS = ["task", "id", "original", "distractor (changes marked)", "edit type", "models tricked", "tricked"]
Key = tuple[str, str, int]  # (task, row id, slot)


def _sample(keys: list[Key], k: int, rng: random.Random) -> list[Key]:
    return sorted(rng.sample(keys, min(k, len(keys))))


def _type_label(edit: TypedEdit | None) -> str:
    if edit is None:
        return "—"
    return f"{edit.edit_type} ({edit.pos})" if edit.pos else edit.edit_type


def successful_examples(
    results: ResultsFolder,
    catalog: TaskCatalog,
    *,
    n: int = 10,
    seed: int = 0,
    rule: str = TOP,
    distractors: pd.DataFrame | None = None,
    focus: str | None = None,
    types: Mapping[Key, TypedEdit] | None = None,
) -> pd.DataFrame:
    """Up to ``n`` sampled pairs: ``focus``'s first (if given), each part in task/row order.

    ``distractors``: a :func:`distractor_table` already computed; ``types``: edit types by (task, row id, slot).
    """
    table = distractor_table(results, catalog) if distractors is None else distractors
    won = table[(table["setting"] == DIRECT) & table[rule]]
    if won.empty:
        return pd.DataFrame(columns=COLUMNS)
    tricked = won.groupby(["task", "id", "slot"], sort=True)["model"].apply(lambda models: sorted(set(models)))
    keys = list(tricked.index)  # sorted: the sample does not depend on reading order
    rng = random.Random(seed)
    first = _sample([k for k in keys if focus in tricked[k]], n, rng) if focus is not None else []
    chosen = first + _sample([k for k in keys if k not in set(first)], n - len(first), rng)
    records = []
    for task, row_id, slot in chosen:
        data = catalog.get(task)
        assert data is not None  # distractor_table only lists tasks with texts
        row = data.rows[row_id]
        distractor = row["distractors"][slot - 1]
        models = sorted(tricked[(task, row_id, slot)], key=lambda m: (m != focus, m))
        edit = (types or {}).get((task, row_id, slot))
        records.append(
            [
                short_task(task),
                row_id,
                LanguageText(row["target"], row[schema.TARGET_LANG]),
                LanguageText(marked_changes(row["target"], distractor), row[schema.TARGET_LANG]),
                _type_label(edit),
                ", ".join(models),
                len(models),
            ]
        )
    # object columns: the texts stay LanguageText (pandas would read plain strings into its own string type)
    return pd.DataFrame(records, columns=COLUMNS, dtype=object).astype({"tricked": "int64"})
