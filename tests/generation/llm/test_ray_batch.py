"""Request files answered by Ray Data (clsd_generation.llm.ray_batch), on a local Ray cluster, as docs/generation.md shows.

The recipes are read from docs/generation.md, never copied here: the ``python -m`` command runs as a cluster job does
(a process of its own joining the cluster through ``RAY_ADDRESS``), the Python block runs in this process on the same
cluster; the one change is the server's address. Behind Ray's HTTP request processor: the project's stand-in server
(scripted answers, an error status) and llama-cpp-python's server with SmolLM2-135M-Instruct (marker ``real_llm``),
through build and evaluate. Every answer must come back bound to its request (``custom_id``: sentence, round,
digest of the body) and be read as a live answer is.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from clsd_format.errors import CLSDError
from clsd_generation.core.checkpoint import Checkpoint
from clsd_generation.llm.ray_batch import HttpEndpoint, answer_requests, check_request_file
from tests.generation.llm.test_real_llm import PAIRS as NEWS_PAIRS  # short news-like pairs written for the real-server tier
from tests.helpers.cli_runner import invoke
from tests.helpers.corpora import llm_generate_args, write_parallel_csv
from tests.helpers.fake_openai import FakeOpenAI
from tests.helpers.llama_server import MODEL_NAME, llama_server, missing
from tests.helpers.ray_cluster import local_ray

DOC = Path(__file__).resolve().parents[3] / "docs" / "generation.md"
DOC_URL = "http://localhost:8000/v1"
ROWS = [
    ("Die Katze schläft auf dem Sofa", "Le chat dort sur le canapé"),
    ("Der Vogel singt im alten Baum", "L'oiseau chante dans le vieil arbre"),
    ("Der Fisch schwimmt im kalten Wasser", "Le poisson nage dans l'eau froide"),
]


def doc_command() -> list[str]:
    """The documented ``clsd answer-requests`` command, as arguments."""
    (line,) = re.findall(r"^clsd answer-requests .*$", DOC.read_text(encoding="utf-8"), re.MULTILINE)
    return shlex.split(line)[2:]


def doc_block() -> str:
    """The documented Python block that calls ``answer_requests``."""
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    (code,) = [block for block in blocks if "answer_requests(" in block]
    return code


def run_doc_block(folder: Path, base_url: str) -> str:
    """The documented block run here (the cluster is up), in ``folder``, against ``base_url``; what it printed."""
    code = doc_block()
    assert DOC_URL in code
    before = Path.cwd()
    output: list[str] = []
    os.chdir(folder)
    try:
        exec(
            compile(code.replace(DOC_URL, base_url), str(DOC), "exec"), {"print": lambda *a: output.append(" ".join(map(str, a)))}
        )
    finally:
        os.chdir(before)
    return "\n".join(output)


def custom_ids(path: Path) -> list[str]:
    return [json.loads(line)["custom_id"] for line in path.read_text(encoding="utf-8").splitlines()]


def test_a_request_file_is_read_whole_before_ray_starts(tmp_path: Path) -> None:
    good = {"custom_id": "a", "method": "POST", "url": "/v1/chat/completions", "body": {"messages": []}}
    path = tmp_path / "requests.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps({**good, "custom_id": "b"}) + "\n", encoding="utf-8")
    assert len(check_request_file(path)) == 2
    for second, problem in [
        ("{not json", "line 2: not JSON"),
        (json.dumps(good), "line 2: custom_id a again (first on line 1)"),
        (json.dumps({**good, "custom_id": "b", "url": "/v1/embeddings"}), "line 2: url '/v1/embeddings'"),
        (json.dumps({"custom_id": "b"}), "line 2: not a batch request line"),
    ]:
        path.write_text(json.dumps(good) + "\n" + second + "\n", encoding="utf-8")
        with pytest.raises(CLSDError, match=re.escape(f"request file {path}, {problem}")):
            answer_requests(path, tmp_path / "answers.jsonl", HttpEndpoint("http://127.0.0.1:9/v1"))
        assert not (tmp_path / "answers.jsonl").exists()


def test_ray_is_imported_only_when_a_file_is_answered() -> None:
    code = "import sys, clsd_generation.llm.ray_batch, clsd_mteb.fan_out; assert 'ray' not in sys.modules, 'ray imported'"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with local_ray(tmp_path_factory.mktemp("ray")) as address:
        yield address


@pytest.mark.slow  # a Ray cluster, and a job joining it from a process of its own
def test_the_documented_command_answers_a_round_on_the_cluster(cluster: str, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    corpus = write_parallel_csv(tmp_path / "pairs.csv", ROWS)
    with FakeOpenAI({"Vogel": ["few"], "Fisch": ["401"]}) as fake:
        command = llm_generate_args(corpus, tmp_path / "run", fake.base_url)
        invoke(*command, "--requests-out", str(tmp_path / "requests-1.jsonl"))
        job = [a if a != DOC_URL else fake.base_url for a in doc_command()]
        assert job[:2] == ["requests-1.jsonl", "answers-1.jsonl"]
        done = subprocess.run([sys.executable, "-m", "clsd_cli", "answer-requests", *job], cwd=tmp_path,
                              capture_output=True, text=True, timeout=300)  # fmt: skip
        assert done.returncode == 0, done.stderr[-3000:]
        assert "6 requests, 5 answers, 1 errors: answers-1.jsonl" in done.stdout
        assert fake.key == "test-key"  # the key went as the server's Authorization header
        assert sorted(custom_ids(tmp_path / "answers-1.jsonl")) == sorted(custom_ids(tmp_path / "requests-1.jsonl"))
        second = invoke(*command, "--answers", str(tmp_path / "answers-1.jsonl"), "--requests-out", str(tmp_path / "r2.jsonl"))
        assert "this run: 4 with distractors" in second and "requests written: 2" in second, second
        assert "answers file: error invalid_api_key x1" in second, second  # the server's 401, counted and asked again
        again = answer_requests(tmp_path / "r2.jsonl", tmp_path / "a2.jsonl", HttpEndpoint(fake.base_url))
        assert (again.requests, again.answers, again.errors) == (2, 2, 0)
        assert "next: clsd build" in invoke(*command, "--answers", str(tmp_path / "a2.jsonl"))
    invoke("build", "--run-dir", str(tmp_path / "run"), "--out", str(tmp_path / "dataset"), "--name", "RAYFAKE")
    evaluated = invoke("evaluate", "--data-dir", str(tmp_path / "dataset"), "--output", str(tmp_path / "results"))
    assert "CLSD-RAYFAKE-DE-FR" in evaluated, evaluated
    with sqlite3.connect(tmp_path / "run" / "checkpoint.sqlite") as db:
        assert {origin for (origin,) in db.execute("SELECT DISTINCT origin FROM attempts")} == {"file:fake-model"}


@pytest.mark.slow
@pytest.mark.real_llm  # llama-cpp-python's server behind Ray's HTTP request processor, then build and evaluate
def test_requests_ray_answers_build_evaluate_with_llama_cpp(cluster: str, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    problem = missing()
    if problem:
        pytest.fail(problem, pytrace=False)
    monkeypatch.setenv("OPENAI_API_KEY", "none")
    corpus = write_parallel_csv(tmp_path / "pairs.csv", NEWS_PAIRS[:4])
    rounds: list[tuple[int, int, str]] = []
    with llama_server() as server:
        command = llm_generate_args(corpus, tmp_path / "run", server, "--protocol", "paper", "--max-tokens", "160",
                                    "--max-attempts", "3", "--quiet", model=MODEL_NAME)  # fmt: skip
        answers: list[str] = []
        for number in range(1, 10):
            requests = tmp_path / f"requests-{number}.jsonl"
            try:
                done = invoke(*command, "--requests-out", str(requests), *answers)
            except CLSDError as exc:  # the tiny model made no sentence of a language: said with the failures by reason
                done = str(exc)
                break
            if "requests written" not in done:
                break
            folder = tmp_path / f"round-{number}"  # the documented block reads requests-1.jsonl, writes answers-1.jsonl
            folder.mkdir()
            (folder / "requests-1.jsonl").write_bytes(requests.read_bytes())
            printed = run_doc_block(folder, server)
            rounds.append((len(custom_ids(requests)), len(custom_ids(folder / "answers-1.jsonl")), printed))
            assert sorted(custom_ids(folder / "answers-1.jsonl")) == sorted(custom_ids(requests))  # one line per request
            answers = ["--answers", str(folder / "answers-1.jsonl")]
    print(rounds)  # the requests and answers of every round, shown with -s
    assert rounds[0][:2] == (8, 8) and rounds[0][2].startswith("8 requests, ")
    assert "next: clsd build" in done or done.startswith("nothing to build: no "), done
    with sqlite3.connect(tmp_path / "run" / "checkpoint.sqlite") as db:
        origins = {origin for (origin,) in db.execute("SELECT DISTINCT origin FROM attempts")}
        models = set(db.execute("SELECT DISTINCT asked_model, answered_model FROM attempts"))
    assert origins == {f"file:{MODEL_NAME}"} and models == {(MODEL_NAME, MODEL_NAME)}  # every answer bound, none another's
    with Checkpoint.existing(tmp_path / "run") as checkpoint:
        results = checkpoint.results()
    assert sorted((r.pair_id, r.lang) for r in results) == [(f"row{i}", lang) for i in range(1, 5) for lang in ("de", "fr")]
    if "next: clsd build" not in done:
        return  # what a 135M model writes is not always a list: build and evaluate are then run by the stand-in's test
    built = invoke("build", "--run-dir", str(tmp_path / "run"), "--out", str(tmp_path / "dataset"), "--name", "RAY")
    print(built)
    evaluated = invoke("evaluate", "--data-dir", str(tmp_path / "dataset"), "--output", str(tmp_path / "results"))
    assert "CLSD-RAY-DE-FR" in evaluated, evaluated
