"""Requests written to a file for any batch engine, and the engine's output read back (OpenAI batch format).

The engine in the middle is tests/helpers/batch_runner.py sending each request to the local stand-in server
(tests/helpers/fake_openai.py); test_real_llm.py runs the same round trip with llama-cpp-python's server.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clsd_format.errors import CLSDError
from clsd_format.languages import parse_language
from clsd_generation.core.checkpoint import Checkpoint
from clsd_generation.core.inputs import ParallelCorpus, read_parallel
from clsd_generation.core.settings import LLMSettings, RequestFiles
from clsd_generation.core.summary import RunReport
from clsd_generation.run.backends import LLMBackend
from clsd_generation.run.loop import RunOptions, generate_distractors
from tests.helpers.batch_runner import run_requests
from tests.helpers.cli_runner import invoke
from tests.helpers.corpora import DE_FR_OPTIONS, write_parallel_csv
from tests.helpers.fake_openai import FakeOpenAI

LANGS = (parse_language("de"), parse_language("fr"))
SCRIPTS = {"Vogel": ["few", "good"], "Fisch": ["same", "same", "same"], "chat dort": ["chatter"], "Nummer 1 ": ["markup"]}
ROWS = [
    ("Die Katze schläft auf dem Sofa", "Le chat dort sur le canapé"),
    ("Der Vogel singt im alten Baum", "L'oiseau chante dans le vieil arbre"),
    ("Der Fisch schwimmt im kalten Wasser", "Le poisson nage dans l'eau froide"),
] + [(f"Der Hund Nummer {i} beißt den Mann", f"Le chien numéro {i} mord l'homme") for i in range(3)]


@pytest.fixture
def corpus(tmp_path: Path) -> ParallelCorpus:
    return read_parallel(write_parallel_csv(tmp_path / "p.csv", ROWS), ("de", "fr"))


def by_file(corpus: ParallelCorpus, run_dir: Path, requests_out: Path | None, answers: Path | None = None) -> RunReport:
    backend = LLMBackend(LLMSettings(model="fake-model"), files=RequestFiles(requests_out, answers))
    return generate_distractors(corpus, LANGS, run_dir, backend, options=RunOptions(progress=False))


def stored(run_dir: Path) -> tuple[list[tuple[str, str, str, list[str]]], dict[str, dict[str, int]]]:
    """The results (without times) and the rejections by kind: what a run decided."""
    with Checkpoint.existing(run_dir) as checkpoint:
        results = sorted((r.pair_id, r.lang, r.status, r.distractors) for r in checkpoint.results())
        return results, {lang: dict(counts) for lang, counts in checkpoint.rejections().items()}


def test_answers_from_files_are_judged_exactly_as_live_answers(tmp_path: Path, corpus: ParallelCorpus, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    with FakeOpenAI(SCRIPTS) as fake:
        settings = LLMSettings(model="fake-model", base_url=fake.base_url, concurrency=1, max_retries=0)
        live = generate_distractors(corpus, LANGS, tmp_path / "live", LLMBackend(settings), options=RunOptions(progress=False))
    monkeypatch.delenv("OPENAI_API_KEY")  # request files send nothing: no key needed
    written, answers, ok, failed = [], None, 0, 0
    with FakeOpenAI(SCRIPTS) as fake:
        for round_number in range(1, 6):
            report = by_file(corpus, tmp_path / "files", tmp_path / f"requests-{round_number}.jsonl", answers)
            ok, failed = ok + report.ok, failed + report.failed
            if not report.requests_written:
                break
            written.append(report.requests_written)
            answers = tmp_path / f"answers-{round_number}.jsonl"
            run_requests(tmp_path / f"requests-{round_number}.jsonl", answers, fake.base_url)
    assert written == [12, 3, 1]  # all; the bird (few), the fish (same) and the markup; the fish again
    assert (ok, failed) == (live.ok, live.failed) == (11, 1)
    assert stored(tmp_path / "files") == stored(tmp_path / "live")
    first = [json.loads(line) for line in (tmp_path / "requests-1.jsonl").read_text("utf-8").splitlines()]
    assert {(line["method"], line["url"]) for line in first} == {("POST", "/v1/chat/completions")}
    pair_id, lang, round_number, digest = json.loads(first[0]["custom_id"])
    assert (pair_id, lang, round_number) == ("row1", "de", 1) and len(digest) == 16 and first[0]["body"]["model"] == "fake-model"


def answered_round(tmp_path: Path, corpus: ParallelCorpus) -> list[str]:
    """Round 1 written for the corpus and answered by the stand-in: the answers file's lines."""
    by_file(corpus, tmp_path / "run", tmp_path / "requests.jsonl")
    with FakeOpenAI() as fake:
        run_requests(tmp_path / "requests.jsonl", tmp_path / "answers.jsonl", fake.base_url)
    return (tmp_path / "answers.jsonl").read_text("utf-8").splitlines()


