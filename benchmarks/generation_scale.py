"""Does `clsd generate` cost the same per sentence on a corpus of 1,000 sentences as on 100,000?

Runs each backend on corpora of growing size and prints, per backend and size, the milliseconds per
sentence (wall and the client's own CPU), the peak resident memory of the client process, and the
same for a resumed run's start-up (the same command again on the finished run folder: reading the
input and the checkpoint). Then, per backend, the ratio of the largest size's per-sentence cost to
the smallest's: 1.0 is a cost that grows with the corpus, not faster (target: at most 1.3).

* ``live``: the live LLM path against a stand-in endpoint answering every request at once
  (``python -m tests.helpers.fake_openai --lean`` in its own process; concurrency 32);
* ``batch``: the Batch API path against the same stand-in's Batch API (upload, create, poll, download);
* ``rules``: the rule backend (offline taggers), with no endpoint.

The sentences are the release's WMT19 and WMT21 German-French pairs (2,366), repeated for the larger
sizes, each copy numbered so that every pair is distinct. A size counts
sentences of both languages (1,000 sentences = 500 pairs). Each size runs in a fresh process, so its
peak memory is its own.

    python benchmarks/generation_scale.py path/to/clsd-release            # 1,000 and 10,000 sentences
    python benchmarks/generation_scale.py path/to/clsd-release --full     # and 100,000
    python benchmarks/generation_scale.py --quick                         # 40 sentences of the fixture data
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from _common import FIXTURE_DATA, add_quick, announce_quick, helper_process

RELEASE_FILES = ("CLSD_wmt2019_adversarial_dataset.csv", "CLSD_wmt2021_adversarial_dataset.csv")
BACKENDS = ("live", "batch", "rules")
SIZES = (1_000, 10_000)
FULL_SIZE = 100_000
QUICK_SIZE = 40  # sentences: 20 pairs of the fixture data, each backend once
TARGET_RATIO = 1.3


def write_corpus(release: Path, sentences: int, path: Path) -> None:
    """``sentences`` / 2 distinct German-French pairs from the release, each ending with the number of its copy.

    The release's pairs are taken in one seeded random order, so that a small corpus is a sample of the same mix
    as a large one. Every sentence ends with "[1]", "[2]"...: a copy number in brackets keeps the pairs distinct
    (the input check refuses a repeated pair) and is no list number to the answer parser.
    """
    pairs: list[tuple[str, str]] = []
    for name in RELEASE_FILES:
        with open(release / name, encoding="utf-8", newline="") as handle:
            pairs.extend((row["German"], row["French"]) for row in csv.DictReader(handle))
    random.Random(0).shuffle(pairs)
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(("de", "fr"))
        for n in range(sentences // 2):
            german, french = pairs[n % len(pairs)]
            copy = n // len(pairs) + 1
            writer.writerow((f"{german} [{copy}]", f"{french} [{copy}]"))


@contextmanager
def stand_in(backend: str) -> Iterator[str | None]:
    """The stand-in endpoint's base URL in its own process (lean asyncio server for live), or None for the rules."""
    if backend == "rules":
        yield None
        return
    with helper_process("fake_openai", *(["--lean"] if backend == "live" else [])) as base_url:
        yield base_url


def make_backend(backend: str, base_url: str | None) -> Any:
    from clsd_generation.core.settings import BatchSettings, LLMSettings
    from clsd_generation.run.backends import LLMBackend, RuleBackend

    if backend == "rules" or base_url is None:
        return RuleBackend()
    llm = LLMSettings(model="fake-model", base_url=base_url, concurrency=32, timeout=600.0, max_retries=2)
    return LLMBackend(llm, batch=BatchSettings(poll_interval=0.05) if backend == "batch" else None)


