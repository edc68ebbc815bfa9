"""No credential is stored, printed, logged or published: real processes against real HTTP servers on 127.0.0.1.

A server may echo the ``Authorization`` header in its error text (``clsd generate`` on 401, ``clsd evaluate``
on 500), and a user may put the key into the endpoint URL (``http://user:KEY@host/v1``, ``?api_key=KEY``).
In every case the key must appear in no console line and in no file the run writes: checkpoint, dataset
card, ``push --dry-run`` preview, results.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from clsd_format.redaction import public_url, redact, register_secret
from tests.helpers.corpora import DE_FR_OPTIONS, write_parallel_csv
from tests.helpers.fake_openai import FakeOpenAI

ROWS = [("Der Hund beißt den Mann im Park", "Le chien mord l'homme dans le parc")]
SK_KEY = "sk-proj-Zq8vT3xW9yL2mN5bR7cK4pD6"  # shaped like an OpenAI key
PLAIN_KEY = "local-server-token-5b4c3d2e1f0a"  # no known shape: only knowing the key's value can redact it
URL_PASSWORD = "sk-url-Hf7Jk2Lm9Pq4Rs6Tv8Wx"
QUERY_KEY = "Qx7Wv2Ty9Ub4In6Om1Pa3Sd"


def run(*args: str, key: str = SK_KEY, env_name: str = "OPENAI_API_KEY") -> subprocess.CompletedProcess[str]:
    """A ``clsd`` command in its own process, the key in the environment as a user sets it."""
    env = {k: v for k, v in os.environ.items() if k not in ("CLSD_DEBUG", "OPENAI_API_KEY")} | {env_name: key}
    return subprocess.run([sys.executable, "-m", "clsd_cli", *args], capture_output=True, text=True, env=env, timeout=240)


def assert_nowhere(secrets: tuple[str, ...], done: subprocess.CompletedProcess[str], *folders: Path) -> None:
    """None of ``secrets`` in the process's output nor in any file under ``folders`` (binary files included)."""
    for secret in secrets:
        assert secret not in done.stdout and secret not in done.stderr, (secret, done.stdout, done.stderr)
        for folder in folders:
            for path in folder.rglob("*"):
                if path.is_file():
                    assert secret.encode() not in path.read_bytes(), (secret, path)


def generate_args(csv: Path, run_dir: Path, base_url: str, *extra: str) -> list[str]:
    return [
        "generate", str(csv), "--run-dir", str(run_dir), *DE_FR_OPTIONS, "--quiet", "--backend", "llm",
        "--model", "fake-model", "--base-url", base_url, "--timeout", "5", "--max-retries", "0", *extra,
    ]  # fmt: skip


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI({"Hund": ["401"], "chien": ["401"]}) as server:
        yield server


@pytest.mark.slow
@pytest.mark.parametrize("debug", [False, True], ids=["plain", "debug"])
def test_generate_never_shows_a_key_the_endpoint_echoes_on_401(fake: FakeOpenAI, tmp_path: Path, debug: bool) -> None:
    csv = write_parallel_csv(tmp_path / "p.csv", ROWS)
    done = run(*generate_args(csv, tmp_path / "run", fake.base_url, *(["--debug"] if debug else [])))
    assert done.returncode != 0
    assert "refused the request (AuthenticationError 401: " in done.stderr and "[redacted]" in done.stderr
    if debug:
        assert "Traceback" in done.stderr and "HTTP Request: POST" in done.stderr  # the library's log records are shown
    assert_nowhere((SK_KEY,), done, tmp_path / "run")


@pytest.mark.slow
def test_a_key_in_the_endpoint_url_is_never_stored_printed_or_published(tmp_path: Path) -> None:
    csv = write_parallel_csv(tmp_path / "p.csv", ROWS)
    with FakeOpenAI() as server:
        host = server.base_url.removeprefix("http://")
        # user and password in the URL: the request goes out as before, the URL is recorded without them
        done = run(*generate_args(csv, tmp_path / "run", f"http://user:{URL_PASSWORD}@{host}"))
        assert done.returncode == 0, done.stderr
        # a key in the query string: the request fails (as it did), and nothing shows or keeps the key
        failed = run(*generate_args(csv, tmp_path / "run-query", f"{server.base_url}?api_key={QUERY_KEY}"))
    assert failed.returncode == 2 and "refused the request" in failed.stderr
    assert_nowhere((QUERY_KEY,), failed, tmp_path / "run-query")
    built = run("build", "--run-dir", str(tmp_path / "run"), "--out", str(tmp_path / "ds"), "--name", "T")
    assert built.returncode == 0, built.stderr
    card = (tmp_path / "ds" / "README.md").read_text(encoding="utf-8")
    assert f"OpenAI-compatible endpoint ({server.base_url})" in card  # the endpoint is still named, without credentials
    preview = run("push-dataset", str(tmp_path / "ds"), "--repo-id", "someone/clsd-t", "--dry-run", str(tmp_path / "preview"))
    assert preview.returncode == 0, preview.stderr
    for step in (done, built, preview):
        assert_nowhere((URL_PASSWORD,), step, tmp_path / "run", tmp_path / "ds", tmp_path / "preview")


