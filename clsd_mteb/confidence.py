"""How sure a CLSD number is: intervals of P@1, paired tests between models and settings, set sizes.

Every function works on per-row outcomes (a row is a hit when T ranks first; a tie is a miss), or on
the counts they reduce to, so a score and its interval always come from the same rows.

Methods (95% and a 5% level by default):

* **One task's P@1**: the Wilson score interval of ``hits`` out of ``n`` (scipy's
  ``binomtest(...).proportion_ci(method="wilson")``); it stays inside [0, 1] and is sound near 0 and 1.
* **An average over tasks** (Table 1's average column): a percentile bootstrap stratified by task,
  seeded. Resampling a task's ``n`` rows with replacement draws its hits from Binomial(n, hits / n), so
  the bootstrap needs only each task's counts; the tasks are resampled independently.
* **Two models on the same rows** (or one model direct and through the pivot, on the same row ids):
  the exact McNemar test, a two-sided binomial test of the rows only one side gets right against 1/2.
  The interval of the difference is that test inverted, so the two never disagree (the interval excludes
  0 exactly when p < 5%): given the ``m`` discordant rows of ``n``, the difference is
  ``(m / n) * (2 * theta - 1)`` where ``theta`` is the share of discordant rows side a gets right, and
  ``theta`` gets its Clopper-Pearson interval, the set of values the exact binomial test does not reject.
  It is conditional on ``m``, as the test is; no discordant row gives [0, 0].
* **Several comparisons**: Holm's step-down adjustment of their p-values.
* **Several tasks together**: the same test and interval on the rows of every task summed (under "no
  difference on any task" each discordant row is a fair coin, so the sum is binomial: the stratified
  exact McNemar test); the difference is the one on all those rows, so each task weighs by its rows.
* **How many rows a set needs** to tell apart two models whose P@1 differ by ``delta`` when a share
  ``discordance`` of rows is right for exactly one of them: Connor's (1987) sample size for
  McNemar's test.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

CONFIDENCE = 0.95
ALPHA = 0.05
POWER = 0.80
BOOTSTRAP_RESAMPLES = 10_000
SEED = 0
CI_LOW = "precision_at_1_ci_low"
CI_HIGH = "precision_at_1_ci_high"
CHANCE = "chance_precision_at_1"  # the P@1 of guessing, stored with every CLSD result


@dataclass(frozen=True)
class Interval:
    """A two-sided confidence interval, in the units of its estimate."""

    low: float
    high: float

    def scaled(self, factor: float) -> Interval:
        return Interval(self.low * factor, self.high * factor)

    def __contains__(self, value: float) -> bool:
        return self.low <= value <= self.high


@dataclass(frozen=True)
class PairedCounts:
    """One task's paired outcomes of sides a and b: rows both get right, only a, only b, neither."""

    both: int
    only_a: int
    only_b: int
    neither: int

    @property
    def n(self) -> int:
        return self.both + self.only_a + self.only_b + self.neither

    @property
    def p_a(self) -> float:
        return (self.both + self.only_a) / self.n

    @property
    def p_b(self) -> float:
        return (self.both + self.only_b) / self.n

    @property
    def delta(self) -> float:
        """P@1 of a minus P@1 of b, as a share."""
        return (self.only_a - self.only_b) / self.n


def _check_counts(hits: int, n: int) -> None:
    if n < 1 or not 0 <= hits <= n:
        raise ValueError(f"need 0 <= hits <= n and n >= 1, got hits={hits}, n={n}")


def wilson_interval(hits: int, n: int, confidence: float = CONFIDENCE) -> Interval:
    """Wilson score interval of the share ``hits / n``."""
    from scipy.stats import binomtest

    _check_counts(hits, n)
    ci = binomtest(hits, n).proportion_ci(confidence_level=confidence, method="wilson")
    return Interval(float(ci.low), float(ci.high))


def hit_interval(hits: np.ndarray, confidence: float = CONFIDENCE) -> Interval:
    """Wilson interval of P@1 from the per-row hit vector (True where T ranks first)."""
    hits = np.asarray(hits, dtype=bool).reshape(-1)
    return wilson_interval(int(hits.sum()), len(hits), confidence)


