"""Direct versus pivot disagreements: rows a model gets right one way and wrong the other.

For every model and every pivot task whose direct task was also run, a row is a disagreement when
the true translation ranks first in one setting and not in the other (ties are misses in both, as
in scoring). The export carries the texts of both settings and the candidate that beat the true
translation, so the cases can be read, which is what the paper does for LaBSE (279 rows). The
``*_cos_*`` columns hold a reranker's own scores in the cosines' place; ``score_unit`` says which.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from clsd_analysis.results import ResultsFolder, TaskPredictions
from clsd_analysis.task_data import TaskCatalog, TaskData
from clsd_mteb.naming import pivot_base

DIRECT_ONLY = "right direct, wrong pivot"
PIVOT_ONLY = "wrong direct, right pivot"


@dataclass
class Disagreements:
    rows: pd.DataFrame  # one line per disagreement, with texts where the task data was found
    counts: pd.DataFrame  # index: model; columns: the two kinds, total, rows compared


def _top_distractor(pred: TaskPredictions, index: int) -> tuple[int, float]:
    """Slot (1-based) and cosine of the strongest distractor of a row."""
    values = pred.cosines[index, 1:]
    slot = int(np.nanargmax(values))
    return slot + 1, float(values[slot])


def _texts(data: TaskData | None, row_id: str, slot: int, prefix: str) -> dict[str, str | None]:
    row = data.rows.get(row_id) if data is not None else None
    if row is None:
        return {f"{prefix}_source": None, f"{prefix}_target": None, f"{prefix}_top_distractor": None}
    return {
        f"{prefix}_source": row["source"],
        f"{prefix}_target": row["target"],
        f"{prefix}_top_distractor": row["distractors"][slot - 1],
    }


def find_disagreements(results: ResultsFolder, catalog: TaskCatalog | None = None) -> Disagreements:
    records: list[dict[str, object]] = []
    counts: dict[str, dict[str, int]] = {}
    for run in results.runs:
        label = results.label(run)
        unit = "reranker score" if results.is_reranker(run) else "cosine"
        for task in results.task_names:
            base = pivot_base(task)
            if base is None:
                continue
            direct, pivot = results.predictions(run, base), results.predictions(run, task)
            if direct is None or pivot is None:
                continue
            direct_ok, pivot_ok = direct.correct(), pivot.correct()
            position_d = {row_id: i for i, row_id in enumerate(direct.ids)}
            position_p = {row_id: i for i, row_id in enumerate(pivot.ids)}
            shared = [row_id for row_id in direct.ids if row_id in pivot_ok]
            tally = counts.setdefault(label, {DIRECT_ONLY: 0, PIVOT_ONLY: 0, "rows compared": 0})
            tally["rows compared"] += len(shared)
            data_d = catalog.get(base) if catalog else None
            data_p = catalog.get(task) if catalog else None
            for row_id in shared:
                if direct_ok[row_id] == pivot_ok[row_id]:
                    continue
                kind = DIRECT_ONLY if direct_ok[row_id] else PIVOT_ONLY
                tally[kind] += 1
                i, j = position_d[row_id], position_p[row_id]
                slot_d, cos_d = _top_distractor(direct, i)
                slot_p, cos_p = _top_distractor(pivot, j)
                records.append(
                    {
                        "model": label,
                        "direct_task": base,
                        "pivot_task": task,
                        "id": row_id,
                        "kind": kind,
                        "score_unit": unit,
                        "direct_cos_target": float(direct.cosines[i, 0]),
                        "direct_top_slot": slot_d,
                        "direct_cos_top_distractor": cos_d,
                        "pivot_cos_target": float(pivot.cosines[j, 0]),
                        "pivot_top_slot": slot_p,
                        "pivot_cos_top_distractor": cos_p,
                        **_texts(data_d, row_id, slot_d, "direct"),
                        **_texts(data_p, row_id, slot_p, "pivot"),
                    }
                )
    count_frame = pd.DataFrame.from_dict(counts, orient="index", columns=[DIRECT_ONLY, PIVOT_ONLY, "rows compared"])
    if not count_frame.empty:
        count_frame.insert(2, "total", count_frame[DIRECT_ONLY] + count_frame[PIVOT_ONLY])
    count_frame.index.name = "model"
    return Disagreements(rows=pd.DataFrame.from_records(records), counts=count_frame)
