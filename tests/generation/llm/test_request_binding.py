"""An answer is kept only when it answers a request this run wrote, in the file or batch that held it.

Requests carry a ``custom_id`` bound to their run folder and their exact body (clsd_generation.core.requests): the
answers file of another run (same row ids, other sentences) is refused with the file and line named and nothing
stored, in both protocols; a batch output line the batch never held is refused and named; and a file upload or a
batch create whose answer was lost is looked up before it is made again, so nothing is paid for twice. Against the
local stand-in server (tests/helpers/fake_openai.py) and the batch engine in front of it (tests/helpers/batch_runner.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clsd_format.errors import CLSDError
from clsd_format.languages import parse_language
from clsd_generation.core.checkpoint import Checkpoint
from clsd_generation.core.inputs import ParallelCorpus, read_parallel
from clsd_generation.core.settings import PAPER, BatchSettings, LLMSettings, RequestFiles, ValidationBounds
from clsd_generation.core.summary import RunReport
from clsd_generation.run.backends import LLMBackend
from clsd_generation.run.loop import RunOptions, generate_distractors
from tests.helpers.batch_runner import run_requests
from tests.helpers.corpora import write_parallel_csv
from tests.helpers.fake_openai import FakeOpenAI

LANGS = (parse_language("de"), parse_language("fr"))
ROWS_A = [(f"Der Hund Nummer {i} beißt den Mann", f"Le chien numéro {i} mord l'homme") for i in range(4)]
ROWS_B = [(f"Die Katze Nummer {i} schläft im Haus", f"Le chat numéro {i} dort dans la maison") for i in range(4)]


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")


def corpus(tmp_path: Path, name: str, rows: list[tuple[str, str]]) -> ParallelCorpus:
    return read_parallel(write_parallel_csv(tmp_path / f"{name}.csv", rows), ("de", "fr"))


def by_file(data: ParallelCorpus, run_dir: Path, requests_out: Path | None, answers: Path | None, protocol: str) -> RunReport:
    backend = LLMBackend(LLMSettings(model="fake-model"), files=RequestFiles(requests_out, answers))
    bounds = ValidationBounds(protocol=protocol)
    return generate_distractors(data, LANGS, run_dir, backend, bounds, options=RunOptions(progress=False))


def attempts(run_dir: Path) -> int:
    with Checkpoint.existing(run_dir) as checkpoint:
        return sum(len(answers) for answers in checkpoint.stored_answers().values())


@pytest.mark.parametrize("protocol", ["validated", PAPER])
def test_the_answers_of_another_run_with_the_same_row_ids_are_refused(tmp_path: Path, protocol: str) -> None:
    run_a, run_b = tmp_path / "a", tmp_path / "b"
    by_file(corpus(tmp_path, "a", ROWS_A), run_a, tmp_path / "a.jsonl", None, protocol)
    by_file(corpus(tmp_path, "b", ROWS_B), run_b, tmp_path / "b.jsonl", None, protocol)
    with FakeOpenAI() as fake:
        run_requests(tmp_path / "b.jsonl", tmp_path / "b-answers.jsonl", fake.base_url)
    with pytest.raises(CLSDError, match=r"b-answers\.jsonl, line 1: custom_id .* is not a request of the waiting"):
        by_file(corpus(tmp_path, "a", ROWS_A), run_a, None, tmp_path / "b-answers.jsonl", protocol)
    assert attempts(run_a) == 0  # nothing stored, no attempt spent
    with Checkpoint.existing(run_a) as checkpoint:
        assert checkpoint.results() == []
    # the same run folder copied elsewhere is another run: its requests carry another id
    copied = by_file(corpus(tmp_path, "a", ROWS_A), tmp_path / "a2", tmp_path / "a2.jsonl", None, protocol)
    assert copied.requests_written == 8
    ids_a = {json.loads(line)["custom_id"] for line in (tmp_path / "a.jsonl").read_text("utf-8").splitlines()}
    ids_a2 = {json.loads(line)["custom_id"] for line in (tmp_path / "a2.jsonl").read_text("utf-8").splitlines()}
    assert not ids_a & ids_a2


def test_an_answers_file_is_split_at_newlines_only_and_decoded_per_line(tmp_path: Path) -> None:
    data = corpus(tmp_path, "a", ROWS_A)
    by_file(data, tmp_path / "run", tmp_path / "requests.jsonl", None, "validated")
    with FakeOpenAI() as fake:
        run_requests(tmp_path / "requests.jsonl", tmp_path / "answers.jsonl", fake.base_url)
    lines = (tmp_path / "answers.jsonl").read_bytes().split(b"\n")
    # a JSON writer may leave U+2028 and U+0085 raw inside a string: still one line each
    first = json.loads(lines[0])
    first["note"] = "a\u2028b\u0085c"
    lines[0] = json.dumps(first, ensure_ascii=False).encode("utf-8")
    # a body whose choices are of the wrong shape is an answer without text, asked again, never an internal error
    second = json.loads(lines[1])
    second["response"]["body"]["choices"] = {"0": "not a list"}
    lines[1] = json.dumps(second).encode("utf-8")
    (tmp_path / "answers.jsonl").write_bytes(b"\n".join(lines))
    report = by_file(data, tmp_path / "run", None, tmp_path / "answers.jsonl", "validated")
    assert report.ok == 7 and report.unfinished + report.reasked >= 1
    broken = tmp_path / "broken.jsonl"
    by_file(corpus(tmp_path, "c", ROWS_B), tmp_path / "run-c", tmp_path / "requests-c.jsonl", None, "validated")
    with FakeOpenAI() as fake:
        run_requests(tmp_path / "requests-c.jsonl", broken, fake.base_url)
    raw = broken.read_bytes().split(b"\n")
    raw[2] = raw[2].replace(b"chien", b"chi\xffen").replace(b"chat", b"ch\xffat")
    broken.write_bytes(b"\n".join(raw))
    with pytest.raises(CLSDError, match=r"broken\.jsonl, line 3: not UTF-8"):
        by_file(corpus(tmp_path, "c", ROWS_B), tmp_path / "run-c", None, broken, "validated")
    assert attempts(tmp_path / "run-c") == 0


def batch_run(tmp_path: Path, fake: FakeOpenAI, rows: list[tuple[str, str]] = ROWS_A) -> RunReport:
    llm = LLMSettings(model="fake-model", base_url=fake.base_url, timeout=5.0, max_retries=2)
    backend = LLMBackend(llm, batch=BatchSettings(poll_interval=0.01))
    return generate_distractors(corpus(tmp_path, "a", rows), LANGS, tmp_path / "run", backend, options=RunOptions(progress=False))


def test_a_batch_output_line_the_batch_never_held_is_refused_and_named(tmp_path: Path) -> None:
    with FakeOpenAI() as fake:
        good = json.loads(json.dumps(fake_line("row1", "de")))
        fake.foreign_output_lines = [good]
        report = batch_run(tmp_path, fake)
    assert report.ok == 8
    assert any("batch_1 output file, line 9: custom_id" in line for line in report.lines()), report.lines()
    with Checkpoint.existing(tmp_path / "run") as checkpoint:
        assert all(len(answers) == 1 for answers in checkpoint.stored_answers().values())  # the foreign line stored nothing


def fake_line(pair_id: str, lang: str) -> dict[str, object]:
    """An answer line for a request of the same sentence, but not one the batch held (another round, another digest)."""
    body = {"choices": [{"message": {"content": "1. a\n2. b\n3. c\n4. d"}, "finish_reason": "stop"}], "model": "m"}
    return {"custom_id": json.dumps([pair_id, lang, 7, "0" * 16]), "response": {"status_code": 200, "body": body}}


def test_a_create_whose_answer_was_lost_is_found_not_paid_for_twice(tmp_path: Path) -> None:
    with FakeOpenAI() as fake:
        fake.lost_upload_answers, fake.lost_create_answers = 1, 1
        report = batch_run(tmp_path, fake)
        uploads, batches = len(fake.file_names), len(fake.batches)
        inputs = {batch["input_file_id"] for batch in fake.batches.values()}
    assert report.ok == 8
    assert (uploads, batches) == (1, 1) and len(inputs) == 1  # one input file, one batch: nothing paid twice
