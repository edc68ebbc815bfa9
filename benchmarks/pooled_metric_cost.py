"""What does ``pooled_recall_at_1`` cost, next to the evaluation it is part of?

For one task (default: CLSD-WMT19-DE-FR, the largest split), in one process:
  (e) encoding, as the evaluator does it (batch-invariant: one text per batch): timed on the distinct
      texts of the first ``--encode-rows`` rows, then scaled linearly to the full split's distinct texts
      (encoding is linear in the number of texts; encoding the whole split takes minutes);
  (s) the evaluator's scoring on the *full* split (``score_rows``: one matrix of distinct source x
      distinct candidate vectors, every row's five cosines and its pooled hit read from it), with
      random unit vectors of the model's dimension (its cost depends on the counts, not the values);
  (f) the five-candidate cosines alone (one gathered dot product per row and slot), what scoring would
      cost without the pooled metric.
Prints the times and the pooled metric's share of the whole evaluation, (s - f) / (e + s); the last
line is ``pooled_share=<ratio>``. Target: < 0.05.

    python benchmarks/pooled_metric_cost.py                          # all-MiniLM-L6-v2, WMT19 DE-FR
    python benchmarks/pooled_metric_cost.py --encode-rows 100
    python benchmarks/pooled_metric_cost.py --quick       # the fixture data, 4 rows encoded, scoring once
"""

from __future__ import annotations

import argparse
import os
import time

from _common import FIXTURE_DATA, add_quick, announce_quick

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="CLSD-WMT19-DE-FR")
    parser.add_argument("--encode-rows", type=int, default=60)
    parser.add_argument("--model", default="sentence-transformers/all-MiniLM-L6-v2")
    parser.add_argument(
        "--data-dir", default=None, help="as `clsd evaluate --data-dir` (default: CLSD_DATA_DIR, else the release)"
    )
    parser.add_argument("--repeat", type=int, default=5, help="scoring repetitions (the fastest counts)")
    add_quick(parser)
    args = parser.parse_args()
    if args.quick:
        args.data_dir, args.encode_rows, args.repeat = args.data_dir or str(FIXTURE_DATA), 4, 1
        announce_quick(f"{args.task} of {args.data_dir}, 4 rows encoded, scoring once")

    import numpy as np

    import clsd_mteb
    from clsd_mteb.encoding import raw_embeddings
    from clsd_mteb.metrics import distinct_unit_vectors, score_rows
    from clsd_mteb.models import load_embedding_model

    task = clsd_mteb.get_tasks([args.task], data_dir=args.data_dir)[0]
    task.load_data()
    assert task.dataset is not None
    data = task.dataset["test"]
    sources, targets, distractors = data["source"], data["target"], data["distractors"]
    unique = sorted({*sources, *targets, *(d for ds in distractors for d in ds)})
    rows = data.select(range(min(args.encode_rows, len(data))))
    sample = sorted({*rows["source"], *rows["target"], *(d for ds in rows["distractors"] for d in ds)})
    encoder = load_embedding_model(args.model)

    start = time.perf_counter()
    raw = raw_embeddings(
        encoder, sample, task_metadata=task.metadata, hf_split="test", hf_subset="default",
        encode_kwargs={"batch_size": 32}, num_proc=None, exact=False,
    )  # fmt: skip
    encoding = (time.perf_counter() - start) * len(unique) / len(sample)

    random = np.random.default_rng(0).normal(size=(len(unique), raw.shape[1]))
    unit, vector_of_text = distinct_unit_vectors(random, unique, args.task)
    vector = dict(zip(unique, vector_of_text.tolist(), strict=True))
    source_ids = np.array([vector[s] for s in sources])
    candidates = np.array([[vector[t], *(vector[d] for d in ds)] for t, ds in zip(targets, distractors, strict=True)])

    def fastest(step) -> float:
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            step()
            times.append(time.perf_counter() - start)
        return min(times)

    scoring = fastest(lambda: score_rows(unit, source_ids, candidates))
    five_only = fastest(lambda: np.einsum("nd,nkd->nk", unit[source_ids], unit[candidates]))
    share = (scoring - five_only) / (encoding + scoring)
    print(f"task={args.task} rows={len(sources)} distinct_texts={len(unique)} model={args.model}")
    print(f"encoded {len(sample)} texts; encoding_s (scaled to {len(unique)} texts)={encoding:.2f}")
    print(f"scoring_with_pooled_s={scoring:.4f} five_candidates_only_s={five_only:.4f}")
    print(f"pooled_share={share:.4f}")


if __name__ == "__main__":
    main()
