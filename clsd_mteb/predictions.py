"""The per-row predictions of a CLSD evaluation: one prediction file per model and task, and its one reader.

The plugin writes them (:meth:`clsd_mteb.abstask.AbsTaskCLSD._evaluate_subset`, in mteb's prediction folder):
``predictions/<model>/<revision>/<task>_predictions.json``, a row per id with cos(S, T) first, then the distractors'
(a cross-encoder's "scores"). Their reader lives beside the writer, so that :mod:`clsd_mteb.evaluation` reads a
served result's hits and :mod:`clsd_analysis.results` a results folder's through the same code.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from clsd_format.errors import DataError
from clsd_format.json_files import read_json

SPLIT = "test"
SUBSET = "default"
PREDICTIONS_SUFFIX = "_predictions.json"


@dataclass(frozen=True, order=True)
class ModelRun:
    """One model at one revision, as results are filed."""

    name: str
    revision: str
    folder: str = field(compare=False)  # <model_name_as_path>/<revision>, relative to results/ and predictions/

    @property
    def short_revision(self) -> str:
        return self.revision[:8]


@dataclass(frozen=True)
class TaskPredictions:
    """Saved per-row cosines of one model on one task: column 0 is cos(S, T), then the distractor slots."""

    run: ModelRun
    task_name: str
    ids: list[str]
    cosines: np.ndarray  # (n_rows, 1 + max_slots), NaN where a row has fewer distractors

    @cached_property
    def ranks(self) -> np.ndarray:
        """Rank of T with ties counted against it, recomputed from the cosines (see clsd_mteb.metrics)."""
        from clsd_mteb.metrics import target_ranks

        return target_ranks(self.cosines)

    @cached_property
    def wins(self) -> np.ndarray:
        """Boolean (n_rows, max_slots): distractor slot ties or beats T (a 'successful distractor')."""
        from clsd_mteb.metrics import distractor_wins

        return distractor_wins(self.cosines)

    def correct(self) -> dict[str, bool]:
        return dict(zip(self.ids, (self.ranks == 1).tolist(), strict=True))


def read_predictions(path: Path, run: ModelRun, task_name: str, split: str = SPLIT) -> TaskPredictions:
    """One prediction file's rows of ``split`` (a trial's own, or the whole task's) as a cosine matrix, in the file's order."""
    data = read_json(path)
    try:
        records: Iterable[dict[str, Any]] = data[SUBSET][split]
        ids = [str(r["id"]) for r in records]
        # a cross-encoder's rows hold its five "scores" where an embedding model's hold "cosines"
        cosine_lists = [list(map(float, r["cosines"] if "cosines" in r else r["scores"])) for r in records]
    except (KeyError, TypeError, ValueError) as exc:
        raise DataError(
            f"not a CLSD prediction file (expected {SUBSET}/{split} records with id and cosines or scores): {exc!r}",
            file=str(path),
        ) from exc
    if not ids:
        raise DataError("prediction file holds no rows", file=str(path))
    width = max(len(c) for c in cosine_lists)
    if width < 2:
        raise DataError("rows need cos(S,T) and at least one distractor cosine", file=str(path))
    cosines = np.full((len(ids), width), np.nan)
    for row, values in enumerate(cosine_lists):
        cosines[row, : len(values)] = values
    return TaskPredictions(run=run, task_name=task_name, ids=ids, cosines=cosines)


__all__ = ["PREDICTIONS_SUFFIX", "SPLIT", "SUBSET", "ModelRun", "TaskPredictions", "read_predictions"]
