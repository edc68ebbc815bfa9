"""A Batch API round larger than the provider's limits goes out as several batches, each resumed without paying twice.

Against the local Batch API of tests/helpers/fake_openai.py, with limits set small.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from clsd_format.errors import CLSDError
from clsd_format.languages import parse_language
from clsd_generation.core.checkpoint import Checkpoint
from clsd_generation.core.inputs import ParallelCorpus, read_parallel
from clsd_generation.core.settings import BatchSettings, LLMSettings
from clsd_generation.run.backends import LLMBackend
from clsd_generation.run.loop import RunOptions, generate_distractors
from tests.helpers.cli_runner import invoke
from tests.helpers.corpora import write_parallel_csv
from tests.helpers.fake_openai import FakeOpenAI

LANGS = (parse_language("de"), parse_language("fr"))


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")


def corpus(tmp_path: Path, pairs: int) -> ParallelCorpus:
    rows = [(f"Der Hund Nummer {i} beißt den Mann", f"Le chien numéro {i} mord l'homme") for i in range(pairs)]
    return read_parallel(write_parallel_csv(tmp_path / "p.csv", rows), ("de", "fr"))


def backend(fake: FakeOpenAI, **limits: int) -> LLMBackend:
    llm = LLMSettings(model="fake-model", base_url=fake.base_url, timeout=5.0, max_retries=0)
    return LLMBackend(llm, batch=BatchSettings(poll_interval=0.01, **limits))  # type: ignore[arg-type]


def input_lines(fake: FakeOpenAI) -> list[list[dict[str, str]]]:
    """Each batch's input file, as its request lines."""
    return [
        [json.loads(line) for line in fake.files[batch["input_file_id"]].decode("utf-8").splitlines()]
        for batch in fake.batches.values()
    ]


def test_a_round_above_the_request_limit_is_sent_as_several_batches(tmp_path: Path) -> None:
    with FakeOpenAI() as fake:
        report = generate_distractors(
            corpus(tmp_path, 5), LANGS, tmp_path / "run", backend(fake, max_requests=4), options=RunOptions(progress=False)
        )
        files = input_lines(fake)
    assert [len(lines) for lines in files] == [4, 4, 2]  # 10 sentences, at most 4 requests a file
    assert sorted(json.loads(line["custom_id"])[:3] for lines in files for line in lines) == sorted(
        [f"row{n}", code, 1] for n in range(1, 6) for code in ("de", "fr")
    )
    assert (report.ok, report.unfinished, report.batches, report.batch_rounds) == (10, 0, 3, 1)
    assert "Batch API: 3 batch(es) sent this run, in 1 round(s)" in report.lines()
    with Checkpoint.existing(tmp_path / "run") as checkpoint:
        assert (checkpoint.batch_count(), checkpoint.batch_rounds()) == (3, 1)


def test_a_round_above_the_size_limit_is_split_by_bytes(tmp_path: Path) -> None:
    with FakeOpenAI() as fake:
        generate_distractors(
            corpus(tmp_path, 3), LANGS, tmp_path / "run", backend(fake, max_bytes=1200), options=RunOptions(progress=False)
        )
        sizes = [len(fake.files[batch["input_file_id"]]) for batch in fake.batches.values()]
    assert len(sizes) > 1 and all(size <= 1200 for size in sizes)
    with pytest.raises(CLSDError, match="above the batch input file limit"), FakeOpenAI() as fake:
        generate_distractors(
            corpus(tmp_path, 1), LANGS, tmp_path / "tiny", backend(fake, max_bytes=100), options=RunOptions(progress=False)
        )


def test_an_interrupted_split_round_collects_each_batch_and_asks_nothing_twice(tmp_path: Path) -> None:
    with FakeOpenAI() as fake:
        fake.batch_poll_status = 503  # every batch is sent, then the status checks fail: the run stops unfinished
        first = generate_distractors(
            corpus(tmp_path, 5), LANGS, tmp_path / "run", backend(fake, max_requests=3), options=RunOptions(progress=False)
        )
        assert (first.ok, first.unfinished, first.batches) == (0, 10, 4)
        fake.batch_poll_status = None
        again = generate_distractors(
            corpus(tmp_path, 5), LANGS, tmp_path / "run", backend(fake, max_requests=3), options=RunOptions(progress=False)
        )
        asked = Counter(sentence for sentence, _ in fake.log)
        batches = len(fake.batches)
    assert (again.ok, again.unfinished, again.batches) == (10, 0, 0)  # the four batches collected, none sent again
    assert batches == 4 and len(asked) == 10 and set(asked.values()) == {1}


@pytest.mark.slow  # builds the dataset (the card's difficulty is scored)
def test_the_limits_are_set_on_the_command_line_and_the_card_counts_the_batches(tmp_path: Path) -> None:
    path = write_parallel_csv(
        tmp_path / "p.csv", [(f"Der Hund Nummer {i} beißt den Mann", f"Le chien numéro {i} mord l'homme") for i in range(3)]
    )
    with FakeOpenAI() as fake:
        output = invoke(
            *("generate", str(path), "--run-dir", str(tmp_path / "run"), "--source-column", "de", "--target-column", "fr"),
            *("--source-lang", "de", "--target-lang", "fr", "--backend", "llm", "--model", "fake-model"),
            *("--base-url", fake.base_url, "--batch", "--poll-interval", "0.01", "--batch-max-requests", "2", "--quiet"),
        )
        assert len(fake.batches) == 3
    assert "Batch API: 3 batch(es) sent this run, in 1 round(s)" in output
    invoke("build", "--run-dir", str(tmp_path / "run"), "--out", str(tmp_path / "data"), "--name", "Dogs")
    assert "Sent through the Batch API: 3 batch(es) in 1 round(s)." in (tmp_path / "data" / "README.md").read_text("utf-8")
