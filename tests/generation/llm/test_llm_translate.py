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
from tests.helpers.fake_openai import FakeOpenAI, english_of, every_text

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


NUMBERED = [(f"Der Hund Nummer {n} beißt den Mann", f"Le chien numéro {n} mord l'homme") for n in (2017, 2018, 2019)]


def _translated_run(tmp_path: Path, translator: FakeOpenAI) -> tuple[Path, str]:
    """A German-French run of three rows, distractors from a well-behaved fake, translated by ``translator``."""
    corpus = write_parallel_csv(tmp_path / "p.csv", NUMBERED)
    run_dir = tmp_path / "run"
    with FakeOpenAI() as fake:
        invoke("generate", str(corpus), "--run-dir", str(run_dir), *DE_FR_OPTIONS, "--backend", "llm",
               "--model", "fake-model", "--base-url", fake.base_url, "--quiet")  # fmt: skip
    with translator:
        llm = ("--backend", "llm", "--model", "fake-model", "--base-url", translator.base_url, "--quiet")
        return run_dir, invoke("translate", "--run-dir", str(run_dir), *llm)


@pytest.mark.slow
def test_a_translator_answering_one_template_for_every_text_is_refused_and_no_pivot_is_built(tmp_path: Path) -> None:
    run_dir, output = _translated_run(tmp_path, FakeOpenAI(every_text("template")))
    template = "the same text as for other sources (a template)"
    assert f"de->en: 15 of 15 translations refused (100.0%) as not translating their source: {template} 15" in output
    assert f"fr->en: 15 of 15 translations refused (100.0%) as not translating their source: {template} 15" in output
    assert "the pivot configs will not be built: more than half of the translations are refused" in output
    assert "`clsd build --keep-refused-translations` builds the pivot configs from these translations anyway." in output
    built = invoke("build", "--run-dir", str(run_dir), "--out", str(tmp_path / "ds"), "--name", "TEMPLATE", "--no-score")
    assert "pivot configs not built: more than half of the translations are refused" in built
    assert "de->en 15 of 15" in built and "fr->en 15 of 15" in built
    assert [spec.config for spec in hub.read_manifest(tmp_path / "ds")] == ["de-fr", "fr-de"]
    manifest = hub.read_front_matter(tmp_path / "ds")[hub.MANIFEST_KEY]
    assert set(manifest[hub.PIVOT_NOT_BUILT_KEY]) == {"CLSD-TEMPLATE-DE-FR", "CLSD-TEMPLATE-FR-DE"}
    card = (tmp_path / "ds" / hub.CARD_FILE).read_text(encoding="utf-8")
    assert "but the `-pivot-en` configs were not built: more than half of the translations" in card
    # The answer of an evaluation of that set says why its pivot was not measured, per direction.
    answer = invoke("evaluate", "--data-dir", str(tmp_path / "ds"), "--output", str(tmp_path / "results"))
    assert "TEMPLATE DE→FR, through English: not measured: more than half of the translations are refused" in answer
    # Built anyway on request, and the card says so.
    invoke("build", "--run-dir", str(run_dir), "--out", str(tmp_path / "kept"), "--name", "TEMPLATE", "--no-score",
           "--keep-refused-translations")  # fmt: skip
    assert (tmp_path / "kept" / "de-fr-pivot-en").is_dir()
    assert "kept in the pivot configs by choice" in (tmp_path / "kept" / hub.CARD_FILE).read_text(encoding="utf-8")


@pytest.mark.slow
def test_a_translation_missing_its_source_s_number_is_refused_and_its_rows_left_out(tmp_path: Path) -> None:
    run_dir, output = _translated_run(tmp_path, FakeOpenAI({"Der Hund Nummer 2018 beißt den Mann": ["numberless"] * 3}))
    # The German sentence of row 2 and its four distractors: translated without "2018".
    missing = "a number of the source missing"
    assert f"de->en: 5 of 15 translations refused (33.3%) as not translating their source: {missing} 5" in output
    assert "fr->en: 0 of 15 translations refused (0.0%) as not translating their source" in output
    assert "will not be built" not in output
    invoke("build", "--run-dir", str(run_dir), "--out", str(tmp_path / "ds"), "--name", "NUMBERS", "--no-score")
    for config in ("de-fr-pivot-en", "fr-de-pivot-en"):  # row 2 holds a refused German text in both directions
        assert [row["id"] for row in hub.read_config(tmp_path / "ds", config)] == ["row1", "row3"]
    card = (tmp_path / "ds" / hub.CARD_FILE).read_text(encoding="utf-8")
    assert "2 row(s) were left out because a translation came back empty or was refused." in card
    assert f"de: 5 of 15 refused ({missing} 5); fr: 0 of 15 refused; the rows holding a refused translation are left out." in card
