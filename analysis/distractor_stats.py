"""How alike are distractors and originals? Word-level Jaccard and length ratios, per dataset and language.

Model-free: computed from the texts of every task in the results. Per task (= dataset, setting and
target language) and pooled over all direct tasks: Jaccard between the true translation and each
distractor (the paper reports mean 0.47, sd 0.17 on the release), the mean pairwise Jaccard among
the distractors of a row (how varied the four are), and distractor/original length ratios in
characters and in words. Standard deviations are over distractors (or rows, for the
among-distractors measure), with ddof=1.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from clsd_analysis.edit_distance import setting_of
from clsd_analysis.task_data import TaskCatalog, TaskData
from clsd_analysis.text_measures import jaccard, mean_pairwise_jaccard, word_set

POOLED = "all direct tasks"


def _measures(data: TaskData) -> tuple[list[float], list[float], list[float], list[float]]:
    pair_jaccard, among, char_ratio, word_ratio = [], [], [], []
    for row in data.rows.values():
        target, distractors = row["target"], row["distractors"]
        n_words = max(len(word_set(target)), 1)
        for text in distractors:
            pair_jaccard.append(jaccard(target, text))
            char_ratio.append(len(text) / len(target))
            word_ratio.append(len(word_set(text)) / n_words)
        value = mean_pairwise_jaccard(distractors)
        if value is not None:
            among.append(value)
    return pair_jaccard, among, char_ratio, word_ratio


def _summary(measures: tuple[list[float], list[float], list[float], list[float]], n_rows: int) -> dict[str, float]:
    pair_jaccard, among, char_ratio, word_ratio = (np.asarray(m, dtype=float) for m in measures)

    def sd(values: np.ndarray) -> float:
        return float(np.std(values, ddof=1)) if len(values) > 1 else float("nan")

    def mean(values: np.ndarray) -> float:
        return float(np.mean(values)) if len(values) else float("nan")

    return {
        "rows": n_rows,
        "distractors": len(pair_jaccard),
        "jaccard_original_distractor_mean": mean(pair_jaccard),
        "jaccard_original_distractor_sd": sd(pair_jaccard),
        "jaccard_among_distractors_mean": mean(among),
        "jaccard_among_distractors_sd": sd(among),
        "length_ratio_chars_mean": mean(char_ratio),
        "length_ratio_chars_sd": sd(char_ratio),
        "length_ratio_words_mean": mean(word_ratio),
        "length_ratio_words_sd": sd(word_ratio),
    }


def distractor_statistics(task_names: list[str], catalog: TaskCatalog) -> pd.DataFrame:
    """One line per task found, plus the pooled direct tasks; index: task name."""
    lines: dict[str, dict[str, object]] = {}
    pooled: list[list[float]] = [[], [], [], []]
    pooled_rows = 0
    for name in task_names:
        data = catalog.get(name)
        if data is None:
            continue
        measures = _measures(data)
        setting = setting_of(name)
        lines[name] = {
            "dataset": data.dataset_label,
            "setting": setting,
            "target_language": data.languages[1],
            **_summary(measures, len(data.rows)),
        }
        if setting == "direct":
            for bucket, values in zip(pooled, measures, strict=True):
                bucket.extend(values)
            pooled_rows += len(data.rows)
    if pooled_rows:
        lines[POOLED] = {"dataset": "all", "setting": "direct", "target_language": "all", **_summary(tuple(pooled), pooled_rows)}  # type: ignore[arg-type]
    frame = pd.DataFrame.from_dict(lines, orient="index")
    frame.index.name = "task"
    return frame
