"""`clsd generate --protocol paper` versus the validated protocol, against the local fake OpenAI server."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from clsd_format.errors import CLSDError
from clsd_format.languages import parse_language
from clsd_generation.checks.candidates import check_candidates
from clsd_generation.core.checkpoint import Checkpoint
from clsd_generation.core.inputs import read_parallel
from clsd_generation.core.settings import PAPER, LLMSettings, ValidationBounds
from clsd_generation.run.backends import LLMBackend
from clsd_generation.run.loop import RunOptions, generate_distractors
from tests.helpers.cli_runner import invoke
from tests.helpers.corpora import DE_FR_OPTIONS, write_parallel_csv
from tests.helpers.fake_openai import FakeOpenAI, good_distractors

LANGS = (parse_language("de"), parse_language("fr"))
ROWS = [
    ("Der Vogel singt im alten Baum", "L'oiseau chante dans le vieil arbre"),
    ("Der Fisch schwimmt im kalten Wasser", "Le poisson nage dans l'eau froide"),
]
SCRIPTS = {"Vogel": ["few", "few", "good"], "Fisch": ["same", "same", "same"]}


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")


def run(tmp_path: Path, protocol: str) -> tuple[dict, Counter, object]:
    corpus = read_parallel(write_parallel_csv(tmp_path / "p.csv", ROWS), ("de", "fr"))
    with FakeOpenAI(SCRIPTS) as fake:
        llm = LLMSettings(model="fake-model", base_url=fake.base_url, concurrency=2, timeout=5.0, max_retries=1)
        report = generate_distractors(
            corpus, LANGS, tmp_path / protocol, LLMBackend(llm), ValidationBounds(protocol=protocol), RunOptions(progress=False)
        )
    with Checkpoint.existing(tmp_path / protocol) as checkpoint:
        results = {(r.pair_id, r.lang): r for r in checkpoint.results()}
    return results, Counter(sentence for sentence, _ in fake.log), report


def test_paper_protocol_keeps_first_four_items_unchecked_and_reasks_only_unparseable(tmp_path: Path) -> None:
    results, asked, report = run(tmp_path, PAPER)
    fish = results[("row2", "de")]
    # "same" answers hold the original itself: the paper protocol keeps it (no filter), after one request
    assert fish.status == "ok" and fish.distractors == ["Der Fisch schwimmt im kalten Wasser", *good_distractors(ROWS[1][0])[:3]]
    assert asked["Der Fisch schwimmt im kalten Wasser"] == 1
    # two items only is unparseable as a row of four: asked again, and counted
    assert results[("row1", "de")].status == "ok" and asked["Der Vogel singt im alten Baum"] == 3
    assert report.reasked == 2 and any("asked again: 2" in line for line in report.lines())
    assert all(r.status == "ok" for r in results.values()) and sum(asked.values()) == 6


def test_validated_protocol_filters_and_reasks_until_four_valid(tmp_path: Path) -> None:
    results, asked, report = run(tmp_path, "validated")
    fish = results[("row2", "de")]
    assert fish.status == "failed" and "same as original" in fish.reason and asked["Der Fisch schwimmt im kalten Wasser"] == 3
    # "few" twice gives two valid distractors, kept across answers; the third answer completes the row
    assert results[("row1", "de")].distractors == good_distractors(ROWS[0][0])[:4]
    assert report.failed == 1 and report.reasked == 4  # Vogel twice (the second "few" only repeats), Fisch twice


def test_paper_protocol_unit_rules() -> None:
    bounds = ValidationBounds(protocol=PAPER)
    verdict = check_candidates(
        "Der Hund bellt.", ["Völlig anderes Thema ohne jeden Bezug zum Original, sehr lang.", "a", "b"], bounds
    )
    assert verdict.kept == [] and verdict.rejected[0][1] == "unparseable answer (3 of 4 items)"
    check_candidates("Der Hund bellt.", ["x", "x", "Der Hund bellt.", "y", "z"], bounds, verdict)
    assert verdict.kept == ["x", "x", "Der Hund bellt.", "y"]  # duplicates and the original: kept, as the paper did
    with pytest.raises(CLSDError, match=r"--protocol .* is unknown"):
        ValidationBounds(protocol="strict")


@pytest.mark.slow
def test_cli_protocol_is_recorded_in_the_card_and_refuses_other_settings(tmp_path: Path) -> None:
    common = [str(write_parallel_csv(tmp_path / "p.csv", ROWS)), *DE_FR_OPTIONS, "--quiet"]
    with pytest.raises(CLSDError, match="needs --backend llm"):
        invoke("generate", *common, "--run-dir", str(tmp_path / "r0"), "--protocol", "paper")
    with FakeOpenAI(SCRIPTS) as fake:
        llm = ["--backend", "llm", "--model", "fake-model", "--base-url", fake.base_url, "--timeout", "5"]
        with pytest.raises(CLSDError, match="paper's prompt"):
            invoke("generate", *common, "--run-dir", str(tmp_path / "r1"), *llm, "--protocol", "paper", "--temperature", "0.7")
        output = invoke("generate", *common, "--run-dir", str(tmp_path / "paper"), *llm, "--protocol", "paper")
        invoke("generate", *common, "--run-dir", str(tmp_path / "validated"), *llm, "--max-attempts", "5")
    assert "asked again: 2" in output
    for protocol in ("paper", "validated"):
        invoke(
            "build",
            "--run-dir",
            str(tmp_path / protocol),
            "--out",
            str(tmp_path / f"{protocol}-ds"),
            "--name",
            "T",
            "--allow-incomplete",
        )
        card = (tmp_path / f"{protocol}-ds" / "README.md").read_text(encoding="utf-8")
        assert f"Protocol: **{protocol}**" in card
        assert "Answer in {language}!" in card and "temperature 1.0" in card
    assert "Jaccard to the original in" not in (tmp_path / "paper-ds" / "README.md").read_text(encoding="utf-8")
