"""`clsd plan`: the rows a set needs, from the discordance measured on per-row predictions (Connor 1987)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from clsd_analysis.plan_settings import PlanSettings
from clsd_analysis.set_size import discordance, plan_for_folders, plan_set_size
from clsd_format.errors import CLSDError
from clsd_mteb.confidence import mcnemar_sample_size
from tests.helpers.cli_runner import invoke
from tests.helpers.results_folders import write_predictions, write_result

TASK = "CLSD-WMT19-DE-FR"
OTHER_TASK = "CLSD-WMT21-DE-FR"
GOOD, CLOSE = "1111111111111111110", "1111111111111111100"  # 19 rows, one of them discordant


def _write_result(root: Path, model: str, pattern: str) -> None:
    write_result(root, model, TASK, pattern)


def test_discordance_and_rows_needed_by_hand():
    hits = {
        "a": {TASK: {f"r{i}": i < 8 for i in range(10)}},
        "b": {TASK: {f"r{i}": i < 6 or i == 9 for i in range(10)}},
    }
    assert discordance(hits, "a", "b") == (10, 0.3)  # rows 6, 7 (only a) and 9 (only b)
    (plan,) = plan_set_size(hits, [1, 2, 40])
    assert plan.needed[1] == mcnemar_sample_size(0.01, 0.3) and plan.needed[2] == mcnemar_sample_size(0.02, 0.3)
    assert plan.needed[40] is None  # two models cannot differ by more than the rows they disagree on


@pytest.mark.slow
def test_clsd_plan_answers_for_each_difference(tmp_path: Path):
    _write_result(tmp_path, "org/a", "1111111100")
    _write_result(tmp_path, "org/b", "1111110001")
    done = subprocess.run(
        [sys.executable, "-m", "clsd_cli", "plan", str(tmp_path), "-d", "1", "-d", "2", "-d", "3"],
        capture_output=True,
        text=True,
        env=os.environ,
    )
    assert done.returncode == 0, done.stderr
    n1, n2, n3 = (mcnemar_sample_size(d / 100, 0.3) for d in (1, 2, 3))
    assert (
        f"org/a vs org/b: 30.0% of 10 rows discordant -> 1 point: {n1:,} rows; 2 points: {n2:,} rows; 3 points: {n3:,} rows."
        in done.stdout
    )
    assert "Connor 1987" in done.stdout
    lonely = tmp_path / "lonely"
    _write_result(lonely, "org/a", "10")
    refused = subprocess.run(
        [sys.executable, "-m", "clsd_cli", "plan", str(lonely)], capture_output=True, text=True, env=os.environ
    )
    assert refused.returncode == 2 and "fewer than two models" in refused.stderr


def test_the_plan_measures_only_results_on_the_same_rows_of_the_same_data(tmp_path: Path):
    write_result(tmp_path, "org/a", TASK, GOOD)
    write_result(tmp_path, "org/b", TASK, CLOSE, dataset_revision="other-rev")  # another dataset of the same name
    with pytest.raises(CLSDError, match="no two models have results on the same rows of the same data") as raised:
        plan_for_folders(PlanSettings((tmp_path,), (1.0,)))
    assert "Left out: CLSD-WMT19-DE-FR, other data (dataset revisions data-rev and other-rev)." in str(raised.value)
    write_result(tmp_path, "org/a", OTHER_TASK, GOOD)
    write_result(tmp_path, "org/b", OTHER_TASK, CLOSE[:10], trial=10)  # a trial is not the full run's rows
    write_result(tmp_path, "org/c", OTHER_TASK, CLOSE)
    lines = plan_for_folders(PlanSettings((tmp_path,), (1.0,)))
    assert lines[1].startswith("org/a vs org/b: not measured") and "Left out: CLSD-WMT21-DE-FR, other data" in lines[1]
    assert lines[2].startswith("org/a vs org/c: 5.3% of 19 rows discordant")  # on the one task they share


def test_predictions_of_unknown_data_are_not_measured_even_with_the_same_row_ids(tmp_path: Path):
    """Two folders of predictions alone (no result file names the dataset revision): two datasets of one task name
    with the same row ids would be measured as one; nothing is measured, and the plan says why."""
    write_predictions(tmp_path / "set-1", "org/a", TASK, "1111111100")
    write_predictions(tmp_path / "set-2", "org/b", TASK, "1111110001")
    with pytest.raises(CLSDError, match="no two models have results on the same rows of the same data") as raised:
        plan_for_folders(PlanSettings((tmp_path / "set-1", tmp_path / "set-2"), (1.0,)))
    assert "Left out: CLSD-WMT19-DE-FR, unknown data (dataset revisions unknown and unknown" in str(raised.value)
    write_result(tmp_path / "set-2", "org/c", TASK, CLOSE[:10])  # a known revision beside an unknown one: no better
    with pytest.raises(CLSDError, match="unknown data \\(dataset revisions unknown and data-rev"):
        plan_for_folders(PlanSettings((tmp_path / "set-1", tmp_path / "set-2"), (1.0,)))


def test_clsd_plan_reads_several_folders_as_one(tmp_path: Path):
    write_result(tmp_path / "job-1", "org/a", TASK, GOOD)
    write_result(tmp_path / "job-2", "org/b", TASK, CLOSE)
    output = invoke("plan", str(tmp_path / "job-1"), str(tmp_path / "job-2"), "-d", "1")
    assert "org/a vs org/b: 5.3% of 19 rows discordant" in output


@pytest.mark.parametrize("points", ["0", "nan", "-1", "100", "inf", "1e400"])
def test_a_difference_that_is_no_positive_finite_number_of_points_below_100_is_refused(tmp_path, points, capsys):
    from clsd_cli.app import main

    _write_result(tmp_path, "org/a", "1111111100")
    _write_result(tmp_path, "org/b", "1111110001")
    with pytest.raises(SystemExit) as done:
        main(["plan", str(tmp_path), "-d", "2", "-d", points])
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert done.value.code == 2 and "a difference in P@1 is a number of points above 0 and below 100" in line


@pytest.mark.parametrize(
    ("values", "option"), [({"alpha": 0.6}, "--alpha"), ({"power": 0.4}, "--power"), ({"difference": (2.0, 0.0)}, "--difference")]
)
def test_the_plan_settings_refuse_from_python_as_from_the_command_line(tmp_path, values, option):
    """A script builds the settings object the command builds, and is refused alike, the refusal naming the option."""
    with pytest.raises(CLSDError, match=f"^{option} "):
        PlanSettings((tmp_path,), **values)


def test_an_alpha_above_half_is_refused_by_the_command(tmp_path, capsys):
    from clsd_cli.app import main

    with pytest.raises(SystemExit) as done:
        main(["plan", str(tmp_path), "--alpha", "0.6"])
    said = capsys.readouterr().err
    assert done.value.code == 2 and "--alpha" in said and "0.5" in said  # the declared maximum, checked as it is parsed
