"""The card measures its own difficulty: P@1 of the character n-gram baseline and the default model, beside the release's.

The figures in the card must be the ones ``clsd evaluate`` reports for the same folder, and the release's the ones
shipped in ``clsd_mteb/reference_scores.json`` (written by ``scripts/write_reference_scores.py``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from clsd_mteb.difficulty_scores import reference_models, release_reference
from tests.helpers.cli_runner import invoke
from tests.helpers.corpora import DE_FR_OPTIONS, write_parallel_csv

ROWS = [
    ("Am Montag hat Merkel in Berlin 12 neue Schulen eröffnet.", "Lundi, Merkel a inauguré 12 nouvelles écoles à Berlin."),
    ("Im Mai 2019 ist der Preis für Brot in Paris gestiegen.", "En mai 2019, le prix du pain a augmenté à Paris."),
    ("Im Januar 2020 hat die Regierung 300 neue Stellen geschaffen.", "En janvier 2020, le gouvernement a créé 300 postes."),
    ("Am Dienstag kamen 45 Abgeordnete nach Straßburg.", "Mardi, 45 députés sont venus à Strasbourg."),
]
ROW = re.compile(
    r"^\| `(?P<model>[^`]+)` \| (?P<task>\S+) \| (?P<rows>\d+) \| (?P<here>[\d.]+) \| (?P<release>[\d.]+) \(", re.MULTILINE
)


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("difficulty")
    corpus = write_parallel_csv(folder / "parallel.csv", ROWS)
    invoke("generate", str(corpus), "--run-dir", str(folder / "run"), *DE_FR_OPTIONS, "--quiet")
    return folder / "run"


def test_the_shipped_release_figures_cover_each_reference_model_on_the_four_direct_tasks() -> None:
    scores, measured = release_reference()
    assert "clsd-mteb" in measured and "write_reference_scores.py" in measured
    for model in reference_models():
        mine = [s for s in scores if s.model == model]
        assert len(mine) == 4 and all(0 < s.precision_at_1 < 1 and s.rows in (1473, 893) for s in mine)


@pytest.mark.slow
def test_the_card_holds_the_scores_clsd_evaluate_reports(run: Path, tmp_path: Path) -> None:
    invoke("build", "--run-dir", str(run), "--out", str(tmp_path / "data"), "--name", "Hard")
    card = (tmp_path / "data" / "README.md").read_text(encoding="utf-8")
    found = {(m["model"], m["task"]): m for m in ROW.finditer(card)}
    assert {model for model, _ in found} == set(reference_models()) and len(found) == 4  # two models, two directions

    invoke("evaluate", "--data-dir", str(tmp_path / "data"), "--output", str(tmp_path / "results"), "--format", "csv")
    reference, _ = release_reference()
    for (model, task), row in found.items():
        (path,) = (tmp_path / "results" / "results").glob(f"{model.replace('/', '__')}/*/{task}.json")
        score = json.loads(path.read_text(encoding="utf-8"))["scores"]["test"][0]
        assert row["here"] == f"{100 * score['precision_at_1']:.2f}" and int(row["rows"]) == score["num_rows"]
        release = [s.precision_at_1 for s in reference if s.model == model]
        assert row["release"] == f"{100 * sum(release) / len(release):.2f}"


@pytest.mark.slow
def test_no_score_says_the_card_was_not_measured(run: Path, tmp_path: Path) -> None:
    invoke("build", "--run-dir", str(run), "--out", str(tmp_path / "data"), "--name", "Quick", "--no-score")
    card = (tmp_path / "data" / "README.md").read_text(encoding="utf-8")
    assert "## Difficulty" in card and "Not measured" in card and not ROW.search(card)
