"""Results are compared only on the same rows of the same data, and several results folders are read as one.

Hand-made results folders (tests.helpers.results_folders): a trial on the first rows is never set against a
full run, two datasets of one name (other dataset revisions) are never paired, a result whose dataset revision
is unknown is paired with none (not even another unknown one), a pivot test needs its two results known to be
of one dataset, and a model held by two folders with other numbers, or of data not known to be the same, is
refused with both files named.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from clsd_analysis.result_hits import data_of, hits_of
from clsd_analysis.results import ResultsError, load_results
from clsd_analysis.tables import comparison_table
from clsd_mteb.answer import answer_lines
from clsd_mteb.comparisons import left_out, mark_ties, model_comparisons, pivot_left_out, pivot_tests
from tests.helpers.results_folders import write_predictions, write_result

A, B = "CLSD-WMT19-DE-FR", "CLSD-WMT21-DE-FR"
PA = f"{A}-PivotEN"
GOOD, CLOSE = "1111111111111111110", "1111111111111111100"  # 19 rows; close gets one row fewer right


def _answer(root: Path | list[Path]) -> list[str]:
    results = load_results(root)
    hits, data = hits_of(results), data_of(results)
    table = comparison_table(results)
    mark_ties(table, model_comparisons(hits, data)[0], left_out(hits, data))
    return answer_lines(table, pivot_tests(hits, data), pivot_left_out(hits, data))


def test_a_trial_is_never_tied_with_a_full_run(tmp_path: Path) -> None:
    write_result(tmp_path, "org/full", A, GOOD)
    write_result(tmp_path, "org/trial", A, CLOSE[:10], trial=10)  # its first 10 rows: all right, as full's
    hits, data = hits_of(load_results(tmp_path)), data_of(load_results(tmp_path))
    rows, notes = model_comparisons(hits, data)
    assert rows == []  # never paired on the 10 rows both happen to have
    assert any("`org/full` and `org/trial` are not compared on `CLSD-WMT19-DE-FR`: other data" in n for n in notes)
    rows, notes = model_comparisons(hits)  # hits of one run (as `clsd evaluate` calls it): the rows tell
    assert rows == [] and any("other rows (19 and 10 rows, 10 of them shared)" in n for n in notes)
    (line,) = [line for line in _answer(tmp_path) if line.startswith("WMT19 DE→FR, direct")]
    assert "statistically tied" not in line and "significantly below" not in line
    assert "not compared with it: org/full (other data (dataset revisions data-rev and data-rev-limit10))" in line


def test_two_datasets_of_one_name_are_not_paired_nor_pooled(tmp_path: Path) -> None:
    for task in (A, B):
        write_result(tmp_path, "org/a", task, GOOD)
        write_result(tmp_path, "org/b", task, CLOSE, dataset_revision="data-rev" if task == B else "other-rev")
    results = load_results(tmp_path)
    rows, notes = model_comparisons(hits_of(results), data_of(results))
    assert [(r.task, r.model_a, r.model_b) for r in rows] == [(B, "org/a", "org/b")]  # A's pair and the pooled row left out
    assert any("not compared on `CLSD-WMT19-DE-FR`: other data (dataset revisions data-rev and other-rev)" in n for n in notes)
    assert any("not compared on `direct (all)`: WMT19 DE→FR is not on the same rows" in n for n in notes)
    lines = {line.split(" (")[0]: line for line in _answer(tmp_path)}
    assert "): best org/a" in lines["WMT21 DE→FR, direct"] and "statistically tied with it: org/b" in lines["WMT21 DE→FR, direct"]
    assert (
        "): best org/a" in lines["WMT19 DE→FR, direct"]
        and "not compared with it: org/b (other data" in lines["WMT19 DE→FR, direct"]
    )


def test_a_pivot_result_on_other_rows_is_not_tested(tmp_path: Path) -> None:
    write_result(tmp_path, "org/a", A, GOOD)
    write_result(tmp_path, "org/a", PA, "1111", trial=4)
    hits = hits_of(load_results(tmp_path))
    assert pivot_tests(hits) == []
    assert pivot_left_out(hits) == {("org/a", A): "other rows (19 and 4 rows, 4 of them shared)"}
    assert (
        "WMT19 DE→FR, through English: org/a's pivot and direct results are not compared: other rows (19 and 4 rows, 4 of them shared)."
        in _answer(tmp_path)
    )


def test_several_folders_are_read_as_one(tmp_path: Path) -> None:
    first, second = tmp_path / "job-1", tmp_path / "job-2"
    write_result(first, "org/a", A, GOOD)
    write_result(second, "org/b", A, CLOSE)
    copy = Path(shutil.copytree(first, tmp_path / "job-1-copy"))  # the same results twice: read once
    results = load_results([first, second, copy])
    assert [run.name for run in results.runs] == ["org/a", "org/b"] and results.roots == [first, second, copy]
    rows, _ = model_comparisons(hits_of(results), data_of(results))
    assert [(r.model_a, r.model_b, r.only_a, r.only_b) for r in rows] == [("org/a", "org/b", 1, 0)]


def test_two_folders_with_other_numbers_for_one_result_are_refused_naming_both(tmp_path: Path) -> None:
    first = write_result(tmp_path / "job-1", "org/a", A, GOOD)
    second = write_result(tmp_path / "job-2", "org/a", A, CLOSE)
    with pytest.raises(ResultsError, match="with different numbers") as raised:
        load_results([tmp_path / "job-1", tmp_path / "job-2"])
    assert f"{first} and {second} both hold `org/a` (revision rev) on {A}" in str(raised.value)
    third = write_result(tmp_path / "job-3", "org/a", A, GOOD, dataset_revision="other-rev")
    with pytest.raises(ResultsError, match=r"of other data \(dataset revisions data-rev and other-rev\)") as raised:
        load_results([tmp_path / "job-1", tmp_path / "job-3"])
    assert str(first) in str(raised.value) and str(third) in str(raised.value)
    assert "\n" not in str(raised.value)


def _record(root: Path, sources: dict[tuple[str, str], str]) -> None:
    """``data_sources.json`` as `clsd evaluate` writes it: (task, dataset revision) -> the Hub-format folder read."""
    entries = [
        {"task": task, "dataset_revision": revision, "kind": "hub-folder", "location": location, "revision": None}
        for (task, revision), location in sources.items()
    ]
    (root / "data_sources.json").write_text(json.dumps({"format": 2, "sources": entries}), encoding="utf-8")


def test_results_of_unknown_revisions_are_never_paired_not_even_with_each_other(tmp_path: Path) -> None:
    write_predictions(tmp_path, "org/a", A, GOOD)  # prediction files without their result files: no dataset revision
    write_predictions(tmp_path, "org/b", A, CLOSE)
    write_result(tmp_path, "org/c", A, CLOSE)
    results = load_results(tmp_path)
    rows, notes = model_comparisons(hits_of(results), data_of(results))
    assert rows == []  # the same row ids, but nothing says they are rows of one dataset
    assert any(
        "`org/a` and `org/b` are not compared on `CLSD-WMT19-DE-FR`: unknown data (dataset revisions unknown and unknown" in n
        for n in notes
    )
    assert any(
        "`org/a` and `org/c` are not compared on `CLSD-WMT19-DE-FR`: unknown data (dataset revisions unknown and data-rev" in n
        for n in notes
    )


@pytest.mark.parametrize("named", ["", "  ", "dataset revision not available"])
def test_a_result_file_that_names_no_revision_is_of_unknown_data(tmp_path: Path, named: str) -> None:
    write_result(tmp_path, "org/a", A, GOOD, dataset_revision=named)
    write_result(tmp_path, "org/b", A, CLOSE, dataset_revision=named)
    results = load_results(tmp_path)
    assert model_comparisons(hits_of(results), data_of(results))[0] == []
    (line,) = [line for line in _answer(tmp_path) if line.startswith("WMT19 DE→FR, direct")]
    assert "statistically tied" not in line and "not compared with it: org/b (unknown data" in line
    copy = Path(shutil.copytree(tmp_path, tmp_path.parent / f"{tmp_path.name}-copy"))
    with pytest.raises(ResultsError, match=r"of unknown data \(dataset revisions unknown and unknown"):
        load_results([tmp_path, copy])  # one model's result twice, neither known to be of which data: refused


def test_a_pivot_test_needs_both_results_known_to_be_of_one_dataset(tmp_path: Path) -> None:
    write_result(tmp_path, "org/a", A, GOOD, dataset_revision="local-sha256-aaaa")
    write_result(tmp_path, "org/a", PA, CLOSE, dataset_revision="local-sha256-bbbb")  # one file each, each its digest
    assert [(t.model, t.task) for t in pivot_tests(hits_of(load_results(tmp_path)), data_of(load_results(tmp_path)))] == [
        ("org/a", A)
    ]  # no record of where the rows were read (local release files): known revisions, the same rows
    _record(tmp_path, {(A, "local-sha256-aaaa"): "/sets/one", (PA, "local-sha256-bbbb"): "/sets/one"})
    assert len(pivot_tests(hits_of(load_results(tmp_path)), data_of(load_results(tmp_path)))) == 1  # one folder: one dataset
    _record(tmp_path, {(A, "local-sha256-aaaa"): "/sets/one", (PA, "local-sha256-bbbb"): "/sets/two"})
    results = load_results(tmp_path)
    assert pivot_tests(hits_of(results), data_of(results)) == []
    assert pivot_left_out(hits_of(results), data_of(results)) == {
        ("org/a", A): f"other data ({A} at local-sha256-aaaa from /sets/one, {PA} at local-sha256-bbbb from /sets/two)"
    }
    assert any(
        line.startswith("WMT19 DE→FR, through English: org/a's pivot and direct results are not compared: other data")
        for line in _answer(tmp_path)
    )


def test_a_pivot_result_of_unknown_revision_is_not_tested(tmp_path: Path) -> None:
    write_result(tmp_path, "org/a", A, GOOD)
    write_predictions(tmp_path, "org/a", PA, CLOSE)  # the pivot's prediction file alone
    results = load_results(tmp_path)
    assert pivot_tests(hits_of(results), data_of(results)) == []
    assert pivot_left_out(hits_of(results), data_of(results))[("org/a", A)].startswith(
        "unknown data (dataset revisions data-rev and unknown"
    )


def test_a_results_folder_that_is_not_a_folder_is_named_for_what_it_is(tmp_path: Path) -> None:
    afile = tmp_path / "afile"
    afile.write_text("", encoding="utf-8")
    (tmp_path / "alink").symlink_to(afile)
    for given, said in [
        (afile, f"{afile} is a file, not a results folder."),
        (tmp_path / "alink", f"{tmp_path / 'alink'} is a link to a file, not a results folder."),
        (tmp_path / "missing", f"results folder {tmp_path / 'missing'} does not exist."),
    ]:
        with pytest.raises(ResultsError) as raised:
            load_results(given)
        assert str(raised.value) == said
