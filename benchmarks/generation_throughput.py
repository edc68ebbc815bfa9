"""Throughput of live LLM generation against a local fake endpoint with a fixed answer delay.

The whole generation path runs (prompt, openai client, parsing, validation, checkpoint write per
answer); only the endpoint is fake: ``python -m tests.helpers.fake_openai --lean``, in its own process
so that it does not share this one's interpreter lock. With C requests in flight and every answer
taking ``delay`` seconds, the ideal is C / delay answers per second; the figure reported is the
measured rate over that ideal.

    python benchmarks/generation_throughput.py --concurrency 32 --delay 0.1 --requests 3200
    python benchmarks/generation_throughput.py --quick      # 4 in flight, 32 answers, 20 ms each: seconds

Last line: ``throughput_efficiency=<x>`` (at concurrency C). Target: >= 0.9 at C=32, delay 0.1 s.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import openai  # noqa: F401  (imported before timing: its import takes seconds and is not throughput)
from _common import add_quick, helper_process, quick_settings

from clsd_format.languages import parse_language
from clsd_generation.core.inputs import read_parallel
from clsd_generation.core.settings import LLMSettings
from clsd_generation.run.backends import LLMBackend
from clsd_generation.run.loop import RunOptions, generate_distractors

QUICK = {"concurrency": 4, "delay": 0.02, "requests": 32, "requests_serial": 4}


def measure(base_url: str, concurrency: int, requests: int, folder: Path) -> float:
    """Answers per second for ``requests`` sentences (half German, half French) at ``concurrency``."""
    pairs = requests // 2
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"parallel-{concurrency}.csv"
    path.write_text(
        "de,fr\n"
        + "".join(f"Der Hund Nummer {i} beißt den Mann im Park,Le chien numéro {i} mord l'homme au parc\n" for i in range(pairs)),
        encoding="utf-8",
    )
    corpus = read_parallel(path, ("de", "fr"))
    settings = LLMSettings(model="fake-model", base_url=base_url, concurrency=concurrency, timeout=30.0, max_retries=2)
    start = time.perf_counter()
    report = generate_distractors(
        corpus,
        (parse_language("de"), parse_language("fr")),
        folder / f"run-{concurrency}",
        LLMBackend(settings),
        options=RunOptions(progress=False),
    )
    elapsed = time.perf_counter() - start
    answered = report.ok + report.failed
    if answered != 2 * pairs:
        raise SystemExit(f"only {answered} of {2 * pairs} sentences answered: {report.lines()}")
    return answered / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--concurrency", type=int, default=32, help="requests in flight (C)")
    parser.add_argument("--delay", type=float, default=0.1, help="seconds the fake endpoint takes per answer")
    parser.add_argument(
        "--requests",
        type=int,
        default=3200,
        help="answers to request at concurrency C (100 rounds at C=32: start-up and the last, part-full round weigh little)",
    )
    parser.add_argument("--requests-serial", type=int, default=20, help="answers to request at concurrency 1")
    add_quick(parser)
    args = parser.parse_args()
    quick_settings(args, QUICK)
    os.environ.setdefault("OPENAI_API_KEY", "benchmark")
    with helper_process("fake_openai", "--lean", "--delay", str(args.delay)) as base_url, tempfile.TemporaryDirectory() as tmp:
        measure(base_url, 2, 4, Path(tmp) / "warm-up")  # first requests build the client's models
        serial = measure(base_url, 1, args.requests_serial, Path(tmp))
        parallel = measure(base_url, args.concurrency, args.requests, Path(tmp))
    ideal_serial, ideal = 1 / args.delay, args.concurrency / args.delay
    print(f"concurrency 1: {serial:.1f} answers/s (ideal {ideal_serial:.1f}, efficiency {serial / ideal_serial:.3f})")
    print(f"concurrency {args.concurrency}: {parallel:.1f} answers/s (ideal {ideal:.1f}, efficiency {parallel / ideal:.3f})")
    print(f"throughput_efficiency={parallel / ideal:.3f}")


if __name__ == "__main__":
    main()
