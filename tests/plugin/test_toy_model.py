"""An embedded model is one module and one entry point: a toy model from a package of its own is found by name.

The toy model (``tests/data/toy_model``) is installed the way a third-party package would add one: a module defining
``MODEL`` (a :class:`~clsd_mteb.encoders.common.ModelSpec`) and an entry point in the group ``clsd_mteb.models``; no
file of clsd-mteb changes. The models clsd-mteb ships are entry points of its own ``pyproject.toml``, read the same way.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from clsd_mteb import models

ROOT = Path(__file__).resolve().parents[2]
TOY = ROOT / "tests" / "data" / "toy_model"
NAME = "toy-models/letter-counts"
PYTHON_SIDE = f"""
import json, mteb, clsd_mteb
from clsd_mteb.models import MODELS, model_metas
model = mteb.get_model({NAME!r})
print(json.dumps({{"loaded": type(model).__name__, "models": list(MODELS), "metas": [m.name for m in model_metas()],
    "mteb": {NAME!r} in {{m.name for m in mteb.get_model_metas()}}}}))
"""


def _with_toy() -> dict[str, str]:
    """The environment of a process in which the toy package is installed (on the path, its metadata beside it)."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(TOY), os.environ.get("PYTHONPATH")]))}


def test_the_shipped_models_are_the_entry_points_of_their_group() -> None:
    declared = {entry.name: entry.load() for entry in entry_points(group=models.ENTRY_POINT_GROUP)}
    assert declared == models.MODELS and models.USEM3_NAME in declared and models.MINILM_NAME not in declared


@pytest.mark.slow
def test_a_toy_model_from_its_own_package_is_known_to_mteb_after_import_clsd_mteb(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", PYTHON_SIDE], capture_output=True, text=True, env=_with_toy(), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["loaded"] == "LetterCounts" and seen["mteb"]
    assert NAME in seen["models"] and set(models.MODELS) < set(seen["models"]) and NAME in seen["metas"]


@pytest.mark.slow
def test_a_toy_model_from_its_own_package_is_evaluated_by_name(small_release: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    command = ["evaluate", "--model", NAME, "--data-dir", str(small_release), "--tasks", "CLSD-WMT19-DE-FR", "--output", str(out)]
    done = subprocess.run(
        [sys.executable, "-m", "clsd_cli", *command], capture_output=True, text=True, env=_with_toy(), cwd=tmp_path
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (result,) = out.rglob("CLSD-WMT19-DE-FR.json")
    assert result.parent.parent.name == NAME.replace("/", "__")  # filed under the model's own name and revision
    score = json.loads(result.read_text(encoding="utf-8"))["scores"]["test"][0]["main_score"]
    assert 0 <= score <= 1 and NAME in done.stdout
