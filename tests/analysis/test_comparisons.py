"""Paired comparisons of models and of pivot against direct, on hand-made per-row outcomes with known answers."""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path

import pytest
from scipy.stats import binomtest

from clsd_analysis import render
from clsd_analysis.result_hits import hits_of
from clsd_analysis.results import load_results
from clsd_analysis.sections.comparison import P_COLUMNS, statistic_format, statistics_frame
from clsd_mteb import table1_render
from clsd_mteb.comparisons import PairedComparison, PivotTest, mark_ties, model_comparisons, pivot_tests
from clsd_mteb.confidence import holm
from clsd_mteb.table1 import build_table1

A, B = "CLSD-WMT19-DE-FR", "CLSD-WMT21-DE-FR"
PA, PB = f"{A}-PivotEN", f"{B}-PivotEN"


def _hits(pattern: str) -> dict[str, bool]:
    """Row ids r0, r1, ... with a hit where ``pattern`` has a 1."""
    return {f"r{i}": ch == "1" for i, ch in enumerate(pattern)}


# 20 rows per task; on A "good" gets 18 right, "close" 17 (all of them among good's), "weak" 8.
HITS = {
    "good": {A: _hits("11111111111111111100"), B: _hits("11111111111111110000"), PA: _hits("11111111111111111111")},
    "close": {A: _hits("11111111111111111000"), B: _hits("11111111111111100000"), PA: _hits("11111111111111111110")},
    "weak": {A: _hits("11111111000000000000"), B: _hits("00000000000000000001")},
}


def _row(rows: list[PairedComparison], task: str, a: str, b: str) -> PairedComparison:
    return next(r for r in rows if (r.task, r.model_a, r.model_b) == (task, a, b))


def test_each_pair_on_each_task_with_counts_exact_mcnemar_and_holm():
    rows, notes = model_comparisons(HITS)
    good_close = _row(rows, A, "good", "close")
    assert (good_close.p1_a, good_close.p1_b, good_close.delta) == pytest.approx((90.0, 85.0, 5.0))
    assert (good_close.only_a, good_close.only_b) == (1, 0)
    assert good_close.p_value == 1.0  # one discordant row: a fair coin's either side
    good_weak = _row(rows, A, "good", "weak")
    assert (good_weak.only_a, good_weak.only_b) == (10, 0)
    assert good_weak.p_value == pytest.approx(binomtest(10, 10, 0.5).pvalue)
    # every discordant row is good's: the difference can be no larger than the discordant share, and the interval,
    # the exact test inverted, excludes 0 as the test rejects
    assert 0 < good_weak.delta_ci_low < good_weak.delta == good_weak.delta_ci_high
    family = [r for r in rows if r.task == A]
    assert len(family) == 3 and [r.p_holm for r in family] == pytest.approx(holm([r.p_value for r in family]))
    # the pooled row sums the discordant rows of both direct tasks; weak lacks no direct task, but lacks a pivot one
    pooled = _row(rows, "direct (all)", "good", "close")
    assert (pooled.only_a, pooled.only_b) == (2, 0)
    assert pooled.p_value == pytest.approx(binomtest(2, 2, 0.5).pvalue)
    assert pooled.delta == pytest.approx(((90 - 85) + (80 - 75)) / 2)
    assert not [r for r in rows if r.task == "pivot EN (all)" and "weak" in (r.model_a, r.model_b)]
    assert any("`weak`" in n and "pivot EN (all)" in n for n in notes)


def test_row_order_changes_nothing():
    shuffled = {}
    rng = random.Random(3)
    for model, per_task in HITS.items():
        shuffled[model] = {}
        for task, hits in per_task.items():
            items = list(hits.items())
            rng.shuffle(items)
            shuffled[model][task] = dict(items)
    assert model_comparisons(shuffled) == model_comparisons(HITS)
    assert pivot_tests(shuffled) == pivot_tests(HITS)


def test_pivot_minus_direct_on_the_same_rows():
    rows = pivot_tests(HITS)
    good = next(r for r in rows if (r.model, r.task) == ("good", A))
    assert (good.p1_direct, good.p1_pivot, good.delta) == pytest.approx((90.0, 100.0, 10.0))
    assert (good.only_direct, good.only_pivot) == (0, 2)
    assert good.p_value == pytest.approx(0.5)  # 2 of 2 discordant rows: 2 * (1/2)**2
    assert good.p_holm == good.p_value  # one task with both settings: a family of one
    assert not [r for r in rows if r.model == "weak"]  # no pivot result: no test
    assert not [r for r in rows if r.task == "all"]  # one task: nothing to pool


