"""How alike are distractors and originals? Word-level Jaccard and length ratios, per dataset and language.

Model-free: computed from the texts of every task in the results, per task (= dataset, setting and
target language) and pooled over all direct tasks. Words and Jaccard are the paper's
(:mod:`clsd_format.text_measures`: lower-cased words of two or more characters). Two Jaccard
statistics, each per distractor, with standard deviations over distractors (ddof=1):

* ``jaccard_intra_distractor``: the mean Jaccard of a distractor to the *other* distractors of the same
  row. This is what the paper reports as "mean 0.47, sd 0.17" (its text says "between originals and
  distractors", but its notebook computes this); on the release, pooled over the 18,928 direct
  distractors: 0.471 / 0.172.
* ``jaccard_original_distractor``: Jaccard between the true translation and the distractor (the
  original in the distractors' language); on the release 0.516 / 0.190.

Also distractor/original length ratios in characters and in words.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from clsd_analysis.task_data import TaskCatalog, TaskData
from clsd_format.text_measures import jaccard, mean_jaccard_to_others, words
from clsd_mteb.naming import DIRECT, setting_of

POOLED = "all direct tasks"


def _measures(data: TaskData) -> tuple[list[float], list[float], list[float], list[float]]:
    pair_jaccard: list[float] = []
    intra: list[float] = []
    char_ratio: list[float] = []
    word_ratio: list[float] = []
    for row in data.rows.values():
        target, distractors = row["target"], row["distractors"]
        n_words = max(len(words(target)), 1)
        intra.extend(mean_jaccard_to_others(distractors))
        for text in distractors:
            pair_jaccard.append(jaccard(target, text))
            char_ratio.append(len(text) / len(target))
            word_ratio.append(len(words(text)) / n_words)
    return pair_jaccard, intra, char_ratio, word_ratio


def _summary(measures: tuple[list[float], list[float], list[float], list[float]], n_rows: int) -> dict[str, float]:
    pair_jaccard, intra, char_ratio, word_ratio = (np.asarray(m, dtype=float) for m in measures)

    def sd(values: np.ndarray) -> float:
        return float(np.std(values, ddof=1)) if len(values) > 1 else float("nan")

    def mean(values: np.ndarray) -> float:
        return float(np.mean(values)) if len(values) else float("nan")

    return {
        "rows": n_rows,
        "distractors": len(pair_jaccard),
        "jaccard_intra_distractor_mean": mean(intra),
        "jaccard_intra_distractor_sd": sd(intra),
        "jaccard_original_distractor_mean": mean(pair_jaccard),
        "jaccard_original_distractor_sd": sd(pair_jaccard),
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
        if setting == DIRECT:
            for bucket, values in zip(pooled, measures, strict=True):
                bucket.extend(values)
            pooled_rows += len(data.rows)
    if pooled_rows:
        lines[POOLED] = {"dataset": "all", "setting": DIRECT, "target_language": "all", **_summary(tuple(pooled), pooled_rows)}  # type: ignore[arg-type]
    frame = pd.DataFrame.from_dict(lines, orient="index")
    frame.index.name = "task"
    return frame
