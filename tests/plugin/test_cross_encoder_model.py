"""A real cross-encoder on CLSD, nothing downloaded: built from MiniLM's files with a fresh head and
trained a few steps on fixture rows, then run through mteb, ``clsd evaluate`` and a served rerank API."""

from __future__ import annotations

import json
from pathlib import Path

import mteb
import numpy as np
import pytest

import clsd_mteb
from clsd_format.errors import CLSDError
from clsd_mteb.models import folder_kind, load_model
from clsd_mteb.reranking import CROSS_ENCODER_KEY, SCORE_MARGIN_KEY
from tests.helpers.cli_runner import invoke
from tests.helpers.rerankers import RerankServer, build_small_cross_encoder

pytestmark = pytest.mark.slow

TASK = "CLSD-WMT21-DE-FR"  # trained on WMT19 rows: another corpus than the one it is scored on


@pytest.fixture(scope="module")
def cross_encoder_folder(small_release, tmp_path_factory) -> Path:
    return build_small_cross_encoder(small_release, tmp_path_factory.mktemp("ce") / "small-cross-encoder")


def _evaluate(model, small_release, folder: Path, **kwargs) -> tuple[dict, list[dict]]:
    (task,) = clsd_mteb.get_tasks([TASK], data_dir=small_release, **kwargs)
    result = mteb.evaluate(model, task, cache=None, prediction_folder=folder, show_progress_bar=False)
    predictions = json.loads((folder / f"{TASK}_predictions.json").read_text())["default"]["test"]
    return result.task_results[0].scores["test"][0], predictions


def test_the_saved_folder_is_recognised_as_a_cross_encoder_and_scored_as_one(cross_encoder_folder, small_release, tmp_path):
    from mteb.models import CrossEncoderWrapper
    from sentence_transformers import CrossEncoder

    assert folder_kind(cross_encoder_folder) == "cross-encoder"
    loaded = load_model(str(cross_encoder_folder))
    assert isinstance(loaded, CrossEncoderWrapper) and loaded.mteb_model_meta.revision.startswith("sha256-")
    scores, predictions = _evaluate(CrossEncoderWrapper(CrossEncoder(str(cross_encoder_folder))), small_release, tmp_path / "a")
    assert scores[CROSS_ENCODER_KEY] == 1 and np.isfinite(scores[SCORE_MARGIN_KEY])
    assert scores["num_rows"] == len(predictions) == 20
    # the ranks are the model's own: recomputed from CrossEncoder.predict on each row's pairs
    (task,) = clsd_mteb.get_tasks([TASK], data_dir=small_release)
    task.load_data()
    model = CrossEncoder(str(cross_encoder_folder), device="cpu")
    for row, prediction in zip(task.dataset["test"], predictions, strict=True):
        direct = model.predict([(row["source"], c) for c in [row["target"], *row["distractors"]]], batch_size=1)
        assert prediction["scores"] == pytest.approx(direct.tolist(), abs=1e-5)


def test_clsd_evaluate_takes_the_cross_encoder_folder(cross_encoder_folder, small_release, tmp_path):
    out = tmp_path / "out"
    printed = invoke(
        "evaluate", "--model", str(cross_encoder_folder), "--data-dir", str(small_release),
        "--output", str(out), "--tasks", f"{TASK},CLSD-WMT21-DE-FR-PivotEN",
    )  # fmt: skip
    print(printed)
    (result_file,) = (out / "results").glob(f"*/*/{TASK}.json")
    entry = json.loads(result_file.read_text())["scores"]["test"][0]
    assert entry[CROSS_ENCODER_KEY] == 1
    assert f"{100 * entry['precision_at_1']:.1f} ±" in printed
    (prediction_file,) = (out / "predictions").glob(f"*/*/{TASK}_predictions.json")
    assert all(len(r["scores"]) == 5 for r in json.loads(prediction_file.read_text())["default"]["test"])


def test_a_folder_that_is_no_model_is_refused_with_one_line(tmp_path):
    (tmp_path / "notes.txt").write_text("hello")
    with pytest.raises(CLSDError, match="neither a sentence-transformers model nor a cross-encoder"):
        load_model(str(tmp_path))


def test_a_served_reranker_gives_the_local_models_outcomes(cross_encoder_folder, small_release, tmp_path, monkeypatch):
    from mteb.models import CrossEncoderWrapper
    from sentence_transformers import CrossEncoder

    model = CrossEncoder(str(cross_encoder_folder), device="cpu")
    local, local_rows = _evaluate(CrossEncoderWrapper(model), small_release, tmp_path / "local", exact=True)
    with RerankServer(model, fail_first=1) as server:
        monkeypatch.setenv("OPENAI_API_KEY", server.key)
        served_model = load_model(f"rerank:small-reranker@{server.base_url}")
        served, served_rows = _evaluate(served_model, small_release, tmp_path / "served", exact=True)
    print("served reranker:", {k: served[k] for k in ("precision_at_1", "mrr", SCORE_MARGIN_KEY)})
    assert served_model.mteb_model_meta.name == "rerank/small-reranker"
    assert [r["rank"] for r in served_rows] == [r["rank"] for r in local_rows]
    assert served["precision_at_1"] == local["precision_at_1"] and served["mrr"] == local["mrr"]
    request = server.requests[-1]
    assert set(request) == {"model", "query", "documents"} and request["model"] == "small-reranker"