def interval_scores(hits: np.ndarray) -> dict[str, float]:
    """The interval of P@1 as the score entries every CLSD result carries (shares in [0, 1])."""
    interval = hit_interval(hits)
    return {CI_LOW: interval.low, CI_HIGH: interval.high}


def chance_of(scores: Mapping[str, object]) -> float | None:
    """The P@1 of guessing on a result's rows: its stored :data:`CHANCE`, else (a result written before that key
    existed) 1 / (1 + its distractor slots), every row taken as full; None when neither is there."""
    stored = scores.get(CHANCE)
    if isinstance(stored, int | float) and 0 < stored <= 1:
        return float(stored)
    slots = sum(1 for key in scores if key.startswith("distractor_") and key.endswith("_win_rate"))
    return 1 / (1 + slots) if slots else None


def beats_guessing(interval: Interval, chance: float) -> bool | None:
    """True when the whole interval of a P@1 is above guessing, False when it is below, None when guessing is in it:
    the verdict is read off the interval the user sees, so the two never disagree."""
    if interval.low > chance:
        return True
    if interval.high < chance:
        return False
    return None


def counts_from_share(share: float, n: int) -> int:
    """The hit count behind a stored P@1 of ``n`` rows (a share is hits / n, so rounding recovers it exactly)."""
    hits = round(share * n)
    _check_counts(hits, n)
    return hits


def mean_interval(
    counts: Sequence[tuple[int, int]], confidence: float = CONFIDENCE, resamples: int = BOOTSTRAP_RESAMPLES, seed: int = SEED
) -> Interval:
    """Interval of the mean over tasks of hits / n, ``counts`` = [(hits, n)] per task: stratified bootstrap, seeded.

    One task alone gets its Wilson interval (the bootstrap adds nothing there). A task with no hit or all hits is
    one the bootstrap cannot read: every resample of 0 of 6 is 0 of 6, so two such tasks would get [0, 0], a
    certainty 12 rows do not give (and a model "below guessing" that cannot be told from it). There the interval
    is Wilson's at the mean with the effective number of rows (:func:`effective_wilson_interval`).
    """
    if not counts:
        raise ValueError("no task to average")
    for hits, n in counts:
        _check_counts(hits, n)
    if len(counts) == 1:
        return wilson_interval(*counts[0], confidence)
    if any(hits in (0, n) for hits, n in counts):
        return effective_wilson_interval(counts, confidence)
    rng = np.random.default_rng(seed)
    means = np.mean([rng.binomial(n, hits / n, size=resamples) / n for hits, n in counts], axis=0)
    tail = 100 * (1 - confidence) / 2
    return Interval(float(np.percentile(means, tail)), float(np.percentile(means, 100 - tail)))


def effective_wilson_interval(counts: Sequence[tuple[int, int]], confidence: float = CONFIDENCE) -> Interval:
    """Wilson's score interval for the mean of task shares, at the effective number of rows (Korn and Graubard, 1998):
    the rows a simple sample would need for the mean's variance, sum over tasks of p(1-p)/n / k**2; all the rows
    when that variance is 0 (every task at 0 or all hits), and never more than all the rows."""
    from scipy.stats import norm

    shares = [hits / n for hits, n in counts]
    mean = sum(shares) / len(shares)
    variance = sum(p * (1 - p) / n for p, (_, n) in zip(shares, counts, strict=True)) / len(counts) ** 2
    total = sum(n for _, n in counts)
    rows = min(total, mean * (1 - mean) / variance) if variance > 0 else total
    z = float(norm.ppf(1 - (1 - confidence) / 2))
    centre = (mean + z * z / (2 * rows)) / (1 + z * z / rows)
    half = z / (1 + z * z / rows) * math.sqrt(mean * (1 - mean) / rows + z * z / (4 * rows * rows))
    return Interval(0.0 if mean == 0 else max(0.0, centre - half), 1.0 if mean == 1 else min(1.0, centre + half))


