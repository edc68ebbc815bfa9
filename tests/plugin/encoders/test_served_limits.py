"""Served models read strictly and held to the run's limits, through ``clsd evaluate`` against real servers on
127.0.0.1 (:mod:`tests.helpers.scripted_server`): every number finite float64, every body UTF-8, every metric
stored finite, and ``--endpoint-timeout`` / ``--endpoint-retries`` binding a rerank server as an embeddings endpoint."""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pytest

from clsd_cli.app import main
from tests.helpers.encoders import hashed_vector
from tests.helpers.scripted_server import ScriptedServer

TASK = "CLSD-WMT21-DE-FR"


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "not-checked")


def _evaluate(capsys: pytest.CaptureFixture[str], data: Path, out: Path, *args: str) -> tuple[int, str]:
    try:
        main(["evaluate", *args, "--data-dir", str(data), "--tasks", TASK, "--output", str(out), "--format", "csv"])
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, capsys.readouterr().err


def _one_line(err: str) -> str:
    (line,) = err.strip().splitlines()[-1:]
    assert "Traceback" not in err and "internal error" not in err, err
    return line


def _stored(out: Path) -> list[Path]:
    return list((out / "results").rglob(f"{TASK}.json")) if (out / "results").is_dir() else []


def _cosine_score(query: str, document: str) -> float:
    a, b = hashed_vector(query), hashed_vector(document)
    return float(a @ b / np.linalg.norm(a) / np.linalg.norm(b))


@pytest.mark.parametrize("kind", ["rerank", "endpoint"])
def test_a_number_beyond_float64_is_refused_with_one_line_and_nothing_stored(kind, small_release, tmp_path, capsys):
    huge = "1" * 400  # an integer JSON allows and no float64 holds
    server = ScriptedServer(score=lambda q, d: huge, vector=lambda t: [0.5, huge])
    with server:
        spec = f"rerank:m@{server.base_url}" if kind == "rerank" else f"endpoint:m@{server.base_url}/v1"
        code, err = _evaluate(capsys, small_release, tmp_path, "--model", spec, "--endpoint-retries", "0")
    line = _one_line(err)
    assert code == 2 and "malformed answer" in line and "400 digits is beyond float64" in line, err
    assert not _stored(tmp_path)


def test_rerank_scores_whose_difference_overflows_are_refused_not_stored_as_infinity(small_release, tmp_path, capsys):
    server = ScriptedServer(score=lambda q, d: "1e308" if hashed_vector(d)[0] > 0 else "-1e308")
    with server:
        code, err = _evaluate(capsys, small_release, tmp_path, "--model", f"rerank:m@{server.base_url}")
    line = _one_line(err)
    assert code == 2 and "differ by more than float64 holds" in line and TASK in line, err
    assert not _stored(tmp_path)


def test_rerank_scores_near_float64s_end_give_finite_metrics(small_release, tmp_path, capsys):
    """Scores of 1e308 scale: every margin is finite, their sum is not; the stored mean is still the mean."""
    server = ScriptedServer(score=lambda q, d: repr(0.8e308 * _cosine_score(q, d)))
    with server:
        code, err = _evaluate(capsys, small_release, tmp_path, "--model", f"rerank:m@{server.base_url}")
    assert code == 0, err
    (path,) = _stored(tmp_path)
    entry = json.loads(path.read_text())["scores"]["test"][0]  # json.loads reads -Infinity: refuse it here
    assert all(np.isfinite(v) for v in entry.values() if isinstance(v, float)), entry
    assert 1e300 < abs(entry["mean_score_margin"]) < 1.8e308


