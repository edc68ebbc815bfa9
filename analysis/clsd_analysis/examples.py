"""The paper's table of successful-distractor examples: original/distractor pairs that tricked at least one model.

From saved predictions: for each direct task row a model gets wrong, its successful distractor under
a rule of :mod:`clsd_analysis.edit_distance` (default: the paper's, the highest-cosine distractor of a
failed row). Pairs are pooled over models; a seeded random sample (the same seed gives the same
sample, whatever order the files were read in) is shown with the changed words marked (the paper
colours them; here ``**bold**``, ``\\textbf`` in LaTeX) and the models each pair tricked.
"""

from __future__ import annotations

import random

import pandas as pd

from clsd_analysis.changed_words import marked_changes
from clsd_analysis.edit_distance import TOP, distractor_table
from clsd_analysis.results import ResultsFolder
from clsd_analysis.task_data import TaskCatalog
from clsd_mteb.naming import DIRECT, short_task

COLUMNS = ["task", "id", "original", "distractor (changes marked)", "models tricked", "tricked"]


def successful_examples(
    results: ResultsFolder,
    catalog: TaskCatalog,
    *,
    n: int = 10,
    seed: int = 0,
    rule: str = TOP,
    distractors: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Up to ``n`` sampled pairs, in task/row order; ``distractors``: a :func:`distractor_table` already computed."""
    table = distractor_table(results, catalog) if distractors is None else distractors
    won = table[(table["setting"] == DIRECT) & table[rule]]
    if won.empty:
        return pd.DataFrame(columns=COLUMNS)
    tricked = won.groupby(["task", "id", "slot"], sort=True)["model"].apply(lambda models: sorted(set(models)))
    keys = list(tricked.index)  # sorted: the sample does not depend on reading order
    chosen = sorted(random.Random(seed).sample(keys, min(n, len(keys))))
    records = []
    for task, row_id, slot in chosen:
        data = catalog.get(task)
        assert data is not None  # distractor_table only lists tasks with texts
        row = data.rows[row_id]
        distractor = row["distractors"][slot - 1]
        models = tricked[(task, row_id, slot)]
        records.append(
            [short_task(task), row_id, row["target"], marked_changes(row["target"], distractor), ", ".join(models), len(models)]
        )
    return pd.DataFrame.from_records(records, columns=COLUMNS)
