"""The LLM backend against a real HTTP server on 127.0.0.1 (tests/helpers/fake_openai.py)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from clsd_format.errors import CLSDError
from clsd_format.languages import parse_language
from clsd_generation.core.checkpoint import Checkpoint
from clsd_generation.core.inputs import read_parallel
from clsd_generation.core.settings import BatchSettings, LLMSettings
from clsd_generation.llm.prompts import PromptSettings
from clsd_generation.run.backends import LLMBackend
from clsd_generation.run.loop import RunOptions, generate_distractors
from tests.helpers.corpora import DE_FR_OPTIONS, write_parallel_csv
from tests.helpers.fake_openai import FakeOpenAI, good_distractors

LANGS = (parse_language("de"), parse_language("fr"))
SCRIPTS = {
    "Katze": ["429", "good"],
    "Maus": ["500", "500", "good"],
    "Vogel": ["few", "good"],
    "Fisch": ["same", "same", "same"],
    "Brücke": ["drop", "good"],
    "langsame": ["slow", "good"],
    "chat dort": ["chatter"],
}
FAULT_ROWS = [
    ("Die Katze schläft auf dem Sofa", "Le chat dort sur le canapé"),
    ("Die Maus läuft durch das Haus", "La souris court dans la maison"),
    ("Der Vogel singt im alten Baum", "L'oiseau chante dans le vieil arbre"),
    ("Der Fisch schwimmt im kalten Wasser", "Le poisson nage dans l'eau froide"),
    ("Die Brücke führt über den Fluss", "Le pont traverse la rivière"),
    ("Der langsame Zug kommt spät an", "Le train lent arrive en retard"),
]


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")


def numbered_rows(n: int) -> list[tuple[str, str]]:
    return [(f"Der Hund Nummer {i} beißt den Mann", f"Le chien numéro {i} mord l'homme") for i in range(n)]


def settings(fake: FakeOpenAI, **overrides: object) -> LLMSettings:
    values = {"model": "fake-model", "base_url": fake.base_url, "concurrency": 4, "timeout": 1.0, "max_retries": 3} | overrides
    return LLMSettings(**values)  # type: ignore[arg-type]


def check_fault_outcomes(run_dir: Path, fake: FakeOpenAI) -> None:
    with Checkpoint.existing(run_dir) as checkpoint:
        results = {(r.pair_id, r.lang): r for r in checkpoint.results()}
        attempts = checkpoint.attempt_numbers()
        usage = checkpoint.usage()
    assert len(results) == 2 * (len(FAULT_ROWS) + 2)
    fish = results[("row4", "de")]
    assert fish.status == "failed" and "only 3 of 4 valid" in fish.reason and "same as original" in fish.reason
    assert attempts[("row4", "de")] == [1, 2, 3]
    for key, result in results.items():
        if key != ("row4", "de"):
            assert result.status == "ok", (key, result)
            assert len(result.distractors) == 4
    # "few" was re-asked and its two valid answers kept; "chatter" parsed clean
    assert attempts[("row3", "de")] == [1, 2]
    assert results[("row1", "fr")].distractors == good_distractors("Le chat dort sur le canapé")
    assert usage.prompt_tokens > 0 and usage.completion_tokens > 0
    asked = Counter(sentence for sentence, _ in fake.log)
    assert asked["Die Katze schläft auf dem Sofa"] == 2  # 429, then answered
    assert asked["Die Maus läuft durch das Haus"] == 3  # two 500s, then answered
    assert asked["Der Vogel singt im alten Baum"] == 2  # too few items: asked again
    assert asked["Der Fisch schwimmt im kalten Wasser"] == 3  # never four valid: failed after 3 attempts
    assert asked["Der langsame Zug kommt spät an"] == 2 and asked["Die Brücke führt über den Fluss"] == 2


@pytest.mark.slow
def test_live_mode_survives_every_scripted_fault(tmp_path: Path) -> None:
    corpus = read_parallel(write_parallel_csv(tmp_path / "p.csv", FAULT_ROWS + numbered_rows(2)), ("de", "fr"))
    with FakeOpenAI(SCRIPTS, slow_seconds=2.5) as fake:
        report = generate_distractors(
            corpus, LANGS, tmp_path / "run", LLMBackend(settings(fake)), options=RunOptions(progress=False)
        )
    assert (report.ok, report.failed, report.unfinished) == (15, 1, 0)
    assert report.usage.total > 0
    assert ("Der langsame Zug kommt spät an", "slow") in fake.log and ("Die Brücke führt über den Fluss", "drop") in fake.log
    check_fault_outcomes(tmp_path / "run", fake)


def test_batch_mode_reasks_failures_in_later_rounds(tmp_path: Path) -> None:
    path = write_parallel_csv(tmp_path / "p.csv", FAULT_ROWS + numbered_rows(2))
    corpus = read_parallel(path, ("de", "fr"))
    with FakeOpenAI(SCRIPTS) as fake:
        report = generate_distractors(
            corpus,
            LANGS,
            tmp_path / "run",
            LLMBackend(settings(fake), batch=BatchSettings(poll_interval=0.01)),
            options=RunOptions(progress=False),
        )
        rounds = len(fake.batches)
    assert (report.ok, report.failed, report.unfinished) == (15, 1, 0)
    assert rounds == 3  # round 1 all, round 2 the re-asks and transport failures, round 3 the rest
    check_fault_outcomes(tmp_path / "run", fake)


def test_transport_failures_beyond_retries_leave_sentences_unfinished_then_resume(tmp_path: Path) -> None:
    corpus = read_parallel(write_parallel_csv(tmp_path / "p.csv", numbered_rows(3)), ("de", "fr"))
    with FakeOpenAI({"Nummer 1 ": ["500"] * 3}) as fake:
        report = generate_distractors(
            corpus, LANGS, tmp_path / "run", LLMBackend(settings(fake, max_retries=1)), options=RunOptions(progress=False)
        )
        assert (report.ok, report.unfinished) == (5, 1)
        assert report.errors
        again = generate_distractors(
            corpus, LANGS, tmp_path / "run", LLMBackend(settings(fake, max_retries=1)), options=RunOptions(progress=False)
        )
    assert (again.done_before, again.ok, again.unfinished) == (5, 1, 0)


def test_configuration_errors_stop_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    corpus = read_parallel(write_parallel_csv(tmp_path / "p.csv", numbered_rows(2)), ("de", "fr"))
    with FakeOpenAI() as fake:
        wrong_path = LLMSettings(model="m", base_url=fake.base_url + "/nope", timeout=1.0, max_retries=0)
        with pytest.raises(CLSDError, match="refused the request"):
            generate_distractors(corpus, LANGS, tmp_path / "run", LLMBackend(wrong_path), options=RunOptions(progress=False))
        with pytest.raises(CLSDError, match="model"):
            generate_distractors(
                corpus, LANGS, tmp_path / "run", LLMBackend(settings(fake, model="other")), options=RunOptions(progress=False)
            )
        with pytest.raises(CLSDError, match="prompts"):
            generate_distractors(
                corpus,
                LANGS,
                tmp_path / "run",
                LLMBackend(LLMSettings(model="m", base_url=fake.base_url), PromptSettings(default_template="{sentence}")),
                options=RunOptions(progress=False),
            )
    monkeypatch.delenv("OPENAI_API_KEY")
    with pytest.raises(CLSDError, match="OPENAI_API_KEY is not set"):
        LLMSettings(model="m").api_key()


@pytest.mark.slow
def test_sigkill_partway_then_same_command_completes_each_sentence_once(tmp_path: Path) -> None:
    rows = numbered_rows(40)
    path = write_parallel_csv(tmp_path / "p.csv", rows)
    run_dir = tmp_path / "run"
    with FakeOpenAI(delay=0.05) as fake:
        command = [
            sys.executable,
            "-m",
            "clsd_cli",
            "generate",
            str(path),
            "--run-dir",
            str(run_dir),
            *DE_FR_OPTIONS,
            "--backend",
            "llm",
            "--model",
            "fake-model",
            "--base-url",
            fake.base_url,
            "--concurrency",
            "2",
            "--quiet",
        ]
        env = {**os.environ, "OPENAI_API_KEY": "test-key"}
        process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        database = run_dir / "checkpoint.sqlite"
        finished_before: set[tuple[str, str]] = set()
        for _ in range(600):
            if process.poll() is not None:
                break
            if database.exists():
                try:
                    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
                        if db.execute("SELECT COUNT(*) FROM results").fetchone()[0] >= 15:
                            break
                except sqlite3.OperationalError:
                    pass
            time.sleep(0.05)
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        assert process.returncode == -signal.SIGKILL, "the run must be killed partway, not finish"
        with sqlite3.connect(database) as db:
            finished_before = set(db.execute("SELECT pair_id, lang FROM results"))
        log_mark = len(fake.log)
        assert 15 <= len(finished_before) < 80
        second = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
        assert second.returncode == 0, second.stderr
        asked_again = {sentence for sentence, _ in fake.log[log_mark:]}
    with Checkpoint.existing(run_dir) as checkpoint:
        results = checkpoint.results()
        pairs = {p.pair_id: p for p in checkpoint.pairs()}
        attempts = checkpoint.attempt_numbers()
    keys = [(r.pair_id, r.lang) for r in results]
    assert len(keys) == len(set(keys)) == 2 * len(rows)  # every sentence exactly once
    assert all(r.status == "ok" for r in results)
    # the resumed run counted on where the killed one stopped: attempts 1..n of every sentence stored, none lost or repeated
    assert attempts == {(r.pair_id, r.lang): list(range(1, r.attempts + 1)) for r in results}
    text_of = {(pid, lang): p.texts[0 if lang == "de" else 1] for pid, p in pairs.items() for lang in ("de", "fr")}
    assert not asked_again & {text_of[key] for key in finished_before}  # nothing finished was asked again
    assert f"{len(finished_before)} finished before this run" in second.stdout


def test_a_sentence_every_answer_of_which_the_limit_cut_waits_for_a_larger_limit(tmp_path: Path) -> None:
    from tests.helpers.cli_runner import invoke

    corpus = write_parallel_csv(tmp_path / "p.csv", numbered_rows(2))
    run_dir = tmp_path / "run"
    with FakeOpenAI({"Nummer 1 beißt": ["cut"] * 3}) as fake:  # every answer of one sentence stops at the limit
        command = ["generate", str(corpus), "--run-dir", str(run_dir), *DE_FR_OPTIONS, "--backend", "llm"]
        command += ["--model", "fake-model", "--base-url", fake.base_url, "--quiet"]
        with pytest.raises(CLSDError) as raised:
            invoke(*command, "--max-tokens", "64")
        assert str(raised.value) == (
            "1 sentence(s) are unfinished: the token limit (--max-tokens 64) cut every answer. "
            "Run the same command with a larger --max-tokens to continue this run folder."
        )
        with Checkpoint.existing(run_dir) as checkpoint:
            assert ("row2", "de") not in checkpoint.finished()  # not failed for good
            assert len(checkpoint.results()) == 3 and checkpoint.cut_answers() == 3
        with pytest.raises(CLSDError, match="different settings"):
            invoke(*command, "--max-tokens", "32")  # a smaller limit would mix answers of two limits the other way
        output = invoke(*command, "--max-tokens", "256")
    assert "this run: 1 with distractors, 0 failed validation, 0 unfinished" in output
    with Checkpoint.existing(run_dir) as checkpoint:
        assert {(r.pair_id, r.lang): r.status for r in checkpoint.results()}[("row2", "de")] == "ok"
        assert checkpoint.get_meta("generation")["max_tokens"] == 256


def test_batch_mode_leaves_a_sentence_cut_in_every_round_for_a_larger_limit(tmp_path: Path) -> None:
    from tests.helpers.cli_runner import invoke

    corpus = write_parallel_csv(tmp_path / "p.csv", numbered_rows(2))
    run_dir = tmp_path / "run"
    with FakeOpenAI({"Nummer 1 beißt": ["cut"] * 10}, batch_polls_before_done=0) as fake:
        command = ["generate", str(corpus), "--run-dir", str(run_dir), *DE_FR_OPTIONS, "--backend", "llm", "--batch"]
        command += ["--model", "fake-model", "--base-url", fake.base_url, "--quiet"]
        with pytest.raises(CLSDError, match=r"^1 sentence\(s\) are unfinished: the token limit \(--max-tokens 64\) cut every"):
            invoke(*command, "--max-tokens", "64")
        fake.scripts.clear()  # the larger limit lets the answers finish
        output = invoke(*command, "--max-tokens", "128")
    assert "this run: 1 with distractors, 0 failed validation, 0 unfinished" in output
