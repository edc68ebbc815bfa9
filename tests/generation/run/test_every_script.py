"""Your own language pair in any script: `clsd generate --backend llm` -> `build` -> `evaluate` -> `analyze`.

Six pairs cover eleven scripts (Latin, Greek, Cyrillic, Hebrew, Arabic, Devanagari, Bengali, Han, Kana, Hangul,
Thai), on the project's own sentences (tests/data/scripts). The stand-in LLM on 127.0.0.1 answers the paper's prompt
as a careful writer of the language would: one real word of T replaced by another real word of the same language
(tests/helpers/fake_openai.py, ``swaps``). Every step ends without an internal error, most sentences get four
distractors, the card names both languages as mteb writes them, and the report reads right-to-left scripts as such.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clsd_format.languages import parse_language
from tests.helpers.cli_runner import invoke
from tests.helpers.corpora import script_sentences, write_parallel_csv
from tests.helpers.fake_openai import FakeOpenAI

PAIRS = [("en", "el"), ("ru", "he"), ("ar", "hi"), ("bn", "zh"), ("ja", "ko"), ("th", "en")]
BASELINE = "clsd-baselines/char-ngram-tf"


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")


@pytest.mark.slow
@pytest.mark.parametrize(("source", "target"), PAIRS, ids=[f"{s}-{t}" for s, t in PAIRS])
def test_a_pair_in_any_script_goes_from_corpus_to_report(tmp_path: Path, source: str, target: str) -> None:
    sentences = script_sentences()
    corpus = write_parallel_csv(tmp_path / "pairs.csv", list(zip(sentences[source], sentences[target], strict=True)))
    languages = {code: parse_language(code) for code in (source, target)}
    swaps = {language.name: (code, sentences[code]) for code, language in languages.items()}
    options = ("--source-column", "de", "--target-column", "fr", "--source-lang", source, "--target-lang", target)
    with FakeOpenAI(swaps=swaps) as fake:
        summary = invoke(
            "generate", str(corpus), "--run-dir", str(tmp_path / "run"), *options,
            "--backend", "llm", "--model", "fake-model", "--base-url", fake.base_url, "--quiet",
        )  # fmt: skip
    finished = next(line for line in summary.splitlines() if line.startswith("this run:"))
    assert int(finished.split()[2]) >= 10, summary  # of 12 sentences, at least 10 with four distractors
    name = "SCRIPTS"
    invoke("build", "--run-dir", str(tmp_path / "run"), "--out", str(tmp_path / "ds"), "--name", name, "--allow-incomplete")
    card = (tmp_path / "ds" / "README.md").read_text(encoding="utf-8")
    assert all(language.mteb_code.split("-")[0] in card for language in languages.values()), card[:2000]
    invoke("evaluate", "--data-dir", str(tmp_path / "ds"), "--model", BASELINE, "--output", str(tmp_path / "results"))
    invoke("analyze", str(tmp_path / "results"), "--out", str(tmp_path / "report"))  # no tagger: that section says so
    report = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    assert f"CLSD-{name}-{source.upper()}-{target.upper()}" in report
    assert "no part-of-speech tagger for a language" in report  # said, not an error: no Stanza model here
    html = (tmp_path / "report" / "report.html").read_text(encoding="utf-8")
    if any(language.direction == "rtl" for language in languages.values()):
        assert "rtl" in html


def test_a_check_off_for_a_language_is_said_once_before_the_run_and_in_the_summary_and_card(tmp_path: Path) -> None:
    sentences = script_sentences()
    khmer = [f"រដ្ឋាភិបាល នឹង សាងសង់ {thing} ថ្មី" for thing in ("ផ្លូវ", "ស្ពាន", "សាលា")]  # a new road, bridge, school
    corpus = write_parallel_csv(tmp_path / "pairs.csv", list(zip(sentences["en"], khmer, strict=False)))
    options = ("--source-column", "de", "--target-column", "fr", "--source-lang", "en", "--target-lang", "km")
    with FakeOpenAI() as fake:
        llm = ("--backend", "llm", "--model", "fake-model", "--base-url", fake.base_url, "--protocol", "paper", "--quiet")
        output = invoke("generate", str(corpus), "--run-dir", str(tmp_path / "run"), *options, *llm)
    lines = output.splitlines()
    off = [n for n, line in enumerate(lines) if line.startswith("check off: invented words: off for Khmer")]
    assert len(off) == 2 and off[0] < lines.index(next(line for line in lines if line.startswith("backend:"))) < off[1], output
    assert any(line.startswith("check off: commentary: for English") for line in lines)
    invoke("build", "--run-dir", str(tmp_path / "run"), "--out", str(tmp_path / "ds"), "--name", "OFF", "--no-score")
    card = (tmp_path / "ds" / "README.md").read_text(encoding="utf-8")
    assert "Checks off for this set's languages:" in card and "invented words: off for Khmer" in card
