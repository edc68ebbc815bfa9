"""Exact ties and exact scores: identical vectors give bit-identical cosines, and no score depends on
the batch size or the row order. Real MiniLM (384 dimensions), on the fixture files
(tests/data/clsd-mini) and, marked ``release``, on the release files."""

from __future__ import annotations

import json
from pathlib import Path

import mteb
import numpy as np
import pytest

import clsd_mteb
from clsd_mteb.encoding import BATCH_SIZE_KEY, encode_texts
from tests.helpers.encoders import VectorEncoder, hashed_vector

PIVOT_TASKS = [name for name in clsd_mteb.RELEASE_TASK_NAMES if name.endswith("-PivotEN")]


def _predictions(folder: Path, task_name: str, split: str = "test") -> list[dict]:
    return json.loads((folder / f"{task_name}_predictions.json").read_text())["default"][split]


@pytest.mark.slow
def test_every_pivot_row_whose_distractor_equals_the_target_is_a_miss(any_data_dir, minilm, tmp_path):
    """Full pivot files; only the collapsed rows are encoded (the others cannot tie by text)."""
    collapsed_total = 0
    for name in PIVOT_TASKS:
        task = clsd_mteb.get_tasks([name], data_dir=any_data_dir)[0]
        task.load_data()
        rows = task.dataset["test"]
        keep = [i for i, row in enumerate(rows) if row["target"] in row["distractors"]]
        collapsed_total += len(keep)
        if not keep:
            continue
        task.dataset["test"] = rows.select(keep)
        folder = tmp_path / name
        scores = mteb.evaluate(minilm, task, cache=None, prediction_folder=folder, show_progress_bar=False)
        predictions = _predictions(folder, name)
        assert len(predictions) == len(keep)
        assert all(p["rank"] > 1 for p in predictions), [p for p in predictions if p["rank"] == 1]
        assert scores.task_results[0].scores["test"][0]["precision_at_1"] == 0.0
        # the tie is exact: the identical distractor's cosine is T's cosine, bit for bit
        for p, i in zip(predictions, keep, strict=True):
            slot = 1 + rows[i]["distractors"].index(rows[i]["target"])
            assert p["cosines"][slot] == p["cosines"][0]
    assert collapsed_total > 0


def _scores_and_cosines(task, encoder, batch_size: int, folder: Path) -> tuple[dict, dict[str, list[float]]]:
    result = mteb.evaluate(
        encoder,
        task,
        cache=None,
        encode_kwargs={"batch_size": batch_size},
        prediction_folder=folder,
        show_progress_bar=False,
    )
    cosines = {p["id"]: p["cosines"] for p in _predictions(folder, task.metadata.name, task.split)}
    scores = dict(result.task_results[0].scores[task.split][0])
    assert scores.pop(BATCH_SIZE_KEY) == batch_size  # recorded; everything else must not depend on it
    return scores, cosines


@pytest.mark.slow
def test_exact_scores_are_identical_for_any_batch_size_and_row_order(any_data_dir, minilm, tmp_path):
    name = "CLSD-WMT19-FR-DE-PivotEN"  # holds collapsed distractors in its first rows

    def slice_task(shuffle: bool = False):
        task = clsd_mteb.get_tasks([name], data_dir=any_data_dir, limit=60, exact=True)[0]
        task.load_data()
        if shuffle:
            task.dataset[task.split] = task.dataset[task.split].shuffle(seed=7)
        return task

    reference, reference_cosines = _scores_and_cosines(slice_task(), minilm, 1, tmp_path / "bs1")
    for batch_size in (7, 32, 128):
        scores, cosines = _scores_and_cosines(slice_task(), minilm, batch_size, tmp_path / f"bs{batch_size}")
        assert scores == reference, batch_size
        assert cosines == reference_cosines, batch_size
    scores, cosines = _scores_and_cosines(slice_task(shuffle=True), minilm, 32, tmp_path / "shuffled")
    assert scores == reference
    assert cosines == reference_cosines
    assert "pooled_recall_at_1" in reference

    # Why the mode exists: batched (the default), this encoder's vectors change in the last bits with the batch size.
    task = slice_task()
    rows = task.evaluated_rows()
    texts = sorted(set(rows["source"]) | set(rows["target"]))
    batched = [encode_texts(minilm, texts, task_metadata=task.metadata, encode_kwargs={"batch_size": bs}) for bs in (1, 32)]
    assert not np.array_equal(batched[0], batched[1])


