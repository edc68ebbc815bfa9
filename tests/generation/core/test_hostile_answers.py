"""One reading for every LLM answer: a server answering badly on purpose (tests/helpers/fake_openai.py on 127.0.0.1).

Oversized answers, text that is not valid Unicode, JSON nested past any parser's depth or broken off midway, a
pivot "translation" that is the source or still in its language: each is refused with its reason, counted in
what the command prints, asked again, and never kept, never stored in full, never an internal error.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from clsd_generation.core.checkpoint import Checkpoint
from clsd_generation.core.reading import JSON_TOO_DEEP, NOT_JSON, OVERSIZED, UNDECODABLE
from clsd_generation.llm.translate import COPY, SOURCE_LANGUAGE
from tests.helpers.cli_runner import invoke
from tests.helpers.corpora import DE_FR_OPTIONS, write_parallel_csv
from tests.helpers.fake_openai import FakeOpenAI, english_of, good_distractors

ROWS = [(f"Der Hund Nummer {i} beißt den Mann", f"Le chien numéro {i} mord l'homme") for i in range(3)]


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")


def _generate(tmp_path: Path, fake: FakeOpenAI, *extra: str) -> tuple[Path, str]:
    corpus = write_parallel_csv(tmp_path / "p.csv", ROWS)
    run_dir = tmp_path / "run"
    output = invoke(
        "generate", str(corpus), "--run-dir", str(run_dir), *DE_FR_OPTIONS, "--backend", "llm",
        "--model", "fake-model", "--base-url", fake.base_url, "--quiet", *extra,
    )  # fmt: skip
    return run_dir, output


def _stored_answers(run_dir: Path) -> list[str]:
    with sqlite3.connect(run_dir / "checkpoint.sqlite") as db:
        return [row[0] for row in db.execute("SELECT answer FROM attempts")]


def test_oversized_and_undecodable_answers_are_refused_counted_and_stored_bounded(tmp_path: Path) -> None:
    with FakeOpenAI({"Nummer 0 ": ["huge"], "Nummer 1 ": ["surrogate"]}) as fake:
        run_dir, output = _generate(tmp_path, fake)
    assert f"answers refused this run (asked again): {OVERSIZED} 1, {UNDECODABLE} 1" in output
    assert "this run: 6 with distractors, 0 failed validation, 0 unfinished" in output
    with Checkpoint.existing(run_dir) as checkpoint:
        kept = {(r.pair_id, r.lang): r.distractors for r in checkpoint.results()}
        assert checkpoint.rejections()["de"][OVERSIZED] == 1 and checkpoint.rejections()["de"][UNDECODABLE] == 1
    assert kept[("row1", "de")] == good_distractors(ROWS[0][0]) and kept[("row2", "de")] == good_distractors(ROWS[1][0])
    stored = _stored_answers(run_dir)
    assert max(len(answer) for answer in stored) < 3000  # a bounded prefix of the 500 kB answer, never all of it
    assert any(answer.endswith("characters in all]") for answer in stored) and any("\\ud800" in a for a in stored)


@pytest.mark.parametrize("structured", [(), ("--structured",)], ids=["text", "structured"])
def test_an_answer_whose_bytes_are_not_utf8_is_one_refused_answer(tmp_path: Path, structured: tuple[str, ...]) -> None:
    with FakeOpenAI({"Nummer 0 ": ["undecodable"], "Nummer 1 ": ["undecodable"]}) as fake:
        run_dir, output = _generate(tmp_path, fake, *structured)
    assert f"answers refused this run (asked again): {UNDECODABLE} 2" in output
    assert "this run: 6 with distractors, 0 failed validation, 0 unfinished" in output
    assert any("\\udcff" in answer for answer in _stored_answers(run_dir))  # stored as an escape, never raw


def test_structured_answers_that_are_not_the_schema_s_json_are_refused_not_parsed_as_text(tmp_path: Path) -> None:
    with FakeOpenAI({"Nummer 0 ": ["deep"], "Nummer 1 ": ["fragments"]}) as fake:
        run_dir, output = _generate(tmp_path, fake, "--structured")
    assert f"answers refused this run (asked again): {JSON_TOO_DEEP} 1, {NOT_JSON} 1" in output
    with Checkpoint.existing(run_dir) as checkpoint:
        kept = [d for result in checkpoint.results() for d in result.distractors]
    assert len(kept) == 24 and not any('"' in d or d.startswith(("{", "[")) for d in kept)  # no JSON fragment kept


@pytest.mark.slow
def test_a_pivot_answer_that_is_not_an_english_translation_is_refused_asked_again_then_left_out(tmp_path: Path) -> None:
    asked_again, left_out = good_distractors(ROWS[0][0])[0], good_distractors(ROWS[1][0])[1]
    oversized = good_distractors(ROWS[2][1])[3]
    scripts = {asked_again: ["copy", "german"], left_out: ["copy"] * 3, oversized: ["huge"]}
    with FakeOpenAI() as fake:
        run_dir, _ = _generate(tmp_path, fake)
    with FakeOpenAI(scripts) as fake:
        llm = ("--backend", "llm", "--model", "fake-model", "--base-url", fake.base_url, "--quiet")
        output = invoke("translate", "--run-dir", str(run_dir), *llm)
    with Checkpoint.existing(run_dir) as checkpoint:
        german, french = checkpoint.translations("de"), checkpoint.translations("fr")
    assert german[asked_again] == english_of(asked_again)  # the third answer is a translation
    assert german[left_out] == ""  # refused three times: recorded as failed, its row left out of the pivot configs
    assert french[oversized] == english_of(oversized)
    assert f"de->en: answers refused (asked again; a text refused 3 times is left out): {COPY} 4, {SOURCE_LANGUAGE} 1" in output
    assert f"fr->en: answers refused (asked again; a text refused 3 times is left out): {OVERSIZED} 1" in output
    invoke("build", "--run-dir", str(run_dir), "--out", str(tmp_path / "ds"), "--name", "HOSTILE")
    card = (tmp_path / "ds" / "README.md").read_text(encoding="utf-8")
    assert "1 row(s) were left out because a translation came back empty or was refused." in card
    assert (
        f"Translator answers refused and asked again, by reason: de: {COPY} 4, {SOURCE_LANGUAGE} 1; fr: {OVERSIZED} 1."
    ) in card


@pytest.mark.slow
def test_the_judge_refuses_an_oversized_answer_and_says_so(tmp_path: Path) -> None:
    with FakeOpenAI({"Nummer 0 beißt den Mann heute": ["huge"]}) as fake:
        run_dir, _ = _generate(tmp_path, fake)
        output = invoke("judge", "--run-dir", str(run_dir), "--model", "judge", "--base-url", fake.base_url, "--quiet")
    assert f"answers refused (asked again): {OVERSIZED} 2" in output  # the first answer to two distinct questions
    assert "de: 12 of 12 judged valid" in output
    with sqlite3.connect(run_dir / "checkpoint.sqlite") as db:
        assert max(len(row[0]) for row in db.execute("SELECT answer FROM judgments")) < 100
    invoke("build", "--run-dir", str(run_dir), "--out", str(tmp_path / "ds"), "--name", "JUDGED")
    assert f"- answers refused (asked again): {OVERSIZED} 2" in (tmp_path / "ds" / "README.md").read_text(encoding="utf-8")
