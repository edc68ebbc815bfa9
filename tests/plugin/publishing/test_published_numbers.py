"""`clsd export-results` and `clsd push-results --dry-run` publish no impossible number: the check `clsd analyze` applies.

Result files written by the code `clsd evaluate` runs (the char-ngram baseline on the fixture files), then edited:
filed under a published revision (the release commit, the authors' Hub revision) so that they qualify, and given
scores no evaluation can produce, a model name the Hub refuses, an unreadable model_meta.json.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

import clsd_mteb
from clsd_cli.app import app
from clsd_format import authors_hub
from clsd_format.errors import CLSDError, DataError
from clsd_format.release import COMMIT
from clsd_mteb.baselines import CHAR_NGRAM_NAME
from clsd_mteb.run import evaluate_tasks

TASKS = ["CLSD-WMT21-FR-DE", "CLSD-WMT21-DE-FR", "CLSD-WMT19-FR-DE"]


@pytest.fixture(scope="module")
def evaluated(small_release: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    from clsd_mteb.models import load_model

    folder = tmp_path_factory.mktemp("results")
    tasks = clsd_mteb.get_tasks(TASKS, data_dir=small_release)
    evaluate_tasks(load_model(CHAR_NGRAM_NAME), tasks, folder, show_progress_bar=False)
    return folder


def _edit(folder: Path, task: str, dataset_revision: str, **scores: float) -> Path:
    (path,) = (folder / "results").glob(f"*/*/{task}.json")
    payload = json.loads(path.read_text())
    payload["dataset_revision"] = dataset_revision
    payload["scores"]["test"][0].update(scores)
    path.write_text(json.dumps(payload, indent=2))  # NaN as the bare token NaN, as json writes it
    return path


def _published(evaluated: Path, tmp_path: Path, revision: str) -> tuple[Path, Path]:
    """A copy of the results filed under ``revision``: the first task impossible twice over, the third fine."""
    folder = Path(shutil.copytree(evaluated, tmp_path / "results"))
    _edit(folder, TASKS[0], revision, precision_at_1=1.7, main_score=1.7)
    _edit(folder, TASKS[1], revision, main_score=float("nan"))
    _edit(folder, TASKS[2], revision)
    (meta,) = (folder / "results").glob("*/*/model_meta.json")
    return folder, meta


def _run(*args: str) -> tuple[int, str, BaseException | None]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output, result.exception


def test_export_results_leaves_out_impossible_scores_with_the_reason(evaluated: Path, tmp_path: Path) -> None:
    folder, meta = _published(evaluated, tmp_path, COMMIT)
    code, output, exception = _run("export-results", str(folder), str(tmp_path / "out"))
    assert code == 0, (output, exception)
    assert f"{TASKS[0]}.json: score precision_at_1 is 1.7, impossible (it is in [0, 1]) (test, default)" in output
    assert f"{TASKS[1]}.json: score main_score is nan, not a finite number (test, default)" in output
    exported = sorted(path.name for path in (tmp_path / "out" / "results").rglob("CLSD-*.json"))
    assert exported == [f"{TASKS[2]}.json"]
    meta.write_text("{ not json", encoding="utf-8")
    with pytest.raises(DataError, match=rf"file {meta}: not a readable mteb model_meta\.json"):
        _raise(_run("export-results", str(folder), str(tmp_path / "again")))
    assert not (tmp_path / "again").exists()


def test_push_results_publishes_no_impossible_score_nor_a_name_the_hub_refuses(evaluated: Path, tmp_path: Path) -> None:
    folder, meta = _published(evaluated, tmp_path, authors_hub.DEFAULT_REVISION)
    dry_run = ("push-results", str(folder), "--hub-dataset", authors_hub.REPO_ID, "--dry-run")
    code, output, exception = _run(*dry_run, str(tmp_path / "repo"))
    assert code == 0, (output, exception)
    assert f"{TASKS[0]}.json: score precision_at_1 is 1.7, impossible (it is in [0, 1]) (test, default)" in output
    assert f"{TASKS[1]}.json: score main_score is nan, not a finite number" in output
    written = sorted(path.name for path in (tmp_path / "repo").rglob("*.yaml"))
    assert written == [f"{TASKS[2]}.yaml"]
    original = json.loads(meta.read_text())
    for name in ("me/x y", "me/.."):
        meta.write_text(json.dumps({**original, "name": name}), encoding="utf-8")
        with pytest.raises(CLSDError, match=rf"the model name {name!r}"):
            _raise(_run(*dry_run, str(tmp_path / "refused")))
    for spoiled in ("{ not json", json.dumps({**original, "name": "no-owner"})):
        meta.write_text(spoiled, encoding="utf-8")
        with pytest.raises(
            DataError, match=rf"file {meta}: not a readable mteb model_meta\.json \((JSONDecodeError|ValidationError): "
        ):
            _raise(_run(*dry_run, str(tmp_path / "refused")))
    assert not (tmp_path / "refused").exists()


def _raise(outcome: tuple[int, str, BaseException | None]) -> None:
    """The command's error, raised (its exit status is 2: an error the user can act on)."""
    code, output, exception = outcome
    assert exception is not None and code != 0, output
    raise exception
