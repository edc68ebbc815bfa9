"""Successful distractors by edit similarity: how close to the true translation were the ones that won?

The paper's table of bins, computed as the paper defines it:

* **Similarity** of a distractor d to the true translation T (both in the target language):
  python-Levenshtein's ``ratio``, the normalised indel similarity
  (:func:`clsd_format.text_measures.edit_similarity`), in the paper's bins 0.9-1.0 (1.0 included),
  0.8-0.9, 0.7-0.8, 0.6-0.7, 0.3-0.6; a 0.0-0.3 bin appears only when some distractor falls there.
* **|D_bin|**: all distractors of a target language in the bin, successful or not, over the direct
  tasks (:func:`bin_totals`). On the release: French 1130 / 2175 / 2913 / 2392 / 854, German
  1535 / 2587 / 2856 / 1891 / 595.
* **Successful distractors**, per model, two named rules:

  - ``top`` (the paper's): one per row the model gets wrong, the distractor with the highest cosine
    to the source (the first slot among equal cosines);
  - ``ties-or-beats``: every distractor whose cosine ties or beats the true translation's (the rule
    that makes a row a miss), so a row can contribute several.

  Per model, setting and target language, the share of the successful distractors in each bin
  (summing to 100%), their number, and the success rate within the bin (successful / |D_bin|),
  which separates "close distractors win more often" from "most distractors are close".

The authors' notebook means the ``top`` rule but looks the winning column up by a name that does not
exist in the frame it indexes, so the text it measures is always the row's last distractor column:
its per-model percentages cannot be matched digit for digit, by this code or any other.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np
import pandas as pd

from clsd_analysis.results import ResultsFolder, TaskPredictions
from clsd_analysis.success_rules import SUCCESS_RULES, TIES_OR_BEATS, TOP
from clsd_analysis.task_data import TaskCatalog, TaskData
from clsd_format.languages import code_from_mteb
from clsd_format.text_measures import bin_labels, edit_similarity, similarity_bin
from clsd_mteb.naming import DIRECT, pivot_base, setting_of

_COLUMNS = ["model", "task", "setting", "target_language", "id", "slot", "similarity", "bin", TOP, TIES_OR_BEATS]


def _target_language(task: str, catalog: TaskCatalog, data: TaskData) -> str:
    """The language of T and the distractors, as an ISO 639-1 code; for a pivot task, its direct task's."""
    base = pivot_base(task)
    base_data = catalog.get(base) if base else None
    return code_from_mteb((base_data or data).languages[1])


def bin_totals(task_names: Iterable[str], catalog: TaskCatalog) -> pd.DataFrame:
    """|D_bin|: per target language, all distractors of the direct tasks in each bin; index language, columns bins."""
    counts: dict[str, dict[str, int]] = {}
    for task in task_names:
        data = catalog.get(task)
        if data is None or setting_of(task) != DIRECT:
            continue
        per_bin = counts.setdefault(_target_language(task, catalog, data), {})
        for row in data.rows.values():
            for text in row["distractors"]:
                label = similarity_bin(edit_similarity(row["target"], text))
                per_bin[label] = per_bin.get(label, 0) + 1
    labels = bin_labels(label for per_bin in counts.values() for label in per_bin)
    frame = pd.DataFrame.from_dict(counts, orient="index").reindex(columns=labels).fillna(0).astype(int)
    frame["all"] = frame.sum(axis=1)
    frame.index.name = "target language"
    return frame.sort_index()


def _top_of_failed(pred: TaskPredictions) -> np.ndarray:
    """Boolean (rows, slots): the highest-cosine distractor of each failed row (first slot on equal cosines)."""
    out = np.zeros(pred.cosines[:, 1:].shape, dtype=bool)
    failed = np.flatnonzero(pred.ranks != 1)
    if len(failed):
        out[failed, np.nanargmax(pred.cosines[failed, 1:], axis=1)] = True
    return out


def distractor_table(results: ResultsFolder, catalog: TaskCatalog) -> pd.DataFrame:
    """One line per (model, task, row, slot): similarity to T, its bin, and whether it is successful under each rule."""
    records = []
    for run in results.runs:
        for task in results.task_names:
            pred = results.predictions(run, task)
            data = catalog.get(task)
            if pred is None or data is None:
                continue
            language = _target_language(task, catalog, data)
            top = _top_of_failed(pred)
            for i, row_id in enumerate(pred.ids):
                row = data.rows.get(row_id)
                if row is None:
                    continue
                for slot, text in enumerate(row["distractors"]):
                    if np.isnan(pred.cosines[i, slot + 1]):
                        continue
                    similarity = edit_similarity(row["target"], text)
                    records.append(
                        [
                            results.label(run),
                            task,
                            setting_of(task),
                            language,
                            row_id,
                            slot + 1,
                            similarity,
                            similarity_bin(similarity),
                            bool(top[i, slot]),
                            bool(pred.wins[i, slot]),
                        ]
                    )
    return pd.DataFrame.from_records(records, columns=_COLUMNS)


def bin_summary(distractors: pd.DataFrame, rule: str = TOP) -> pd.DataFrame:
    """Per model, setting, target language and bin: successful count and share, bin size, success rate."""
    if rule not in SUCCESS_RULES:
        raise ValueError(f"unknown rule {rule!r}; one of {', '.join(SUCCESS_RULES)}")
    keys = ["model", "setting", "target_language"]
    labels = bin_labels(distractors["bin"])
    out = []
    for key, group in distractors.groupby(keys, sort=True):
        n_successful = int(group[rule].sum())
        for label in labels:
            in_bin = group[group["bin"] == label]
            wins = int(in_bin[rule].sum())
            out.append(
                {
                    **dict(zip(keys, key, strict=True)),
                    "rule": rule,
                    "bin": label,
                    "successful": wins,
                    "share_of_successful": wins / n_successful if n_successful else math.nan,
                    "bin_size": len(in_bin),
                    "success_rate_in_bin": wins / len(in_bin) if len(in_bin) else math.nan,
                }
            )
    return pd.DataFrame.from_records(
        out, columns=[*keys, "rule", "bin", "successful", "share_of_successful", "bin_size", "success_rate_in_bin"]
    )
