"""Nothing paid for nothing: a `clsd generate`, `translate` or `judge` run that keeps nothing fails (exit status 2) with
its counts by reason, against the stand-in OpenAI server on 127.0.0.1 (tests/helpers/fake_openai.py).

A run whose first answers all name another model stops before sending more (tests/generation/llm/test_answering_models.py);
these are the runs that go to their end and keep nothing: every sentence failed, every answer refused, every
translation refused, every verdict unclear.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clsd_generation.core.reading import OTHER_MODEL
from tests.helpers.cli_runner import exits_two, invoke
from tests.helpers.corpora import llm_generate_args, write_parallel_csv
from tests.helpers.fake_openai import FakeOpenAI, every_text

ROWS = [(f"Der Hund Nummer {i} beißt den Mann", f"Le chien numéro {i} mord l'homme") for i in range(3)]
NOTHING = "error: nothing to build: no German (de) and no French (fr) sentence has distractors; "


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")


def _generated(tmp_path: Path) -> Path:
    """A German-French run of three rows, its distractors from a well-behaved stand-in."""
    corpus = write_parallel_csv(tmp_path / "p.csv", ROWS)
    with FakeOpenAI() as fake:
        invoke(*llm_generate_args(corpus, tmp_path / "run", fake.base_url, "--quiet"))
    return tmp_path / "run"


def test_a_run_whose_every_sentence_fails_exits_non_zero_with_the_failures_by_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = write_parallel_csv(tmp_path / "p.csv", ROWS)
    with FakeOpenAI(every_text("few")) as fake:  # two distractors an answer, every time
        out, line = exits_two(llm_generate_args(corpus, tmp_path / "run", fake.base_url, "--quiet"), capsys)
        out = out.splitlines()
        sent = fake.chat_requests()
    assert sent == 18 and "requests sent this run: 18" in out  # every paid request counted
    assert "this run: 0 with distractors, 6 failed validation, 0 unfinished" in out
    assert line.startswith(NOTHING + "failed sentences by reason: German (de) 3 (") and "French (fr) 3 (" in line
    assert line.endswith("; requests sent this run: 18 (the lines above say more).")
    assert not [text for text in out if text.startswith("next:")]


def test_a_batch_run_whose_every_answer_is_another_model_s_exits_non_zero_with_the_refusals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = write_parallel_csv(tmp_path / "p.csv", ROWS)
    with FakeOpenAI() as fake:
        fake.answered_model = "gpt-4o-2024-11-20"  # every answer of every round: the Batch API sends all at once
        batch = ("--batch", "--poll-interval", "0.01", "--quiet")
        out, line = exits_two(llm_generate_args(corpus, tmp_path / "run", fake.base_url, *batch), capsys)
        out = out.splitlines()
    assert "this run: 0 with distractors, 6 failed validation, 0 unfinished" in out
    assert line.startswith(NOTHING) and f"; answers refused this run: {OTHER_MODEL} 18 (the lines above" in line
    assert any(text.endswith("(allow it: --accept-answering-model gpt-4o-2024-11-20)") for text in out)


def test_an_llm_pivot_whose_every_answer_is_refused_exits_non_zero_with_the_refusals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_dir = _generated(tmp_path)
    with FakeOpenAI(every_text("copy")) as fake:  # the source sent back unchanged, every time
        args = ["translate", "--run-dir", str(run_dir), "--backend", "llm", "--model", "fake-model", "--quiet"]
        _, line = exits_two([*args, "--base-url", fake.base_url], capsys)
        sent = fake.chat_requests()
    assert sent == 90  # 30 texts, three answers each
    assert line == (
        "error: no translation kept: all 30 text(s) translated this run came back refused or empty (90 request(s) sent; "
        "answers refused by reason: de->en: the source unchanged 45; fr->en: the source unchanged 45). Check --model and "
        "--base-url."
    )


def test_a_judge_whose_every_verdict_is_unclear_exits_non_zero_with_the_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_dir = _generated(tmp_path)
    with FakeOpenAI(every_text("babble")) as fake:  # neither yes nor no, every time
        args = ["judge", "--run-dir", str(run_dir), "--model", "judge-model", "--quiet", "--sample", "1"]
        _, line = exits_two([*args, "--max-attempts", "2", "--base-url", fake.base_url], capsys)
        sent = fake.chat_requests()
    assert sent == 12  # one distractor per language, three questions, two answers each
    assert line == (
        "error: no verdict kept: all 6 question(s) settled this run came out unclear (12 answer(s) to 12 request(s) "
        "sent; answers refused by reason: none; the others neither yes nor no). Check --model and --base-url, or try "
        "--structured."
    )
