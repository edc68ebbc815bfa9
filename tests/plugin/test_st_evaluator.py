"""The sentence-transformers evaluator (clsd_mteb.st_evaluator): the same numbers as ``clsd evaluate``, s-t's naming."""

from __future__ import annotations

import doctest

import mteb
import numpy as np
import pytest

import clsd_mteb
from clsd_mteb import st_evaluator
from clsd_mteb.st_evaluator import CLSDSentenceEvaluator

TASK = "CLSD-WMT21-DE-FR-PivotEN"


class _FixedModel:
    """A stand-in for a SentenceTransformer: fixed vectors per text, no ``encode_query``."""

    def __init__(self, vectors: dict[str, list[float]]) -> None:
        self.vectors = vectors
        self.encoded: list[list[str]] = []
        self.card_metrics: list[dict[str, float]] = []
        self.model_card_data = self  # s-t evaluators store their metrics in the model's card data

    def set_evaluation_metrics(self, evaluator: object, metrics: dict[str, float], epoch: int, step: int) -> None:
        self.card_metrics.append(metrics)

    def encode(self, texts: list[str], **kwargs: object) -> np.ndarray:
        self.encoded.append(list(texts))
        return np.array([self.vectors[t] for t in texts], dtype=np.float32)


def test_ties_are_misses_identical_texts_share_a_vector_and_names_follow_sentence_transformers(tmp_path):
    model = _FixedModel({"s": [1, 0], "t": [1, 1], "d": [1, 1], "far": [0, 1], "s2": [0, 1], "t2": [0, 1]})
    evaluator = CLSDSentenceEvaluator(["s", "s2"], ["t", "t2"], [["d", "far"], ["s"]], name="mini")
    scores = evaluator(model, output_path=str(tmp_path), epoch=1, steps=2)  # type: ignore[arg-type]
    assert model.encoded == [["d", "far", "s", "s2", "t", "t2"]]  # each distinct text once
    # row 1: d has T's vector, a tie, a miss (rank 2); row 2: T wins (rank 1)
    assert scores == {
        "mini_precision_at_1": 0.5,
        "mini_mrr": pytest.approx(0.75),
        "mini_mean_margin": pytest.approx((0.0 + 1.0) / 2),
    }
    assert evaluator.primary_metric == "mini_precision_at_1"
    assert model.card_metrics == [scores]
    assert (tmp_path / "clsd_evaluation_mini_results.csv").read_text().splitlines()[0] == (
        "epoch,steps,precision_at_1,mrr,mean_margin"
    )


def test_rows_without_distractors_are_refused():
    with pytest.raises(ValueError, match="no distractor"):
        CLSDSentenceEvaluator(["s"], ["t"], [[]])


def test_from_a_task_instance_or_hub_rows(small_release):
    (task,) = clsd_mteb.get_tasks([TASK], data_dir=small_release, limit=3)
    evaluator = CLSDSentenceEvaluator.from_task(task, batch_size=4)
    assert evaluator.name == TASK and len(evaluator.sources) == 3 and evaluator.batch_size == 4
    assert evaluator.distractors[0] == task.evaluated_rows()[0]["distractors"]
    with pytest.raises(ValueError, match="data_dir and limit"):
        CLSDSentenceEvaluator.from_task(task, limit=2)
    rows = CLSDSentenceEvaluator.from_rows(task.evaluated_rows(), name="rows")
    assert (rows.sources, rows.targets, rows.distractors) == (evaluator.sources, evaluator.targets, evaluator.distractors)


@pytest.mark.slow
def test_the_numbers_equal_mteb_evaluate_with_the_real_model(small_release, minilm):
    """One text per batch on both sides (``exact`` task, ``batch_size=1``): every vector is a function of its text, so
    the scores are equal to the bit. With batches of 32 the two paths may group texts differently (mteb's loader
    orders longest first with ties by text, sentence-transformers' encode by its own length order), and a vector can
    move in its last bits with its batch's padding: those are compared to 1e-6."""
    task = clsd_mteb.get_tasks([TASK], data_dir=small_release, limit=12, exact=True)[0]
    scores = mteb.evaluate(minilm, task, cache=None, show_progress_bar=False).task_results[0].scores["test_first_12"][0]
    evaluator = CLSDSentenceEvaluator.from_task(TASK, data_dir=small_release, limit=12, batch_size=1)
    st_scores = evaluator(minilm.model)
    assert scores["num_rows"] == 12
    for metric in st_evaluator.METRICS:
        assert st_scores[f"{TASK}_{metric}"] == scores[metric], metric

    # batches of 32 on both sides: the same texts, grouped into batches by each side's own length order
    batched = clsd_mteb.get_tasks([TASK], data_dir=small_release, limit=12)[0]
    kwargs = {"batch_size": 32}
    scores = mteb.evaluate(minilm, batched, cache=None, show_progress_bar=False, encode_kwargs=kwargs).task_results[0]
    st_scores = CLSDSentenceEvaluator.from_task(TASK, data_dir=small_release, limit=12, batch_size=32)(minilm.model)
    for metric in st_evaluator.METRICS:
        assert st_scores[f"{TASK}_{metric}"] == pytest.approx(scores.scores["test_first_12"][0][metric], abs=1e-6), metric


@pytest.mark.slow
def test_the_docstring_example_runs(small_release):
    finder = doctest.DocTestFinder()
    (test,) = [t for t in finder.find(st_evaluator, globs={"data_dir": small_release}) if t.examples]
    result = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE).run(test)
    assert result.failed == 0 and result.attempted >= 5
