"""Write the release's P@1 of the card's reference models, the file shipped as ``clsd_mteb/reference_scores.json``.

A maintainer's tool, run from a checkout after the pinned release, the evaluator or a reference model changes::

    python scripts/write_reference_scores.py --data-dir <folder with the release CSVs>

``clsd build`` prints these figures in every card beside the built set's own (:mod:`clsd_mteb.difficulty_scores`).
"""

from __future__ import annotations

import argparse
import datetime
import json
from pathlib import Path

import clsd_mteb
from clsd_format.release import COMMIT
from clsd_mteb.benchmark import DIRECT_TASK_NAMES
from clsd_mteb.difficulty_scores import REFERENCE_FILE, reference_models
from clsd_mteb.evaluator import EVALUATOR_VERSION


def main() -> None:
    parser = argparse.ArgumentParser(description="Score the release's direct tasks with the card's reference models.")
    parser.add_argument("--data-dir", required=True, help="a folder holding the release CSVs")
    parser.add_argument("--out", type=Path, default=REFERENCE_FILE, help="default: the file shipped in clsd_mteb")
    args = parser.parse_args()

    import mteb

    from clsd_mteb.models import load_registered

    tasks = clsd_mteb.get_tasks(DIRECT_TASK_NAMES, data_dir=args.data_dir)
    scores = []
    for name in reference_models():
        result = mteb.evaluate(
            load_registered(name), tasks, cache=None, encode_kwargs={"batch_size": 32}, show_progress_bar=False
        )
        for task_result in result.task_results:
            entry = task_result.scores["test"][0]
            scores.append(
                {
                    "model": name,
                    "task": task_result.task_name,
                    "precision_at_1": entry["precision_at_1"],
                    "rows": entry["num_rows"],
                }
            )
    measured = (
        f"clsd-mteb {clsd_mteb.__version__}, evaluator version {EVALUATOR_VERSION}, batches of 32, release commit {COMMIT[:7]}, "
        f"{datetime.date.today().isoformat()} (python scripts/write_reference_scores.py)"
    )
    args.out.write_text(json.dumps({"measured": measured, "scores": scores}, indent=1) + "\n", encoding="utf-8")
    print(args.out)


if __name__ == "__main__":
    main()
