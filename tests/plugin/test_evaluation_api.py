"""Evaluation as a Python API: a typed run with the scores, intervals, per-row hits and pivot tests ``clsd evaluate`` prints."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clsd_format.errors import CLSDError, DataError
from clsd_format.evaluation_settings import EvaluationSettings
from clsd_mteb import get_tasks
from clsd_mteb.baselines import CHAR_NGRAM_NAME
from clsd_mteb.confidence import counts_from_share, wilson_interval
from clsd_mteb.evaluation import evaluate
from clsd_mteb.paired import pivot_tests
from clsd_mteb.predictions import ModelRun, read_predictions

TASKS = ["CLSD-WMT19-DE-FR", "CLSD-WMT19-DE-FR-PivotEN"]


def test_a_run_holds_scores_intervals_hits_and_the_pivot_test(small_release: Path, tmp_path: Path) -> None:
    run = evaluate(CHAR_NGRAM_NAME, get_tasks(TASKS, data_dir=small_release), cache=tmp_path, show_progress_bar=False)
    (model,) = run.models
    assert model.name == CHAR_NGRAM_NAME and set(model.tasks) == set(TASKS)
    for name, score in model.tasks.items():
        assert score.stored is None and score.num_rows == 24 and score.chance == pytest.approx(0.2)
        assert score.p1 == pytest.approx(sum(score.hits.values()) / len(score.hits))
        assert score.interval == wilson_interval(counts_from_share(score.p1, 24), 24)
        # the hits kept in memory are those of the prediction file the same evaluation wrote
        folder = model.predictions
        written = read_predictions(folder / f"{name}_predictions.json", ModelRun(model.name, model.revision, folder.name), name)
        assert dict(score.hits) == written.correct()
    (test,) = [row for row in run.pivot_tests if row.task == "CLSD-WMT19-DE-FR"]
    assert run.pivot_tests == pivot_tests(run.hits())
    assert test.only_pivot - test.only_direct == round(
        sum(model.tasks[TASKS[1]].hits.values()) - sum(model.tasks[TASKS[0]].hits.values())
    )


def test_a_second_run_serves_the_stored_results_with_the_same_hits(small_release: Path, tmp_path: Path) -> None:
    first = evaluate(CHAR_NGRAM_NAME, get_tasks(TASKS[:1], data_dir=small_release), cache=tmp_path, show_progress_bar=False)
    again = evaluate(CHAR_NGRAM_NAME, get_tasks(TASKS[:1], data_dir=small_release), cache=tmp_path, show_progress_bar=False)
    (before,), (after,) = first.models[0].tasks.values(), again.models[0].tasks.values()
    assert before.stored is None and after.stored is not None and after.stored.is_file()
    assert after.hits == before.hits and after.num_rows == before.num_rows
    assert after.p1 == pytest.approx(before.p1, abs=1e-6)


def test_bad_settings_are_refused_before_anything_loads() -> None:
    with pytest.raises(CLSDError, match="--batch-size must be at least 1"):
        EvaluationSettings(batch_size=0)


def test_a_served_result_whose_prediction_file_is_of_other_rows_is_refused(small_release: Path, tmp_path: Path) -> None:
    first = evaluate(CHAR_NGRAM_NAME, get_tasks(TASKS[:1], data_dir=small_release), cache=tmp_path, show_progress_bar=False)
    path = first.models[0].predictions / f"{TASKS[0]}_predictions.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    rows = data["default"]["test"]
    data["default"]["test"] = rows[:-1]  # a row of the result missing from its predictions
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(DataError, match="not the prediction file of this result") as refused:
        evaluate(CHAR_NGRAM_NAME, get_tasks(TASKS[:1], data_dir=small_release), cache=tmp_path, show_progress_bar=False)
    assert refused.value.file == str(path)
