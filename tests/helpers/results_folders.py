"""Small results folders built in a test's folder, as `clsd evaluate --output` lays them out.

:func:`write_result` writes one model's result and per-row predictions on one task by hand (row i a hit
where the pattern has a 1, a miss a tie, as always), naming the dataset revision the result was computed
on; :func:`evaluate_toy` runs the char-ngram baseline for real on a toy Hub-format dataset
(:func:`tests.helpers.corpora.toy_hub_folder`), as `clsd evaluate --data-dir` does.
"""

from __future__ import annotations

import json
from pathlib import Path

from clsd_mteb.trials import trial_split

MTEB_VERSION = "2.26.24"


def write_predictions(root: Path, model: str, task: str, pattern: str, *, revision: str = "rev", split: str = "test") -> Path:
    """A prediction file whose row ``r<i>`` is a hit where ``pattern[i]`` is 1 (a miss is a tie: a miss, as always)."""
    folder = root / "predictions" / model.replace("/", "__") / revision
    folder.mkdir(parents=True, exist_ok=True)
    records = [
        {"id": f"r{i}", "cosines": [0.9, 0.1 if c == "1" else 0.9], "rank": 1 if c == "1" else 2} for i, c in enumerate(pattern)
    ]
    path = folder / f"{task}_predictions.json"
    path.write_text(json.dumps({"default": {split: records}}), encoding="utf-8")
    return path


def write_result(
    root: Path,
    model: str,
    task: str,
    pattern: str,
    *,
    dataset_revision: str = "data-rev",
    revision: str = "rev",
    trial: int | None = None,
) -> Path:
    """A result file of ``model`` on ``task`` (P@1 from ``pattern``) and its prediction file; a trial's under its own split.

    Returns the result file.
    """
    split = "test" if trial is None else trial_split(trial)
    write_predictions(root, model, task, pattern, revision=revision, split=split)
    p1 = pattern.count("1") / len(pattern)
    entry = {
        "precision_at_1": p1,
        "mrr": (1 + p1) / 2,
        "mean_rank": 2 - p1,
        "distractor_1_win_rate": 1 - p1,
        "num_rows": len(pattern),
        "main_score": p1,
        "hf_subset": "default",
        "languages": ["deu-Latn", "fra-Latn"],
    }
    payload = {
        "dataset_revision": dataset_revision if trial is None else f"{dataset_revision}-limit{trial}",
        "task_name": task,
        "mteb_version": MTEB_VERSION,
        "scores": {split: [entry]},
        "evaluation_time": 0.1,
        "kg_co2_emissions": None,
    }
    folder = root / "results" / model.replace("/", "__") / revision
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{task}.json"
    path.write_text(json.dumps(payload, indent=2), encoding="utf-8")
    return path


def evaluate_toy(dataset: Path, output: Path, model: str = "clsd-baselines/char-ngram-tf", *, limit: int | None = None) -> Path:
    """A baseline evaluated on every task of a Hub-format folder into ``output`` (a trial with ``limit``), as `clsd evaluate` does."""
    import clsd_mteb
    from clsd_mteb.models import load_model
    from clsd_mteb.run import evaluate_tasks

    evaluate_tasks(load_model(model), clsd_mteb.get_tasks(data_dir=dataset, limit=limit), output, show_progress_bar=False)
    return output
