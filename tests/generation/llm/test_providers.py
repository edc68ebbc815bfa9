"""A provider with another API than OpenAI's is one class: distractors, the English pivot and the judge all go
through it, with the same failures, retries and token count (a real server on 127.0.0.1, tests/helpers/messages_api.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from clsd_format.errors import CLSDError
from clsd_format.languages import parse_language
from clsd_generation.core.checkpoint import Checkpoint
from clsd_generation.core.inputs import read_parallel
from clsd_generation.core.settings import LLMSettings
from clsd_generation.dataset.pivot import texts_to_translate, translate_run
from clsd_generation.llm.client import ChatRequest, Completion
from clsd_generation.llm.judge import JudgeSettings, judge_run
from clsd_generation.run.backends import LLMBackend
from clsd_generation.run.loop import RunOptions, generate_distractors
from tests.helpers.corpora import write_parallel_csv
from tests.helpers.fake_openai import english_of, good_distractors
from tests.helpers.messages_api import MessagesAPIClient, MessagesServer

LANGS = (parse_language("de"), parse_language("fr"))
ROWS = [(f"Der Hund Nummer {i} beißt den Mann", f"Le chien numéro {i} mord l'homme") for i in range(3)]
QUIET = RunOptions(progress=False)


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "messages-key")


def settings(server: MessagesServer, **overrides: object) -> LLMSettings:
    values = {"model": "messages-model", "base_url": server.base_url, "concurrency": 2, "timeout": 5.0, "max_retries": 1}
    return LLMSettings(**(values | overrides))  # type: ignore[arg-type]


@pytest.mark.slow  # the answer checks' language identification loads first (~13 s)
def test_distractors_pivot_and_judge_through_a_provider_that_is_not_openai_shaped(tmp_path: Path) -> None:
    corpus = read_parallel(write_parallel_csv(tmp_path / "p.csv", ROWS), ("de", "fr"))
    run_dir = tmp_path / "run"
    with MessagesServer() as server:
        llm = settings(server)
        report = generate_distractors(corpus, LANGS, run_dir, LLMBackend(llm, client_factory=MessagesAPIClient), options=QUIET)
        generation_usage = server.usage
        done = translate_run(run_dir, llm=llm, progress=False, client_factory=MessagesAPIClient)
        share, asked, left = judge_run(run_dir, JudgeSettings(llm), progress=False, client_factory=MessagesAPIClient)
    assert (report.ok, report.failed, report.unfinished) == (6, 0, 0)
    assert report.usage == generation_usage and report.usage.total > 0  # the provider's own usage fields, counted
    assert set(server.paths) == {"/v1/messages"} and server.keys == {"messages-key"}
    with Checkpoint.existing(run_dir) as checkpoint:
        results = {(r.pair_id, r.lang): r for r in checkpoint.results()}
        wanted = texts_to_translate(checkpoint)
        stored = {code: checkpoint.translations(code) for code in wanted}
    assert list(results[("row1", "de")].distractors) == good_distractors(ROWS[0][0])
    assert done == {"de": 15, "fr": 15}
    assert all(stored[code][text] == english_of(text) for code, texts in wanted.items() for text in texts)
    assert (share.judged["de"], share.valid["de"], share.judged["fr"], share.valid["fr"]) == (12, 12, 12, 12)
    assert (asked, left) == (72, 0)


def test_its_failures_are_read_like_any_provider(tmp_path: Path) -> None:
    corpus = read_parallel(write_parallel_csv(tmp_path / "p.csv", ROWS), ("de", "fr"))
    with MessagesServer({"Nummer 1 ": [529, 529]}) as server:  # overloaded beyond the one retry: left for the next run
        report = generate_distractors(
            corpus, LANGS, tmp_path / "run", LLMBackend(settings(server), client_factory=MessagesAPIClient), options=QUIET
        )
        assert (report.ok, report.unfinished) == (5, 1) and report.errors == {"overloaded_error 529": 1}
        again = generate_distractors(
            corpus, LANGS, tmp_path / "run", LLMBackend(settings(server), client_factory=MessagesAPIClient), options=QUIET
        )
        assert (again.done_before, again.ok) == (5, 1)
    with MessagesServer({"Nummer": [401] * 6}) as server:  # a bad key stops the run at once, before any answer is kept
        with pytest.raises(CLSDError, match=r"refused the request \(authentication_error 401: scripted 401\)"):
            generate_distractors(
                corpus, LANGS, tmp_path / "other", LLMBackend(settings(server), client_factory=MessagesAPIClient), options=QUIET
            )
    with Checkpoint.existing(tmp_path / "other") as checkpoint:
        assert checkpoint.results() == []


class BrokenClient:
    """A provider with a bug: its error is not a provider's answer and must not be reported as one."""

    def __init__(self, settings: LLMSettings) -> None:
        pass

    async def complete(self, request: ChatRequest) -> Completion:
        raise KeyError("choices")

    async def aclose(self) -> None:
        pass


def test_a_bug_is_an_internal_error_not_the_endpoints_refusal(tmp_path: Path) -> None:
    corpus = read_parallel(write_parallel_csv(tmp_path / "p.csv", ROWS[:1]), ("de", "fr"))
    llm = LLMSettings(model="m", base_url="http://127.0.0.1:9/v1")
    with pytest.raises(KeyError, match="choices"):  # the console prints it as an internal error (exit 1, --debug)
        generate_distractors(corpus, LANGS, tmp_path / "run", LLMBackend(llm, client_factory=BrokenClient), options=QUIET)
