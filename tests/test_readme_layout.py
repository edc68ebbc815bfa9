"""The README's layout table names every module of every package, and nothing that is not there."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE_FOLDERS = ("clsd_mteb", "clsd_cli", "clsd_format", "generation", "analysis", "benchmarks")


def layout_rows() -> dict[str, str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        match = re.match(r"\| `([^`]+)/` \| (.*) \|$", line)
        if match:
            rows[match.group(1)] = match.group(2)
    return rows


def test_every_module_is_in_the_layout_table() -> None:
    rows = layout_rows()
    assert set(PACKAGE_FOLDERS) <= set(rows)
    for folder in PACKAGE_FOLDERS:
        named = set(re.findall(r"`([\w/]+\.py|\w+/)`", rows[folder]))
        for path in sorted((ROOT / folder).glob("*")):
            if path.name.startswith(("_", ".")) or (path.is_file() and path.suffix != ".py"):
                continue
            entry = path.name + ("/" if path.is_dir() else "")
            assert entry in named, f"README layout: {folder}/{entry} is not named in the row of {folder}/"
        for name in named:
            assert (ROOT / folder / name).exists(), f"README layout names {folder}/{name}, which does not exist"