def test_the_tables_have_exactly_the_columns_asked_for(tmp_path: Path):
    rows, _ = model_comparisons(HITS)
    for frame, name, header in (
        (
            statistics_frame(rows, PairedComparison),
            "comparisons.csv",
            "task,model_a,model_b,p1_a,p1_b,delta,delta_ci_low,delta_ci_high,only_a,only_b,p_value,p_holm",
        ),
        (
            statistics_frame(pivot_tests(HITS), PivotTest),
            "pivot.csv",
            "model,task,p1_direct,p1_pivot,delta,delta_ci_low,delta_ci_high,only_direct,only_pivot,p_value,p_holm",
        ),
    ):
        render.write_csv(frame, tmp_path / name, index_name=frame.index.name)
        assert (tmp_path / name).read_text().splitlines()[0] == header
    read = list(csv.DictReader((tmp_path / "comparisons.csv").open()))
    assert {"direct (all)", A, B} <= {r["task"] for r in read}


def test_table1_marks_every_model_the_rows_cannot_tell_from_the_best():
    scores = {m: {t: sum(h.values()) / len(h) for t, h in per_task.items()} for m, per_task in HITS.items()}
    table = build_table1(scores, num_rows={m: {t: len(h) for t, h in per_task.items()} for m, per_task in HITS.items()})
    rows, _ = model_comparisons(HITS)
    mark_ties(table, rows)
    assert table.is_best("good", A, "direct") and table.is_tied("close", A, "direct")
    assert not table.is_tied("weak", A, "direct")  # 10 of 10 discordant rows against it: p_holm < 5%
    line = next(t for t in table1_render.table1_markdown(table).splitlines() if t.startswith("| close"))
    assert "85.0 ±" in line and "≈" in line
    assert "≈" not in next(t for t in table1_render.table1_markdown(table).splitlines() if t.startswith("| weak"))


def test_hits_are_read_from_prediction_files_by_row_id(tmp_path: Path):
    folder = tmp_path / "predictions" / "org__model" / "rev1"
    folder.mkdir(parents=True)
    records = [{"id": "b", "cosines": [0.9, 0.9], "rank": 2}, {"id": "a", "cosines": [0.8, 0.1], "rank": 1}]
    (folder / f"{A}_predictions.json").write_text(json.dumps({"default": {"test": records}}))
    hits = hits_of(load_results(tmp_path))
    assert hits == {"org/model": {A: {"a": True, "b": False}}}  # the tie in row b is a miss


def _answer(hits: dict, chance: float = 0.2) -> list[str]:
    from clsd_mteb.answer import answer_lines

    scores = {m: {t: sum(h.values()) / len(h) for t, h in per_task.items()} for m, per_task in hits.items()}
    rows = {m: {t: len(h) for t, h in per_task.items()} for m, per_task in hits.items()}
    table = build_table1(scores, num_rows=rows, chance={m: dict.fromkeys(per_task, chance) for m, per_task in hits.items()})
    mark_ties(table, model_comparisons(hits)[0])
    return answer_lines(table, pivot_tests(hits))


def _wilson(hits: int, n: int) -> str:
    return "[{:.1f}, {:.1f}]".format(*(100 * x for x in binomtest(hits, n).proportion_ci(method="wilson")))


def test_the_answer_names_the_best_its_ties_the_rows_guessing_and_what_the_pivot_does():
    lines = _answer(HITS)
    first = next(line for line in lines if line.startswith("WMT19 DE→FR, direct"))
    assert first == (
        f"WMT19 DE→FR, direct (20 rows; guessing scores 20.0% (1 in 5 candidates)): best good 90.0% {_wilson(18, 20)}; "
        f"statistically tied with it: close 85.0% {_wilson(17, 20)}."
    )
    # every direction gets its pivot line: good gains 2 rows of 20 through the pivot and loses none, p = 0.5
    pivot = next(line for line in lines if line.startswith("WMT19 DE→FR, through English"))
    assert "good: no detectable difference at 5% (+10.0 points [" in pivot and "p = 0.5" in pivot
    # WMT21 has no pivot result: not measured, and the command that measures it
    assert (
        "WMT21 DE→FR, through English: not measured; to measure it, evaluate its pivot task too "
        "(`clsd evaluate --tasks CLSD-WMT21-DE-FR,CLSD-WMT21-DE-FR-PivotEN`)." in lines
    )


def test_no_model_is_called_best_when_the_rows_cannot_tell_it_from_guessing():
    # 10 rows, five candidates: 4 of 10 right is 40% [16.8, 68.7], which holds 20%; 0 of 10 is [0, 27.8], not below
    hits = {"a": {A: _hits("1111000000")}, "b": {A: _hits("1100000000")}, "c": {A: _hits("0000000000")}}
    lines = _answer(hits)
    first = lines[0]
    assert not any(line.startswith("Over all directions (average)") for line in lines)  # one direction: said once
    assert first.startswith("WMT19 DE→FR, direct (10 rows; guessing scores 20.0% (1 in 5 candidates)): no model is told")
    assert "no model is told apart from guessing on these 10 rows: a 40.0%" in first
    assert "best" not in first and "below guessing" not in first


