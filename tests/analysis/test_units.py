"""Analysis building blocks checked against hand computations: shift formulas, gap, bins, tokens, baselines."""

from __future__ import annotations

import math

import numpy as np
import pytest

from clsd_analysis import pos_shift
from clsd_analysis.changed_words import changed_span, marked_changes, single_substitution
from clsd_mteb.baselines import CHAR_NGRAM_NAME, RANDOM_NAME
from clsd_mteb.models import load_model


def test_shift_formulas_match_a_hand_computation() -> None:
    # Unit vectors with known cosines: cos(s,t) = 0.8, cos(s,d) = 0.6, cos(t,d) = 0.48.
    s = np.array([1.0, 0.0, 0.0])
    t = np.array([0.8, 0.6, 0.0])
    d = np.array([0.6, 0.0, 0.8])
    gap = 0.5
    # cross = [(1 - 0.8) - (1 - 0.6)] / 0.5 = (0.2 - 0.4) / 0.5 = -0.4
    assert pos_shift.cross_lingual_shift(s, t, d, gap)[0] == pytest.approx(-0.4)
    # cos(t,d) = 0.48; mono = [(1 - 1) - (1 - 0.48)] / 0.5 = -1.04
    assert pos_shift.monolingual_shift(t, d, gap)[0] == pytest.approx(-1.04)
    # Not-unit inputs are normalised: scaling a vector changes nothing.
    assert pos_shift.cross_lingual_shift(3 * s, 2 * t, 5 * d, gap)[0] == pytest.approx(-0.4)


def test_gap_is_parallel_minus_unrelated_mean() -> None:
    sources = np.array([[1.0, 0.0], [0.0, 1.0], [math.sqrt(0.5), math.sqrt(0.5)]])
    targets = np.array([[0.8, 0.6], [0.6, 0.8], [1.0, 0.0]])
    parallel = np.mean([0.8, 0.8, math.sqrt(0.5)])
    off_diagonal = [sources[i] @ targets[j] for i in range(3) for j in range(3) if i != j]
    gap = pos_shift.parallel_unrelated_gap(sources, targets)
    assert gap.parallel == pytest.approx(parallel)
    assert gap.unrelated == pytest.approx(np.mean(off_diagonal))
    assert gap.value == pytest.approx(parallel - np.mean(off_diagonal))
    assert gap.pairs == 3


def test_gap_of_noise_is_not_reliable() -> None:
    rng = np.random.default_rng(0)
    a = rng.standard_normal((200, 64))
    b = rng.standard_normal((200, 64))
    a /= np.linalg.norm(a, axis=1, keepdims=True)
    b /= np.linalg.norm(b, axis=1, keepdims=True)
    assert not pos_shift.parallel_unrelated_gap(a, b).reliable
    assert pos_shift.parallel_unrelated_gap(a, a).reliable  # identical pairs: gap ~ 1


def test_pearson_is_undefined_below_three_pairs() -> None:
    assert math.isnan(pos_shift.pearson([1.0, 2.0], [2.0, 4.0]))
    assert pos_shift.pearson([1.0, 2.0, 4.0], [2.0, 4.0, 8.0]) == pytest.approx(1.0)
    assert pos_shift.pearson([1.0, 2.0, 3.0], [3.0, 2.0, 1.0]) == pytest.approx(-1.0)


def test_single_substitution_and_marked_changes() -> None:
    assert single_substitution("Die SPD hat 15 Sitze.", "Die CDU hat 15 Sitze.") == (1, "SPD", "CDU")
    assert single_substitution("Die SPD hat 15 Sitze.", "Die SPD hat nicht 15 Sitze.") is None  # an addition
    assert single_substitution("a b c", "x b y") is None
    assert single_substitution("l'Union européenne", "l'Europe européenne") == (0, "l'Union", "l'Europe")
    assert changed_span("Die SPD hat 15 Sitze.", "Die SPD hat nicht 15 Sitze.") == (3, "", "nicht")
    assert changed_span("gleich", "gleich") == (-1, "", "")
    assert marked_changes("Der Hund beißt den Mann.", "Der Hund beißt nicht den alten Mann!") == (
        "Der Hund beißt **nicht** den **alten** Mann**!**"
    )


def _encode(encoder, texts: list[str]) -> np.ndarray:
    import clsd_mteb

    (task,) = clsd_mteb.get_tasks(["CLSD-WMT19-DE-FR"])
    return clsd_mteb.encode_texts(encoder, texts, task_metadata=task.metadata)


@pytest.mark.parametrize("name", [RANDOM_NAME, CHAR_NGRAM_NAME])
def test_baselines_give_one_vector_per_text(name: str) -> None:
    encoder = load_model(name)
    assert encoder.mteb_model_meta.name == name
    texts = ["Der Hund schläft.", "Le chien dort.", "Der Hund schläft.", "Le chat dort."]
    first = _encode(encoder, texts)
    again = _encode(load_model(name), list(reversed(texts)))
    np.testing.assert_array_equal(first[0], first[2])  # identical texts tie
    np.testing.assert_allclose(first, again[::-1])  # a vector depends on its text only, not on the batch
    assert not np.allclose(first[1], first[3])


def test_char_ngram_baseline_measures_surface_overlap() -> None:
    vectors = _encode(load_model(CHAR_NGRAM_NAME), ["Le chien dort.", "Le chien dort bien.", "Zzyzx qwv."])
    assert vectors[0] @ vectors[1] > 0.7 > vectors[0] @ vectors[2]