class _EchoKey(BaseHTTPRequestHandler):
    """An embeddings server that fails with HTTP 500 and puts the caller's bare key into the error text."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        key = (self.headers.get("Authorization") or "").removeprefix("Bearer ")
        payload = json.dumps({"error": {"message": f"backend crashed while serving token {key}", "type": "server_error"}})
        self.send_response(500)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload.encode())

    def log_message(self, *args: object) -> None:
        pass


@pytest.mark.slow
def test_evaluate_never_shows_a_key_the_embeddings_endpoint_echoes_on_500(small_release: Path, tmp_path: Path) -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _EchoKey)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/v1"
        done = run(
            "evaluate", "--endpoint-url", url, "--endpoint-model", "m", "--endpoint-key-env", "CLSD_TEST_KEY",
            "--endpoint-retries", "0", "--data-dir", str(small_release), "--output", str(tmp_path / "out"),
            key=PLAIN_KEY, env_name="CLSD_TEST_KEY",
        )  # fmt: skip
    finally:
        server.shutdown()
        server.server_close()
    assert done.returncode == 2
    assert f"embedding endpoint {url} (model 'm'): answered HTTP 500" in done.stderr
    assert "backend crashed while serving token [redacted]" in done.stderr
    assert_nowhere((PLAIN_KEY,), done, tmp_path)


def test_log_records_are_redacted_on_the_handlers_the_console_installs(tmp_path: Path) -> None:
    script = (
        "import logging, os\n"
        "from clsd_format.console import configure_console\n"
        "from clsd_format.redaction import register_secret\n"
        "configure_console(False)\n"
        "register_secret(os.environ['SECRET'])\n"
        "log = logging.getLogger('some.library')\n"
        "log.warning('answer from %s: token %s', 'http://u:pw-12345678@host/v1?api_key=abc12345', os.environ['SECRET'])\n"
        "log.error('echoed: Bearer %s', 'sk-abcdefgh12345678')\n"
        "try:\n"
        "    raise RuntimeError('key ' + os.environ['SECRET'])\n"
        "except RuntimeError:\n"
        "    log.exception('failed')\n"
    )
    env = {**os.environ, "SECRET": PLAIN_KEY}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    for secret in (PLAIN_KEY, "pw-12345678", "abc12345", "sk-abcdefgh12345678"):
        assert secret not in done.stderr, done.stderr
    assert "token [redacted]" in done.stderr and "RuntimeError: key [redacted]" in done.stderr
    assert "http://[redacted]@host/v1?api_key=[redacted]" in done.stderr


def test_public_url_and_redact() -> None:
    assert public_url("http://user:sk-abcdefgh1234@127.0.0.1:8000/v1?api_key=zzz#frag") == "http://127.0.0.1:8000/v1"
    assert public_url("https://api.example.com/v1/") == "https://api.example.com/v1/"
    register_secret("short")  # too short to be a key: never redacted out of ordinary words
    assert redact("a short note, the bearer of news, Basic English, task-scheduler") == (
        "a short note, the bearer of news, Basic English, task-scheduler"
    )
    assert redact("Incorrect API key provided: Bearer tok_0123456789") == "Incorrect API key provided: Bearer [redacted]"
    assert redact("hf_" + "a1" * 17 + " and sk-abcdefgh1234") == "[redacted] and [redacted]"


@pytest.mark.slow
def test_a_key_the_server_echoes_in_its_answers_is_never_stored(tmp_path: Path) -> None:
    """Every command that stores server text (generate live and batch, judge, translate) stores it redacted."""
    csv = write_parallel_csv(tmp_path / "p.csv", ROWS)
    echo = {"Hund": ["echo"] * 20, "chien": ["echo"] * 20}
    with FakeOpenAI(echo, batch_polls_before_done=0) as server:
        endpoint = ("--model", "fake-model", "--base-url", server.base_url, "--quiet")
        steps = [
            run(*generate_args(csv, tmp_path / "run", server.base_url), key=PLAIN_KEY),
            run("judge", "--run-dir", str(tmp_path / "run"), *endpoint, key=PLAIN_KEY),
            run("translate", "--run-dir", str(tmp_path / "run"), "--backend", "llm", *endpoint, key=PLAIN_KEY),
            run(*generate_args(csv, tmp_path / "batch", server.base_url, "--batch"), key=PLAIN_KEY),
        ]
        assert {action for _, action in server.log} == {"echo"}
    for step in steps:
        assert step.returncode == 0, step.stderr
    built = run("build", "--run-dir", str(tmp_path / "run"), "--out", str(tmp_path / "ds"), "--name", "T")
    assert built.returncode == 0, built.stderr
    for step in (*steps, built):
        assert_nowhere((PLAIN_KEY,), step, tmp_path / "run", tmp_path / "batch", tmp_path / "ds")
    database = sqlite3.connect(tmp_path / "run" / "checkpoint.sqlite")
    stored = [row[0] for table in ("attempts", "judgments") for row in database.execute(f"SELECT answer FROM {table}")]
    stored += [row[0] for row in database.execute("SELECT translation FROM translations")]
    database.close()
    assert stored and all("token [redacted]" in text for text in stored)  # the server's text is kept, the key is not