def test_an_embeddings_endpoint_near_float64s_ends_scores_as_at_ordinary_scale(small_release, tmp_path, capsys):
    """Vectors are read as the float64 numbers sent, and their lengths taken without overflow or underflow."""
    outcomes = {}
    for scale in (1.0, 1e300, 1e-300):
        server = ScriptedServer(vector=lambda t, s=scale: [repr(float(s * x)) for x in hashed_vector(t)])
        with server:
            out = tmp_path / f"x{scale:g}"
            code, err = _evaluate(capsys, small_release, out, "--model", f"endpoint:m@{server.base_url}/v1")
        assert code == 0, err
        (path,) = (out / "predictions").rglob(f"{TASK}_predictions.json")
        outcomes[scale] = [row["rank"] for row in json.loads(path.read_text())["default"]["test"]]
    assert outcomes[1e300] == outcomes[1e-300] == outcomes[1.0]


@pytest.mark.parametrize("kind", ["rerank", "endpoint"])
@pytest.mark.parametrize(
    "answer",
    [
        (200, "application/json", b'{"data": [], "results": [], "note": "\xff"}'),
        (200, "text/plain", b"\xfe\xff not UTF-8 at all"),
        (400, "application/json", b'{"error": {"message": "bad \xe9"}}'),
    ],
    ids=["json-200", "text-200", "error-400"],
)
def test_a_body_that_is_not_utf8_is_one_refused_answer(kind, answer, small_release, tmp_path, capsys):
    server = ScriptedServer(raw=answer)
    with server:
        spec = f"rerank:m@{server.base_url}" if kind == "rerank" else f"endpoint:m@{server.base_url}/v1"
        code, err = _evaluate(capsys, small_release, tmp_path, "--model", spec, "--endpoint-retries", "0")
    line = _one_line(err)
    assert code == 2 and "refused answer: its body is not valid UTF-8" in line and server.base_url in line, err


def test_a_hung_rerank_server_stops_the_run_within_endpoint_timeout(small_release, tmp_path, capsys):
    server = ScriptedServer(score=_cosine_score, hang_first=1, hang_seconds=20)
    with server:
        args = ["--model", f"rerank:m@{server.base_url}", "--endpoint-timeout", "1", "--endpoint-retries", "0"]
        code, err = _evaluate(capsys, small_release, tmp_path, *args)
        returned = time.monotonic()
    line = _one_line(err)
    assert code == 2 and "no answer within 1 s per request, after 0 retries" in line and server.base_url in line, err
    (arrived,) = server.arrivals  # the probe, given up on after about 1 s, not waited for 20 s
    assert returned - arrived < 5


def test_endpoint_retries_bind_a_rerank_server(small_release, tmp_path, capsys):
    server = ScriptedServer(score=_cosine_score, hang_first=1, hang_seconds=20)
    with server:
        args = ["--model", f"rerank:m@{server.base_url}", "--endpoint-timeout", "1", "--endpoint-retries", "1"]
        start = time.monotonic()
        code, err = _evaluate(capsys, small_release, tmp_path, *args)
    assert code == 0, err
    first, second = server.arrivals[:2]  # the probe: abandoned after 1 s, then retried and answered
    assert second - first < 5 and time.monotonic() - start < 15


@pytest.mark.parametrize(
    ("model", "option", "value", "said"),
    [
        ("clsd-char-ngram", "--endpoint-timeout", "5", "--endpoint-timeout applies to served models"),
        ("clsd-char-ngram", "--endpoint-retries", "1", "--endpoint-retries applies to served models"),
        (None, "--endpoint-concurrency", "2", "the default model runs in this process"),
        ("rerank:m@http://127.0.0.1:9", "--endpoint-dim", "384", "--endpoint-dim applies to embeddings endpoints only"),
        ("rerank:m@http://127.0.0.1:9", "--endpoint-prefix", "query: ", "--endpoint-prefix applies to embeddings"),
    ],
)
def test_a_limit_that_cannot_apply_to_the_model_is_refused_not_ignored(
    model, option, value, said, small_release, tmp_path, capsys
):
    args = [*(["--model", model] if model else []), option, value]
    code, err = _evaluate(capsys, small_release, tmp_path, *args)
    line = _one_line(err)
    assert code == 2 and said in line, err
