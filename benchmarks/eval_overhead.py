"""How much does the MTEB plumbing cost on top of the encoding it cannot avoid?

In one process, with one loaded model:
  (b) encode every distinct text of the eight tasks once, straight through the model, same batch size
      (timed before and after (a), and averaged, so that a drift in machine speed biases neither side);
  (a) the whole eight-task evaluation as ``clsd evaluate`` runs it (``clsd_mteb.run.evaluate_tasks``:
      mteb.evaluate, shared embedding cache, results and predictions written to a temporary folder).
Prints both times and their ratio; the last line is ``overhead_ratio=<a/b>``. Target: <= 1.05 on the full data.

(b) is "the model's own encode": ``SentenceTransformer.encode`` for a sentence-transformers model,
otherwise the encoder's own ``encode`` on one loader of all distinct texts (query prompt type, as the
evaluator asks), without mteb.evaluate and without the shared cache. It batches as the evaluator does:
the requested batch size, or with ``--exact`` one text per batch for a model that is not
batch-invariant, in both (a) and (b), so the ratio measures plumbing, not a batching difference.
Any ``--model`` that
``clsd evaluate`` takes works, an OpenAI-compatible endpoint (``endpoint:MODEL@URL``) included.

    python benchmarks/eval_overhead.py                 # full data, embedded default model
    python benchmarks/eval_overhead.py --limit 50      # first 50 rows of each dataset
    python benchmarks/eval_overhead.py --quick         # first 4 rows of the fixture data
    python benchmarks/eval_overhead.py --model sentence-transformers/all-MiniLM-L6-v2 --limit 50
    OPENAI_API_KEY=none python benchmarks/eval_overhead.py --model endpoint:multilingual-e5-small-q4@http://127.0.0.1:8000/v1
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from _common import FIXTURE_DATA, add_quick, announce_quick

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
QUICK_ROWS = 4


def distinct_texts(tasks) -> list[str]:
    texts: dict[str, None] = {}
    for task in tasks:
        data = task.evaluated_rows()  # a trial's (--limit) first rows, or the task's
        texts.update(dict.fromkeys(data["source"]))
        texts.update(dict.fromkeys(data["target"]))
        texts.update(dict.fromkeys(d for ds in data["distractors"] for d in ds))
        task.unload_data()
    return list(texts)


def own_encoder(encoder, task_metadata, batch_size: int):
    """The model's own encode of a list of texts (see the module docstring for what that is per model kind)."""
    from sentence_transformers import SentenceTransformer

    model = getattr(encoder, "model", None)
    if isinstance(model, SentenceTransformer):
        return lambda texts: model.encode(texts, batch_size=batch_size, convert_to_numpy=True)

    def encode(texts: list[str]):
        from datasets import Dataset
        from mteb.types import PromptType
        from torch.utils.data import DataLoader

        loader = DataLoader(Dataset.from_dict({"text": texts}), batch_size=batch_size)
        return encoder.encode(
            loader, task_metadata=task_metadata, hf_split="test", hf_subset="default", prompt_type=PromptType.query
        )

    return encode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default=None, help="as `clsd evaluate --model` (default: the embedded default model)")
    parser.add_argument("--limit", type=int, default=None, help="first N rows of each dataset")
    parser.add_argument(
        "--data-dir", default=None, help="as `clsd evaluate --data-dir` (default: CLSD_DATA_DIR, else the release)"
    )
    parser.add_argument("--batch-size", type=int, default=None, help="default: the CLI's")
    parser.add_argument("--exact", action="store_true", help="one text per batch, as `clsd evaluate --exact`")
    add_quick(parser)
    args = parser.parse_args()
    if args.quick:
        args.data_dir, args.limit = args.data_dir or str(FIXTURE_DATA), QUICK_ROWS
        announce_quick(f"first {QUICK_ROWS} rows of each task of {args.data_dir}")

    import clsd_mteb
    from clsd_format.defaults import BATCH_SIZE
    from clsd_mteb.encoding import encodes_one_by_one
    from clsd_mteb.models import load_model
    from clsd_mteb.run import evaluate_tasks

    batch_size = args.batch_size or BATCH_SIZE
    encoder = load_model(args.model, device="cpu")
    # (b) batches as the evaluator will
    own_batch_size = 1 if encodes_one_by_one(encoder, args.exact) else batch_size
    tasks = clsd_mteb.get_tasks(data_dir=args.data_dir, limit=args.limit)
    texts = distinct_texts(tasks)
    own_encode = own_encoder(encoder, tasks[0].metadata, own_batch_size)
    own_encode(texts[:batch_size])  # warm-up: first-call allocations count for neither

    def encode_only() -> float:
        start = time.perf_counter()
        own_encode(texts)
        return time.perf_counter() - start

    # (b) before and after (a): a machine whose speed drifts during the run biases neither side
    before = encode_only()
    tasks = clsd_mteb.get_tasks(data_dir=args.data_dir, limit=args.limit, exact=args.exact)
    with tempfile.TemporaryDirectory() as output:
        start = time.perf_counter()
        evaluate_tasks(encoder, tasks, Path(output), batch_size=batch_size, show_progress_bar=False)
        whole = time.perf_counter() - start
    after = encode_only()
    baseline = (before + after) / 2

    print(f"distinct texts over the eight tasks: {len(texts)}")
    print(f"(b) encode each distinct text once: {before:.2f} s before (a), {after:.2f} s after; mean {baseline:.2f} s")
    print(f"(a) eight-task evaluation through mteb.evaluate (CLI defaults): {whole:.2f} s")
    print(f"overhead_ratio={whole / baseline:.3f}")


if __name__ == "__main__":
    main()
