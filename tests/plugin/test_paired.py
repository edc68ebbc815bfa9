"""The pivot test (clsd_mteb.paired): pivot minus direct per model on the same row ids, exact McNemar, Holm, pooled."""

from __future__ import annotations

import pytest

from clsd_mteb.confidence import holm, mcnemar_exact
from clsd_mteb.paired import ALL_TASKS, pivot_tests

DIRECT, PIVOT = "CLSD-X-DE-FR", "CLSD-X-DE-FR-PivotEN"
OTHER, OTHER_PIVOT = "CLSD-Y-DE-FR", "CLSD-Y-DE-FR-PivotEN"


def _hits(pattern: str) -> dict[str, bool]:
    return {f"r{i}": mark == "1" for i, mark in enumerate(pattern)}


def test_a_model_with_both_settings_gets_its_counts_and_exact_p() -> None:
    hits = {"m": {DIRECT: _hits("1100110011"), PIVOT: _hits("1111111011")}}
    (row,) = pivot_tests(hits)
    assert (row.model, row.task, row.only_direct, row.only_pivot) == ("m", DIRECT, 0, 3)
    assert row.p1_direct == pytest.approx(60.0) and row.p1_pivot == pytest.approx(90.0) and row.delta == pytest.approx(30.0)
    assert row.p_value == pytest.approx(mcnemar_exact(3, 0)) and row.p_holm == row.p_value


def test_two_tasks_are_holm_adjusted_and_pooled() -> None:
    hits = {"m": {DIRECT: _hits("1100"), PIVOT: _hits("1111"), OTHER: _hits("1111"), OTHER_PIVOT: _hits("0111")}}
    rows = {row.task: row for row in pivot_tests(hits)}
    assert set(rows) == {DIRECT, OTHER, ALL_TASKS}
    assert [rows[DIRECT].p_holm, rows[OTHER].p_holm] == holm([mcnemar_exact(2, 0), mcnemar_exact(0, 1)])
    assert (rows[ALL_TASKS].only_pivot, rows[ALL_TASKS].only_direct) == (2, 1)


def test_a_pair_the_caller_excludes_and_rows_of_other_ids_give_no_test() -> None:
    hits = {"m": {DIRECT: _hits("1100"), PIVOT: _hits("1111")}}
    assert pivot_tests(hits, excluded={("m", DIRECT)}) == []
    assert pivot_tests({"m": {DIRECT: {"a": True}, PIVOT: {"b": True}}}) == []