def _evaluate_vectors(tmp_path: Path, vectors: dict[str, np.ndarray], rows: list[dict]) -> tuple[dict, list[dict]]:
    """Evaluate hand-made rows (loaded into a release task instance) with hand-made vectors."""
    from datasets import Dataset, DatasetDict

    task = clsd_mteb.get_tasks(["CLSD-WMT19-DE-FR"])[0]
    task.dataset = DatasetDict({"test": Dataset.from_list(rows)})
    task.data_loaded = True
    encoder = VectorEncoder(lambda text: vectors[text])
    result = mteb.evaluate(encoder, task, cache=None, prediction_folder=tmp_path, show_progress_bar=False)
    return result.task_results[0].scores["test"][0], _predictions(tmp_path, "CLSD-WMT19-DE-FR")


def test_pooled_recall_counts_every_candidate_of_the_split_and_ties_as_misses():
    from clsd_mteb.metrics import score_rows, target_ranks

    # vector ids: 0..2 sources, 3..8 candidates; unit vectors in 2-d for readable cosines
    angle = np.deg2rad([0, 90, 180, 5, 30, 60, 95, 120, 175])
    unit = np.stack([np.cos(angle), np.sin(angle)], axis=1)
    sources = np.array([0, 1, 2, 0])
    candidates = np.array(
        [
            [3, 5, 7],  # S at 0 deg, T at 5: best of its row and of the split -> pooled hit
            [6, 7, 5],  # S at 90, T at 95: the nearest other candidates are 30 deg away -> hit
            [8, 7, 5],  # S at 180, T at 175 -> hit
            [4, 5, 7],  # S at 0 again, T at 30: wins its row, but row 0's T (5 deg) is closer -> pooled miss
        ]
    )
    cosines, pooled = score_rows(unit, sources, candidates)
    np.testing.assert_allclose(cosines[:, 0], np.cos(np.deg2rad([5, 5, 5, 30])))
    assert (target_ranks(cosines) == 1).all()
    assert pooled.tolist() == [True, True, True, False]

    # the same T text in two rows is a tie in the pooled set: both rows miss, though each wins its own row
    cosines, pooled = score_rows(unit, np.array([0, 0]), np.array([[3, 5, 6], [3, 7, 8]]))
    assert (cosines[:, 0] > np.nanmax(cosines[:, 1:], axis=1)).all()
    assert pooled.tolist() == [False, False]


def test_texts_with_identical_vectors_tie_exactly(tmp_path):
    """Two different texts that the model maps to the same bits are one vector, so they tie."""
    rows = [
        {"id": "r0", "source": "s0", "target": "t0", "distractors": ["t0 twin", "d1", "d2"]},
        {"id": "r1", "source": "s1", "target": "t1", "distractors": ["e1", "e2", "e3"]},
    ]
    rng = np.random.default_rng(0)
    vectors = {text: rng.normal(size=384) for text in ["s0", "t0", "d1", "d2", "s1", "t1", "e1", "e2", "e3"]}
    vectors["t0 twin"] = vectors["t0"].copy()
    vectors["s0"] = vectors["t0"] + 0.01 * rng.normal(size=384)  # T (and its twin) is the best candidate by far
    vectors["s1"] = vectors["t1"] + 0.01 * rng.normal(size=384)
    scores, predictions = _evaluate_vectors(tmp_path, vectors, rows)
    assert predictions[0]["rank"] == 2 and predictions[0]["cosines"][1] == predictions[0]["cosines"][0]
    assert predictions[1]["rank"] == 1
    assert scores["precision_at_1"] == 0.5
    assert scores["pooled_recall_at_1"] == 0.5
    assert [p["pooled_hit"] for p in predictions] == [False, True]


def test_hashed_vectors_still_score_like_plain_numpy(small_release):
    """Vector deduplication changes nothing where no two texts share a vector."""
    task = clsd_mteb.get_tasks(["CLSD-WMT21-DE-FR"], data_dir=small_release)[0]
    task.load_data()
    data = task.dataset["test"]
    scores = mteb.evaluate(VectorEncoder(hashed_vector), task, cache=None, show_progress_bar=False).task_results[0]
    unit = lambda text: hashed_vector(text) / np.linalg.norm(hashed_vector(text))  # noqa: E731
    hits = pooled = 0
    pool = [t for t in data["target"]] + [d for ds in data["distractors"] for d in ds]
    for row in data:
        s = unit(row["source"])
        target = float(s @ unit(row["target"]))
        hits += all(target > float(s @ unit(d)) for d in row["distractors"])
        others = list(pool)
        others.remove(row["target"])
        pooled += all(target > float(s @ unit(c)) for c in others)
    assert scores.scores["test"][0]["precision_at_1"] == pytest.approx(hits / len(data))
    assert scores.scores["test"][0]["pooled_recall_at_1"] == pytest.approx(pooled / len(data))
