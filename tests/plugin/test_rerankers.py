"""Cross-encoders on CLSD: scored pair by pair through the same metrics as embeddings."""

from __future__ import annotations

import json
from pathlib import Path

import mteb
import numpy as np
import pytest

import clsd_mteb
from clsd_mteb.reranking import CROSS_ENCODER_KEY, POOLED_COMPUTED_KEY, SCORE_MARGIN_KEY
from tests.helpers.encoders import CosineCrossEncoder, VectorEncoder, hashed_vector

TASK = "CLSD-WMT19-DE-FR"


def _evaluate(model, task, folder: Path, **kwargs) -> tuple[dict, list[dict]]:
    result = mteb.evaluate(model, task, cache=None, prediction_folder=folder, show_progress_bar=False, **kwargs)
    predictions = json.loads((folder / f"{task.metadata.name}_predictions.json").read_text())["default"]["test"]
    return result.task_results[0].scores["test"][0], predictions


def _task(data_dir: Path, name: str = TASK, **kwargs):
    return clsd_mteb.get_tasks([name], data_dir=data_dir, **kwargs)[0]


def test_a_cross_encoder_is_scored_in_the_requested_batches_and_says_what_its_scores_are(small_release, tmp_path):
    model = CosineCrossEncoder(VectorEncoder(hashed_vector))
    scores, predictions = _evaluate(model, _task(small_release), tmp_path, encode_kwargs={"batch_size": 7})
    assert set(model.batch_sizes) <= {1, 2, 3, 4, 5, 6, 7} and model.batch_sizes[0] == 7
    assert all(model.query_column)  # mteb's own rerankers (BGE, Jina, monoT5) read the sources from "query"
    assert scores[CROSS_ENCODER_KEY] == 1 and scores[POOLED_COMPUTED_KEY] == 0
    assert "pooled_recall_at_1" not in scores and "mean_margin" not in scores
    assert np.isfinite(scores[SCORE_MARGIN_KEY])
    assert all(len(p["scores"]) == 5 and "cosines" not in p for p in predictions)
    assert [p["rank"] for p in predictions] == [1 + sum(s >= p["scores"][0] for s in p["scores"][1:]) for p in predictions]


def test_exact_mode_sends_one_pair_per_batch(small_release, tmp_path):
    model = CosineCrossEncoder(VectorEncoder(hashed_vector))
    _evaluate(model, _task(small_release, exact=True), tmp_path, encode_kwargs={"batch_size": 7})
    assert set(model.batch_sizes) == {1}


def test_a_distractor_equal_to_the_target_ties_and_is_a_miss(small_release, tmp_path):
    """Identical texts are one pair, scored once: the tie is exact whatever the model's arithmetic."""
    task = _task(small_release)
    task.load_data()
    rows = task.dataset["test"]
    task.dataset["test"] = rows.map(lambda row: {"distractors": [row["target"], *row["distractors"][1:]]})
    scores, predictions = _evaluate(CosineCrossEncoder(VectorEncoder(hashed_vector)), task, tmp_path)
    assert scores["precision_at_1"] == 0.0
    assert all(p["scores"][1] == p["scores"][0] and p["rank"] >= 2 for p in predictions)


def test_a_model_that_is_neither_encoder_nor_cross_encoder_is_refused(small_release):
    class Nothing:
        mteb_model_meta = VectorEncoder(hashed_vector).mteb_model_meta

    with pytest.raises(Exception, match="CrossEncoderProtocol"):
        mteb.evaluate(Nothing(), _task(small_release), cache=None, raise_error=True, show_progress_bar=False)


def _identity_check(encoder, tasks, folder: Path) -> dict[str, tuple[float, float, int]]:
    """Per task: (P@1, MRR, tied rows) of a bi-encoder, after checking its cosine cross-encoder gives the same."""
    outcome = {}
    for task in tasks:
        name = task.metadata.name
        bi_scores, bi_rows = _evaluate(encoder, task, folder / "bi" / name)
        ce_scores, ce_rows = _evaluate(CosineCrossEncoder(encoder), task, folder / "ce" / name)
        assert [r["id"] for r in ce_rows] == [r["id"] for r in bi_rows]
        assert [r["rank"] for r in ce_rows] == [r["rank"] for r in bi_rows], name
        for key in ("precision_at_1", "mrr", "mean_rank", "distractor_1_win_rate"):
            assert ce_scores[key] == bi_scores[key], (name, key)
        assert ce_scores[SCORE_MARGIN_KEY] == pytest.approx(bi_scores["mean_margin"], abs=1e-12)
        ties = sum(any(c == r["cosines"][0] for c in r["cosines"][1:]) for r in bi_rows)
        assert ties == sum(any(s == r["scores"][0] for s in r["scores"][1:]) for r in ce_rows)
        outcome[name] = (bi_scores["precision_at_1"], bi_scores["mrr"], ties)
    return outcome


def test_identity_check_a_cosine_cross_encoder_gives_the_bi_encoders_outcomes_on_every_fixture_task(small_release, tmp_path):
    tasks = clsd_mteb.get_tasks(list(clsd_mteb.RELEASE_TASK_NAMES), data_dir=small_release, exact=True)
    outcome = _identity_check(VectorEncoder(hashed_vector), tasks, tmp_path)
    assert sum(ties for _, _, ties in outcome.values()) > 0  # the pivot fixtures hold collapsed rows: ties are covered


@pytest.mark.slow
def test_identity_check_with_minilm_on_the_fixtures(small_release, minilm, tmp_path):
    tasks = clsd_mteb.get_tasks(list(clsd_mteb.RELEASE_TASK_NAMES), data_dir=small_release, exact=True)
    outcome = _identity_check(minilm, tasks, tmp_path)
    assert sum(ties for _, _, ties in outcome.values()) > 0


@pytest.mark.release
def test_identity_check_on_a_release_task(release_dir, tmp_path):
    # the whole task (893 rows); the hashed bi-encoder keeps it fast: MiniLM one text at a time takes minutes here
    tasks = clsd_mteb.get_tasks(["CLSD-WMT21-DE-FR-PivotEN"], data_dir=release_dir, exact=True)
    outcome = _identity_check(VectorEncoder(hashed_vector), tasks, tmp_path)
    print("identity check (P@1, MRR, tied rows):", outcome)
    assert outcome["CLSD-WMT21-DE-FR-PivotEN"][2] > 0
