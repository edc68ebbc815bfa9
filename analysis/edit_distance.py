"""Successful distractors by edit distance: how close to the true translation were the ones that won?

A distractor is *successful* when its cosine to the source ties or beats the true translation's
(the same rule that makes the row a miss). Each distractor is binned by its normalised Levenshtein
similarity to the true translation (characters, rapidfuzz). The paper's bins are 0.9-1.0, 0.8-0.9,
0.7-0.8, 0.6-0.7 and 0.3-0.6; a last bin 0.0-0.3 catches the rest, so the bins always add up to
all successful distractors. Per model, setting and target language the table gives the number and
share of successful distractors per bin, the bin size (all distractors in it, successful or not)
and the success rate within the bin, which separates "close distractors win more often" from
"most distractors are close".
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from clsd_analysis.results import ResultsFolder, pivot_base
from clsd_analysis.task_data import TaskCatalog
from clsd_analysis.text_measures import levenshtein_similarity

# (label, lower bound inclusive, upper bound exclusive); the top bin also holds 1.0.
BINS: tuple[tuple[str, float, float], ...] = (
    ("0.9-1.0", 0.9, math.inf),
    ("0.8-0.9", 0.8, 0.9),
    ("0.7-0.8", 0.7, 0.8),
    ("0.6-0.7", 0.6, 0.7),
    ("0.3-0.6", 0.3, 0.6),
    ("0.0-0.3", -math.inf, 0.3),
)
BIN_LABELS = [label for label, _, _ in BINS]


def bin_of(similarity: float) -> str:
    for label, low, high in BINS:
        if low <= similarity < high:
            return label
    raise ValueError(f"similarity {similarity} falls in no bin")


def setting_of(task_name: str) -> str:
    base = pivot_base(task_name)
    return "direct" if base is None else "pivot " + task_name.rsplit("-Pivot", 1)[1]


def distractor_table(results: ResultsFolder, catalog: TaskCatalog) -> pd.DataFrame:
    """One line per (model, task, row, slot): similarity to T, its bin, and whether it won."""
    records = []
    for run in results.runs:
        for task in results.task_names:
            pred = results.predictions(run, task)
            data = catalog.get(task)
            if pred is None or data is None:
                continue
            base = pivot_base(task)
            base_data = catalog.get(base) if base else None
            language = (base_data or data).languages[1]
            for i, row_id in enumerate(pred.ids):
                row = data.rows.get(row_id)
                if row is None:
                    continue
                for slot, text in enumerate(row["distractors"]):
                    if np.isnan(pred.cosines[i, slot + 1]):
                        continue
                    similarity = levenshtein_similarity(row["target"], text)
                    records.append(
                        {
                            "model": results.label(run),
                            "task": task,
                            "setting": setting_of(task),
                            "target_language": language,
                            "id": row_id,
                            "slot": slot + 1,
                            "similarity": similarity,
                            "bin": bin_of(similarity),
                            "successful": bool(pred.wins[i, slot]),
                        }
                    )
    return pd.DataFrame.from_records(
        records,
        columns=["model", "task", "setting", "target_language", "id", "slot", "similarity", "bin", "successful"],
    )


def bin_summary(distractors: pd.DataFrame) -> pd.DataFrame:
    """Per model, setting, target language and bin: successful count and share, bin size, success rate."""
    keys = ["model", "setting", "target_language"]
    out = []
    for key, group in distractors.groupby(keys, sort=True):
        n_successful = int(group["successful"].sum())
        for label in BIN_LABELS:
            in_bin = group[group["bin"] == label]
            wins = int(in_bin["successful"].sum())
            out.append(
                {
                    **dict(zip(keys, key, strict=True)),
                    "bin": label,
                    "successful": wins,
                    "share_of_successful": wins / n_successful if n_successful else math.nan,
                    "bin_size": len(in_bin),
                    "success_rate_in_bin": wins / len(in_bin) if len(in_bin) else math.nan,
                }
            )
    return pd.DataFrame.from_records(
        out,
        columns=[*keys, "bin", "successful", "share_of_successful", "bin_size", "success_rate_in_bin"],
    )
