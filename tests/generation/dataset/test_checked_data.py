"""Stored data is checked, not trusted: the data files of a Hub-format folder against the SHA-256 and row
count its card records (written by `clsd build` and `clsd export-release`), and stored results that are
no longer readable JSON. Real files and real `clsd` processes, on the fixture files and a rule-built dataset."""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from huggingface_hub import DatasetCard

import clsd_mteb
from clsd_format import hub
from clsd_format.errors import DataError
from clsd_format.publishing_settings import ReleaseExportSettings
from clsd_mteb.publishing.release_export import export_release
from clsd_mteb.run import SUPERSEDED_FOLDER, evaluate_tasks
from tests.helpers.cli_runner import invoke
from tests.helpers.corpora import DE_FR_OPTIONS, write_parallel_csv

ROWS = [
    ("Am Montag hat Merkel in Berlin 12 neue Schulen eröffnet.", "Lundi, Merkel a inauguré 12 nouvelles écoles à Berlin."),
    ("Im Mai 2019 ist der Preis für Brot in Paris gestiegen.", "En mai 2019, le prix du pain a augmenté à Paris."),
    ("Der Minister Müller war am Freitag nicht in Hamburg.", "Le ministre Müller n'était pas à Hambourg vendredi."),
    ("Die Bank hat 2020 in Frankfurt 300 Stellen gestrichen.", "En 2020, la banque a supprimé 300 postes à Francfort."),
]
TASK = "CLSD-WMT21-FR-DE"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A dataset folder written by `clsd build` from a rule-backend run."""
    folder = tmp_path_factory.mktemp("rules")
    corpus = write_parallel_csv(folder / "p.csv", ROWS)
    invoke("generate", str(corpus), "--run-dir", str(folder / "run"), *DE_FR_OPTIONS, "--quiet")
    invoke("build", "--run-dir", str(folder / "run"), "--out", str(folder / "ds"), "--name", "Checked")
    return folder / "ds"


@pytest.fixture(scope="module")
def exported(small_release: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return export_release(ReleaseExportSettings(tmp_path_factory.mktemp("export") / "clsd", data_dir=small_release))


def _copy(folder: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(folder, tmp_path / folder.name))


def _files(folder: Path) -> dict:
    return hub.read_front_matter(folder)[hub.MANIFEST_KEY][hub.FILES_KEY]


def _tamper(folder: Path, config: str) -> Path:
    """Change a config's data after the card was written: each row's target swapped with its first distractor."""
    spec = next(s for s in hub.read_manifest(folder) if s.config == config)
    rows = hub.read_config(folder, config)
    for row in rows:
        row["target"], row["distractors"][0] = row["distractors"][0], row["target"]
    return hub.write_config(folder, spec, rows, overwrite=True)


def _edit_card(folder: Path, change) -> None:
    card = folder / hub.CARD_FILE
    header = hub.read_front_matter(folder)
    change(header[hub.MANIFEST_KEY])
    card.write_text(hub.render_card(header, DatasetCard.load(card).text), encoding="utf-8")


def clsd(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CLSD_DEBUG"}
    return subprocess.run([sys.executable, "-m", "clsd_cli", *args], capture_output=True, text=True, env=env, timeout=300)


@pytest.mark.parametrize("folder", [pytest.param("built", marks=pytest.mark.slow), "exported"])  # built: generates first
def test_build_and_export_record_each_data_file(folder: str, request: pytest.FixtureRequest) -> None:
    path = request.getfixturevalue(folder)
    specs = hub.read_manifest(path)
    assert _files(path) == {
        f"{s.config}/test.parquet": {
            "sha256": hub.sha256_of(hub.parquet_path(path, s.config)),
            "rows": len(hub.read_config(path, s.config)),
        }
        for s in specs
    }
    assert hub.check_files(path, hub.read_front_matter(path))


@pytest.mark.slow  # generates and builds a dataset, runs `clsd` twice
def test_a_data_file_changed_after_build_stops_evaluate_with_one_line(built: Path, tmp_path: Path) -> None:
    folder = _copy(built, tmp_path)
    (task_class, *_) = clsd_mteb.tasks_from_folder(folder)  # made while the files were as built
    changed = _tamper(folder, "de-fr")
    done = clsd(
        "evaluate", "--model", "clsd-baselines/char-ngram-tf", "--data-dir", str(folder), "--output", str(tmp_path / "out")
    )
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"error: file {changed}: changed since the dataset card was written")
    assert not (tmp_path / "out").exists()  # stopped before any model or result
    for make in (lambda: clsd_mteb.get_tasks(data_dir=folder), lambda: clsd_mteb.tasks_from_folder(folder)):
        with pytest.raises(DataError, match=f"file {changed}: changed since"):
            make()
    task = task_class()
    with pytest.raises(DataError, match=f"file {changed}: changed since"):
        task.load_data()  # a task checks the file it reads, too
    refused = clsd("push-dataset", str(folder), "--repo-id", "me/checked", "--dry-run", str(tmp_path / "preview"))
    assert refused.returncode == 2 and f"file {changed}: changed since" in refused.stderr


def test_a_changed_release_export_and_a_changed_row_count_are_refused(exported: Path, tmp_path: Path) -> None:
    folder = _copy(exported, tmp_path)
    changed = _tamper(folder, "wmt21-fr-de")
    with pytest.raises(DataError, match=f"file {changed}: changed since .* the card records"):
        clsd_mteb.get_tasks([TASK], data_dir=folder)
    counted = _copy(exported, tmp_path / "rows")
    _edit_card(counted, lambda manifest: manifest[hub.FILES_KEY]["wmt19-de-fr/test.parquet"].update(rows=3))
    with pytest.raises(DataError, match=r"wmt19-de-fr/test.parquet: changed since .* rows; the card records .*, 3 rows"):
        clsd_mteb.get_tasks(data_dir=counted)


@pytest.mark.slow  # generates and builds a dataset
def test_the_dataset_revision_is_the_recorded_checksum(exported: Path, built: Path, tmp_path: Path) -> None:
    release_task = clsd_mteb.get_tasks([TASK], data_dir=exported)[0]
    release_task.load_data()
    recorded = _files(exported)["wmt21-fr-de/test.parquet"]["sha256"]
    assert release_task.metadata.revision == f"local-sha256-{recorded[:16]}"
    assert recorded == hub.sha256_of(hub.parquet_path(exported, "wmt21-fr-de"))
    for task_class in clsd_mteb.tasks_from_folder(built):
        task_class().load_data()
        recorded = _files(built)[f"{task_class.config}/test.parquet"]["sha256"]
        assert task_class.metadata.revision == f"local-sha256-{recorded[:16]}"
    # the revision is the record's, and the file is held to it when read
    claimed = {"sha256": "ab" * 32, "rows": 4}
    task_class = clsd_mteb.make_clsd_task(
        built, config="de-fr", name="CLSD-X-DE-FR", languages=["deu-Latn"], date=("2024-01-01", "2024-01-01"), file_record=claimed
    )
    assert task_class.metadata.revision == "local-sha256-" + "ab" * 8
    with pytest.raises(DataError, match="changed since the dataset card was written"):
        task_class().load_data()


def test_a_folder_without_checksums_is_read_with_one_note(
    exported: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = _copy(exported, tmp_path)
    _edit_card(folder, lambda manifest: manifest.pop(hub.FILES_KEY))  # as exported before checksums were recorded
    caplog.set_level(logging.WARNING)
    for _ in range(2):
        task = clsd_mteb.get_tasks([TASK], data_dir=folder)[0]
        task.load_data()
    assert task.metadata.revision == "local-sha256-" + hub.sha256_of(hub.parquet_path(folder, "wmt21-fr-de"))[:16]
    notes = [r.getMessage() for r in caplog.records if "checksums" in r.getMessage()]
    assert notes == [
        f"{folder / hub.CARD_FILE} records no checksums of its data files (written before they were recorded, or by hand): the data is read unchecked."
    ]


@pytest.mark.slow  # evaluates twice
def test_a_truncated_result_is_named_set_aside_and_recomputed(
    small_release: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from clsd_mteb.baselines import CHAR_NGRAM_NAME
    from clsd_mteb.models import load_model

    encoder = load_model(CHAR_NGRAM_NAME)
    caplog.set_level(logging.WARNING, logger="clsd_mteb.run")

    def run() -> dict[str, Any]:
        task = clsd_mteb.get_tasks([TASK], data_dir=small_release, limit=5)[0]
        return dict(evaluate_tasks(encoder, [task], tmp_path, show_progress_bar=False).task_results[0].scores["test_first_5"][0])

    first = run()
    (stored,) = (tmp_path / "results").rglob(f"{TASK}.json")
    (predictions,) = (tmp_path / "predictions").rglob(f"{TASK}_predictions.json")
    cut = stored.read_text()[:300]  # as a crash or a full disk leaves it
    stored.write_text(cut)
    again = run()
    assert again["precision_at_1"] == first["precision_at_1"] and again["num_rows"] == 5
    assert json.loads(stored.read_text())["task_name"] == TASK  # recomputed in place
    (line,) = [r.getMessage() for r in caplog.records if r.name == "clsd_mteb.run"]
    assert f"the stored result {stored} is not readable as a task result (JSONDecodeError: " in line and "recomputing" in line
    (kept,) = (tmp_path / SUPERSEDED_FOLDER).rglob(f"{TASK}.unreadable.json")
    assert kept.read_text() == cut and str(kept) in line
    assert len(list((tmp_path / SUPERSEDED_FOLDER).rglob(f"{TASK}_predictions.unreadable.json"))) == 1
    assert predictions.is_file()  # written again with the recomputed result
