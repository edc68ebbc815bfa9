"""Batch API uploads are found again from the run's own record, never by listing the whole account.

Each upload is noted in the checkpoint before it is sent and its file id once known: a round sent again reuses the
noted file (one request to check it is still there), and an upload whose answer was lost is looked for among the
newest files only. A provider that serves the Batch API without the file listing runs every batch; when an answer is
lost there, the file is uploaded once more (no batch twice) and that is said once. Against the local Batch API of
tests/helpers/fake_openai.py, which counts every request by route.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from clsd_format.languages import parse_language
from clsd_generation.core.inputs import ParallelCorpus, read_parallel
from clsd_generation.core.settings import BatchSettings, LLMSettings
from clsd_generation.core.summary import RunReport
from clsd_generation.run.backends import LLMBackend
from clsd_generation.run.loop import RunOptions, generate_distractors
from tests.helpers.corpora import write_parallel_csv
from tests.helpers.fake_openai import FakeOpenAI

LANGS = (parse_language("de"), parse_language("fr"))
LISTING = "GET /v1/files"


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")


def corpus(tmp_path: Path, pairs: int = 4) -> ParallelCorpus:
    rows = [(f"Der Hund Nummer {i} beißt den Mann", f"Le chien numéro {i} mord l'homme") for i in range(pairs)]
    tmp_path.mkdir(parents=True, exist_ok=True)
    return read_parallel(write_parallel_csv(tmp_path / "p.csv", rows), ("de", "fr"))


def batch_run(tmp_path: Path, fake: FakeOpenAI, max_retries: int = 2, **limits: int) -> RunReport:
    llm = LLMSettings(model="fake-model", base_url=fake.base_url, timeout=5.0, max_retries=max_retries)
    backend = LLMBackend(llm, batch=BatchSettings(poll_interval=0.01, **limits))  # type: ignore[arg-type]
    return generate_distractors(corpus(tmp_path), LANGS, tmp_path / "run", backend, options=RunOptions(progress=False))


def run_uploads(fake: FakeOpenAI) -> list[str]:
    """The input files the run uploaded (not the account's older files, not batch output)."""
    return [file_id for file_id, name in fake.file_names.items() if name.startswith("clsd-")]


def test_a_provider_without_a_file_listing_runs_every_batch(tmp_path: Path) -> None:
    with FakeOpenAI() as fake:
        fake.file_listing = False
        report = batch_run(tmp_path, fake, max_requests=4)
        uploads, batches, listings = len(run_uploads(fake)), len(fake.batches), fake.route_calls[LISTING]
    assert report.ok == 8
    assert (uploads, batches, listings) == (2, 2, 0)  # two parts, nothing lost: nothing looked up


@pytest.mark.slow  # two lost answers, each retried after the client's pause
def test_without_a_file_listing_a_lost_upload_is_sent_again_and_said_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with FakeOpenAI() as fake, caplog.at_level(logging.WARNING):
        fake.file_listing = False
        fake.lost_upload_answers = 2  # the upload made its file and its answer was lost, twice in a row
        report = batch_run(tmp_path, fake)
        uploads, batches, listings = len(run_uploads(fake)), len(fake.batches), fake.route_calls[LISTING]
    assert report.ok == 8
    assert (uploads, batches, listings) == (3, 1, 1)  # the file sent again each time, one batch, the route tried once
    said = [r.getMessage() for r in caplog.records if "lists no files" in r.getMessage()]
    assert len(said) == 1 and "status 404" in said[0]


def test_an_account_with_many_files_is_not_paged_through(tmp_path: Path) -> None:
    with FakeOpenAI() as fake:
        fake.add_account_files(2000)
        fake.list_page_size = 100  # the account's files fill twenty pages
        report = batch_run(tmp_path / "plain", fake)
        assert report.ok == 8 and fake.route_calls[LISTING] == 0
        fake.lost_upload_answers = 1
        report = batch_run(tmp_path / "lost", fake)
        uploads, batches, listings = len(run_uploads(fake)), len(fake.batches), fake.route_calls[LISTING]
    assert report.ok == 8
    assert (uploads, batches) == (2, 2)  # one input file and one batch per run: the lost answer's file was found
    assert listings == 1  # on the first page, newest first


def test_a_round_sent_again_reuses_its_noted_upload_without_a_listing(tmp_path: Path) -> None:
    with FakeOpenAI() as fake:
        fake.batch_create_status = 503  # the file is uploaded, then the batch cannot be created: the run stops unfinished
        first = batch_run(tmp_path, fake, max_retries=0)
        assert (first.ok, first.unfinished, len(fake.batches)) == (0, 8, 0)
        fake.batch_create_status = None
        again = batch_run(tmp_path, fake, max_retries=0)
        uploads, batches, routes = run_uploads(fake), len(fake.batches), fake.route_calls
    assert again.ok == 8
    assert (len(uploads), batches) == (1, 1)  # the noted file was reused
    assert routes[LISTING] == 0 and routes[f"GET /v1/files/{uploads[0]}"] == 1  # checked by its id, one request
