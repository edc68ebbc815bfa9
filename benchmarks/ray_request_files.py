"""A round's requests through Ray Data's HTTP request processor against the live client, on the same stand-in server.

The stand-in is ``python -m tests.helpers.fake_openai --lean`` (every answer ``good`` after ``delay`` seconds), in a
process of its own. The same corpus is asked twice: live (``clsd generate``'s client, ``concurrency`` requests in
flight, each answer judged and stored as it comes) and through a request file answered by
:func:`clsd_generation.llm.ray_batch.answer_requests` on a local Ray cluster (``concurrency`` Ray workers), then read
back with ``--answers``. Reported: requests per second of each (the Ray path from the request file written to the
answers stored), their ratio, and the Ray path's fixed cost: starting the cluster, and a job of one request.

    python benchmarks/ray_request_files.py --concurrency 2 --delay 0.1 --requests 400
    python benchmarks/ray_request_files.py --quick      # 2 in flight, 8 requests, 20 ms each: seconds

Last line: ``ray_over_live=<x>`` (requests per second through Ray over live, at the same concurrency).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import openai  # noqa: F401  (imported before timing: its import takes seconds and is not throughput)
from _common import add_quick, helper_process, quick_settings, skip

from clsd_format.extras import missing_modules
from clsd_format.languages import parse_language
from clsd_generation.core.inputs import read_parallel
from clsd_generation.core.settings import LLMSettings, RequestFiles
from clsd_generation.run.backends import LLMBackend
from clsd_generation.run.loop import RunOptions, generate_distractors

QUICK = {"concurrency": 2, "delay": 0.02, "requests": 8}
LANGUAGES = (parse_language("de"), parse_language("fr"))


def corpus(folder: Path, requests: int) -> Path:
    """``requests`` sentences: half as many German-French pairs, each answered in one request."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "parallel.csv"
    rows = (
        f"Der Hund Nummer {i} beißt den Mann im Park,Le chien numéro {i} mord l'homme au parc\n" for i in range(requests // 2)
    )
    path.write_text("de,fr\n" + "".join(rows), encoding="utf-8")
    return path


def live(base_url: str, concurrency: int, pairs: Path, run_dir: Path) -> float:
    """Requests per second of the live client, every answer judged and stored."""
    settings = LLMSettings(model="fake-model", base_url=base_url, concurrency=concurrency, timeout=30.0, max_retries=2)
    start = time.perf_counter()
    report = generate_distractors(read_parallel(pairs, ("de", "fr")), LANGUAGES, run_dir, LLMBackend(settings),
                                  options=RunOptions(progress=False))  # fmt: skip
    elapsed = time.perf_counter() - start
    return (report.ok + report.failed) / elapsed


def through_ray(base_url: str, concurrency: int, pairs: Path, run_dir: Path) -> float:
    """Requests per second from the request file written to its answers stored, answered by Ray Data."""
    from clsd_generation.llm.ray_batch import HttpEndpoint, answer_requests

    sentences = read_parallel(pairs, ("de", "fr"))
    settings = LLMSettings(model="fake-model")
    start = time.perf_counter()
    requests, answers = run_dir.parent / f"{run_dir.name}-requests.jsonl", run_dir.parent / f"{run_dir.name}-answers.jsonl"
    generate_distractors(sentences, LANGUAGES, run_dir, LLMBackend(settings, files=RequestFiles(requests, None)),
                         options=RunOptions(progress=False))  # fmt: skip
    done = answer_requests(requests, answers, HttpEndpoint(base_url, concurrency=concurrency))
    report = generate_distractors(sentences, LANGUAGES, run_dir, LLMBackend(settings, files=RequestFiles(None, answers)),
                                  options=RunOptions(progress=False))  # fmt: skip
    elapsed = time.perf_counter() - start
    if report.ok + report.failed != done.requests:
        raise SystemExit(f"{done.requests} requests, but {report.ok + report.failed} sentences settled: {report.lines()}")
    return done.requests / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--concurrency", type=int, default=2, help="requests in flight (live) and Ray workers (Ray)")
    parser.add_argument("--delay", type=float, default=0.1, help="seconds the stand-in server takes per answer")
    parser.add_argument("--requests", type=int, default=400, help="requests of each path (sentences, one answer each)")
    add_quick(parser)
    args = parser.parse_args()
    quick_settings(args, QUICK)
    if missing_modules("ray"):
        skip(f"the ray extra is not installed ({', '.join(missing_modules('ray'))}): pip install 'clsd-mteb[ray]'")
    import ray

    os.environ.setdefault("OPENAI_API_KEY", "benchmark")
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")  # a cluster of this process on 127.0.0.1
    with helper_process("fake_openai", "--lean", "--delay", str(args.delay)) as base_url, tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        pairs = corpus(folder, args.requests)
        live(base_url, 2, corpus(folder / "warm", 4), folder / "warm" / "run")  # the client's first requests build its models
        live_rate = live(base_url, args.concurrency, pairs, folder / "live")
        start = time.perf_counter()
        ray.init(
            num_cpus=max(2, args.concurrency + 1), include_dashboard=False, _temp_dir=str(folder / "ray"), log_to_driver=False
        )
        started = time.perf_counter() - start
        try:
            one = folder / "one"
            start = time.perf_counter()
            through_ray(base_url, 1, corpus(one, 2), one / "run")
            first_job = time.perf_counter() - start
            ray_rate = through_ray(base_url, args.concurrency, pairs, folder / "ray-run")
        finally:
            ray.shutdown()
    print(f"live client, concurrency {args.concurrency}: {live_rate:.1f} requests/s")
    print(f"Ray Data, {args.concurrency} workers: {ray_rate:.1f} requests/s (request file written, answered, read back)")
    print(f"Ray fixed cost: {started:.1f} s to start a local cluster, {first_job:.1f} s for a job of 2 requests")
    print(f"ray_over_live={ray_rate / live_rate:.3f}")


if __name__ == "__main__":
    main()
