"""Nothing in the repository speaks of the machine it was written on as "this" one: a user reads the files on
theirs, CI on another. What holds where the project was measured is said in docs/ in neutral words (a 2-core
x86-64 VM, the date, the version).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PHRASE = "this " + "machine"  # written in two parts, so that this file does not name it


def test_no_tracked_file_speaks_of_this_machine() -> None:
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout.decode().split("\0")
    found = []
    for name in filter(None, tracked):
        path = ROOT / name
        if not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # a binary file
        found += [f"{name}:{n}" for n, line in enumerate(text.splitlines(), 1) if PHRASE in line.lower()]
    assert not found, found
