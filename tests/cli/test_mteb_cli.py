"""``clsd mteb ARGS...`` is mteb's own command line with CLSD registered, run as a user runs it (a real process, offline).

mteb's ``run`` needs a model that ``mteb.get_model`` can load offline: mteb's own random encoder
(``mteb/baseline-random-encoder``) is one; the data is the small fixture folder, through ``CLSD_DATA_DIR``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

DIRECT = ["CLSD-WMT19-DE-FR", "CLSD-WMT19-FR-DE", "CLSD-WMT21-DE-FR", "CLSD-WMT21-FR-DE"]


def clsd_mteb(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``clsd mteb ARGS`` in a new process."""
    command = [sys.executable, "-m", "clsd_cli", "mteb", *args]
    return subprocess.run(command, capture_output=True, text=True, env={**os.environ, "COLUMNS": "200", **(env or {})})


@pytest.mark.slow
def test_help_is_mteb_s_own() -> None:
    done = clsd_mteb("--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: clsd mteb ")
    assert "available-tasks" in done.stdout and "available-benchmarks" in done.stdout and "run" in done.stdout


@pytest.mark.slow
def test_mteb_lists_the_clsd_tasks_and_benchmarks() -> None:
    tasks = clsd_mteb("available-tasks")
    assert tasks.returncode == 0, tasks.stderr
    assert "- CLSD-WMT19-DE-FR," in tasks.stdout and "- CLSD-WMT21-FR-DE-PivotEN," in tasks.stdout
    benchmarks = clsd_mteb("available-benchmarks", "-b", "CLSD", "CLSD-PivotEN")
    assert benchmarks.returncode == 0, benchmarks.stderr
    direct, pivot = benchmarks.stdout.split("CLSD-PivotEN", 1)
    assert all(f"- {name}," in direct for name in DIRECT) and "PivotEN," not in direct
    assert all(f"- {name}-PivotEN," in pivot for name in DIRECT)


@pytest.mark.slow
@pytest.mark.parametrize("selection", [["-t", "CLSD-WMT19-DE-FR"], ["-b", "CLSD"]])
def test_mteb_run_scores_the_clsd_tasks(selection: list[str], small_release: Path, tmp_path: Path) -> None:
    args = ["run", "-m", "mteb/baseline-random-encoder", *selection, "--output-folder", str(tmp_path), "-v", "1"]
    done = clsd_mteb(*args, env={"CLSD_DATA_DIR": str(small_release)})
    assert done.returncode == 0, done.stderr
    (folder,) = (tmp_path / "results" / "mteb__baseline-random-encoder").iterdir()  # one revision
    expected = DIRECT if selection[0] == "-b" else selection[1:]
    assert sorted(p.stem for p in folder.glob("CLSD-*.json")) == expected
    for name in expected:
        scores = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))["scores"]["test"][0]
        assert 0 <= scores["main_score"] <= 1 and scores["main_score"] == scores["precision_at_1"]
