"""Which model answered, live, through the Batch API and through request files, against the stand-in server on 127.0.0.1
(tests/helpers/fake_openai.py, whose ``answered_model`` makes every answer name another model than the one asked for).

Each attempt keeps the model asked for and the one its answer names; another model's answer is refused in one line and
asked again unless allowed by name (``--accept-answering-model``); the run summary and the dataset card name every
model that answered, with counts. The rule itself is tested in tests/generation/core/test_answering_models.py.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from clsd_format.errors import CLSDError
from clsd_format.languages import parse_language
from clsd_generation.core.inputs import ParallelCorpus, read_parallel
from clsd_generation.core.reading import OTHER_MODEL
from clsd_generation.core.settings import BatchSettings, LLMSettings, RequestFiles
from clsd_generation.run.backends import LLMBackend
from clsd_generation.run.generate import RunOptions, generate_distractors
from tests.helpers.batch_runner import run_requests
from tests.helpers.cli_runner import invoke
from tests.helpers.corpora import DE_FR_OPTIONS, llm_generate_args, write_parallel_csv
from tests.helpers.fake_openai import FakeOpenAI

LANGS = (parse_language("de"), parse_language("fr"))
ROWS = [(f"Der Hund Nummer {i} beißt den Mann", f"Le chien numéro {i} mord l'homme") for i in range(3)]
REFUSED_LINE = (
    "answers by model this run (asked for fake-model): other-model {n} refused as another model's "
    "(allow it: --accept-answering-model other-model)"
)


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")


@pytest.fixture
def corpus(tmp_path: Path) -> ParallelCorpus:
    return read_parallel(write_parallel_csv(tmp_path / "p.csv", ROWS), ("de", "fr"))


def attempts(run_dir: Path) -> set[tuple[str, str | None, str]]:
    """(model asked for, model answered, origin kind) of every stored attempt."""
    with sqlite3.connect(run_dir / "checkpoint.sqlite") as db:
        rows = db.execute("SELECT asked_model, answered_model, origin FROM attempts")
        return {(asked, answered, origin.split(":")[0]) for asked, answered, origin in rows}


def test_live_answers_of_another_model_are_refused_in_one_line_and_the_sentences_fail(tmp_path: Path) -> None:
    corpus = write_parallel_csv(tmp_path / "p.csv", ROWS)
    with FakeOpenAI() as fake:
        fake.answered_model = "other-model"
        output = invoke(*llm_generate_args(corpus, tmp_path / "run", fake.base_url, "--quiet"))
    assert "this run: 0 with distractors, 6 failed validation, 0 unfinished" in output
    assert f"answers refused this run (asked again): {OTHER_MODEL} 18" in output
    assert REFUSED_LINE.format(n=18) in output.splitlines()
    assert attempts(tmp_path / "run") == {("fake-model", "other-model", "live")}


@pytest.mark.slow
def test_another_model_allowed_by_name_is_read_and_the_card_names_it_with_counts(tmp_path: Path) -> None:
    corpus = write_parallel_csv(tmp_path / "p.csv", ROWS)
    with FakeOpenAI() as fake:
        fake.answered_model = "other-model"
        allowed = ("--accept-answering-model", "third-model", "--accept-answering-model", "other-model", "--quiet")
        output = invoke(*llm_generate_args(corpus, tmp_path / "run", fake.base_url, *allowed))
    assert "this run: 6 with distractors, 0 failed validation, 0 unfinished" in output
    assert "answers by model this run (asked for fake-model): other-model 6" in output.splitlines()
    invoke("build", "--run-dir", str(tmp_path / "run"), "--out", str(tmp_path / "data"), "--name", "Other", "--no-score")
    card = (tmp_path / "data" / "README.md").read_text(encoding="utf-8")
    assert "- Backend: **LLM (fake-model, answered as other-model)**" in card
    assert "- Models that answered, as each answer names its model: `other-model` (asked for `fake-model`): 6 answer(s), " \
           "read for 6 sentence(s) with distractors." in card  # fmt: skip


def test_a_dated_snapshot_of_the_model_asked_for_is_read_and_named(tmp_path: Path, corpus: ParallelCorpus) -> None:
    with FakeOpenAI({"Nummer 0 ": ["few"]}) as fake:
        fake.answered_model = "fake-model-2024-08-06"
        llm = LLMSettings(model="fake-model", base_url=fake.base_url, max_retries=0)
        report = generate_distractors(corpus, LANGS, tmp_path / "run", LLMBackend(llm), options=RunOptions(progress=False))
    assert (report.ok, report.failed) == (6, 0)
    assert "answers by model this run (asked for fake-model): fake-model-2024-08-06 7" in report.lines()
    assert attempts(tmp_path / "run") == {("fake-model", "fake-model-2024-08-06", "live")}


def test_another_model_s_cut_answers_spend_their_attempts(tmp_path: Path, corpus: ParallelCorpus) -> None:
    with FakeOpenAI({"Nummer 0 ": ["cut"] * 3}) as fake:
        fake.answered_model = "other-model"
        llm = LLMSettings(model="fake-model", base_url=fake.base_url, max_retries=0)
        report = generate_distractors(corpus, LANGS, tmp_path / "run", LLMBackend(llm), options=RunOptions(progress=False))
    # refused as another model's, never "cut by the token limit": no sentence waits for a larger limit
    assert (report.failed, report.unfinished, report.limited, report.cut) == (6, 0, 0, 0)


def test_batch_api_answers_keep_the_model_that_answered_and_another_is_refused(tmp_path: Path, corpus: ParallelCorpus) -> None:
    with FakeOpenAI() as fake:
        fake.answered_model = "other-model"
        llm = LLMSettings(model="fake-model", base_url=fake.base_url, max_retries=0)
        backend = LLMBackend(llm, batch=BatchSettings(poll_interval=0.01))
        report = generate_distractors(corpus, LANGS, tmp_path / "run", backend, options=RunOptions(progress=False))
    assert (report.ok, report.failed) == (0, 6) and report.refused_answers[OTHER_MODEL] == 18
    assert REFUSED_LINE.format(n=18) in report.lines()
    assert attempts(tmp_path / "run") == {("fake-model", "other-model", "batch")}


def test_a_request_file_answered_by_another_model_is_refused_unless_allowed(tmp_path: Path, corpus: ParallelCorpus) -> None:
    def one_round(run_dir: Path, fake: FakeOpenAI, *allowed: str) -> list[str]:
        llm = LLMSettings(model="fake-model", accepted_models=allowed)
        requests, answers = run_dir.with_suffix(".requests.jsonl"), run_dir.with_suffix(".answers.jsonl")
        options = RunOptions(progress=False)
        generate_distractors(corpus, LANGS, run_dir, LLMBackend(llm, files=RequestFiles(requests)), options=options)
        run_requests(requests, answers, fake.base_url)
        report = generate_distractors(corpus, LANGS, run_dir, LLMBackend(llm, files=RequestFiles(None, answers)), options=options)
        return report.lines()

    with FakeOpenAI() as fake:
        fake.answered_model = "other-model"
        refused = one_round(tmp_path / "refused", fake)
        allowed = one_round(tmp_path / "allowed", fake, "other-model")
    assert REFUSED_LINE.format(n=6) in refused and "this run: 0 with distractors, 0 failed validation, 6 unfinished" in refused
    assert "answers by model this run (asked for fake-model): other-model 6" in allowed
    assert "this run: 6 with distractors, 0 failed validation, 0 unfinished" in allowed
    assert attempts(tmp_path / "refused") == attempts(tmp_path / "allowed") == {("fake-model", "other-model", "file")}


def test_allowing_a_model_needs_the_llm_backend(tmp_path: Path) -> None:
    corpus = write_parallel_csv(tmp_path / "p.csv", ROWS)
    with pytest.raises(
        CLSDError, match=r"^--batch, --requests-out, --answers and --accept-answering-model need --backend llm\.$"
    ):
        invoke("generate", str(corpus), "--run-dir", str(tmp_path / "run"), *DE_FR_OPTIONS, "--accept-answering-model", "m")
    assert not (tmp_path / "run").exists()
