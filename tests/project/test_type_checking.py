"""mypy sees every name across the packages: a wrong call into the generator or the analysis fails the check.

The packages are found by their import names (``mypy_path`` in pyproject.toml), so a call from one package
into another is checked against the callee's signature instead of passing as ``Any``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

PROBE = """\
from clsd_analysis.changed_words import marked_changes
from clsd_generation.rules import rules_for

rules_for(3)
marked_changes("a b", changed=["a", "c"])
"""


@pytest.mark.slow
def test_a_wrong_call_into_the_generator_or_the_analysis_fails_mypy(tmp_path: Path) -> None:
    if shutil.which("mypy", path=str(Path(sys.executable).parent)) is None:
        pytest.fail("mypy is not installed beside this python; install the project with its [test] extra")
    probe = tmp_path / "probe.py"
    probe.write_text(PROBE, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", "pyproject.toml", "--cache-dir", str(tmp_path / "cache"), str(probe)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert any("probe.py:4:" in line and '"rules_for"' in line and "arg-type" in line for line in errors), done.stdout
    assert any("probe.py:5:" in line and '"marked_changes"' in line and "arg-type" in line for line in errors), done.stdout
    assert len(errors) == 2, done.stdout