def test_a_model_whose_whole_interval_is_below_guessing_is_named():
    # two candidates (chance 50%): 2 of 40 right is [1.4, 16.5], below 50%; 36 of 40 is above it
    good, poor = "1" * 36 + "0" * 4, "11" + "0" * 38
    first = _answer({"good": {A: _hits(good)}, "poor": {A: _hits(poor)}}, chance=0.5)[0]
    assert "(40 rows; guessing scores 50.0% (1 in 2 candidates)): best good 90.0%" in first
    assert first.endswith(f"; below guessing: poor 5.0% {_wilson(2, 40)}.")


def test_a_model_below_guessing_is_never_listed_as_not_told_apart_from_it():
    # 150 rows, five candidates: a at 22% holds 20% in its interval; c at 4.7% (7 of 150) is wholly below it
    a, c = "1" * 33 + "0" * 117, "1" * 7 + "0" * 143
    first = _answer({"a": {A: _hits(a)}, "c": {A: _hits(c)}})[0]
    told, _, below = first.partition("; below guessing: ")
    assert "no model is told apart from guessing on these 150 rows: a 22.0%" in told and "c " not in told, first
    assert below == f"c 4.7% {_wilson(7, 150)}.", first
    nobody = _answer({"c": {A: _hits(c)}, "d": {A: _hits("1" * 6 + "0" * 144)}})[0]
    assert "every model is below guessing on these 150 rows; below guessing: c 4.7%" in nobody, nobody


def test_a_best_tied_with_the_random_baseline_is_not_told_from_guessing():
    from clsd_format.defaults import RANDOM_BASELINE

    # a beats guessing on its own interval (14 of 20), yet the random baseline (10 of 20, by luck) is tied with it
    hits = {"a": {A: _hits("1" * 14 + "0" * 6)}, RANDOM_BASELINE: {A: _hits("1" * 10 + "0" * 10)}}
    first = _answer(hits)[0]
    assert "no model is told apart from the random baseline (clsd-baselines/random, by the paired test) on these 20 rows" in first


def test_tied_models_get_the_rows_that_would_tell_them_apart():
    from clsd_mteb.confidence import mcnemar_sample_size

    # 100 rows: a right on 60, b on 56; they disagree on 12 rows (8 only a, 4 only b): p = 0.39, tied
    a = "1" * 52 + "1" * 8 + "0" * 4 + "0" * 36
    b = "1" * 52 + "0" * 8 + "1" * 4 + "0" * 36
    first = _answer({"a": {A: _hits(a)}, "b": {A: _hits(b)}})[0]
    needed = mcnemar_sample_size(0.04, 0.12)
    assert f"statistically tied with it: b 56.0% {_wilson(56, 100)}; about {needed:,} rows would tell them apart" in first


def test_p_values_keep_two_significant_digits_and_one_that_underflows_is_written_as_a_bound():
    import pandas as pd

    frame = pd.DataFrame(
        {"delta": [0.0, 1.5, 0.25], "p_value": [0.0, 0.0031, 0.41], "p_holm": [0.0, 2.5e-9, 1.0]}, index=list("abc")
    )
    markdown = render.to_markdown(frame, statistic_format, column_formats=P_COLUMNS)
    assert "| a | 0.00 | <1e-300 | <1e-300 |" in markdown
    assert "| b | 1.50 | 0.0031 | 2.5e-09 |" in markdown  # two significant digits: never "0.00" for a p of 0.003
    assert "| c | 0.25 | 0.41 | 1 |" in markdown
    assert "<1e-300" in render.to_latex(frame, statistic_format, column_formats=P_COLUMNS)


def test_a_model_without_training_in_a_language_of_the_set_is_marked():
    from clsd_mteb.answer import UNTRAINED_LEGEND, answer_lines
    from clsd_mteb.table1 import mark_untrained

    scores = {m: {t: sum(h.values()) / len(h) for t, h in per_task.items()} for m, per_task in HITS.items()}
    table = build_table1(scores, num_rows={m: {t: len(h) for t, h in per_task.items()} for m, per_task in HITS.items()})
    mark_ties(table, model_comparisons(HITS)[0])
    mark_untrained(table, {"close": {A: ["fra-Latn"]}})
    lines = answer_lines(table, pivot_tests(HITS))
    first = next(line for line in lines if line.startswith("WMT19 DE→FR, direct"))
    assert "close† 85.0%" in first and "good 90.0%" in first
    average = next(line for line in lines if line.startswith("Over all directions (average), direct"))
    assert "close† " in average  # an average holds the set
    assert "close†" not in next(line for line in lines if line.startswith("WMT21 DE→FR, direct"))
    assert UNTRAINED_LEGEND in lines


def test_the_candidates_behind_guessing_are_read_from_six_stored_decimals():
    from clsd_mteb.answer import chance_text

    assert chance_text(33.3333) == "33.3% (1 in 3 candidates)"  # mteb stores 0.333333
    assert chance_text(20.0) == "20.0% (1 in 5 candidates)"
    assert chance_text(22.5) == "22.5% (on average 1 in 4.4 candidates)"  # rows with three and four distractors
