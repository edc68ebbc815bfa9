"""`clsd generate` against a real local LLM server, side by side with the same requests sent straight to it.

Starts llama-cpp-python's OpenAI-compatible server with SmolLM2-135M-Instruct (``make setup`` installs both; see
tests/helpers/llama_server.py) and takes the first N sentence pairs of the release's WMT19 file in blocks of B
pairs. Each block is asked twice, in alternating order: by a plain HTTP loop sending each request body one at a
time (what the server gives with nothing in between), and by ``clsd generate --backend llm`` (validated protocol,
one answer per sentence) in a fresh run folder at the same concurrency. Both send the same request bodies
(:func:`clsd_generation.llm.live.chat_request_body`). Per block, the completion tokens per second of each, and
the ratio of clsd's to the loop's; then the ratio over all blocks (total tokens over total seconds of each) and
the spread of the block ratios. Alternating in one run puts both under the same machine load, which a probe
taken minutes apart does not. Not part of CI (minutes per run on a CPU).

    python benchmarks/real_llm.py path/to/clsd-release --sentences 24 --block 2
    python benchmarks/real_llm.py --quick      # one pair of the fixture data, one block, answers of up to 32 tokens
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from _common import FIXTURE_DATA, REPO_ROOT, add_quick, announce_quick, skip

from clsd_format.languages import parse_language
from clsd_generation.core.inputs import ParallelCorpus, read_parallel
from clsd_generation.core.settings import LLMSettings
from clsd_generation.jobs.state import JobState, make_jobs
from clsd_generation.llm.live import chat_request_body
from clsd_generation.llm.prompts import PromptSettings
from clsd_generation.run.backends import LLMBackend
from clsd_generation.run.loop import RunOptions, generate_distractors

sys.path.insert(0, str(REPO_ROOT))  # the real-server tests' own helper, a module of the repository's tests package
from tests.helpers.llama_server import MODEL_NAME, llama_server, missing

LANGUAGES = (parse_language("de"), parse_language("fr"))


def direct(base_url: str, corpus: ParallelCorpus, llm: LLMSettings) -> tuple[int, float]:
    """Completion tokens and seconds for every sentence of ``corpus``, one request at a time, no clsd in between."""
    tokens, start = 0, time.perf_counter()
    for job in make_jobs(corpus.pairs, LANGUAGES):
        body = chat_request_body(llm, PromptSettings(), JobState(job))
        request = urllib.request.Request(
            f"{base_url}/chat/completions", json.dumps(body).encode(), {"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=llm.timeout) as response:
            tokens += json.load(response)["usage"]["completion_tokens"]
    return tokens, time.perf_counter() - start


def through_clsd(corpus: ParallelCorpus, llm: LLMSettings, folder: Path) -> tuple[int, float]:
    """Completion tokens and seconds of ``clsd generate`` on ``corpus`` (one answer per sentence) in a fresh run folder."""
    start = time.perf_counter()
    report = generate_distractors(corpus, LANGUAGES, folder, LLMBackend(llm), options=RunOptions(1, progress=False))
    return report.usage.completion_tokens, time.perf_counter() - start


def block_corpus(rows: list[dict[str, str]], folder: Path) -> ParallelCorpus:
    path = folder / "block.csv"
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=["Index", "German", "French"])
        writer.writeheader()
        writer.writerows({key: row[key] for key in ("Index", "German", "French")} for row in rows)
    return read_parallel(path, ("German", "French"), id_column="Index")


def measure_block(base_url: str, rows: list[dict[str, str]], number: int, llm: LLMSettings) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        corpus = block_corpus(rows, Path(folder))
        order = ("direct", "clsd") if number % 2 == 0 else ("clsd", "direct")  # alternate which goes first
        measured = {
            mode: direct(base_url, corpus, llm) if mode == "direct" else through_clsd(corpus, llm, Path(folder) / "run")
            for mode in order
        }
    rates = {mode: tokens / seconds for mode, (tokens, seconds) in measured.items()}
    return {
        "block": number,
        "first": order[0],
        **{f"{mode}_tokens": measured[mode][0] for mode in order},
        **{f"{mode}_seconds": round(measured[mode][1], 2) for mode in order},
        **{f"{mode}_tokens_per_second": round(rates[mode], 2) for mode in order},
        "ratio": round(rates["clsd"] / rates["direct"], 3),
    }


def summary(blocks: list[dict[str, Any]]) -> dict[str, Any]:
    """The ratio over all blocks (total tokens over total seconds of each) and the spread of the block ratios."""
    rate = {
        mode: sum(b[f"{mode}_tokens"] for b in blocks) / sum(b[f"{mode}_seconds"] for b in blocks) for mode in ("direct", "clsd")
    }
    ratios = sorted(b["ratio"] for b in blocks)
    return {
        "blocks": len(blocks),
        "direct_tokens_per_second": round(rate["direct"], 2),
        "clsd_tokens_per_second": round(rate["clsd"], 2),
        "ratio": round(rate["clsd"] / rate["direct"], 3),
        "block_ratio_median": round(statistics.median(ratios), 3),
        "block_ratio_min": ratios[0],
        "block_ratio_max": ratios[-1],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "release", type=Path, nargs="?", help="folder holding CLSD_wmt2019_adversarial_dataset.csv (--quick: the fixture data)"
    )
    parser.add_argument("--sentences", type=int, default=24, help="sentence pairs in all (each asked in both languages)")
    parser.add_argument("--block", type=int, default=2, help="sentence pairs per block")
    parser.add_argument("--max-tokens", type=int, default=256)
    parser.add_argument("--threads", type=int, default=1, help="the server's CPU threads")
    add_quick(parser)
    args = parser.parse_args()
    if args.quick:
        args.release, args.sentences, args.block, args.max_tokens = args.release or FIXTURE_DATA, 1, 1, 32
        announce_quick(f"{args.sentences} pair of {args.release}, one block, answers of up to {args.max_tokens} tokens")
    if args.release is None:
        parser.error("the release folder is required (or --quick)")
    problem = missing()
    if problem and args.quick:
        skip(problem)
    if problem:
        parser.error(problem)
    os.environ.setdefault("OPENAI_API_KEY", "none")
    with open(args.release / "CLSD_wmt2019_adversarial_dataset.csv", encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))[: args.sentences]
    blocks = []
    with llama_server(threads=args.threads) as base_url:
        llm = LLMSettings(MODEL_NAME, base_url, concurrency=1, timeout=600.0, max_tokens=args.max_tokens)
        with tempfile.TemporaryDirectory() as folder:  # warm-up: the first answers load the model
            direct(base_url, block_corpus(rows[:1], Path(folder)), llm)
        for number, start in enumerate(range(0, len(rows), args.block)):
            blocks.append(measure_block(base_url, rows[start : start + args.block], number, llm))
            print(json.dumps(blocks[-1]), flush=True)
    print(json.dumps(summary(blocks)))


if __name__ == "__main__":
    main()
