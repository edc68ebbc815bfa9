"""The served-reranker client (``rerank:MODEL@URL``) against a rerank server on 127.0.0.1: what it sends,
what it reads, both answer shapes, retries, errors and the key's redaction. The scorer here is a plain
function of the texts; the test with a real model is in test_cross_encoder_model.py."""

from __future__ import annotations

import logging

import mteb
import pytest

import clsd_mteb
from clsd_format.errors import CLSDError
from clsd_mteb.encoders.rerank_endpoint import RerankConfig, relevance_scores
from clsd_mteb.models import load_model
from tests.helpers.encoders import CosineCrossEncoder, VectorEncoder, hashed_vector
from tests.helpers.rerankers import RerankServer

TASK = "CLSD-WMT19-DE-FR-PivotEN"


class HashedCosine:
    """``CrossEncoder.predict``'s shape: the cosine of two hashed vectors (identical texts, identical vectors)."""

    def predict(self, pairs, show_progress_bar=False):
        import numpy as np

        unit = lambda t: hashed_vector(t) / np.linalg.norm(hashed_vector(t))  # noqa: E731
        return np.array([float(np.clip(unit(a) @ unit(b), -1.0, 1.0)) for a, b in pairs])


def _scores(model, task, folder):
    result = mteb.evaluate(
        model, task, cache=None, prediction_folder=folder, show_progress_bar=False, encode_kwargs={"batch_size": 9}
    )
    return result.task_results[0].scores["test"][0]


@pytest.mark.parametrize("tei_shape", [False, True])
def test_served_scores_by_index_give_the_same_outcomes_as_the_local_scorer(small_release, tmp_path, monkeypatch, tei_shape):
    (task,) = clsd_mteb.get_tasks([TASK], data_dir=small_release)
    local = _scores(CosineCrossEncoder(VectorEncoder(hashed_vector)), task, tmp_path / "local")
    with RerankServer(HashedCosine(), tei_shape=tei_shape) as server:
        monkeypatch.setenv("OPENAI_API_KEY", server.key)
        served = _scores(load_model(f"rerank:hashed@{server.base_url}"), task, tmp_path / "served")
    for key in ("precision_at_1", "mrr", "mean_rank", "mean_score_margin"):
        assert served[key] == pytest.approx(local[key], abs=1e-12), key
    queries = [r["query"] for r in server.requests[1:]]  # after the probe
    assert all(len(r["documents"]) <= 9 for r in server.requests)
    # a batch's pairs of one source are one request: fewer requests than pairs, never a source split needlessly
    assert len(queries) < sum(len(r["documents"]) for r in server.requests[1:])


def test_a_failed_request_is_retried(small_release, tmp_path, monkeypatch):
    with RerankServer(HashedCosine(), fail_first=2) as server:
        monkeypatch.setenv("OPENAI_API_KEY", server.key)
        model = load_model(f"rerank:hashed@{server.base_url}")  # the probe meets two 503s, then an answer
    assert len(server.requests) == 3 and model.mteb_model_meta.revision.startswith("served-")


def test_a_rejected_key_is_one_line_without_the_key(monkeypatch, caplog):
    with RerankServer(HashedCosine()) as server:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-wrong-key-123456")
        with caplog.at_level(logging.DEBUG), pytest.raises(CLSDError) as error:
            load_model(f"rerank:hashed@{server.base_url}")
    message = str(error.value)
    assert "rejected the API key in $OPENAI_API_KEY (HTTP 401)" in message and "\n" not in message
    assert "sk-wrong-key-123456" not in message + caplog.text


def test_no_key_no_server_and_a_bad_spec_are_one_line_errors(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(CLSDError, match="set the environment variable OPENAI_API_KEY"):
        load_model("rerank:m@http://127.0.0.1:9")
    monkeypatch.setenv("OPENAI_API_KEY", "x")
    from clsd_mteb.encoders.rerank_endpoint import RerankEncoder

    config = RerankConfig(base_url="http://127.0.0.1:9", model="m", max_retries=0, timeout_s=2)
    with pytest.raises(CLSDError, match=r"cannot connect .*is the server running"):
        RerankEncoder(config)
    with pytest.raises(CLSDError, match="expected rerank:MODEL@BASE_URL"):
        load_model("rerank:no-url")


@pytest.mark.parametrize(
    "answer",
    [
        {"results": [{"index": 0, "relevance_score": 0.5}, {"index": 0, "relevance_score": 0.4}]},  # a repeated index
        {"results": [{"index": 0, "relevance_score": "0.5"}, {"index": 1, "relevance_score": 0.4}]},  # a string
        {"results": [{"index": 0, "relevance_score": float("nan")}, {"index": 1, "relevance_score": 0.4}]},
        {"results": [{"index": 0, "relevance_score": True}, {"index": 1, "relevance_score": 0.4}]},
        {"results": [{"index": "0", "relevance_score": 0.5}, {"index": 1, "relevance_score": 0.4}]},
        {"results": [{"index": 0, "relevance_score": 0.5}]},  # a document without a score
        {"results": "0.5, 0.4"},
        [{"index": 0}, {"index": 1, "score": 0.4}],
    ],
)
def test_a_rerank_answer_is_read_strictly(answer):
    with pytest.raises(CLSDError, match="malformed answer"):
        relevance_scores(answer, 2, "rerank endpoint http://127.0.0.1:1")


def test_both_answer_shapes_are_read_by_index():
    results = {"results": [{"index": 1, "relevance_score": 0.25}, {"index": 0, "relevance_score": 2}]}
    assert relevance_scores(results, 2, "x") == [2.0, 0.25]
    assert relevance_scores([{"index": 0, "score": -1.5}, {"index": 1, "score": 3}], 2, "x") == [-1.5, 3.0]
