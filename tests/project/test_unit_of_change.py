"""The unit-of-change table of docs/architecture.md counts what the toys from outside the package really needed.

Each row of its table "From a package of its own" names a toy under ``tests/data`` that a test of the product
installs the way a third-party package would (on the path, with a dist-info) and sees at work: the toy language
makes distractors, the toy answer check refuses a candidate, the toy model is evaluated, the toy section is in
the report. The files a toy needed are its own files and one line in its package's ``pyproject.toml`` (the
dist-info's ``entry_points.txt`` stands for it): this test counts them and compares the count with the table's.
"""

from __future__ import annotations

import configparser
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARCHITECTURE = ROOT / "docs" / "architecture.md"
HEADING = "### From a package of its own"
ROW = re.compile(r"^\| (?P<unit>[^|]+) \| (?P<what>[^|]+) \| (?P<files>\d+) \| `(?P<toy>tests/data/[^`]+)` \|$")


def _rows() -> list[re.Match[str]]:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    assert HEADING in text, f"{ARCHITECTURE.name} has no section {HEADING!r}"
    table = text.split(HEADING, 1)[1].split("\n#", 1)[0]
    return [match for line in table.splitlines() if (match := ROW.match(line.strip()))]


def files_needed(toy: Path) -> int:
    """The toy's own files, and its package's pyproject.toml for the one entry-point line (its dist-info's one entry)."""
    infos = list(toy.glob("*.dist-info"))
    assert len(infos) == 1, f"{toy} should hold one dist-info, the stand-in for its package's pyproject.toml"
    entries = configparser.ConfigParser(delimiters=("=",))
    entries.read(infos[0] / "entry_points.txt", encoding="utf-8")
    assert sum(len(entries[group]) for group in entries.sections()) == 1, f"{infos[0]}: one entry point, one line"
    own = [path for path in toy.rglob("*") if path.is_file() and infos[0] not in path.parents and "__pycache__" not in path.parts]
    return len(own) + 1


def test_the_table_lists_every_toy() -> None:
    toys = {match["toy"] for match in _rows()}
    assert toys == {f"tests/data/{path.name}" for path in (ROOT / "tests" / "data").glob("toy_*")}


@pytest.mark.parametrize("row", _rows(), ids=lambda row: row["unit"])
def test_each_count_is_the_files_its_toy_needed(row: re.Match[str]) -> None:
    assert int(row["files"]) == files_needed(ROOT / row["toy"]), f"{row['unit']}: the table says {row['files']}"


def test_the_count_sees_a_file_more(tmp_path: Path) -> None:
    toy = tmp_path / "toy_thing"
    (toy / "toy_thing-0.1.dist-info").mkdir(parents=True)
    (toy / "toy_thing-0.1.dist-info" / "entry_points.txt").write_text("[group]\nx = toy_thing:X\n", encoding="utf-8")
    (toy / "toy_thing.py").write_text("X = 1\n", encoding="utf-8")
    assert files_needed(toy) == 2
    (toy / "toy_thing_data.tsv").write_text("a\tb\n", encoding="utf-8")
    assert files_needed(toy) == 3
