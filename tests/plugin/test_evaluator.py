"""The evaluator against independent numpy arithmetic, with the real model and with known vectors."""

from __future__ import annotations

import json

import mteb
import numpy as np
import pytest
from scipy.stats import binomtest

import clsd_mteb
from clsd_format.errors import EmbeddingError
from clsd_mteb.metrics import clsd_metrics
from tests.helpers.encoders import OpaqueVectorEncoder, VectorEncoder, hashed_vector


def _rows(task):
    return task.evaluated_rows()


def _independent_ranks(source_vecs, target_vecs, distractor_vecs):
    """Rank of T per row from raw (unnormalised) vectors, written without the evaluator's code (a tie ranks T lower)."""
    ranks = []
    for s, t, ds in zip(source_vecs, target_vecs, distractor_vecs, strict=True):
        cos = lambda a, b: float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))  # noqa: E731
        target_cos = cos(s, t)
        ranks.append(1 + sum(cos(s, d) >= target_cos for d in ds))
    return ranks


def _independent_hits(source_vecs, target_vecs, distractor_vecs):
    """P@1 hits from raw (unnormalised) vectors, written without the evaluator's code."""
    return sum(rank == 1 for rank in _independent_ranks(source_vecs, target_vecs, distractor_vecs))


@pytest.mark.slow
def test_precision_at_1_equals_a_plain_numpy_count_with_the_real_model(small_release, minilm):
    task = clsd_mteb.get_tasks(["CLSD-WMT19-DE-FR"], data_dir=small_release)[0]
    data = _rows(task)
    result = mteb.evaluate(minilm, task, cache=None, show_progress_bar=False)
    scores = result.task_results[0].scores["test"][0]

    st_model = minilm.model  # the underlying SentenceTransformer, called directly
    encode = lambda texts: st_model.encode(list(texts), convert_to_numpy=True)  # noqa: E731
    ranks = _independent_ranks(encode(data["source"]), encode(data["target"]), [encode(ds) for ds in data["distractors"]])
    hits = sum(rank == 1 for rank in ranks)
    assert scores["num_rows"] == len(data) == 24
    assert round(scores["precision_at_1"] * scores["num_rows"]) == hits
    assert scores["precision_at_1"] == pytest.approx(hits / len(data))
    assert scores["main_score"] == scores["precision_at_1"]
    assert scores["mrr"] == pytest.approx(float(np.mean([1 / rank for rank in ranks])))
    assert scores["mean_rank"] == pytest.approx(float(np.mean(ranks)))


def test_ties_count_as_misses():
    # row 1: T and d2 identical vectors (tie) -> miss; row 2: T strictly best -> hit; row 3: d1 wins -> miss
    cosines = np.array(
        [
            [0.9, 0.1, 0.9, 0.2, 0.3],
            [0.8, 0.7, 0.1, 0.2, 0.3],
            [0.5, 0.6, 0.1, 0.2, 0.3],
        ]
    )
    scores = clsd_metrics(cosines)
    assert scores["precision_at_1"] == pytest.approx(1 / 3)
    assert scores["mean_rank"] == pytest.approx((2 + 1 + 2) / 3)
    assert scores["mrr"] == pytest.approx((0.5 + 1 + 0.5) / 3)
    assert scores["distractor_1_win_rate"] == pytest.approx(1 / 3)
    assert scores["distractor_2_win_rate"] == pytest.approx(1 / 3)
    assert scores["mean_margin"] == pytest.approx(((0.9 - 0.9) + (0.8 - 0.7) + (0.5 - 0.6)) / 3)
    # the interval comes from the same hits (1 of 3: the tie is a miss), by scipy's Wilson interval
    wilson = binomtest(1, 3).proportion_ci(method="wilson")
    assert (scores["precision_at_1_ci_low"], scores["precision_at_1_ci_high"]) == pytest.approx((wilson.low, wilson.high))


