"""The interval and test code against scipy's references and hand-worked answers, edge cases included."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import binomtest, bootstrap, norm

from clsd_mteb import confidence
from clsd_mteb.confidence import PairedCounts


def _wilson_by_hand(hits: int, n: int, z: float = norm.ppf(0.975)) -> tuple[float, float]:
    """The Wilson score interval's closed form, written out independently of the module and of scipy."""
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


@pytest.mark.parametrize(("hits", "n"), [(88, 100), (1300, 1473), (0, 1), (1, 1), (0, 5), (5, 5), (12, 24)])
def test_wilson_matches_scipy_and_the_closed_form(hits, n):
    got = confidence.wilson_interval(hits, n)
    reference = binomtest(hits, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert (got.low, got.high) == pytest.approx((reference.low, reference.high), abs=1e-12)
    assert (got.low, got.high) == pytest.approx(_wilson_by_hand(hits, n), abs=1e-9)
    assert 0.0 <= got.low <= hits / n <= got.high <= 1.0


def test_the_interval_of_a_hit_vector_ignores_row_order_and_counts_ties_as_misses():
    hits = np.array([True, False, True, True, False, False, True, True])
    forward, shuffled = confidence.hit_interval(hits), confidence.hit_interval(hits[::-1])
    assert forward == shuffled == confidence.wilson_interval(5, 8)
    every_row_a_tie = confidence.interval_scores(np.zeros(7, dtype=bool))
    assert every_row_a_tie[confidence.CI_LOW] == 0.0
    assert every_row_a_tie[confidence.CI_HIGH] == pytest.approx(_wilson_by_hand(0, 7)[1])


def test_a_stored_share_gives_back_its_exact_hit_count():
    assert confidence.counts_from_share(1300 / 1473, 1473) == 1300
    with pytest.raises(ValueError, match="hits"):
        confidence.counts_from_share(1.5, 10)


def test_the_average_interval_is_scipys_stratified_bootstrap_and_seeded():
    counts = [(80, 100), (60, 120)]
    got = confidence.mean_interval(counts)
    assert got == confidence.mean_interval(counts)  # seeded: the same inputs, the same interval
    samples = tuple(np.repeat([1.0, 0.0], [h, n - h]) for h, n in counts)
    # scipy resamples each of several samples on its own: a bootstrap stratified by task
    reference = bootstrap(
        samples,
        lambda a, b, axis=-1: (a.mean(axis=axis) + b.mean(axis=axis)) / 2,
        method="percentile",
        n_resamples=20_000,
        random_state=np.random.default_rng(1),
    ).confidence_interval
    assert got.low == pytest.approx(reference.low, abs=0.006)
    assert got.high == pytest.approx(reference.high, abs=0.006)
    assert confidence.mean_interval([(5, 8)]) == confidence.wilson_interval(5, 8)  # one task: its Wilson interval


def test_an_average_over_tasks_with_no_hit_is_never_certain():
    # 0 of 6 twice: every bootstrap resample is 0, yet 12 rows cannot tell 0% from 20% (Wilson: [0, 24.2%])
    got = confidence.mean_interval([(0, 6), (0, 6)])
    assert got.low == 0.0 and got.high == pytest.approx(confidence.wilson_interval(0, 12).high) and got.high > 0.2
    perfect = confidence.mean_interval([(6, 6), (6, 6)])
    assert perfect.high == 1.0 and perfect.low == pytest.approx(confidence.wilson_interval(12, 12).low)
    # one task the bootstrap cannot read: 12 rows at most (the effective rows, 18, are capped at the rows there are)
    mixed = confidence.mean_interval([(0, 6), (3, 6)])
    assert mixed.low == pytest.approx(confidence.wilson_interval(3, 12).low) and mixed.high > 0.5


def test_exact_mcnemar_is_the_binomial_test_of_the_discordant_rows():
    assert confidence.mcnemar_exact(58, 81) == pytest.approx(binomtest(58, 139, 0.5).pvalue)
    assert confidence.mcnemar_exact(58, 81) == confidence.mcnemar_exact(81, 58)
    assert confidence.mcnemar_exact(0, 5) == pytest.approx(2 / 2**5)  # by hand: both extreme outcomes of 5 fair coins
    assert confidence.mcnemar_exact(0, 0) == 1.0  # no discordant row: nothing tells the two apart
    assert confidence.mcnemar_exact(1, 0) == 1.0  # one row


def test_a_p_value_below_a_floats_range_is_written_as_a_bound_never_as_zero():
    assert confidence.p_text(0.0312) == "p = 0.031"
    assert confidence.mcnemar_exact(2000, 0) == 0.0  # 2 * 0.5**2000 underflows
    assert confidence.p_text(confidence.mcnemar_exact(2000, 0)) == "p < 1e-300"


def test_paired_counts_and_their_edge_cases():
    a = np.array([True, True, False, False, True])
    b = np.array([True, False, True, False, False])
    assert confidence.paired_counts(a, b) == PairedCounts(both=1, only_a=2, only_b=1, neither=1)
    ties = np.zeros(6, dtype=bool)
    all_missed = confidence.paired_counts(ties, ties)
    assert all_missed == PairedCounts(0, 0, 0, 6)
    interval = confidence.paired_difference_interval(all_missed)
    assert interval.low <= 0.0 <= interval.high
    one = confidence.paired_difference_interval(confidence.paired_counts(np.array([True]), np.array([False])))
    assert -1.0 <= one.low < 1.0 == one.high
    with pytest.raises(ValueError, match="equal"):
        confidence.paired_counts(a, b[:3])


def _clopper_pearson_by_hand(k: int, m: int, alpha: float = 0.05) -> tuple[float, float]:
    """Clopper-Pearson's closed form through beta quantiles, written out independently of the module."""
    from scipy.stats import beta

    low = 0.0 if k == 0 else beta.ppf(alpha / 2, k, m - k + 1)
    high = 1.0 if k == m else beta.ppf(1 - alpha / 2, k + 1, m - k)
    return low, high


def test_the_paired_interval_is_the_exact_test_inverted_by_hand():
    counts = PairedCounts(both=20, only_a=20, only_b=10, neither=10)
    low, high = _clopper_pearson_by_hand(20, 30)
    got = confidence.paired_difference_interval(counts)
    assert (got.low, got.high) == pytest.approx((0.5 * (2 * low - 1), 0.5 * (2 * high - 1)), abs=1e-9)
    assert counts.delta in got
    swapped = confidence.paired_difference_interval(PairedCounts(counts.both, counts.only_b, counts.only_a, counts.neither))
    assert (swapped.low, swapped.high) == pytest.approx((-got.high, -got.low))
    # the rows only one side gets right bound every difference: here 2 of 40 rows
    narrow = confidence.paired_difference_interval(PairedCounts(30, 2, 0, 8))
    assert -0.05 <= narrow.low and narrow.high <= 0.05


def _tables(rng: np.random.Generator) -> list[PairedCounts]:
    """Every discordance table with up to 40 discordant rows, and 400 drawn at random up to 3,000."""
    small = [PairedCounts(5, a, m - a, 7) for m in range(41) for a in range(m + 1)]
    drawn = []
    for _ in range(400):
        m = int(rng.integers(41, 3000))
        a = int(rng.binomial(m, rng.uniform(0.3, 0.7)))
        drawn.append(PairedCounts(int(rng.integers(0, 5000)), a, m - a, int(rng.integers(0, 5000))))
    return small + drawn


def test_every_paired_interval_excludes_zero_exactly_when_the_exact_test_rejects():
    """The property the answer relies on: a verdict and its interval never disagree, whatever the table."""
    disagree = []
    for counts in _tables(np.random.default_rng(3)):
        interval = confidence.paired_difference_interval(counts)
        rejects = confidence.mcnemar_exact(counts.only_a, counts.only_b) < confidence.ALPHA
        if (0.0 not in interval) != rejects:
            disagree.append(counts)
        assert counts.delta in interval
    assert disagree == []


def test_pooled_rows_get_the_same_test_and_interval_as_one_task():
    rng = np.random.default_rng(5)
    for _ in range(200):
        tables = [PairedCounts(*(int(x) for x in rng.integers(0, 60, size=4))) for _ in range(int(rng.integers(1, 5)))]
        tables = [t for t in tables if t.n > 0] or [PairedCounts(1, 0, 0, 0)]
        interval = confidence.pooled_difference_interval(tables)
        assert (0.0 not in interval) == (confidence.pooled_mcnemar(tables) < confidence.ALPHA)
        assert confidence.pooled_counts(tables).delta in interval


def test_holm_by_hand():
    # sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04 -> made monotone: 0.06
    assert confidence.holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert confidence.holm([0.5, 0.9]) == [1.0, 1.0]
    assert confidence.holm([]) == []


def test_the_pooled_test_sums_discordant_rows_and_its_interval_is_the_summed_tables():
    tables = [PairedCounts(70, 10, 5, 15), PairedCounts(50, 12, 4, 34)]
    assert confidence.pooled_mcnemar(tables) == pytest.approx(binomtest(22, 31, 0.5).pvalue)
    assert confidence.pooled_counts(tables) == PairedCounts(120, 22, 9, 49)
    interval = confidence.pooled_difference_interval(tables)
    assert interval == confidence.paired_difference_interval(PairedCounts(120, 22, 9, 49))
    single = confidence.pooled_difference_interval([PairedCounts(0, 0, 0, 9)])
    assert single == confidence.Interval(0.0, 0.0)  # no discordant row: no difference on these rows
    with pytest.raises(ValueError, match="no task"):
        confidence.pooled_mcnemar([])


def test_connor_sample_size_by_hand_and_for_the_typical_discordance():
    z_a, z_b = norm.ppf(0.975), norm.ppf(0.8)
    by_hand = math.ceil((z_a * math.sqrt(0.08) + z_b * math.sqrt(0.08 - 0.02**2)) ** 2 / 0.02**2)
    assert confidence.mcnemar_sample_size(0.02, 0.08) == by_hand
    assert 1500 < by_hand < 1700
    assert 6000 < confidence.mcnemar_sample_size(0.01, 0.08) < 6500
    assert confidence.mcnemar_sample_size(0.03, 0.08) < by_hand
    with pytest.raises(ValueError, match="discordance"):
        confidence.mcnemar_sample_size(0.1, 0.08)
