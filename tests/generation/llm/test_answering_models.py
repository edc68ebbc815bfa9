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
from clsd_generation.core.checkpoint import Checkpoint
from clsd_generation.core.inputs import ParallelCorpus, read_parallel
from clsd_generation.core.reading import OTHER_MODEL
from clsd_generation.core.settings import BatchSettings, LLMSettings, RequestFiles
from clsd_generation.run.backends import LLMBackend
from clsd_generation.run.loop import RunOptions, generate_distractors
from tests.helpers.batch_runner import run_requests
from tests.helpers.cli_runner import exits_two, invoke
from tests.helpers.corpora import DE_FR_OPTIONS, llm_generate_args, write_parallel_csv
from tests.helpers.fake_openai import FakeOpenAI

LANGS = (parse_language("de"), parse_language("fr"))
ROWS = [(f"Der Hund Nummer {i} beißt den Mann", f"Le chien numéro {i} mord l'homme") for i in range(3)]
MANY_ROWS = [(f"Der Hund Nummer {i} beißt den Mann", f"Le chien numéro {i} mord l'homme") for i in range(40)]
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


def test_live_answers_of_another_model_are_refused_in_one_line_and_their_sentence_fails(tmp_path: Path) -> None:
    corpus = write_parallel_csv(tmp_path / "p.csv", ROWS)
    with FakeOpenAI() as fake:
        fake.sentence_models = {"Nummer 0 ": "other-model"}  # the others are answered by the model asked for
        output = invoke(*llm_generate_args(corpus, tmp_path / "run", fake.base_url, "--quiet"))
    assert "this run: 5 with distractors, 1 failed validation, 0 unfinished" in output
    assert f"answers refused this run (asked again): {OTHER_MODEL} 3" in output
    assert REFUSED_LINE.replace("other-model {n}", "fake-model 5, other-model 3") in output.splitlines()
    assert attempts(tmp_path / "run") == {("fake-model", "other-model", "live"), ("fake-model", "fake-model", "live")}


AZURE_LINE = (
    "error: the first {n} answer(s) all named another model than my-gpt4o (--model): gpt-4o-2024-11-20 ({n}). Stopped "
    "after {n} request(s), before sending more. If that is the model you asked for (a deployment or an alias answers "
    "with the name of the model behind it), run the same command with --accept-answering-model gpt-4o-2024-11-20; else "
    "check --model and --base-url."
)


@pytest.mark.parametrize(("concurrency", "first"), [(1, 1), (8, 8), (32, 20)])
def test_an_azure_deployment_answering_as_the_model_behind_it_stops_the_run_after_its_first_requests(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], concurrency: int, first: int
) -> None:
    corpus = write_parallel_csv(tmp_path / "p.csv", MANY_ROWS)  # 80 sentences
    args = llm_generate_args(corpus, tmp_path / "run", "", "--quiet", "--concurrency", str(concurrency), model="my-gpt4o")
    with FakeOpenAI() as fake:
        fake.answered_model = "gpt-4o-2024-11-20"  # Azure OpenAI names the model behind the deployment asked for
        args[args.index("--base-url") + 1] = fake.base_url
        out, line = exits_two(args, capsys)
        sent = fake.chat_requests()
        print(f"requests sent: {sent}\n{line}")  # shown with -s
        assert sent == first  # one round of the concurrency, at most 20: nothing more was paid for
        accepted = invoke(*args, "--accept-answering-model", "gpt-4o-2024-11-20")  # the advice, followed
    assert line == AZURE_LINE.format(n=first)
    summary = out.splitlines()
    assert f"requests sent this run: {first}" in summary  # every paid request counted
    assert f"this run: 0 with distractors, 0 failed validation, {len(MANY_ROWS) * 2} unfinished" in summary
    assert f"answers refused this run (asked again): {OTHER_MODEL} {first}" in summary
    assert "this run: 80 with distractors, 0 failed validation, 0 unfinished" in accepted
    assert "answers by model this run (asked for my-gpt4o): gpt-4o-2024-11-20 80" in accepted.splitlines()


