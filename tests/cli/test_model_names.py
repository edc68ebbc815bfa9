"""A model name that is nothing here (`clsd evaluate --model intfloat/multilingual-e5-smal`): one line at once, naming
both reasons it can have (a typo, or no network) and the near names of the models mteb and clsd-mteb know.

The Hub is never reached: offline mode, a port nobody listens on, and a server on 127.0.0.1 that answers as the Hub
does for a model it does not have.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from clsd_format.errors import CLSDError
from clsd_mteb.model_names import near_names
from tests.helpers.local_server import LocalServer

TYPO = "intfloat/multilingual-e5-smal"
MEANT = "'intfloat/multilingual-e5-small'"


def test_the_near_names_are_the_whole_name_s_or_the_model_part_s_letter_case_ignored() -> None:
    known = ["intfloat/multilingual-e5-small", "intfloat/multilingual-e5-large", "sentence-transformers/LaBSE", "BAAI/bge-m3"]
    assert near_names(TYPO, known)[0] == "intfloat/multilingual-e5-small"
    assert near_names("labse", known) == ["sentence-transformers/LaBSE"]
    assert near_names("LaBSE-2", known) == ["sentence-transformers/LaBSE"]
    assert near_names("completely/different", known) == []


@pytest.mark.slow  # imports mteb
def test_offline_a_mistyped_name_is_said_at_once_with_both_reasons_and_the_near_name() -> None:
    import huggingface_hub.constants

    from clsd_mteb.models import load_model

    assert huggingface_hub.constants.HF_HUB_OFFLINE  # tests/conftest.py: the tests never reach the Hub
    start = time.monotonic()
    with pytest.raises(CLSDError) as caught:
        load_model(TYPO)
    message = str(caught.value)
    assert time.monotonic() - start < 5, "the name was not told from the network before a wait"
    assert len(message.splitlines()) == 1 and repr(TYPO) in message
    assert "mistyped" in message and "HF_HUB_OFFLINE" in message and f"did you mean {MEANT}" in message


class _NoSuchModel(BaseHTTPRequestHandler):
    """Every request answered as the Hub answers for a repository it does not have."""

    def do_GET(self) -> None:
        body = json.dumps({"error": "Repository not found"}).encode()
        self.send_response(404)
        self.send_header("X-Error-Code", "RepoNotFound")
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_HEAD = do_GET

    def log_message(self, *args: object) -> None:
        pass


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _evaluate(endpoint: str, tmp_path: Path, data: Path) -> subprocess.CompletedProcess[str]:
    """`clsd evaluate --model TYPO` in its own process, online, against the Hub at ``endpoint``, with an empty cache."""
    env = {k: v for k, v in os.environ.items() if k not in ("CLSD_DEBUG", "HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")}
    env |= {"HF_HUB_OFFLINE": "0", "HF_ENDPOINT": endpoint, "HF_HOME": str(tmp_path / "hf")}
    command = [sys.executable, "-m", "clsd_cli", "evaluate", "--model", TYPO, "--data-dir", str(data), "--output", str(tmp_path)]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=240)


@pytest.mark.slow  # a process that imports mteb
@pytest.mark.parametrize("hub", ["unreachable", "has no such model"])
def test_online_a_mistyped_name_is_told_from_a_missing_network(tmp_path: Path, small_release: Path, hub: str) -> None:
    if hub == "unreachable":
        done = _evaluate(f"http://127.0.0.1:{_closed_port()}", tmp_path, small_release)
        says = ("cannot be reached", "mistyped", "no network")
    else:
        with LocalServer(_NoSuchModel) as server:
            done = _evaluate(server.base_url, tmp_path, small_release)
        says = ("has no model of that name", "mistyped", "private")
    (line,) = done.stderr.strip().splitlines()
    assert done.returncode == 2 and line.startswith(f"error: model {TYPO!r}"), done.stderr
    assert all(part in line for part in says) and f"did you mean {MEANT}" in line, line