def test_a_distractor_identical_to_the_target_is_a_tie_and_a_miss(small_release, tmp_path):
    # in the released pivot files, translation collapsed some distractors onto the translated target
    task = clsd_mteb.get_tasks(["CLSD-WMT19-FR-DE-PivotEN"], data_dir=small_release)[0]
    data = _rows(task)
    collapsed = [i for i, row in enumerate(data) if row["target"] in row["distractors"]]
    assert collapsed, "the first rows of the WMT19 FR-DE pivot file hold such a collapse (row 2)"
    encoder = VectorEncoder(hashed_vector)
    result = mteb.evaluate(encoder, task, cache=None, show_progress_bar=False, prediction_folder=tmp_path)
    scores = result.task_results[0].scores["test"][0]
    predictions = json.loads((tmp_path / f"{task.metadata.name}_predictions.json").read_text())["default"]["test"]
    assert all(predictions[i]["rank"] > 1 for i in collapsed)
    s = np.stack([hashed_vector(t) for t in data["source"]])
    t = np.stack([hashed_vector(x) for x in data["target"]])
    d = [np.stack([hashed_vector(x) for x in ds]) for ds in data["distractors"]]
    hits = _independent_hits(s, t, d)
    assert round(scores["precision_at_1"] * len(data)) == hits
    wilson = binomtest(hits, len(data)).proportion_ci(method="wilson")  # every result mteb writes carries the interval
    assert (scores["precision_at_1_ci_low"], scores["precision_at_1_ci_high"]) == pytest.approx((wilson.low, wilson.high))


def test_each_distinct_text_is_encoded_once_with_the_query_prompt_type(small_release):
    task = clsd_mteb.get_tasks(["CLSD-WMT21-FR-DE"], data_dir=small_release)[0]
    data = _rows(task)
    encoder = VectorEncoder(hashed_vector)
    mteb.evaluate(encoder, task, cache=None, show_progress_bar=False)
    distinct = set(data["source"]) | set(data["target"]) | {d for ds in data["distractors"] for d in ds}
    assert sorted(encoder.seen) == sorted(distinct)
    assert {getattr(p, "value", p) for p in encoder.prompt_types} == {"query"}  # str() of the enum differs across mteb 2.x


def test_the_shared_cache_encodes_no_text_twice_across_tasks(small_release):
    tasks = clsd_mteb.get_tasks(data_dir=small_release)
    encoder = VectorEncoder(hashed_vector)
    cached = clsd_mteb.SharedEmbeddingCache(encoder)
    plain = mteb.evaluate(
        VectorEncoder(hashed_vector), clsd_mteb.get_tasks(data_dir=small_release), cache=None, show_progress_bar=False
    )
    shared = mteb.evaluate(cached, tasks, cache=None, show_progress_bar=False)
    distinct = set()
    for task in clsd_mteb.get_tasks(data_dir=small_release):
        rows = _rows(task)
        distinct |= set(rows["source"]) | set(rows["target"]) | {d for ds in rows["distractors"] for d in ds}
    assert len(encoder.seen) == len(set(encoder.seen)) == len(distinct) == cached.texts_encoded
    assert [r.get_score() for r in shared.task_results] == [r.get_score() for r in plain.task_results]


def test_the_shared_cache_does_not_share_when_it_cannot_tell_the_prompt(small_release):
    encoder = OpaqueVectorEncoder(hashed_vector)
    tasks = clsd_mteb.get_tasks(["CLSD-WMT19-DE-FR", "CLSD-WMT19-FR-DE"], data_dir=small_release, limit=5)
    mteb.evaluate(clsd_mteb.SharedEmbeddingCache(encoder), tasks, cache=None, show_progress_bar=False)
    assert len(encoder.seen) > len(set(encoder.seen))  # the originals were encoded once per task


def test_the_e5_query_prompt_reaches_the_model(small_release, minilm, tmp_path):
    """mteb's own e5 configuration (from its ModelMeta), on the MiniLM weights: every text gets 'query: '."""
    from mteb.models.sentence_transformer_wrapper import SentenceTransformerEncoderWrapper

    e5_prompts = mteb.get_model_meta("intfloat/multilingual-e5-base").loader_kwargs["model_prompts"]
    assert e5_prompts["query"] == "query: "
    saved_prompts = dict(minilm.model.prompts)  # the wrapper writes its prompts into the shared model: put them back
    try:
        e5_like = SentenceTransformerEncoderWrapper(minilm.model, model_prompts=e5_prompts)
        task = clsd_mteb.get_tasks(["CLSD-WMT19-FR-DE"], data_dir=small_release, limit=8)[0]
        data = _rows(task)
        result = mteb.evaluate(e5_like, task, cache=None, show_progress_bar=False, prediction_folder=tmp_path)
    finally:
        minilm.model.prompts = saved_prompts
    predictions = json.loads((tmp_path / "CLSD-WMT19-FR-DE_predictions.json").read_text())["default"]["test_first_8"]

    st = minilm.model
    unit = lambda texts, prefix: st.encode([prefix + x for x in texts], normalize_embeddings=True)  # noqa: E731
    with_prompt = np.sum(unit(data["source"], "query: ") * unit(data["target"], "query: "), axis=1)
    without_prompt = np.sum(unit(data["source"], "") * unit(data["target"], ""), axis=1)
    got = np.array([row["cosines"][0] for row in predictions])
    np.testing.assert_allclose(got, with_prompt, atol=1e-5)
    assert not np.allclose(got, without_prompt, atol=1e-4)
    assert result.task_results[0].get_score() == pytest.approx(np.mean([r["rank"] == 1 for r in predictions]))


