"""A trial (a task on its first rows) is filed apart from its task: no result cache serves one for the other.

Evaluated with mteb's own ``ResultCache`` and ``only-missing`` reuse, in any order, with the same task
instances evaluated again; the results' readers know a trial by its split.
"""

from __future__ import annotations

import json

import mteb
import pytest

import clsd_mteb
from clsd_analysis.results import load_results
from clsd_mteb.result_checks import trial_problem
from clsd_mteb.trials import trial_of, trial_rows, trial_split
from tests.helpers.encoders import VectorEncoder, hashed_vector

NAMES = ["CLSD-WMT19-DE-FR", "CLSD-WMT19-FR-DE-PivotEN"]
LIMIT = 7


def _scores(tasks, cache) -> dict[str, tuple[str, float, int]]:
    """Split, P@1 (to mteb's six stored decimals) and rows of each task."""
    results = mteb.evaluate(VectorEncoder(hashed_vector), tasks, cache=cache, show_progress_bar=False)
    return {
        r.task_name: (next(iter(r.scores)), round(r.get_score(), 6), int(r.get_score(getter=lambda s: s["num_rows"])))
        for r in results.task_results
    }


def test_a_trial_is_declared_before_its_rows_are_read_and_stays_one(small_release):
    (task,) = clsd_mteb.get_tasks(NAMES[:1], data_dir=small_release, limit=LIMIT)
    assert task.split == trial_split(LIMIT) == "test_first_7" and task.metadata.revision.endswith("-limit7")
    assert not task.data_loaded  # mteb looks into its cache before loading
    assert len(task.evaluated_rows()) == LIMIT and task.metadata.revision.startswith("local-sha256-")
    task.unload_data()  # mteb puts back the declared metadata here
    assert task.split == "test_first_7" and task.metadata.revision.endswith("-limit7")
    (full,) = clsd_mteb.get_tasks(NAMES[:1], data_dir=small_release)
    assert full.split == "test" and len(full.evaluated_rows()) == 24
    with pytest.raises(ValueError, match="at least one row"):
        clsd_mteb.get_tasks(NAMES[:1], data_dir=small_release, limit=0)


def test_no_result_cache_serves_a_trial_for_its_task_nor_the_task_for_a_trial(small_release, tmp_path):
    trial_tasks = clsd_mteb.get_tasks(NAMES, data_dir=small_release, limit=LIMIT)
    full_tasks = clsd_mteb.get_tasks(NAMES, data_dir=small_release)
    expected_trial = _scores(clsd_mteb.get_tasks(NAMES, data_dir=small_release, limit=LIMIT), None)
    expected_full = _scores(clsd_mteb.get_tasks(NAMES, data_dir=small_release), None)
    assert {split for split, _, _ in expected_trial.values()} == {"test_first_7"}
    assert {rows for _, _, rows in expected_trial.values()} == {LIMIT} != {rows for _, _, rows in expected_full.values()}

    cache = mteb.ResultCache(tmp_path)
    for tasks, expected in [(trial_tasks, expected_trial), (full_tasks, expected_full)] * 2 + [(trial_tasks, expected_trial)]:
        assert _scores(tasks, cache) == expected  # the same instances, evaluated again: each its own scores
    assert _scores(trial_tasks, cache) == expected_trial  # and served when it is the same trial


def test_readers_know_a_trial_by_its_split(small_release, tmp_path):
    tasks = clsd_mteb.get_tasks(NAMES[:1], data_dir=small_release, limit=LIMIT)
    encoder = VectorEncoder(hashed_vector)
    meta = encoder.mteb_model_meta
    predictions = tmp_path / "predictions" / meta.model_name_as_path() / meta.revision
    (result,) = mteb.evaluate(
        encoder, tasks, cache=mteb.ResultCache(tmp_path), prediction_folder=predictions, show_progress_bar=False
    ).task_results
    assert trial_of(result.scores) == LIMIT and trial_rows("test") is None and trial_rows("test_first_x") is None
    reason = trial_problem(result)
    assert reason is not None and "a trial on the first 7 rows (split test_first_7" in reason and "-limit7" in reason

    folder = load_results(tmp_path)
    ((run, name),) = folder.scores
    assert folder.trials == {(run, name): LIMIT} and folder.score(run, name) == pytest.approx(result.get_score())
    stored = json.loads((predictions / f"{name}_predictions.json").read_text())
    read = folder.predictions(run, name)
    assert read is not None and read.ids == [row["id"] for row in stored["default"]["test_first_7"]]
