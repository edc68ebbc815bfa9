"""``clsd export-results``: what goes to the MTEB results repository, in its layout, and what is left out and why.

The layout checks are those of the results repository's own tests (``tests/test_correct_folder_structure.py``,
``test_task_name_matches_filename.py``, ``test_new_results_run_settings.py`` there), written out here; mteb's
``ResultCache`` reads the exported folder back. Real encoder: the char-ngram baseline, through the code
``clsd evaluate`` runs.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import mteb
import pytest
from typer.testing import CliRunner

import clsd_mteb
from clsd_cli.app import app
from clsd_format.errors import DataError
from clsd_format.publishing_settings import ResultsExportSettings
from clsd_mteb.evaluator import EVALUATOR_VERSION_KEY
from clsd_mteb.publishing.results_export import export_results
from clsd_mteb.release_fetch import COMMIT, REPOSITORY
from clsd_mteb.run import evaluate_tasks

FULL = ["CLSD-WMT21-FR-DE", "CLSD-WMT21-FR-DE-PivotEN", "CLSD-WMT21-DE-FR"]  # 893 rows each in the release
SLICED = "CLSD-WMT19-DE-FR"


@pytest.fixture(scope="module")
def encoder():
    from clsd_mteb.baselines import CHAR_NGRAM_NAME
    from clsd_mteb.models import load_model

    return load_model(CHAR_NGRAM_NAME)


def _model_folder(output: Path, encoder) -> Path:
    meta = encoder.mteb_model_meta
    return output / "results" / meta.model_name_as_path() / str(meta.revision)


def _check_repository_layout(out: Path) -> list[Path]:
    """The results repository's folder rules; returns the result files."""
    results = []
    for meta_file in (out / "results").glob("*/*/model_meta.json"):
        meta = json.loads(meta_file.read_text())
        assert meta_file.parent == out / "results" / meta["name"].replace(" ", "_").replace("/", "__") / meta["revision"]
        settings = [json.loads(line) for line in (meta_file.parent / "run_settings.jsonl").read_text().splitlines()]
        for path in meta_file.parent.glob("*.json"):
            if path.name == "model_meta.json":
                continue
            data = json.loads(path.read_text())
            assert path.stem == data["task_name"]
            for split, entries in data["scores"].items():
                for entry in entries:
                    matching = [
                        s
                        for s in settings
                        if s["task"] == data["task_name"] and split in s["splits"] and entry["hf_subset"] in s["subsets"]
                    ]
                    assert matching and all(int(s["version"]["mteb"].split(".")[0]) >= 2 for s in matching)
            results.append(path)
    return results


def test_results_of_local_or_sliced_data_are_not_submittable(small_release, encoder, tmp_path):
    tasks = clsd_mteb.get_tasks([FULL[0]], data_dir=small_release) + clsd_mteb.get_tasks(
        [SLICED], data_dir=small_release, limit=5
    )
    evaluate_tasks(encoder, tasks, tmp_path / "run", show_progress_bar=False)
    folder = _model_folder(tmp_path / "run", encoder)  # a task mteb does not know, e.g. of a generated dataset
    stored = (folder / f"{FULL[0]}.json").read_text()
    (folder / "CLSD-MYDATA-DE-FR.json").write_text(stored.replace(FULL[0], "CLSD-MYDATA-DE-FR"))
    with pytest.raises(DataError) as raised:
        export_results(ResultsExportSettings(tmp_path / "run", tmp_path / "out"))
    message = str(raised.value)
    assert f"{FULL[0]}.json: computed on local files" in message and "local-sha256-" in message
    assert f"{SLICED}.json: computed on a slice of the data" in message and "-limit5" in message
    assert "CLSD-MYDATA-DE-FR.json: CLSD-MYDATA-DE-FR is not a task mteb knows after import clsd_mteb" in message
    assert not (tmp_path / "out").exists() and not list(tmp_path.glob(".out*"))  # nothing half-written

    with pytest.raises(DataError, match="no results/ folder"):
        export_results(ResultsExportSettings(tmp_path, tmp_path / "out"))


