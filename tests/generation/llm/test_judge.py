"""`clsd judge` against the fake OpenAI server on 127.0.0.1: strict verdicts, the interval, resume after kill -9, the
card, --drop-invalid and the agreement with a filled sample sheet."""

from __future__ import annotations

import csv
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from scipy.stats import binomtest

from clsd_format import hub
from clsd_format.errors import DataError
from clsd_generation.core.checkpoint import Checkpoint
from clsd_generation.dataset.human_check import CRITERIA
from clsd_generation.llm.judge import QUESTIONS, UNCLEAR, read_verdict, wilson_interval
from tests.helpers.cli_runner import invoke
from tests.helpers.corpora import DE_FR_OPTIONS, write_parallel_csv
from tests.helpers.fake_openai import FakeOpenAI

ROWS = [(f"Der Hund Nummer {i} beißt den Mann", f"Le chien numéro {i} mord l'homme") for i in range(3)]


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")


@pytest.mark.parametrize(("successes", "trials"), [(8, 10), (0, 10), (10, 10), (81, 100), (1, 3), (197, 200)])
def test_the_wilson_interval_is_scipys(successes: int, trials: int) -> None:
    expected = binomtest(successes, trials).proportion_ci(confidence_level=0.95, method="wilson")
    assert wilson_interval(successes, trials) == pytest.approx((expected.low, expected.high), abs=1e-12)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_verdicts_are_read_strictly() -> None:
    assert read_verdict("Yes.") == "yes" and read_verdict(" no ") == "no" and read_verdict("**NO**") == "no"
    assert read_verdict("<think>Probably no.</think>\nyes") == "yes"
    for loose in ("Yes, but only partly.", "I think so", "", "yes no", "Ja"):
        assert read_verdict(loose) == UNCLEAR, loose
    assert read_verdict('{"answer": "no"}', structured=True) == "no"
    assert read_verdict('{"answer": "maybe"}', structured=True) == UNCLEAR


def generated_run(tmp_path: Path, fake: FakeOpenAI) -> Path:
    corpus = write_parallel_csv(tmp_path / "p.csv", ROWS)
    run_dir = tmp_path / "run"
    invoke("generate", str(corpus), "--run-dir", str(run_dir), *DE_FR_OPTIONS, "--backend", "llm", *endpoint(fake))
    return run_dir


def endpoint(fake: FakeOpenAI, model: str = "fake-model") -> tuple[str, ...]:
    return ("--model", model, "--base-url", fake.base_url, "--quiet")


def judge_prompts(fake: FakeOpenAI) -> list[str]:
    return [r["messages"][0]["content"] for r in fake.requests if r["messages"][0]["content"].startswith(("Is ", "Sentence A"))]


@pytest.mark.slow
def test_judge_counts_invalid_and_unclear_asks_nothing_twice_and_fills_the_card(tmp_path: Path) -> None:
    # one German distractor is a translation of its source; one is answered with babble first, then clearly
    scripts = {"Nummer 0 beißt den Mann heute": ["invalid"] * 3, "Nummer 1 beißt den Mann gestern": ["babble"]}
    with FakeOpenAI(scripts) as fake:
        run_dir = generated_run(tmp_path, fake)
        first = invoke("judge", "--run-dir", str(run_dir), *endpoint(fake, "judge-model"), "--concurrency", "3")
        asked = judge_prompts(fake)
        again = invoke("judge", "--run-dir", str(run_dir), *endpoint(fake, "judge-model"))
        assert judge_prompts(fake) == asked  # the repeated command asked nothing
        with pytest.raises(Exception, match="different settings"):
            invoke("judge", "--run-dir", str(run_dir), *endpoint(fake, "another-judge"))
    assert len(asked) == 24 * len(QUESTIONS) + 2  # every question once, the two babbled ones twice
    low, high = wilson_interval(11, 12)
    assert f"de: 11 of 12 judged valid (91.7%; 95% Wilson interval {low:.1%}-{high:.1%}) [judge: judge-model]" in first
    assert "fr: 12 of 12 judged valid" in first and "questions asked in this run: 74" in first
    assert "questions asked in this run: 0" in again
    invoke("build", "--run-dir", str(run_dir), "--out", str(tmp_path / "all"), "--name", "JUDGED")
    card = (tmp_path / "all" / hub.CARD_FILE).read_text(encoding="utf-8")
    assert "## Judged validity" in card and "judge-model" in card and "de: 11 of 12 judged valid" in card
    assert "Is sentence B a small edit of sentence A" in card
    origin = hub.distractor_origin(hub.read_front_matter(tmp_path / "all"), "card")  # what every answer opens with
    assert origin is not None and origin.judged_by == "judge-model" and ("de", 11, 12) in origin.judged
    invoke("build", "--run-dir", str(run_dir), "--out", str(tmp_path / "kept"), "--name", "JUDGED", "--drop-invalid")
    card = (tmp_path / "kept" / hub.CARD_FILE).read_text(encoding="utf-8")
    assert "1 sentence(s) with a judged-invalid distractor were left out of this build" in card
    assert "| fr-de | CLSD-JUDGED-FR-DE | fra-Latn | deu-Latn | 2 |" in card  # French source, German target: one left out


