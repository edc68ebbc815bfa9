"""`clsd analyze` puts into a report only the texts of the data its results were computed on, and reads several
results folders as one: the char-ngram and random baselines evaluated for real on two toy datasets of one name."""

from __future__ import annotations

import base64
import gzip
import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from clsd_analysis.report import AnalysisOptions, analyze
from clsd_analysis.sections import with_options
from clsd_analysis.sections.pos_shift import PosShift
from clsd_cli.app import app
from clsd_format.errors import DataError
from clsd_mteb.baselines import CHAR_NGRAM_NAME, RANDOM_NAME
from clsd_mteb.source_record import SOURCES_FILE, read_sources
from tests.helpers.corpora import toy_hub_folder
from tests.helpers.results_folders import evaluate_toy

pytestmark = pytest.mark.slow  # evaluates two baselines and builds reports

TASK = "CLSD-TOY-EN-DE"
OTHER_WORD = "rote"  # in the other toy dataset's texts only
OPTIONS = AnalysisOptions(sections=with_options(PosShift(enabled=False)))


@pytest.fixture(scope="module")
def toys(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The toy dataset and another of the same name and row ids."""
    folder = tmp_path_factory.mktemp("toys")
    return toy_hub_folder(folder / "toy"), toy_hub_folder(folder / "other-toy", other=True)


def _texts(report: Path) -> str:
    """report.md and the row explorer's data of report.html, as text."""
    page = (report / "report.html").read_text(encoding="utf-8")
    packed = re.search(r'<script id="clsd-data" type="application/octet-stream">([^<]*)</script>', page)
    assert packed is not None
    data = json.dumps(json.loads(gzip.decompress(base64.b64decode(packed.group(1)))), ensure_ascii=False)
    return (report / "report.md").read_text(encoding="utf-8") + data


def test_a_record_pointing_to_another_dataset_of_the_name_gives_no_texts(toys: tuple[Path, Path], tmp_path: Path) -> None:
    toy, other = toys
    results = evaluate_toy(toy, tmp_path / "results")
    entry = {"kind": "hub-folder", "location": str(other.resolve()), "revision": None}  # a record of the first format
    (results / SOURCES_FILE).write_text(json.dumps({TASK: entry}), encoding="utf-8")
    report = analyze(results, tmp_path / "report", OPTIONS).folder
    texts = _texts(report)
    assert OTHER_WORD not in texts and "Äpfel" not in texts  # neither the other dataset's texts nor any text of the task
    notes = (report / "report.md").read_text(encoding="utf-8").split("## Notes", 1)[1]
    assert f"Task `{TASK}`: the texts found ({other.resolve()}, as data_sources.json records it) are of dataset revision" in notes
    assert "another dataset of this name, so its texts are left out" in notes


def test_one_folder_with_two_datasets_of_one_name(toys: tuple[Path, Path], tmp_path: Path) -> None:
    toy, other = toys
    results = evaluate_toy(toy, tmp_path / "results", CHAR_NGRAM_NAME)
    evaluate_toy(other, results, RANDOM_NAME)
    assert len(read_sources(results)) == 2  # both datasets recorded, neither replaced
    report = analyze(results, tmp_path / "report", OPTIONS).folder
    text = (report / "report.md").read_text(encoding="utf-8")
    answer = text.split("## The answer", 1)[1].split("## 1.", 1)[0]
    assert "statistically tied" not in answer and "not compared with" in answer and "other data (dataset revisions" in answer
    assert "1 pair(s) of results are not compared" in answer
    assert "the results hold it at 2 dataset revisions" in text.split("## Notes", 1)[1]
    assert OTHER_WORD not in _texts(report) and "Äpfel" not in _texts(report)


def test_clsd_analyze_reads_several_folders_as_one(toys: tuple[Path, Path], tmp_path: Path) -> None:
    toy, _ = toys
    first = evaluate_toy(toy, tmp_path / "job-1", CHAR_NGRAM_NAME)
    second = evaluate_toy(toy, tmp_path / "job-2", RANDOM_NAME)
    copy = shutil.copytree(first, tmp_path / "job-1-again")  # the same results twice: read once
    out = tmp_path / "report"
    done = CliRunner().invoke(app, ["analyze", str(first), str(second), str(copy), "--out", str(out), "--no-pos-shift"])
    assert done.exit_code == 0, done.output
    text = (out / "report.md").read_text(encoding="utf-8")
    assert f"Results folders: `{first}`, `{second}`, `{copy}`." in text
    assert f"clsd analyze {first} {second} {copy} --out" in text  # the command quoted with every folder
    assert f"| {CHAR_NGRAM_NAME} |" in text and f"| {RANDOM_NAME} |" in text
    assert "Äpfel" in _texts(out)  # the texts, found through the folders' records
    assert "not compared" not in text


def test_a_record_that_is_no_json_names_the_file_and_the_ways_round_it(toys: tuple[Path, Path], tmp_path: Path) -> None:
    """The plugin's reader says to delete the file; the analysis adds its own option, read from its declaration."""
    results = evaluate_toy(toys[0], tmp_path / "results")
    (results / SOURCES_FILE).write_text("{not json", encoding="utf-8")
    with pytest.raises(DataError, match=rf"{SOURCES_FILE}.*; delete it or pass the data with --dataset"):
        analyze(results, tmp_path / "report", OPTIONS)
    assert not (tmp_path / "report" / "report.md").exists()
