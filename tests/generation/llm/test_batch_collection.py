"""A Batch API output is read as it downloads and stored a chunk at a time; a collection cut short is resumed
without paying twice or recording an answer twice.

Against the local Batch API of tests/helpers/fake_openai.py, with a small chunk.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from clsd_format.errors import CLSDError
from clsd_format.languages import parse_language
from clsd_generation.core.inputs import ParallelCorpus, read_parallel
from clsd_generation.core.settings import BatchSettings, LLMSettings
from clsd_generation.llm.batch import jsonl_records
from clsd_generation.run.backends import LLMBackend
from clsd_generation.run.loop import RunOptions, generate_distractors
from tests.helpers.corpora import write_parallel_csv
from tests.helpers.fake_openai import FakeOpenAI

LANGS = (parse_language("de"), parse_language("fr"))
CHUNK = 3  # answers stored per transaction


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")


class EditedOutput(FakeOpenAI):
    """The local Batch API, with every output file's lines passed through ``edit`` before it is downloaded."""

    def __init__(self, edit: Callable[[list[bytes]], list[bytes]]) -> None:
        super().__init__()
        self.edit = edit

    def run_batch(self, batch: dict[str, Any]) -> None:
        super().run_batch(batch)
        file_id = batch["output_file_id"]
        self.files[file_id] = b"\n".join(self.edit(self.files[file_id].splitlines())) + b"\n"


def corpus(tmp_path: Path, pairs: int = 5) -> ParallelCorpus:
    rows = [(f"Der Hund Nummer {i} beißt den Mann", f"Le chien numéro {i} mord l'homme") for i in range(pairs)]
    return read_parallel(write_parallel_csv(tmp_path / "p.csv", rows), ("de", "fr"))


def run(tmp_path: Path, fake: FakeOpenAI) -> Any:
    llm = LLMSettings(model="fake-model", base_url=fake.base_url, timeout=5.0, max_retries=0)
    chosen = LLMBackend(llm, batch=BatchSettings(poll_interval=0.01, answers_per_transaction=CHUNK))
    return generate_distractors(corpus(tmp_path), LANGS, tmp_path / "run", chosen, options=RunOptions(progress=False))


def stored(tmp_path: Path) -> tuple[Counter[tuple[str, str]], int, list[int]]:
    """Answers stored per sentence, results stored, and each batch's collected mark."""
    with sqlite3.connect(tmp_path / "run" / "checkpoint.sqlite") as db:
        answers = Counter(db.execute("SELECT pair_id, lang FROM attempts"))
        results = db.execute("SELECT COUNT(*) FROM results").fetchone()[0]
        collected = [row[0] for row in db.execute("SELECT collected FROM batches ORDER BY batch_id")]
    return answers, results, collected


def test_a_download_cut_short_keeps_the_stored_chunks_and_the_next_run_records_nothing_twice(tmp_path: Path) -> None:
    with FakeOpenAI() as fake:
        fake.download_cut = 7  # the 7th answer is read but its chunk never completes; the 8th arrives half
        first = run(tmp_path, fake)
        assert (first.errors["APIConnectionError"], first.ok, first.unfinished) == (1, 2 * CHUNK, 10 - 2 * CHUNK)
        answers, results, collected = stored(tmp_path)
        assert (sum(answers.values()), results, collected) == (2 * CHUNK, 2 * CHUNK, [0])  # two whole chunks
        fake.download_cut = None
        again = run(tmp_path, fake)
        asked = Counter(sentence for sentence, _ in fake.log)
        batches = len(fake.batches)
    assert (again.ok, again.unfinished, again.batches) == (10 - 2 * CHUNK, 0, 0)  # the same batch read again
    answers, results, collected = stored(tmp_path)
    assert len(answers) == 10 and set(answers.values()) == {1} and results == 10 and collected == [1]
    assert batches == 1 and len(asked) == 10 and set(asked.values()) == {1}  # nothing paid twice


def test_a_line_that_is_not_json_is_named_and_the_chunks_before_it_stay(tmp_path: Path) -> None:
    garbled = EditedOutput(lambda lines: [*lines[:7], b'{"custom_id": "half', *lines[8:]])
    with garbled as fake, pytest.raises(CLSDError, match=r"batch output file file-out-\d+, line 8: not JSON"):
        run(tmp_path, fake)
    answers, results, collected = stored(tmp_path)
    assert (sum(answers.values()), results, collected) == (2 * CHUNK, 2 * CHUNK, [0])


def test_a_repeated_answer_line_is_recorded_once(tmp_path: Path) -> None:
    with EditedOutput(lambda lines: [*lines, *lines]) as fake:  # every answer twice, in two chunks apart
        report = run(tmp_path, fake)
    answers, results, collected = stored(tmp_path)
    assert (report.ok, len(answers), set(answers.values()), results, collected) == (10, 10, {1}, 10, [1])


def test_json_lines_split_at_newlines_only_whatever_the_chunks() -> None:
    records = [{"custom_id": "a", "text": "one\u2028two\x1cthree"}, {"custom_id": "b", "text": "é"}]
    stream = (json.dumps(records[0], ensure_ascii=False) + "\r\n\n" + json.dumps(records[1], ensure_ascii=False)).encode()
    assert list(jsonl_records([stream], "f")) == records
    assert list(jsonl_records([stream[n : n + 1] for n in range(len(stream))], "f")) == records  # a byte at a time
    with pytest.raises(CLSDError, match=r"^f, line 3: not JSON"):
        list(jsonl_records([b'{"a": 1}\n\n{"a": \n'], "f"))
    with pytest.raises(CLSDError, match=r"^f, line 2: not UTF-8"):
        list(jsonl_records([b'{"a": 1}\n{"a": "\xff"}\n'], "f"))
    with pytest.raises(CLSDError, match=r"^f, line 1: not a JSON object"):
        list(jsonl_records([b"[1, 2]\n"], "f"))