def test_a_seeded_sample_and_drop_invalid_without_a_judge(tmp_path: Path) -> None:
    with FakeOpenAI() as fake:
        run_dir = generated_run(tmp_path, fake)
        with pytest.raises(Exception, match="needs the judge's verdicts"):
            invoke("build", "--run-dir", str(run_dir), "--out", str(tmp_path / "out"), "--name", "X", "--drop-invalid")
        output = invoke("judge", "--run-dir", str(run_dir), *endpoint(fake), "--sample", "2", "--seed", "5")
    assert "de: 2 of 2 judged valid" in output and "fr: 2 of 2 judged valid" in output
    assert len(judge_prompts(fake)) == 4 * len(QUESTIONS)


def test_agreement_with_a_filled_sheet(tmp_path: Path) -> None:
    scripts = {"Nummer 2 beißt den Mann dort": ["invalid"] * 3}
    with FakeOpenAI(scripts) as fake:
        run_dir = generated_run(tmp_path, fake)
        sheet = tmp_path / "sheet.csv"
        invoke("check-sample", "--run-dir", str(run_dir), "--sheet", str(sheet), "--per-language", "12")
        with sheet.open(encoding="utf-8", newline="") as handle:
            rows = list(csv.DictReader(handle))
        for row in rows:  # people refuse every "heute" distractor, accept the others
            verdict = "no" if "heute" in row["distractor"] else "yes"
            row.update(structurally_similar="yes", lexically_similar="yes", different_meaning=verdict)
        with sheet.open("w", encoding="utf-8", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
        output = invoke("judge", "--run-dir", str(run_dir), *endpoint(fake), "--against", str(sheet))
    # 24 distractors: 6 "heute" ones people refused (the judge accepts them), one "dort" one the judge refuses
    assert "24 distractors compared" in output
    assert "agree: 17 valid, 0 invalid (accuracy 70.8%)" in output
    assert "judge accepts what people refused: 6" in output and "judge refuses what people accepted: 1" in output


def write_sheet(sheet: Path, rows: list[dict[str, str]]) -> None:
    with sheet.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def test_a_sheet_that_does_not_match_its_run_is_refused_before_any_request(tmp_path: Path) -> None:
    with FakeOpenAI() as fake:
        run_dir = generated_run(tmp_path, fake)
        sheet = tmp_path / "sheet.csv"
        invoke("check-sample", "--run-dir", str(run_dir), "--sheet", str(sheet), "--per-language", "4")
        with sheet.open(encoding="utf-8", newline="") as handle:
            rows = [{**row, **dict.fromkeys(CRITERIA, "yes")} for row in csv.DictReader(handle)]
        shuffled = [dict(row) for row in rows]
        for row, other in zip(shuffled, shuffled[1:] + shuffled[:1], strict=True):
            row["distractor"] = other["distractor"]  # the distractor column sorted on its own
        spoiled = {
            "repeated": ([*rows, rows[2]], r"row 9, column 'distractor': .* repeats row 3;"),
            "conflicting": ([*rows, {**rows[2], "different_meaning": "no"}], r"row 9, .* contradicts the verdict of row 3;"),
            "shuffled": (shuffled, r"row 1, column 'distractor': this distractor is not a distractor the run kept"),
            "wrong original": ([{**rows[0], "original": rows[5]["original"]}], r"row 1, column 'original': this original is not"),
        }
        asked = len(fake.requests)
        for name, (spoiled_rows, message) in spoiled.items():
            write_sheet(tmp_path / f"{name}.csv", spoiled_rows)
            with pytest.raises(DataError, match=message):
                invoke("judge", "--run-dir", str(run_dir), *endpoint(fake), "--against", str(tmp_path / f"{name}.csv"))
        assert len(fake.requests) == asked  # nothing was paid for
        with Checkpoint.existing(run_dir) as checkpoint:
            assert checkpoint.get_meta("judge") is None  # no judge bound to the run by a refused sheet


@pytest.mark.slow
def test_judge_killed_partway_resumes_without_asking_a_settled_question_again(tmp_path: Path) -> None:
    with FakeOpenAI(delay=0.02) as fake:
        run_dir = generated_run(tmp_path, fake)
        command = [sys.executable, "-m", "clsd_cli", "judge", "--run-dir", str(run_dir), *endpoint(fake)]
        env = {**os.environ, "OPENAI_API_KEY": "test-key"}
        process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        database = run_dir / "checkpoint.sqlite"
        for _ in range(600):
            with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
                if db.execute("SELECT COUNT(*) FROM judgments").fetchone()[0] >= 20:
                    break
            time.sleep(0.02)
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        assert process.returncode == -signal.SIGKILL
        with Checkpoint.existing(run_dir) as checkpoint:
            settled_before = checkpoint.judged_questions()
        mark = len(fake.requests)
        assert 20 <= len(settled_before) < 72
        second = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
        assert second.returncode == 0, second.stderr
        asked_after = [r["messages"][0]["content"] for r in fake.requests[mark:]]
    with Checkpoint.existing(run_dir) as checkpoint:
        assert len(checkpoint.judged_questions()) == 72
    assert len(asked_after) == 72 - len(settled_before)  # exactly the unsettled questions, each once
    assert "de: 12 of 12 judged valid" in second.stdout