@pytest.mark.slow
def test_submittable_results_in_the_repository_layout(release_dir, encoder, tmp_path):
    run = tmp_path / "run"
    tasks = clsd_mteb.get_tasks(FULL, data_dir=release_dir) + clsd_mteb.get_tasks([SLICED], data_dir=release_dir, limit=10)
    evaluate_tasks(encoder, tasks, run, show_progress_bar=False)
    source = _model_folder(run, encoder)
    stale = json.loads((source / f"{FULL[1]}.json").read_text())  # an older evaluator's result
    for entry in stale["scores"]["test"]:
        entry[EVALUATOR_VERSION_KEY] = 2
    (source / f"{FULL[1]}.json").write_text(json.dumps(stale))
    odd = json.loads((source / f"{FULL[2]}.json").read_text())  # a subset the task does not have
    odd["scores"]["test"][0]["hf_subset"] = "de-fr"
    (source / f"{FULL[2]}.json").write_text(json.dumps(odd))

    done = CliRunner().invoke(app, ["export-results", str(run), str(tmp_path / "submission")])
    assert done.exit_code == 0, done.output
    out = tmp_path / "submission"
    assert f"{FULL[0]} " in done.output
    assert f"left out {source / f'{SLICED}.json'}: computed on a slice" in done.output
    assert f"left out {source / f'{FULL[1]}.json'}: computed by CLSD evaluator version 2" in done.output
    assert f"left out {source / f'{FULL[2]}.json'}: mteb's check of the result against the task changed it" in done.output
    assert "registered by clsd-mteb, not by mteb" in done.output and "clsd-baselines/char-ngram-tf" in done.output

    (exported,) = _check_repository_layout(out)
    assert exported.name == f"{FULL[0]}.json"
    assert exported.read_bytes() == (source / exported.name).read_bytes()  # as mteb wrote it
    assert (exported.parent / "model_meta.json").read_bytes() == (source / "model_meta.json").read_bytes()
    assert sorted(p.name for p in out.rglob("*") if p.is_file()) == sorted(
        ["README.md", "tasks.json", exported.name, "model_meta.json", "run_settings.jsonl"]
    )  # no predictions, nothing set aside

    loaded = mteb.ResultCache(out).load_results(tasks=FULL, include_remote=False, validate_and_filter=True)
    ((model_result,),) = [loaded.model_results]
    score = model_result.task_results[0].get_score()
    assert [t.task_name for t in model_result.task_results] == FULL[:1] and model_result.task_results[
        0
    ].dataset_revision == COMMIT

    readme = (out / "README.md").read_text()
    assert f"| {FULL[0]} | {score:.4f} | {REPOSITORY} | {COMMIT} |" in readme
    metadata = json.loads((out / "tasks.json").read_text())
    assert list(metadata) == [FULL[0]] and metadata[FULL[0]]["dataset"] == {"path": REPOSITORY, "revision": COMMIT}
    assert metadata[FULL[0]]["main_score"] == "precision_at_1"

    before = sorted((p, p.read_bytes()) for p in out.rglob("*") if p.is_file())
    again = CliRunner().invoke(app, ["export-results", str(run), str(out)])
    assert isinstance(again.exception, DataError) and "refusing to overwrite" in str(again.exception)
    assert sorted((p, p.read_bytes()) for p in out.rglob("*") if p.is_file()) == before


@pytest.mark.slow
def test_an_export_needs_a_model_meta_beside_each_result(release_dir, encoder, tmp_path):
    run = tmp_path / "run"
    evaluate_tasks(encoder, clsd_mteb.get_tasks(FULL[:1], data_dir=release_dir), run, show_progress_bar=False)
    (_model_folder(run, encoder) / "model_meta.json").unlink()
    with pytest.raises(DataError, match=r"no model_meta\.json beside it"):
        export_results(ResultsExportSettings(run, tmp_path / "out"))
    shutil.rmtree(run)
