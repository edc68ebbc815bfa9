"""`clsd analyze` never tables an impossible score: result files written by the code `clsd evaluate` runs
(the char-ngram baseline on the fixture files), then edited to hold scores no evaluation can produce."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

import clsd_mteb
from clsd_analysis import render
from clsd_analysis.results import load_results
from clsd_analysis.tables import comparison_table
from clsd_cli.app import app
from clsd_mteb import table1_render
from clsd_mteb.baselines import CHAR_NGRAM_NAME
from clsd_mteb.run import evaluate_tasks
from clsd_mteb.table1 import AVERAGE

TASKS = ["CLSD-WMT19-DE-FR", "CLSD-WMT19-DE-FR-PivotEN", "CLSD-WMT21-FR-DE", "CLSD-WMT21-FR-DE-PivotEN"]


@pytest.fixture(scope="module")
def results_dir(small_release: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A results folder as `clsd evaluate --output` writes it (clsd_mteb.run.evaluate_tasks), for one model."""
    from clsd_mteb.models import load_model

    folder = tmp_path_factory.mktemp("results")
    evaluate_tasks(
        load_model(CHAR_NGRAM_NAME), clsd_mteb.get_tasks(TASKS, data_dir=small_release), folder, show_progress_bar=False
    )
    return folder


def _edit(folder: Path, task: str, **scores: float) -> Path:
    """Set scores of a task's stored result, written back as json writes them (NaN as the bare token NaN)."""
    (path,) = (folder / "results").glob(f"*/*/{task}.json")
    payload = json.loads(path.read_text())
    payload["scores"]["test"][0].update(scores)
    path.write_text(json.dumps(payload, indent=2))
    return path


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


@pytest.fixture
def tampered(results_dir: Path, tmp_path: Path) -> tuple[Path, dict[str, Path]]:
    folder = Path(shutil.copytree(results_dir, tmp_path / "results"))
    edited = {
        "1.7": _edit(folder, "CLSD-WMT19-DE-FR", precision_at_1=1.7),
        "nan": _edit(folder, "CLSD-WMT19-DE-FR-PivotEN", precision_at_1=float("nan"), main_score=float("nan")),
        "rank": _edit(folder, "CLSD-WMT21-FR-DE-PivotEN", mean_rank=0.5),
    }
    return folder, edited


@pytest.mark.slow  # evaluates four tasks first
def test_impossible_scores_are_skipped_with_the_file_named(tampered: tuple[Path, dict[str, Path]]) -> None:
    folder, edited = tampered
    results = load_results(folder)
    assert sorted(task for _, task in results.scores) == ["CLSD-WMT21-FR-DE"]  # the one file left as written
    skipped = "\n".join(results.skipped)
    assert f"{edited['1.7']}: score precision_at_1 is 1.7, impossible (it is in [0, 1])" in skipped
    assert f"{edited['nan']}: score " in skipped and "is nan, not a finite number" in skipped
    assert f"{edited['rank']}: score mean_rank is 0.5, impossible (it is at least 1)" in skipped
    markdown = table1_render.table1_markdown(comparison_table(results))
    assert "170.0" not in markdown and "nan" not in markdown.lower()
    header, _, row = (_cells(line) for line in markdown.splitlines())
    cells = dict(zip((heading.split(" (")[0] for heading in header), row, strict=True))  # headings without "(settings)"
    assert cells["WMT19 DE→FR"] == render.MISSING  # both results skipped
    assert cells["WMT21 FR→DE"].startswith(f"{100 * results.score(*next(iter(results.scores))):.1f} ±")  # direct only
    assert cells[AVERAGE] == render.MISSING  # no average over a subset


def test_every_score_is_checked_against_its_range() -> None:
    from clsd_analysis.results import impossible_score

    fine = {"precision_at_1": 0.5, "main_score": 0.5, "mrr": 0.7, "mean_rank": 1.8, "mean_margin": -0.02, "num_rows": 24}
    assert impossible_score({**fine, "distractor_3_win_rate": 0.25, "hf_subset": "default", "languages": ["deu-Latn"]}) is None
    for metric, value in [
        ("main_score", -0.1),
        ("mrr", 1.5),
        ("mean_margin", 2.5),
        ("num_rows", 0),
        ("distractor_2_win_rate", 1.01),
        ("pooled_recall_at_1", float("inf")),
        ("precision_at_1", "0.5"),
        ("precision_at_1", None),
    ]:
        assert impossible_score({**fine, metric: value}) is not None, (metric, value)


@pytest.mark.slow
def test_the_report_lists_the_skipped_files(tampered: tuple[Path, dict[str, Path]], small_release: Path, tmp_path: Path) -> None:
    folder, edited = tampered
    out = tmp_path / "report"
    args = ["analyze", str(folder), "--out", str(out), "--data-dir", str(small_release), "--no-pos-shift"]
    done = CliRunner().invoke(app, args)
    assert done.exit_code == 0, done.output
    report = (out / "report.md").read_text(encoding="utf-8")
    table = report.split("## 1.", 1)[1].split("## 2.", 1)[0]
    assert "170.0" not in table and "nan" not in table.lower()
    notes = report.split("## Notes", 1)[1]
    for path in edited.values():
        assert f"- Skipped file {path}: score " in notes