def test_openrouter_s_vendor_prefix_names_the_model_asked_for(tmp_path: Path, corpus: ParallelCorpus) -> None:
    with FakeOpenAI() as fake:
        fake.answered_model = "openai/gpt-4o"  # OpenRouter names the vendor before the model asked for
        llm = LLMSettings(model="gpt-4o", base_url=fake.base_url, max_retries=0)
        report = generate_distractors(corpus, LANGS, tmp_path / "run", LLMBackend(llm), options=RunOptions(progress=False))
    assert (report.ok, report.failed, report.stopped) == (6, 0, "")
    assert "answers by model this run (asked for gpt-4o): openai/gpt-4o 6" in report.lines()
    assert attempts(tmp_path / "run") == {("gpt-4o", "openai/gpt-4o", "live")}


@pytest.mark.parametrize("unnamed", ["", "missing"])
def test_an_answer_with_an_empty_or_no_model_field_is_an_unnamed_model_s_and_is_read(
    tmp_path: Path, corpus: ParallelCorpus, unnamed: str
) -> None:
    with FakeOpenAI() as fake:
        fake.answered_model, fake.omit_model = "", unnamed == "missing"
        llm = LLMSettings(model="fake-model", base_url=fake.base_url, max_retries=0)
        report = generate_distractors(corpus, LANGS, tmp_path / "run", LLMBackend(llm), options=RunOptions(progress=False))
    assert (report.ok, report.failed, report.stopped) == (6, 0, "") and not report.refused_answers
    assert "answers by model this run (asked for fake-model): (no model named) 6" in report.lines()
    assert attempts(tmp_path / "run") == {("fake-model", None, "live")}  # recorded as no name, never as ""


@pytest.mark.slow  # `clsd build` imports the plugin
def test_the_card_says_the_answers_of_an_empty_model_field_named_no_model(tmp_path: Path) -> None:
    corpus = write_parallel_csv(tmp_path / "p.csv", ROWS)
    with FakeOpenAI() as fake:
        fake.answered_model = ""
        invoke(*llm_generate_args(corpus, tmp_path / "run", fake.base_url, "--quiet"))
    invoke("build", "--run-dir", str(tmp_path / "run"), "--out", str(tmp_path / "data"), "--name", "Unnamed", "--no-score")
    card = (tmp_path / "data" / "README.md").read_text(encoding="utf-8")
    assert "- Backend: **LLM (fake-model)**" in card
    assert "- Models that answered, as each answer names its model: (no model named) (asked for `fake-model`): 6 " \
           "answer(s), read for 6 sentence(s) with distractors." in card  # fmt: skip
    assert "Answers shown as (no model named) named none" in card


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
        fake.sentence_models = {"Nummer 0 ": "other-model"}
        llm = LLMSettings(model="fake-model", base_url=fake.base_url, max_retries=0)
        report = generate_distractors(corpus, LANGS, tmp_path / "run", LLMBackend(llm), options=RunOptions(progress=False))
    # refused as another model's, never "cut by the token limit": no sentence waits for a larger limit
    assert (report.failed, report.unfinished, report.limited, report.cut) == (1, 0, 0, 0)


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


@pytest.mark.parametrize("command", ["translate", "judge"])
def test_a_pivot_or_a_judge_answered_as_another_model_stops_after_its_first_requests_the_same_way(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    corpus = write_parallel_csv(tmp_path / "p.csv", ROWS)
    with FakeOpenAI() as fake:
        invoke(*llm_generate_args(corpus, tmp_path / "run", fake.base_url, "--quiet"))
        before = fake.chat_requests()
        fake.answered_model = "gpt-4o-2024-11-20"
        args = [command, "--run-dir", str(tmp_path / "run"), "--model", "my-gpt4o", "--base-url", fake.base_url, "--quiet"]
        args += ["--backend", "llm"] if command == "translate" else []
        _, line = exits_two([*args, "--concurrency", "4"], capsys)
        sent = fake.chat_requests() - before
        assert stored(tmp_path / "run", command) == 0  # nothing another model wrote is kept
        accepted = invoke(*args, "--accept-answering-model", "gpt-4o-2024-11-20")
    assert sent == 4
    assert line == AZURE_LINE.format(n=4)
    assert stored(tmp_path / "run", command) == (30 if command == "translate" else 24)  # every text, every distractor
    assert "de->en: 15 texts translated in this run" in accepted or "de: 12 of 12 judged valid" in accepted


def stored(run_dir: Path, command: str) -> int:
    """Texts translated, or distractors judged, in the run folder."""
    with Checkpoint.existing(run_dir) as checkpoint:
        if command == "translate":
            return len(checkpoint.translations("de")) + len(checkpoint.translations("fr"))
        return len(checkpoint.judgments())
