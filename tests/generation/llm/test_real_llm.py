"""The generator against a real OpenAI-compatible server: llama-cpp-python's, with SmolLM2-135M-Instruct, on 127.0.0.1.

One small model on one CPU thread, ten German-French sentences, short token limits: the tier runs in a few
minutes. What it asserts holds whatever the model writes (a 135M model writes mostly nonsense, which the
checks are there to refuse): every sentence recorded once, as ok or failed with its reason; what the
validated protocol kept passes every check again; a run killed with SIGKILL and started again asks no
finished sentence twice; the card names the model and the server; translate, judge, build and evaluate
go through. Never the model's quality.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from clsd_format import hub
from clsd_generation.checks.candidates import check_candidates
from clsd_generation.core.checkpoint import Checkpoint, Result
from clsd_generation.core.settings import ValidationBounds
from tests.helpers.batch_runner import run_requests
from tests.helpers.corpora import llm_generate_args, write_parallel_csv
from tests.helpers.llama_server import MODEL_NAME, llama_server, missing

pytestmark = [pytest.mark.real_llm, pytest.mark.slow]

# Ten sentence pairs written for these tests (news-like, short, so that answers stay short).
PAIRS = [
    ("Die Regierung hat am Montag ein neues Gesetz vorgestellt.", "Le gouvernement a présenté lundi une nouvelle loi."),
    ("Der Zug nach Berlin hatte zwei Stunden Verspätung.", "Le train pour Berlin avait deux heures de retard."),
    ("Im Sommer steigen die Preise für Hotels stark an.", "En été, les prix des hôtels augmentent fortement."),
    ("Die Schule bleibt wegen des Sturms geschlossen.", "L'école reste fermée à cause de la tempête."),
    ("Der Bürgermeister eröffnete gestern die neue Brücke.", "Le maire a inauguré hier le nouveau pont."),
    ("Viele Bauern leiden unter der langen Trockenheit.", "Beaucoup d'agriculteurs souffrent de la longue sécheresse."),
    ("Das Museum zeigt ab Freitag Bilder aus Italien.", "Le musée expose dès vendredi des tableaux d'Italie."),
    ("Die Polizei sucht nach einem gestohlenen Auto.", "La police recherche une voiture volée."),
    ("Der Verein hat sein letztes Spiel klar verloren.", "Le club a nettement perdu son dernier match."),
    ("Die Firma will im nächsten Jahr hundert Stellen schaffen.", "L'entreprise veut créer cent emplois l'année prochaine."),
]
GENERATE_LIMITS = ("--max-tokens", "160", "--max-attempts", "2", "--concurrency", "2", "--timeout", "300", "--quiet")


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    problem = missing()
    if problem:
        pytest.fail(problem, pytrace=False)
    with llama_server() as base_url:
        yield base_url


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_parallel_csv(tmp_path_factory.mktemp("real") / "pairs.csv", PAIRS)


def clsd(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "OPENAI_API_KEY": "none"}
    return subprocess.run([sys.executable, "-m", "clsd_cli", *args], env=env, capture_output=True, text=True, timeout=timeout)


def generate_command(corpus: Path, run_dir: Path, server: str, *extra: str) -> list[str]:
    return llm_generate_args(corpus, run_dir, server, *GENERATE_LIMITS, *extra, model=MODEL_NAME)


def check_every_sentence_recorded_once(run_dir: Path) -> list[Result]:
    with Checkpoint.existing(run_dir) as checkpoint:
        results = checkpoint.results()
    assert sorted((r.pair_id, r.lang) for r in results) == sorted(
        (f"row{i}", lang) for i in range(1, 11) for lang in ("de", "fr")
    )
    for result in results:
        assert (result.status == "ok" and len(result.distractors) == 4) or (result.status == "failed" and result.reason), result
    return results


def test_validated_run_killed_and_resumed_keeps_only_what_passes_every_check(server: str, corpus: Path, tmp_path: Path) -> None:
    run_dir = tmp_path / "validated"
    command = [sys.executable, "-m", "clsd_cli", *generate_command(corpus, run_dir, server)]
    process = subprocess.Popen(
        command, env={**os.environ, "OPENAI_API_KEY": "none"}, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    database = run_dir / "checkpoint.sqlite"
    deadline = time.monotonic() + 500
    while time.monotonic() < deadline and process.poll() is None:
        if database.exists():
            with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
                if db.execute("SELECT COUNT(*) FROM results").fetchone()[0] >= 3:
                    break
        time.sleep(0.5)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    with sqlite3.connect(database) as db:
        finished = set(db.execute("SELECT pair_id, lang FROM results"))
        attempts_before = {
            (pid, lang): n for pid, lang, n in db.execute("SELECT pair_id, lang, COUNT(*) FROM attempts GROUP BY pair_id, lang")
        }
    resumed = clsd(*generate_command(corpus, run_dir, server))
    assert resumed.returncode in (0, 2), resumed.stderr  # 2: unfinished after transport retries (asked by a third run)
    assert f"{len(finished)} finished before this run" in resumed.stdout
    with sqlite3.connect(database) as db:
        attempts_after = {
            (pid, lang): n for pid, lang, n in db.execute("SELECT pair_id, lang, COUNT(*) FROM attempts GROUP BY pair_id, lang")
        }
    assert {key: attempts_after[key] for key in finished} == {key: attempts_before[key] for key in finished}  # none asked again
    if resumed.returncode == 2:
        third = clsd(*generate_command(corpus, run_dir, server))
        # 2: the tiny model made no sentence of a language, said with the failures by reason
        assert third.returncode == 0 or "error: nothing to build: no " in third.stderr, third.stderr
    bounds = ValidationBounds()
    for result in check_every_sentence_recorded_once(run_dir):
        if result.status == "ok":
            original = PAIRS[int(result.pair_id[3:]) - 1][0 if result.lang == "de" else 1]
            again = check_candidates(original, result.distractors, bounds, language=result.lang)
            assert again.kept == result.distractors, again.rejected  # every kept distractor passes every check again
    translated = clsd("translate", "--run-dir", str(run_dir), "--backend", "llm", "--model", MODEL_NAME, "--base-url", server,
                      "--max-new-tokens", "96", "--concurrency", "2", "--timeout", "300", "--quiet")  # fmt: skip
    assert translated.returncode == 0, translated.stderr
    assert "de->en: " in translated.stdout and "fr->en: " in translated.stdout


def test_paper_protocol_structured_then_judge_build_and_evaluate(server: str, corpus: Path, tmp_path: Path) -> None:
    run_dir = tmp_path / "paper"
    command = generate_command(corpus, run_dir, server, "--protocol", "paper", "--structured")
    done = clsd(*command)
    max_tokens = "160"  # GENERATE_LIMITS'
    for larger in ("320", "640"):  # a sentence every answer of which the limit cut waits, as the user is told, for a larger one
        if done.returncode != 2 or "--max-tokens to continue" not in done.stderr:
            break
        max_tokens = larger
        done = clsd(*command, "--max-tokens", larger)
    assert done.returncode == 0, done.stderr
    results = check_every_sentence_recorded_once(run_dir)
    assert any(r.status == "ok" for r in results if r.lang == "de") and any(r.status == "ok" for r in results if r.lang == "fr")
    judged = clsd("judge", "--run-dir", str(run_dir), "--model", MODEL_NAME, "--base-url", server, "--sample", "2",
                  "--max-tokens", "8", "--concurrency", "2", "--timeout", "300", "--quiet")  # fmt: skip
    assert judged.returncode == 0, judged.stderr
    assert "95% Wilson interval" in judged.stdout and f"[judge: {MODEL_NAME}]" in judged.stdout
    out = tmp_path / "dataset"
    built = clsd("build", "--run-dir", str(run_dir), "--out", str(out), "--name", "SMOLLM")
    assert built.returncode == 0, built.stderr
    card = (out / hub.CARD_FILE).read_text(encoding="utf-8")
    assert f"`{MODEL_NAME}` through an OpenAI-compatible endpoint (http://127.0.0.1:" in card
    assert "Protocol: **paper**" in card and "## Judged validity" in card
    assert f"- Models that answered, as each answer names its model: `{MODEL_NAME}`: " in card
    assert f"max_tokens {max_tokens}," in card  # the limit of the run that finished it, as the card says
    evaluated = clsd("evaluate", "--data-dir", str(out), "--output", str(tmp_path / "results"))
    assert evaluated.returncode == 0, evaluated.stderr
    assert "CLSD-SMOLLM-DE-FR" in evaluated.stdout


def test_request_files_round_trip_with_llama_cpp_in_the_middle(server: str, corpus: Path, tmp_path: Path) -> None:
    """--requests-out, a runner sending each request to the real server, --answers: until no sentence is short."""
    run_dir, answers, written = tmp_path / "files", [], []
    command = generate_command(corpus, run_dir, server, "--limit", "4", "--protocol", "paper")
    # Rounds end when no sentence is short: each has two attempts, but an answer the token limit cut is asked again
    # without spending one, so how many rounds the tiny model needs varies from run to run (4 and 5 seen).
    for round_number in range(1, 11):
        requests = tmp_path / f"requests-{round_number}.jsonl"
        done = clsd(*command, "--requests-out", str(requests), *answers)
        assert done.returncode == 0 or "error: nothing to build: no " in done.stderr, done.stderr
        print(f"round {round_number}:\n{done.stdout}")  # the outcome, shown with -s
        if "requests written" not in done.stdout:
            break
        written.append(len(requests.read_text(encoding="utf-8").splitlines()))
        answers = ["--answers", str(tmp_path / f"answers-{round_number}.jsonl")]
        run_requests(requests, Path(answers[1]), server)
    # the last round asks nothing more: the next step is to build, or (the tiny model made no sentence of a language)
    # an error saying there is nothing to build, with the failures by reason
    assert written[0] == 8 and ("next: clsd build" in done.stdout or "error: nothing to build: no " in done.stderr)
    with Checkpoint.existing(run_dir) as checkpoint:
        results = checkpoint.results()
    with sqlite3.connect(run_dir / "checkpoint.sqlite") as db:
        origins = {origin for (origin,) in db.execute("SELECT DISTINCT origin FROM attempts")}
        models = set(db.execute("SELECT DISTINCT asked_model, answered_model FROM attempts"))
    assert sorted((r.pair_id, r.lang) for r in results) == sorted((f"row{i}", lang) for i in range(1, 5) for lang in ("de", "fr"))
    assert all((r.status == "ok" and len(r.distractors) == 4) or (r.status == "failed" and r.reason) for r in results)
    assert origins == {f"file:{MODEL_NAME}"}  # every answer came back through the files, as the server named its model
    assert models == {(MODEL_NAME, MODEL_NAME)}  # llama.cpp's server names the alias asked for: no answer refused as another's
