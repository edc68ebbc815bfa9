"""A language is one module (plus its names file): a toy language is added from a package of its own and generated for.

The toy language (``tests/data/toy_language``) is installed the way a third-party package would add one: a
module defining ``RULES`` and an entry point in the group ``clsd_generation.languages``; no file of
clsd-mteb changes. The built-in languages (the modules of ``clsd_generation.rules.languages``) are found the same
way: through entry points clsd-mteb's own ``pyproject.toml`` declares.
"""

from __future__ import annotations

import importlib
import json
import os
import sqlite3
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from clsd_generation.rules import languages
from clsd_generation.rules.languages import ENTRY_POINT_GROUP, registered
from clsd_generation.rules.registry import DEFAULT_RULES

ROOT = Path(__file__).resolve().parents[3]
TOY = ROOT / "tests" / "data" / "toy_language"
ROWS = [
    ("Il 12 marzo Rossi visita Roma.", "Am 12. März besucht Rossi Rom."),
    ("Nel 2019 il signor Bianchi vive a Milano.", "Im Jahr 2019 lebt Herr Bianchi in Mailand."),
    ("Il lunedì 45 studenti vanno a Napoli.", "Am Montag fahren 45 Studenten nach Neapel."),
    ("A maggio 300 persone lavorano a Torino.", "Im Mai arbeiten 300 Menschen in Turin."),
]


def _declared() -> dict[str, str]:
    """The languages clsd-mteb's own pyproject.toml registers, by code: the entry point's object reference."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11 and later
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return dict(pyproject["project"]["entry-points"][ENTRY_POINT_GROUP])


def test_the_built_in_languages_are_found_through_their_entry_points() -> None:
    declared = _declared()
    modules = sorted(p.stem for p in Path(languages.__file__).parent.glob("*.py") if p.stem != "__init__")
    assert sorted(declared) == modules  # every module of the package is registered, and nothing else
    found = registered()
    assert {entry.name for entry in entry_points(group=ENTRY_POINT_GROUP)} == set(found)  # the registry is the entry points
    assert list(found) == sorted(found)  # in the order of their codes, built-in or not
    for code, reference in declared.items():
        module, _, attribute = reference.partition(":")
        assert found[code] is getattr(importlib.import_module(module), attribute)


def test_every_built_in_language_is_one_module_with_its_names_file() -> None:
    found = registered()
    for code in _declared():
        rules = found[code]
        assert rules.code == code and rules.known_names and {n.language for n in rules.known_names} == {code}
        assert len(rules.months) == 12 and len(rules.weekdays) == 7  # from CLDR


@pytest.mark.slow
def test_a_toy_language_from_one_module_and_its_data_gets_distractors(tmp_path: Path) -> None:
    corpus = tmp_path / "parallel.csv"
    corpus.write_text("xx,de\n" + "".join(f'"{a}","{b}"\n' for a, b in ROWS), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(TOY), os.environ.get("PYTHONPATH")]))}
    options = ["--source-column", "xx", "--target-column", "de", "--source-lang", "xx:Toy:ita-Latn", "--target-lang", "de"]
    done = subprocess.run(
        [sys.executable, "-m", "clsd_cli", "generate", str(corpus), "--run-dir", str(tmp_path / "run"), *options, "--quiet"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    with sqlite3.connect(tmp_path / "run" / "checkpoint.sqlite") as db:
        results = db.execute("SELECT pair_id, status, distractors, distractor_rules FROM results WHERE lang = 'xx'").fetchall()
    assert sorted(pair for pair, *_ in results) == [f"row{n}" for n in range(1, len(ROWS) + 1)]  # each sentence once
    kept = [(json.loads(texts), json.loads(rules)) for _, status, texts, rules in results if status == "ok"]
    assert kept, done.stdout
    made = " ".join(text for texts, _ in kept for text in texts)
    assert {rule for _, rules in kept for rule in rules} <= set(DEFAULT_RULES)
    assert any(month in made for month in ("gennaio", "febbraio", "aprile", "giugno", "luglio", "agosto"))  # CLDR's Italian
    assert any(city in made for city in ("Milano", "Napoli", "Torino", "Firenze", "Venezia"))  # the toy names file
