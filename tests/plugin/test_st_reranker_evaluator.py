"""The CrossEncoder evaluator: the numbers of ``clsd evaluate`` for a cross-encoder, in a training loop."""

from __future__ import annotations

import mteb
import pytest

import clsd_mteb
from clsd_mteb.publishing.training_export import export_training
from clsd_mteb.st_reranker_evaluator import CLSDCrossEncoderEvaluator
from tests.helpers.encoders import CosineCrossEncoder, VectorEncoder, hashed_vector
from tests.helpers.rerankers import fresh_cross_encoder, train

TASK = "CLSD-WMT21-DE-FR-PivotEN"


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

    exported = export_training(small_release, tmp_path / "export", tasks=["CLSD-WMT19-DE-FR"], negatives=3)
    rows = load_dataset(str(exported.folder), split="train")
    assert rows.column_names == ["anchor", "positive", "negative_1", "negative_2", "negative_3"]
    evaluator = CLSDCrossEncoderEvaluator.from_task(TASK, data_dir=small_release)
    model = fresh_cross_encoder()
    before = evaluator(model)
    trainer = train(model, rows, tmp_path / "trainer", steps=6, evaluator=evaluator)
    after = evaluator(model)
    logged = [entry for entry in trainer.state.log_history if f"eval_{TASK}_precision_at_1" in entry]
    assert logged and logged[-1][f"eval_{TASK}_precision_at_1"] == after[f"{TASK}_precision_at_1"]
    assert after != before  # the head trained: its scores moved
    print("before", before, "after", after)
