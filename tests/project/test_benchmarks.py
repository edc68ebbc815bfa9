"""Every benchmark still runs; every documented benchmark command names a real benchmark and real options; and
``make benchmark`` runs commands docs/benchmarks.md gives.

Benchmarks are run by hand and rarely, so nothing else notices when a change breaks one. Each file of
``benchmarks/`` (those starting with ``_`` excepted: ``_common.py`` is what they share) is found by globbing, so
a new benchmark is covered without touching this file, and runs as a user runs it from a clone:
``python benchmarks/NAME.py --quick`` from the repository root, in a process of its own. Quick mode is tiny
sizes on the project's fixture data, no figure judged; the test fails on a non-zero exit status. A benchmark
that cannot run here prints why and exits with status 77 (``_common.SKIPPED``); the test skips with that line.
One that starts the llama.cpp server (``tests.helpers.llama_server``) is marked ``real_llm``, as the
real-server tests are, and skips where that server is missing (the same check, ``missing()``).

The process gets the environment a fresh clone has: the project's packages importable, the repository root not
on ``PYTHONPATH``. A developer's ``PYTHONPATH`` often holds the root, which makes the ``tests`` package importable
from anywhere and would hide a benchmark that starts a test helper in a way that only works then.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"
SHARED = BENCHMARKS / "_common.py"  # options every benchmark takes (--quick) are declared there
SKIPPED = 77  # benchmarks/_common.py: the exit status of a benchmark that cannot run here
TIMEOUT = 600  # seconds: a hung benchmark fails instead of stopping the test run
DOCUMENTED_COMMAND = re.compile(r"python benchmarks/([a-z_]+\.py)([^`\n#]*)")  # NAME.py, a placeholder, is left out
DOCUMENTS = ("README.md", "Makefile", "docs/*.md", "benchmarks/*.py")
# What the Makefile's variables stand for in docs/benchmarks.md's commands.
MAKE_VARIABLES = {"$(BIN)/python": "python", "$(RELEASE_DATA)": "--data-dir path/to/clsd-release"}


def _benchmarks() -> list[Any]:
    params = []
    for path in sorted(BENCHMARKS.glob("*.py")):
        if path.name.startswith("_"):
            continue
        marks = [pytest.mark.real_llm] if "tests.helpers.llama_server" in path.read_text(encoding="utf-8") else []
        params.append(pytest.param(path, id=path.stem, marks=marks))
    return params


@pytest.fixture(scope="session")
def clone_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """This environment as a fresh clone has it: an entry of ``PYTHONPATH`` naming the repository root is replaced
    by a folder linking the root's own packages (``clsd_format``, ``clsd_mteb``, ``clsd_cli``), not ``tests``."""
    entries = [entry for entry in os.environ.get("PYTHONPATH", "").split(os.pathsep) if entry]
    kept = [entry for entry in entries if Path(entry).resolve() != ROOT]
    if len(kept) < len(entries):
        links = tmp_path_factory.mktemp("packages")
        for package in sorted(ROOT.glob("*/__init__.py")):
            if package.parent.name != "tests":
                (links / package.parent.name).symlink_to(package.parent, target_is_directory=True)
        kept.insert(0, str(links))
    env = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    env["OMP_NUM_THREADS"] = "1"  # the benchmark shares the cores with the test run; quick mode times nothing
    return {**env, "PYTHONPATH": os.pathsep.join(kept)} if kept else env


@pytest.mark.slow
@pytest.mark.parametrize("benchmark", _benchmarks())
def test_benchmark_runs_in_quick_mode(benchmark: Path, clone_env: dict[str, str]) -> None:
    command = [sys.executable, f"benchmarks/{benchmark.name}", "--quick"]
    run = subprocess.run(command, cwd=ROOT, env=clone_env, capture_output=True, text=True, timeout=TIMEOUT)
    lines = run.stdout.strip().splitlines()
    if run.returncode == SKIPPED:
        pytest.skip(f"benchmarks/{benchmark.name}: {lines[-1] if lines else 'skipped'}")
    output = f"{run.stdout}\n{run.stderr}".strip()
    assert run.returncode == 0, (
        f"python benchmarks/{benchmark.name} --quick exited with status {run.returncode}:\n{output[-4000:]}"
    )
    assert "quick mode (" in run.stdout, (
        f"benchmarks/{benchmark.name} ignored --quick (no announce_quick line):\n{output[-2000:]}"
    )


def _documented_commands() -> list[tuple[str, str, str]]:
    """(where, benchmark file, its arguments) of every ``python benchmarks/NAME.py ARGS`` the docs, the Makefile and the benchmarks give."""
    found = []
    for pattern in DOCUMENTS:
        for path in sorted(ROOT.glob(pattern)):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                for match in DOCUMENTED_COMMAND.finditer(line):
                    found.append((f"{path.relative_to(ROOT)}:{number}", match.group(1), match.group(2)))
    return found


def _wrong_documented_commands() -> list[str]:
    """Each documented command naming no benchmark, or an option its benchmark does not declare."""
    wrong = []
    for where, name, arguments in _documented_commands():
        path = BENCHMARKS / name
        if not path.is_file():
            wrong.append(f"{where}: no benchmarks/{name}")
            continue
        declared = path.read_text(encoding="utf-8") + SHARED.read_text(encoding="utf-8")
        for option in re.findall(r"(?<!\S)(--[a-z][\w-]*)", arguments):
            if f'"{option}"' not in declared:
                wrong.append(f"{where}: benchmarks/{name} has no option {option}")
    return wrong


def _make_benchmark_commands() -> list[str]:
    """The commands of the Makefile's ``benchmark`` target, written as docs/benchmarks.md writes them."""
    lines = (ROOT / "Makefile").read_text(encoding="utf-8").split("\nbenchmark:", 1)[1].splitlines()[1:]
    commands = []
    for line in lines:
        if not line.startswith("\t"):
            break
        for variable, meaning in MAKE_VARIABLES.items():
            line = line.replace(variable, meaning)
        commands.append(" ".join(line.split()))
    return commands


def test_documented_benchmark_commands_are_real_and_make_benchmark_runs_them() -> None:
    """Every ``python benchmarks/NAME.py ARGS`` of the docs, the Makefile and the benchmarks' own docstrings names a
    benchmark and options it takes, and each command of ``make benchmark`` is one docs/benchmarks.md gives."""
    documented = {
        " ".join(f"python benchmarks/{name}{arguments}".split())
        for where, name, arguments in _documented_commands()
        if where.startswith("docs/benchmarks.md:")
    }
    assert documented, "no benchmark command found in docs/benchmarks.md"
    commands = _make_benchmark_commands()
    assert commands, "the Makefile has no benchmark target"
    wrong = _wrong_documented_commands()
    wrong += [
        f"Makefile: `make benchmark` runs {command}, which docs/benchmarks.md does not give"
        for command in commands
        if command not in documented
    ]
    assert not wrong, "; ".join(wrong)
