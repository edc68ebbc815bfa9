"""The unit of change counted inside the repository: each kind of unit added to clsd-mteb itself, as a contributor would.

A toy of each kind is placed where it would go in the repository: its module inside the package
(``clsd_mteb.encoders``, ``clsd_generation.checks``, ``clsd_generation.rules.languages``, ``clsd_analysis.sections``)
and its entry-point line in clsd-mteb's ``pyproject.toml``, or, for an option, the settings module with one field
more. A fresh interpreter sees the repository with these files changed and nothing else (an import hook serves the
changed modules, a dist-info stands for the ``pyproject.toml`` line) and shows the unit at work. The files counted
are the ones a contributor touches; docs/architecture.md's table "In clsd-mteb" states the same counts, and this
test compares them.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.helpers.corpora import toy_hub_folder

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
ROW = re.compile(r"^\| (?P<unit>[^|]+) \| (?P<what>[^|]+) \| (?P<files>\d+) \| `(?P<kind>[a-z-]+)` \|$")

# The interpreter's prelude: modules the change adds or changes are served from their new text, first.
PRELUDE = """
import importlib.abc, importlib.util, json, sys
CHANGED = json.loads({changed!r})
class Changed(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        return importlib.util.spec_from_file_location(name, CHANGED[name]) if name in CHANGED else None
sys.meta_path.insert(0, Changed())
"""


@dataclass(frozen=True)
class Unit:
    """One kind of unit: the modules its change adds or rewrites (import name -> new text), the entry-point line it
    adds to pyproject.toml (group, name, value), and what shows it at work (Python run after the change)."""

    modules: dict[str, str]
    entry: tuple[str, str, str] | None
    shows: str
    data_files: int = 0  # files that are no module (a names file beside a language's module: none here)

    @property
    def files(self) -> int:
        return len(self.modules) + self.data_files + (self.entry is not None)


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


SETTINGS = ROOT / "generation" / "clsd_generation" / "core" / "settings.py"
FIELD_AFTER = "    accepted_models: tuple[str, ...] = setting("  # the new option goes before this field of LLMSettings
NEW_OPTION = '    sampling_seed: int = setting(0, help="Seed the endpoint samples with.", panel=LLM_ENDPOINT, fingerprint=True)\n'

UNITS = {
    "model": Unit(
        {"clsd_mteb.encoders.toy_model": _text(DATA / "toy_model" / "toy_model.py")},
        ("clsd_mteb.models", "toy-models/letter-counts", "clsd_mteb.encoders.toy_model:MODEL"),
        """
import mteb, clsd_mteb
from clsd_format import defaults
model = mteb.get_model("toy-models/letter-counts")
print(json.dumps({"listed": "toy-models/letter-counts" in defaults.embedded_models(), "runs": type(model).__name__ == "LetterCounts"}))
""",
    ),
    "check": Unit(
        {"clsd_generation.checks.toy_check": _text(DATA / "toy_check" / "toy_check.py")},
        ("clsd_generation.answer_checks", "toy-shouting", "clsd_generation.checks.toy_check:CHECK"),
        """
from typer.testing import CliRunner
from clsd_cli.app import app
from clsd_generation.checks.registry import answer_checks
shown = CliRunner().invoke(app, ["generate", "--help"]).output
print(json.dumps({"listed": "toy-shouting" in [c.name for c in answer_checks()], "runs": "--max-shouted-words" in shown}))
""",
    ),
    "language": Unit(
        {"clsd_generation.rules.languages.xx": _text(DATA / "toy_language" / "toy_language" / "__init__.py")},
        ("clsd_generation.languages", "xx", "clsd_generation.rules.languages.xx:RULES"),
        """
from clsd_generation.rules import rules_for
rules = rules_for("xx")
print(json.dumps({"listed": rules.code == "xx", "runs": len(rules.known_names) > 0}))
""",
    ),
    "section": Unit(
        {"clsd_analysis.sections.toy_section": _text(DATA / "toy_section" / "toy_section" / "__init__.py")},
        ("clsd_analysis.sections", "toy", "clsd_analysis.sections.toy_section:RowCount"),
        """
from typer.testing import CliRunner
from clsd_cli.app import app
from clsd_analysis.sections import read_entries
shown = CliRunner().invoke(app, ["analyze", "--help"]).output
print(json.dumps({"listed": "toy" in read_entries().found, "runs": "--toy-unit" in shown}))
""",
    ),
    "generate-option": Unit(
        {"clsd_generation.core.settings": _text(SETTINGS).replace(FIELD_AFTER, NEW_OPTION + FIELD_AFTER, 1)},
        None,
        """
from typer.testing import CliRunner
from clsd_cli.app import app
from clsd_generation.core.settings import LLMSettings
from clsd_generation.run.backends import LLMBackend
shown = CliRunner().invoke(app, ["generate", "--help"]).output
bound = LLMBackend(LLMSettings(model="m", sampling_seed=7)).fingerprint(())
print(json.dumps({"listed": "--sampling-seed" in shown and "Seed the endpoint samples" in shown, "runs": bound.get("sampling_seed") == 7}))
""",
    ),
    "task": Unit(
        {},
        None,
        """
import os
import clsd_mteb
tasks = clsd_mteb.get_tasks(data_dir=os.environ["TOY_DATASET"])
print(json.dumps({"listed": len(tasks) > 0, "runs": all(t.metadata.name.startswith("CLSD-") for t in tasks)}))
""",
    ),
}


def _install(unit: Unit, where: Path) -> dict[str, str]:
    """The changed modules written to ``where``, and the dist-info standing for the pyproject.toml line; the
    environment of an interpreter that sees the repository so changed."""
    changed = {}
    for name, text in unit.modules.items():
        path = where / f"{name}.py"
        path.write_text(text, encoding="utf-8")
        changed[name] = str(path)
    paths = [str(ROOT)]
    if unit.entry is not None:
        group, name, value = unit.entry
        info = where / "entry" / "clsd_mteb_change-0.1.dist-info"
        info.mkdir(parents=True)
        (info / "METADATA").write_text("Metadata-Version: 2.1\nName: clsd-mteb-change\nVersion: 0.1\n", encoding="utf-8")
        (info / "entry_points.txt").write_text(f"[{group}]\n{name} = {value}\n", encoding="utf-8")
        paths.insert(0, str(where / "entry"))
    (where / "changed.json").write_text(json.dumps(changed), encoding="utf-8")
    path = os.pathsep.join([*paths, os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PYTHONPATH": path, "HF_HUB_OFFLINE": "1"}


def _doc_counts() -> dict[str, int]:
    text = _text(ARCHITECTURE).split("### In clsd-mteb", 1)[1].split("\n#", 1)[0]
    return {match["kind"]: int(match["files"]) for line in text.splitlines() if (match := ROW.match(line.strip()))}


def test_the_architecture_table_states_the_counts_this_test_computes() -> None:
    assert _doc_counts() == {kind: unit.files for kind, unit in UNITS.items()}


def test_no_unit_touches_more_than_two_files() -> None:
    assert {kind: unit.files for kind, unit in UNITS.items() if unit.files > 2} == {}


@pytest.mark.slow  # a fresh interpreter per kind, importing the packages
@pytest.mark.parametrize("kind", list(UNITS))
def test_each_unit_added_inside_the_repository_is_at_work(kind: str, tmp_path: Path) -> None:
    unit = UNITS[kind]
    env = _install(unit, tmp_path)
    env["TOY_DATASET"] = str(toy_hub_folder(tmp_path / "dataset"))
    changed = _text(tmp_path / "changed.json")
    code = PRELUDE.format(changed=changed) + unit.shows
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {"listed": True, "runs": True}, done.stderr[-2000:]
