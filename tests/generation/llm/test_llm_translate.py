"""`clsd translate --backend llm`: the English pivot through an OpenAI-compatible endpoint (the fake server on 127.0.0.1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from clsd_format import hub
from clsd_generation.core.checkpoint import Checkpoint
from clsd_generation.dataset.pivot import texts_to_translate
from clsd_generation.llm.translate import clean_translation
from tests.helpers.cli_runner import invoke
from tests.helpers.corpora import DE_FR_OPTIONS, write_parallel_csv
from tests.helpers.fake_openai import FakeOpenAI, english_of

ROWS = [(f"Der Hund Nummer {i} beißt den Mann", f"Le chien numéro {i} mord l'homme") for i in range(3)]


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")


def test_an_answer_is_read_as_its_translation_only() -> None:
    assert clean_translation('<think>hmm</think>Translation: "The dog bites."\n\nNote: literal.') == "The dog bites."
    assert clean_translation("English translation: The dog bites the man.") == "The dog bites the man."
    assert clean_translation("") == ""


def test_llm_pivot_translates_every_text_once_resumes_and_names_the_translator(tmp_path: Path) -> None:
    corpus = write_parallel_csv(tmp_path / "p.csv", ROWS)
    run_dir = tmp_path / "run"
    with FakeOpenAI() as fake:
        llm = ("--model", "fake-model", "--base-url", fake.base_url, "--quiet")
        invoke("generate", str(corpus), "--run-dir", str(run_dir), *DE_FR_OPTIONS, "--backend", "llm", *llm)
        asked_before = len(fake.log)
        first = invoke("translate", "--run-dir", str(run_dir), "--backend", "llm", *llm, "--max-new-tokens", "64")
        translation_requests = [r for r in fake.requests if r["messages"][0]["content"].startswith("Translate this")]
        again = invoke("translate", "--run-dir", str(run_dir), "--backend", "llm", *llm, "--max-new-tokens", "64")
        assert len(fake.log) - asked_before == len(translation_requests)  # the second run asked nothing
    with Checkpoint.existing(run_dir) as checkpoint:
        wanted = texts_to_translate(checkpoint)
        stored = {code: checkpoint.translations(code) for code in wanted}
    assert first.count("texts translated in this run") == 2 and "de->en: 15 texts" in first and "fr->en: 15 texts" in first
    assert "de->en: 0 texts" in again and len(translation_requests) == 30
    assert {r["max_tokens"] for r in translation_requests} == {64} and {r["temperature"] for r in translation_requests} == {0.0}
    for code, texts in wanted.items():
        assert {stored[code][text] for text in texts} == {english_of(text) for text in texts}
    invoke("build", "--run-dir", str(run_dir), "--out", str(tmp_path / "out"), "--name", "LLMPIVOT")
    card = (tmp_path / "out" / hub.CARD_FILE).read_text(encoding="utf-8")
    assert "the LLM `fake-model` through an OpenAI-compatible endpoint" in card and "Translate this" in card
    assert (tmp_path / "out" / "de-fr-pivot-en").is_dir()


def test_a_run_never_mixes_two_translators(tmp_path: Path) -> None:
    corpus = write_parallel_csv(tmp_path / "p.csv", ROWS[:1])
    run_dir = tmp_path / "run"
    with FakeOpenAI() as fake:
        llm = ("--base-url", fake.base_url, "--quiet")
        invoke("generate", str(corpus), "--run-dir", str(run_dir), *DE_FR_OPTIONS, "--backend", "llm", "--model", "m", *llm)
        invoke("translate", "--run-dir", str(run_dir), "--backend", "llm", "--model", "m", *llm)
        with pytest.raises(Exception, match="different settings"):
            invoke("translate", "--run-dir", str(run_dir), "--backend", "llm", "--model", "other", *llm)
        with pytest.raises(Exception, match="needs --model"):
            invoke("translate", "--run-dir", str(run_dir), "--backend", "llm", *llm)
