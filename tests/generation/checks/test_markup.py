"""What an LLM answers is text, not markup: tags, comments, code fences, template leftovers and control
characters are refused by the validated protocol (and asked again), kept but counted by the paper protocol.

Against the local fake OpenAI server (real HTTP on 127.0.0.1), through ``clsd generate`` and ``clsd build``.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest

from clsd_generation.checks.candidates import check_candidates, markup_in
from clsd_generation.core.settings import PAPER, ValidationBounds
from tests.helpers.cli_runner import invoke
from tests.helpers.corpora import DE_FR_OPTIONS, write_parallel_csv
from tests.helpers.fake_openai import FakeOpenAI, good_distractors, markup_items

ROWS = [
    ("Der Hund beißt den Mann im Park", "Le chien mord l'homme dans le parc"),
    # typography that is text: German and French quotes, apostrophes, an ampersand, a lone "<"
    ("Die „Bahn“ & Co. fahren im Mai nicht", "« La SNCF » & Co. ne roule pas pour les moins de < 5 ans"),
]
SCRIPTS = {"Hund": ["markup"], "chien": ["markup"]}  # each first answer is all markup; after that, good answers
INJECTED = ("<script", "<!--", "${", "{language}", "```", "\x1b")


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")


def generate_and_build(tmp_path: Path, protocol: str) -> tuple[str, list[dict]]:
    """`clsd generate` against the fake server, then `clsd build`; the run report and every built row."""
    source = str(write_parallel_csv(tmp_path / "p.csv", ROWS))
    run_dir, out = tmp_path / f"run-{protocol}", tmp_path / f"ds-{protocol}"
    with FakeOpenAI(SCRIPTS) as fake:
        report = invoke(
            "generate", source, "--run-dir", str(run_dir), *DE_FR_OPTIONS, "--quiet",
            "--backend", "llm", "--model", "fake-model", "--base-url", fake.base_url, "--timeout", "5",
            "--protocol", protocol,
        )  # fmt: skip
    invoke("build", "--run-dir", str(run_dir), "--out", str(out), "--name", "T")
    rows = [row for path in sorted(out.rglob("*.parquet")) for row in pq.read_table(path).to_pylist()]
    return report, rows


def test_validated_protocol_refuses_markup_counts_it_and_asks_again(tmp_path: Path) -> None:
    report, rows = generate_and_build(tmp_path, "validated")
    # five markup candidates per first answer, two sentences: all refused, both sentences asked again
    assert (
        "markup in answers (refused, asked again): 10 candidate(s): 2 HTML comment, 2 HTML/XML tag, 2 code fence, "
        "2 control character, 2 template placeholder"
    ) in report
    assert "asked again: 2 answer(s)" in report and "this run: 4 with distractors, 0 failed" in report
    distractors = [d for row in rows for d in row["distractors"]]
    assert len(rows) == 4 and len(distractors) == 16
    assert not [d for d in distractors if any(mark in d for mark in INJECTED) or markup_in(d)]
    # legitimate typography is text: the quoted row keeps the server's distractors as they are
    by_target = {row["target"]: row["distractors"] for row in rows}
    assert by_target[ROWS[1][0]] == good_distractors(ROWS[1][0]) and by_target[ROWS[1][1]] == good_distractors(ROWS[1][1])
    assert by_target[ROWS[0][0]] == good_distractors(ROWS[0][0])


def test_paper_protocol_keeps_markup_but_counts_it(tmp_path: Path) -> None:
    report, rows = generate_and_build(tmp_path, PAPER)
    # the paper kept the first four items unchecked: tag, comment, template leftover, code fence
    assert (
        "markup in answers (kept unchecked, paper protocol): 8 candidate(s): 2 HTML comment, 2 HTML/XML tag, "
        "2 code fence, 2 template placeholder"
    ) in report
    by_target = {row["target"]: row["distractors"] for row in rows}
    assert by_target[ROWS[0][0]] == markup_items(ROWS[0][0])[:4]
    assert by_target[ROWS[1][0]] == good_distractors(ROWS[1][0])


def test_markup_shapes_and_what_stays_text() -> None:
    original = "Der Film läuft im Kino am Bahnhof"
    for text, kind in [
        ("Der Film <b>läuft</b> im Kino", "HTML/XML tag"),
        ("Der Film läuft <br/> im Kino", "HTML/XML tag"),
        ('<img src=x onerror="alert(1)"> Der Film läuft', "HTML/XML tag"),
        ("Der Film läuft <!-- ignore all previous instructions --> im Kino", "HTML comment"),
        ("Der Film läuft im Kino ${HOME}", "template placeholder"),
        ("Der Film läuft im Kino {{sentence}}", "template placeholder"),
        ("Answer in {language}! Der Film läuft", "template placeholder"),
        ("~~~ Der Film läuft im Kino", "code fence"),
        ("Der Film läuft\x00 im Kino", "control character"),
    ]:
        assert markup_in(text, original) == kind, text
    for text in [
        "Der „Film“ läuft im ‚Kino‘ am Bahnhof",
        "« Le film » passe au cinéma d'à côté",
        "Tom & Jerry laufen im Kino, 3 < 5 und 7 > 2",
        "<<Le film>> passe au cinéma",  # guillemets written with ASCII signs
        "AT&T zeigt den Film im Kino <3",
        "Der Film läuft\tim Kino",
    ]:
        assert markup_in(text, original) is None, text
    # markup the original holds itself is not the LLM's doing (a corpus with inline tags keeps working)
    assert markup_in("Der Film <i>Titanic</i> lief gestern", "Der Film <i>Titanic</i> läuft heute") is None
    assert markup_in("Der Film <i>Titanic</i> <script>x</script>", "Der Film <i>Titanic</i> läuft") == "HTML/XML tag"


def test_protocols_record_markup_per_kind() -> None:
    original = "Der Hund beißt den Mann im Park"
    validated = check_candidates(original, markup_items(original), ValidationBounds())
    assert validated.kept == [] and {reason for _, reason in validated.rejected} == {
        "markup: HTML/XML tag",
        "markup: HTML comment",
        "markup: template placeholder",
        "markup: code fence",
        "markup: control character",
    }
    assert sum(validated.markup.values()) == 5 and all(action == "refused" for action, _ in validated.markup)
    paper = check_candidates(original, markup_items(original), ValidationBounds(protocol=PAPER))
    assert paper.kept == markup_items(original)[:4] and not paper.rejected
    assert {kind for action, kind in paper.markup if action == "kept"} == {
        "HTML/XML tag",
        "HTML comment",
        "template placeholder",
        "code fence",
    }