def paired_counts(hits_a: np.ndarray, hits_b: np.ndarray) -> PairedCounts:
    """The 2x2 table of two hit vectors over the same rows, in the same order."""
    a, b = np.asarray(hits_a, dtype=bool), np.asarray(hits_b, dtype=bool)
    if a.shape != b.shape or a.ndim != 1 or len(a) == 0:
        raise ValueError(f"paired hit vectors need one equal, non-zero length; got shapes {a.shape} and {b.shape}")
    return PairedCounts(int((a & b).sum()), int((a & ~b).sum()), int((~a & b).sum()), int((~a & ~b).sum()))


def mcnemar_exact(only_a: int, only_b: int) -> float:
    """Two-sided exact McNemar p-value: the binomial test of ``only_a`` of the discordant rows against 1/2.

    No discordant row: nothing tells the sides apart, p = 1.
    """
    from scipy.stats import binomtest

    if only_a < 0 or only_b < 0:
        raise ValueError(f"discordant counts cannot be negative: {only_a}, {only_b}")
    if only_a + only_b == 0:
        return 1.0
    return float(binomtest(only_a, only_a + only_b, 0.5, alternative="two-sided").pvalue)


def p_text(p_value: float) -> str:
    """``p = 0.031`` for a sentence; a p-value below what a float holds (computed as 0) is ``p < 1e-300``, never 0."""
    return f"p = {p_value:.2g}" if p_value > 0 else "p < 1e-300"


def paired_difference_interval(counts: PairedCounts, confidence: float = CONFIDENCE) -> Interval:
    """The exact McNemar test inverted: the interval of p_a - p_b that excludes 0 exactly when the test rejects.

    The Clopper-Pearson interval of the share of discordant rows side a gets right (scipy's ``exact``
    method: the values a two-sided exact binomial test at ``1 - confidence`` keeps), mapped to the difference
    through ``delta = (m / n) * (2 * theta - 1)``. Both bounds are in [-m / n, m / n]: the rows only one
    side gets right are all a difference can come from.
    """
    from scipy.stats import binomtest

    discordant = counts.only_a + counts.only_b
    if discordant == 0:
        return Interval(0.0, 0.0)
    theta = binomtest(counts.only_a, discordant).proportion_ci(confidence_level=confidence, method="exact")
    scale = discordant / counts.n
    return Interval(scale * (2 * float(theta.low) - 1), scale * (2 * float(theta.high) - 1))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given (monotone, capped at 1)."""
    order = sorted(range(len(p_values)), key=lambda i: (p_values[i], i))
    adjusted = [0.0] * len(p_values)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def pooled_counts(tables: Sequence[PairedCounts]) -> PairedCounts:
    """The rows of several tasks as one table: the stratified exact McNemar test and its interval read this."""
    if not tables:
        raise ValueError("no task to pool")
    return PairedCounts(*(sum(getattr(t, side) for t in tables) for side in ("both", "only_a", "only_b", "neither")))


def pooled_mcnemar(tables: Sequence[PairedCounts]) -> float:
    """Stratified exact McNemar test over tasks: the binomial test of the summed discordant rows."""
    pooled = pooled_counts(tables)
    return mcnemar_exact(pooled.only_a, pooled.only_b)


def pooled_difference_interval(tables: Sequence[PairedCounts], confidence: float = CONFIDENCE) -> Interval:
    """Interval of p_a - p_b on the rows of every task together: :func:`pooled_mcnemar` inverted."""
    return paired_difference_interval(pooled_counts(tables), confidence)


def mcnemar_sample_size(delta: float, discordance: float, alpha: float = ALPHA, power: float = POWER) -> int:
    """Rows needed to detect a P@1 difference ``delta`` (a share) by a two-sided McNemar test (Connor 1987).

    ``discordance``: the share of rows exactly one of the two models gets right; it must exceed ``delta``
    (a difference can only come from discordant rows).
    """
    from scipy.stats import norm

    if not 0 < abs(delta) < discordance <= 1:
        raise ValueError(f"need 0 < |difference| < discordance <= 1, got difference={delta}, discordance={discordance}")
    z_alpha, z_beta = norm.ppf(1 - alpha / 2), norm.ppf(power)
    root = z_alpha * math.sqrt(discordance) + z_beta * math.sqrt(discordance - delta**2)
    return math.ceil(root**2 / delta**2)
