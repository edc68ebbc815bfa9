"""Table 1 formatting: direct / pivot pairs, averages only over complete rows, missing never zero."""

from __future__ import annotations

from clsd_mteb.summary import table1_markdown


def test_missing_results_show_as_missing_and_block_the_average():
    table = table1_markdown(
        {
            "a": {"CLSD-WMT19-DE-FR": 0.5, "CLSD-WMT19-DE-FR-PivotEN": 0.75, "CLSD-WMT21-DE-FR": 1.0, "CLSD-WMT21-DE-FR-PivotEN": 0.25},
            "b": {"CLSD-WMT19-DE-FR": 0.9, "CLSD-WMT21-DE-FR-PivotEN": 0.0},
        }
    )
    lines = table.splitlines()
    assert lines[0] == "| model | WMT19-DE-FR (direct / pivot) | WMT21-DE-FR (direct / pivot) | average (direct / pivot) |"
    assert lines[2] == "| a | 50.00 / 75.00 | 100.00 / 25.00 | 75.00 / 50.00 |"
    assert lines[3] == "| b | 90.00 / – | – / 0.00 | – / – |"


def test_tasks_without_a_pivot_twin_get_plain_columns():
    table = table1_markdown({"m": {"CLSD-TOY-EN-DE": 0.5, "CLSD-TOY-DE-EN": 0.25}})
    assert table.splitlines()[0] == "| model | TOY-EN-DE | TOY-DE-EN | average |"
    assert table.splitlines()[2] == "| m | 50.00 | 25.00 | 37.50 |"
