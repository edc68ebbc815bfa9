"""A card is safe to publish: no local path in it or in any file `clsd push-dataset` would upload; licence and sources as the Hub reads them.

The corpus lies under a home folder of its own (``HOME`` points there) and the commands run from a working
directory inside it, so any path that leaks is found by a plain text search of every file ``push --dry-run``
writes. The same files go to the Hub's upload routes on 127.0.0.1 (tests/helpers/hub_upload.py) in a real push.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from huggingface_hub import DatasetCard

from clsd_format import hub
from clsd_format.errors import CLSDError
from clsd_generation.dataset.builder import DatasetDescription
from clsd_mteb.publishing.hub_eval import read_eval_config
from tests.helpers import hub_upload
from tests.helpers.corpora import DE_FR_OPTIONS, write_parallel_csv

ROWS = [
    ("Am Montag hat Merkel in Berlin 12 neue Schulen eröffnet.", "Lundi, Merkel a inauguré 12 nouvelles écoles à Berlin."),
    ("Im Mai 2019 ist der Preis für Brot in Paris gestiegen.", "En mai 2019, le prix du pain a augmenté à Paris."),
    ("Im Januar 2020 hat die Regierung 300 neue Stellen geschaffen.", "En janvier 2020, le gouvernement a créé 300 postes."),
]


def clsd(args: list[str], home: Path, cwd: Path) -> str:
    env = {**os.environ, "HOME": str(home)}
    done = subprocess.run([sys.executable, "-m", "clsd_cli", *args], cwd=cwd, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.slow
def test_nothing_push_would_upload_names_the_builders_folders(tmp_path: Path) -> None:
    home = tmp_path / "home" / "builder-jane"
    work = home / "projects" / "clsd-news"
    work.mkdir(parents=True)
    corpus = write_parallel_csv(work / "parallel.csv", ROWS)
    common = ["--quiet"]
    clsd(["generate", str(corpus), "--run-dir", str(work / "run"), *DE_FR_OPTIONS, *common], home, work)
    clsd(["build", "--run-dir", str(work / "run"), "--out", str(work / "data"), "--name", "Safe"], home, work)
    clsd(["push-dataset", str(work / "data"), "--repo-id", "someone/clsd-safe", "--dry-run", str(work / "upload")], home, work)

    uploaded = [path for path in (work / "upload").rglob("*") if path.is_file()]
    assert uploaded
    for path in uploaded:
        data = path.read_bytes()
        for leak in (str(home), str(work), str(tmp_path), "builder-jane"):
            assert leak.encode() not in data, f"{path.name} names {leak}"

    card = DatasetCard.load(work / "upload" / "README.md")
    assert "license" not in card.data.to_dict() and "source_datasets" not in card.data.to_dict()  # never "unknown"
    assert "not specified" in card.text
    sha = hashlib.sha256(corpus.read_bytes()).hexdigest()
    assert f"parallel.csv (a local file, SHA-256 {sha})" in card.text  # named by file name and checksum

    # the Hub's leaderboard config goes with it, in mteb's format, one pair of mteb's ids per config of the card
    specs = hub.read_manifest(work / "upload")
    declared = read_eval_config(work / "upload" / "eval.yaml").tasks
    assert {(t.id, t.config, t.split) for t in declared} == {
        (task_id, spec.config, "test") for spec in specs for task_id in (spec.task_name, f"{spec.task_name}_default_test")
    }

    # the real upload (to the Hub's routes on 127.0.0.1) sends exactly the files of the dry run
    with hub_upload.serve() as (url, received):
        env = {**os.environ, "HOME": str(home), "HF_ENDPOINT": url, "HF_HUB_OFFLINE": "0", "HF_TOKEN": "hf_test_token"}
        command = [sys.executable, "-m", "clsd_cli", "push-dataset", str(work / "data"), "--repo-id", "someone/clsd-safe"]
        done = subprocess.run(command, cwd=work, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"uploaded someone/clsd-safe at revision {hub_upload.COMMIT_OID}" in done.stdout
    assert received.files == {
        ("dataset", "someone/clsd-safe", str(p.relative_to(work / "upload"))): p.read_bytes() for p in uploaded
    }
    assert [c["name"] for c in received.created] == ["clsd-safe"]


@pytest.mark.slow
def test_licence_and_source_datasets_go_into_the_card_as_hub_ids(tmp_path: Path) -> None:
    corpus = write_parallel_csv(tmp_path / "parallel.csv", ROWS)
    clsd(["generate", str(corpus), "--run-dir", str(tmp_path / "run"), *DE_FR_OPTIONS, "--quiet"], tmp_path, tmp_path)
    options = ["--license", "cc-by-4.0", "--source-dataset", "wmt/wmt19"]
    clsd(
        ["build", "--run-dir", str(tmp_path / "run"), "--out", str(tmp_path / "data"), "--name", "Lic", *options],
        tmp_path,
        tmp_path,
    )
    data = DatasetCard.load(tmp_path / "data" / "README.md").data.to_dict()
    assert data["license"] == "cc-by-4.0" and data["source_datasets"] == ["wmt/wmt19"]


def test_a_licence_or_source_that_is_no_hub_id_is_refused() -> None:
    with pytest.raises(CLSDError, match="Hub licence id"):
        DatasetDescription("X", license="Creative Commons BY")
    with pytest.raises(CLSDError, match="owner/name"):
        DatasetDescription("X", source_datasets=("/home/me/corpus.csv",))
