"""The README's install section works from a clone, as written: the package is not on PyPI until it is published.

Read statically (an install downloads): the first block of "## Install" installs this checkout (``-e``) with extras
pyproject.toml declares and a constraints file the repository holds, and never names the package by its PyPI name.
"""

from __future__ import annotations

import importlib.metadata
import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _first_install_block() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("\n## Install\n") :]
    block = re.search(r"```bash\n(.*?)```", section, re.S)
    assert block is not None, "README.md's Install section has no bash block"
    return block.group(1)


def test_the_first_install_block_installs_the_clone_with_its_extras_and_constraints() -> None:
    extras = set(importlib.metadata.metadata("clsd-mteb").get_all("Provides-Extra") or [])  # pyproject.toml's, as installed
    installs = [shlex.split(line.split("#")[0]) for line in _first_install_block().splitlines() if line.startswith("pip install")]
    assert installs, "the first block installs nothing"
    for words in installs:
        assert "clsd-mteb" not in " ".join(words), f"not on PyPI yet: {shlex.join(words)}"
        target = words[words.index("-e") + 1]
        named = set(re.findall(r"[\w-]+", target.partition("[")[2]))
        assert target.startswith(".") and named <= extras, f"{target}: extras {named - extras} not in pyproject.toml"
        constraints = words[words.index("-c") + 1]
        assert (ROOT / constraints).is_file(), f"{constraints} is not in the repository"