def unchanged(run_dir: Path) -> bool:
    """Nothing recorded, and the request file still waits for its answers."""
    with Checkpoint.existing(run_dir) as checkpoint:
        return not checkpoint.results() and checkpoint.usage().total == 0 and checkpoint.get_meta("request_file") is not None


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda lines: [lines[0].replace('\\"row1\\"', '\\"row9\\"'), *lines[1:]],
            r"line 1: custom_id .*row9.* is not a request",
        ),
        (lambda lines: [*lines, lines[3]], r"line 13: custom_id .* again \(first on line 4\)"),
        (lambda lines: [*lines[:-1], lines[-1][:40]], r"line 12: the file ends midway through this line \(truncated"),
        (lambda lines: [lines[0], "{not json", *lines[1:]], r"line 2: not JSON"),
        (lambda lines: [json.dumps({"response": None}), *lines], r"line 1: no custom_id"),
    ],
    ids=["unknown", "duplicate", "truncated", "not-json", "no-id"],
)
def test_a_broken_answers_file_is_refused_naming_its_line_and_nothing_is_recorded(tmp_path, corpus, edit, message) -> None:  # type: ignore[no-untyped-def]
    lines = edit(answered_round(tmp_path, corpus))
    ending = "" if "truncated" in message else "\n"
    (tmp_path / "broken.jsonl").write_text("\n".join(lines) + ending, encoding="utf-8")
    with pytest.raises(CLSDError, match=message):
        by_file(corpus, tmp_path / "run", tmp_path / "next.jsonl", tmp_path / "broken.jsonl")
    assert unchanged(tmp_path / "run") and not (tmp_path / "next.jsonl").exists()


def test_error_lines_and_missing_lines_are_counted_and_asked_again(tmp_path: Path, corpus: ParallelCorpus) -> None:
    lines = answered_round(tmp_path, corpus)
    failed = json.loads(lines[0]) | {"response": None, "error": {"code": "server_error", "message": "out of memory"}}
    refused = json.loads(lines[1])
    refused["response"]["status_code"] = 400
    (tmp_path / "partial.jsonl").write_text("\n".join([json.dumps(failed), json.dumps(refused), *lines[2:-1]]) + "\n", "utf-8")
    report = by_file(corpus, tmp_path / "run", tmp_path / "next.jsonl", tmp_path / "partial.jsonl")
    assert (report.ok, report.answers_missing, report.requests_written) == (9, 1, 3)
    assert report.errors == {"answers file: error server_error": 1, "answers file: status 400": 1}
    assert "answers missing: 1 request(s) had no line in the answers file; asked again" in report.lines()
    again = [json.loads(json.loads(line)["custom_id"])[:3] for line in (tmp_path / "next.jsonl").read_text("utf-8").splitlines()]
    assert again == [["row1", "de", 2], ["row2", "de", 2], ["row6", "fr", 2]]
    with pytest.raises(CLSDError, match=r"is not a request of the waiting request file \(next.jsonl, round 2\)"):
        by_file(corpus, tmp_path / "run", None, tmp_path / "partial.jsonl")  # round 1's answers, read again


def test_the_command_writes_requests_without_a_key_and_reads_the_answers(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    path = write_parallel_csv(tmp_path / "p.csv", ROWS[3:])
    command = ("generate", str(path), "--run-dir", str(tmp_path / "run"), *DE_FR_OPTIONS, "--backend", "llm")
    command += ("--model", "fake-model", "--quiet")
    with pytest.raises(CLSDError, match="no request file waiting for answers"):
        invoke(*command, "--answers", str(tmp_path / "answers.jsonl"))
    output = invoke(*command, "--requests-out", str(tmp_path / "requests.jsonl"))
    assert "requests written: 6 to" in output and "then repeat this command with --answers <its output file>" in output
    with FakeOpenAI() as fake:
        run_requests(tmp_path / "requests.jsonl", tmp_path / "answers.jsonl", fake.base_url)
    output = invoke(*command, "--answers", str(tmp_path / "answers.jsonl"))
    assert "this run: 6 with distractors, 0 failed validation, 0 unfinished" in output and "next: clsd build" in output
    with pytest.raises(CLSDError, match="--batch sends the requests to the Batch API"):
        invoke(*command, "--batch", "--requests-out", str(tmp_path / "r.jsonl"))
