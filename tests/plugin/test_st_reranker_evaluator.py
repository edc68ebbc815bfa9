"""The CrossEncoder evaluator: the numbers of ``clsd evaluate`` for a cross-encoder, in a training loop."""

from __future__ import annotations

import mteb
import numpy as np
import pytest

import clsd_mteb
from clsd_format.publishing_settings import TrainingExportSettings
from clsd_mteb.confidence import mcnemar_exact, paired_counts
from clsd_mteb.metrics import distractor_wins
from clsd_mteb.publishing.training_export import export_training
from clsd_mteb.reranking import distinct_pairs, score_matrix
from clsd_mteb.st_reranker_evaluator import CLSDCrossEncoderEvaluator
from tests.helpers.encoders import CosineCrossEncoder, VectorEncoder, hashed_vector
from tests.helpers.rerankers import TRAIN_TASKS, fixture_training_rows, fresh_cross_encoder, train

TASK = "CLSD-WMT21-DE-FR-PivotEN"
HELD_OUT = 300  # release rows: enough for the paired test to resolve what 20 fixture rows cannot


class PairFunctionCrossEncoder:
    """``CrossEncoder.predict``'s shape over the cosine cross-encoder's scores, for a model-free check."""

    def __init__(self, task_metadata) -> None:
        self.inner = CosineCrossEncoder(VectorEncoder(hashed_vector))
        self.task_metadata = task_metadata

    def predict(self, pairs, batch_size=32, show_progress_bar=False, convert_to_numpy=True):
        from datasets import Dataset
        from torch.utils.data import DataLoader

        loaders = [DataLoader(Dataset.from_dict({"text": [p[i] for p in pairs]}), batch_size=batch_size) for i in (0, 1)]
        return self.inner.predict(*loaders, task_metadata=self.task_metadata, hf_split="test", hf_subset="default")


def test_the_evaluator_gives_clsd_evaluates_numbers_ties_included(small_release, monkeypatch):
    monkeypatch.setattr(CLSDCrossEncoderEvaluator, "store_metrics_in_model_card_data", lambda *a, **k: None)
    (task,) = clsd_mteb.get_tasks([TASK], data_dir=small_release)
    expected = mteb.evaluate(CosineCrossEncoder(VectorEncoder(hashed_vector)), task, cache=None, show_progress_bar=False)
    entry = expected.task_results[0].scores["test"][0]
    evaluator = CLSDCrossEncoderEvaluator.from_task(TASK, data_dir=small_release)
    metrics = evaluator(PairFunctionCrossEncoder(task.metadata))
    assert evaluator.primary_metric == f"{TASK}_precision_at_1"
    assert metrics == {
        f"{TASK}_precision_at_1": entry["precision_at_1"],
        f"{TASK}_mrr": entry["mrr"],
        f"{TASK}_mean_score_margin": entry["mean_score_margin"],
    }
    # the pivot fixture holds rows whose distractor is T itself: those are misses here too
    task.load_data()
    assert any(row["target"] in row["distractors"] for row in task.dataset["test"])


@pytest.mark.slow
def test_a_few_steps_of_fine_tuning_on_export_training_rows_with_the_evaluator_in_the_loop(small_release, tmp_path):
    from datasets import load_dataset

    exported = export_training(small_release, TrainingExportSettings(tmp_path / "export", tasks=tuple(TRAIN_TASKS), negatives=3))
    rows = load_dataset(str(exported.folder), split="train")
    assert rows.column_names == ["anchor", "positive", "negative_1", "negative_2", "negative_3"]
    evaluator = CLSDCrossEncoderEvaluator.from_task(TASK, data_dir=small_release)
    model = fresh_cross_encoder()
    before = evaluator(model)
    trainer = train(model, rows, tmp_path / "trainer", evaluator=evaluator)
    after = evaluator(model)
    logged = [entry for entry in trainer.state.log_history if f"eval_{TASK}_precision_at_1" in entry]
    assert logged and logged[-1][f"eval_{TASK}_precision_at_1"] == after[f"{TASK}_precision_at_1"]
    assert after[f"{TASK}_mrr"] > before[f"{TASK}_mrr"]  # 20 held-out rows: a direction, not a proof (below)
    print("before", before, "after", after)


@pytest.mark.slow
@pytest.mark.release
def test_the_small_cross_encoder_learns_clsd_on_held_out_release_rows(small_release, release_dir, tmp_path):
    """Trained on the fixture's 96 WMT19 rows, it ranks T first far more often on WMT21 rows it never saw.

    The same rows before and after, compared by the exact McNemar test that ``clsd analyze`` uses.
    """
    evaluator = CLSDCrossEncoderEvaluator.from_task(TASK, data_dir=release_dir, limit=HELD_OUT)
    model = fresh_cross_encoder()
    before = row_hits(evaluator, model)
    train(model, fixture_training_rows(small_release), tmp_path / "trainer")
    after = row_hits(evaluator, model)
    counts = paired_counts(after, before)
    p_value = mcnemar_exact(counts.only_a, counts.only_b)
    print(f"P@1 {before.mean():.3f} -> {after.mean():.3f} on {after.size} rows; {counts}; McNemar p = {p_value:.2g}")
    assert after.mean() > before.mean() + 0.1 and p_value < 1e-6


def row_hits(evaluator: CLSDCrossEncoderEvaluator, model) -> np.ndarray:
    """Per row: T ranked strictly first (a tie is a miss), from the evaluator's own pairs and score matrix."""
    pairs = distinct_pairs(evaluator.sources, evaluator.targets, evaluator.distractors)
    scores = dict(zip(pairs, evaluator.predict_pairs(model, pairs).tolist(), strict=True))
    matrix = score_matrix(scores, evaluator.sources, evaluator.targets, evaluator.distractors)
    return ~distractor_wins(matrix).any(axis=1)
