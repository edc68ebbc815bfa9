"""The difficulty of a built dataset: P@1 of the character n-gram baseline and the default model, beside the release's.

``clsd build`` scores every set it writes this way (``--no-score`` skips it) and the card shows the figures
next to the same models' P@1 on the authors' release (:data:`REFERENCE_FILE`, measured once by
``scripts/write_reference_scores.py`` and shipped with the package, so a build needs no release at hand).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from clsd_format import defaults
from clsd_format.difficulty import Difficulty, DifficultyScore

REFERENCE_FILE = Path(__file__).with_name("reference_scores.json")


def reference_models() -> tuple[str, ...]:
    """The models a card is scored with: the baseline that knows no language, and the default model."""
    from clsd_mteb.baselines import CHAR_NGRAM_NAME
    from clsd_mteb.models import DEFAULT_MODEL_NAME

    return (CHAR_NGRAM_NAME, DEFAULT_MODEL_NAME)


def score_folder(
    folder: Path, models: Sequence[str] | None = None, batch_size: int = defaults.BATCH_SIZE
) -> list[DifficultyScore]:
    """P@1 of each model on each task of a Hub-format folder (nothing is written to a result cache)."""
    import mteb

    from clsd_mteb.models import load_registered
    from clsd_mteb.tasks import get_tasks

    tasks = get_tasks(data_dir=folder)
    scores = []
    for name in models or reference_models():
        result = mteb.evaluate(
            load_registered(name), tasks, cache=None, encode_kwargs={"batch_size": batch_size}, show_progress_bar=False
        )
        for task_result in result.task_results:
            entry = task_result.scores["test"][0]
            scores.append(DifficultyScore(name, task_result.task_name, float(entry["precision_at_1"]), int(entry["num_rows"])))
    return scores


def release_reference() -> tuple[tuple[DifficultyScore, ...], str]:
    """The reference models' P@1 on the release's direct tasks, and how they were measured."""
    stored = json.loads(REFERENCE_FILE.read_text(encoding="utf-8"))
    scores = tuple(DifficultyScore(**entry) for entry in stored["scores"])
    return scores, stored["measured"]


def difficulty_of(folder: Path, batch_size: int = defaults.BATCH_SIZE) -> Difficulty:
    """What ``clsd build`` writes into the card: the folder's scores and the release's for the same models."""
    reference, source = release_reference()
    return Difficulty(tuple(score_folder(folder, batch_size=batch_size)), reference, source)