def timed(run: Any) -> tuple[Any, float, float]:
    """``run()``'s result, its wall seconds and this process's CPU seconds."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = run()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def measure_one(backend: str, sentences: int, release: Path) -> dict[str, Any]:
    """One backend at one size, in this process: the run, then the resumed run's start-up."""
    import openai  # noqa: F401  (imported before timing: its import is not per-sentence work)

    from clsd_format.languages import parse_language
    from clsd_generation.core.inputs import read_parallel
    from clsd_generation.run.loop import RunOptions, generate_distractors

    languages = (parse_language("de"), parse_language("fr"))
    os.environ.setdefault("OPENAI_API_KEY", "benchmark")
    with tempfile.TemporaryDirectory() as folder, stand_in(backend) as base_url:
        write_corpus(release, sentences, Path(folder) / "corpus.csv")
        corpus = read_parallel(Path(folder) / "corpus.csv", ("de", "fr"))
        chosen = make_backend(backend, base_url)
        run_dir, options = Path(folder) / "run", RunOptions(progress=False)
        report, wall, cpu = timed(lambda: generate_distractors(corpus, languages, run_dir, chosen, options=options))
        rss_run = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        again, resume_wall, resume_cpu = timed(lambda: generate_distractors(corpus, languages, run_dir, chosen, options=options))
        batches = len(_batch_ids(run_dir))
    if report.ok + report.failed != sentences or again.done_before != sentences:
        raise SystemExit(f"{backend} at {sentences}: not every sentence settled: {report.lines()}")
    return {
        "backend": backend,
        "sentences": sentences,
        "ms": 1000 * wall / sentences,
        "cpu_ms": 1000 * cpu / sentences,
        "resume_ms": 1000 * resume_wall / sentences,
        "resume_cpu_ms": 1000 * resume_cpu / sentences,
        "peak_rss_mb": rss_run,
        "ok": report.ok,
        "failed": report.failed,
        "batches": batches,
    }


def _batch_ids(run_dir: Path) -> list[str]:
    import sqlite3

    with sqlite3.connect(run_dir / "checkpoint.sqlite") as db:
        return [row[0] for row in db.execute("SELECT batch_id FROM batches")]


def print_table(rows: list[dict[str, Any]]) -> None:
    print("| backend | sentences | ms/sentence (wall) | ms/sentence (client CPU) | resumed start-up, ms/sentence | peak RSS |")
    print("| --- | --- | --- | --- | --- | --- |")
    for row in rows:
        print(
            f"| {row['backend']} | {row['sentences']:,} | {row['ms']:.2f} | {row['cpu_ms']:.2f} | "
            f"{row['resume_ms']:.3f} | {row['peak_rss_mb']:.0f} MB |"
        )
    print()
    for backend in dict.fromkeys(row["backend"] for row in rows):
        own = sorted((row for row in rows if row["backend"] == backend), key=lambda row: row["sentences"])
        if len(own) < 2:
            continue
        small, large = own[0], own[-1]
        ratios = {key: large[key] / small[key] for key in ("ms", "cpu_ms", "resume_ms")}
        verdict = "within" if max(ratios["ms"], ratios["cpu_ms"]) <= TARGET_RATIO else "above"
        print(
            f"{backend}: {large['sentences']:,} / {small['sentences']:,} sentences, per-sentence ratio "
            f"wall {ratios['ms']:.2f}, client CPU {ratios['cpu_ms']:.2f} ({verdict} the target {TARGET_RATIO}); "
            f"resumed start-up {ratios['resume_ms']:.2f}; batches {large['batches']}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "release",
        type=Path,
        nargs="?",
        help="folder of the CLSD release (its WMT19 and WMT21 files are the sentences); with --quick, the fixture data by default",
    )
    parser.add_argument("--full", action="store_true", help=f"add {FULL_SIZE:,} sentences (minutes per backend)")
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES), help="corpus sizes in sentences")
    parser.add_argument("--backends", nargs="+", choices=BACKENDS, default=list(BACKENDS))
    parser.add_argument("--one", nargs=2, metavar=("BACKEND", "SIZE"), help=argparse.SUPPRESS)  # a child process's measurement
    add_quick(parser)
    args = parser.parse_args()
    if args.quick:
        args.release, args.sizes, args.full = args.release or FIXTURE_DATA, [QUICK_SIZE], False
        announce_quick(f"{QUICK_SIZE} sentences per backend from {args.release}")
    if args.release is None:
        parser.error("the release folder is required (or --quick)")
    if args.one:
        print(json.dumps(measure_one(args.one[0], int(args.one[1]), args.release)), flush=True)
        return
    sizes = sorted(set(args.sizes) | ({FULL_SIZE} if args.full else set()))
    rows = []
    for backend in args.backends:
        for size in sizes:
            child = [sys.executable, __file__, str(args.release), "--one", backend, str(size)]
            output = subprocess.run(child, check=True, stdout=subprocess.PIPE, text=True).stdout
            rows.append(json.loads(output.strip().splitlines()[-1]))
            print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    print_table(rows)


if __name__ == "__main__":
    main()