@pytest.mark.parametrize(
    "bad, message",
    [(np.nan, "NaN or inf"), (np.inf, "NaN or inf"), (0.0, "all-zero")],
)
def test_unscorable_embeddings_raise_instead_of_scoring(small_release, bad, message):
    task = clsd_mteb.get_tasks(["CLSD-WMT19-DE-FR"], data_dir=small_release, limit=5)[0]
    target = _rows(task)[2]["target"]

    def vector_of(text):
        return np.full(8, bad) if text == target else hashed_vector(text, 8)

    with pytest.raises(EmbeddingError, match=message):
        mteb.evaluate(VectorEncoder(vector_of), task, cache=None, show_progress_bar=False)


@pytest.mark.slow
def test_results_and_predictions_round_trip_through_mteb(small_release, minilm, tmp_path):
    task = clsd_mteb.get_tasks(["CLSD-WMT21-DE-FR"], data_dir=small_release)[0]
    meta = minilm.mteb_model_meta
    result = mteb.evaluate(
        minilm, task, cache=mteb.ResultCache(tmp_path), prediction_folder=tmp_path / "pred", show_progress_bar=False
    ).task_results[0]
    path = tmp_path / "results" / meta.model_name_as_path() / meta.revision / "CLSD-WMT21-DE-FR.json"
    assert path.is_file()
    loaded = mteb.TaskResult.from_disk(path)
    assert loaded.task_name == "CLSD-WMT21-DE-FR"
    saved, computed = loaded.scores["test"][0], result.scores["test"][0]
    assert saved.keys() == computed.keys()
    for key, value in computed.items():  # mteb writes scores rounded to 6 decimals
        assert saved[key] == (pytest.approx(value, abs=1e-6) if isinstance(value, float) else value), key
    assert loaded.get_score() == pytest.approx(result.get_score(), abs=1e-6)  # rounded on disk
    assert loaded.dataset_revision.startswith("local-sha256-")  # a slice, not the pinned release
    cached = mteb.ResultCache(tmp_path).load_results(models=[meta], tasks=[task])
    assert cached.model_results[0].task_results[0].get_score() == loaded.get_score()

    predictions = json.loads((tmp_path / "pred" / "CLSD-WMT21-DE-FR_predictions.json").read_text())
    assert predictions["mteb_model_meta"]["model_name"] == "sentence-transformers/all-MiniLM-L6-v2"
    rows = predictions["default"]["test"]
    assert len(rows) == result.scores["test"][0]["num_rows"]
    assert all(len(r["cosines"]) == 5 and r["rank"] >= 1 for r in rows)
    assert np.mean([r["rank"] == 1 for r in rows]) == pytest.approx(result.get_score())


def test_means_of_finite_values_whose_sum_overflows_are_finite():
    """Margins of 1e308 each: every one finite, their sum beyond float64, their mean not."""
    scores = np.array([[0.6e308, -0.4e308, -0.5e308]] * 3 + [[-0.4e308, 0.6e308, 0.0]])
    metrics = clsd_metrics(scores)
    assert metrics["mean_margin"] == pytest.approx(0.5e308)  # (3 x 1e308 - 1e308) / 4
    assert all(np.isfinite(value) for value in metrics.values())


def test_vectors_at_the_ends_of_float64_have_unit_vectors_and_ordinary_ones_keep_their_bits():
    from clsd_mteb.metrics import unit_rows

    rng = np.random.default_rng(0)
    ordinary = rng.normal(size=(50, 16))
    assert np.array_equal(unit_rows(ordinary, ["t"] * 50, "x"), ordinary / np.linalg.norm(ordinary, axis=1)[:, None])
    for scale in (1e300, 1e-300):
        extreme = unit_rows(ordinary * scale, ["t"] * 50, "x")
        assert np.allclose(extreme, ordinary / np.linalg.norm(ordinary, axis=1)[:, None], rtol=0, atol=1e-12)
    assert unit_rows(np.array([[5e-324, 0.0], [1.7e308, -1.7e308]]), ["a", "b"], "x").tolist() == [
        [1.0, 0.0],
        [2**-0.5, -(2**-0.5)],
    ]
