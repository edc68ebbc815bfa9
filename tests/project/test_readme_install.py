"""The README's install section works from a clone, as written: the package is not on PyPI until it is published.

Read statically (an install downloads): the first block of "## Install" installs torch's CPU build as pytorch.org
documents it, then this checkout (``-e``) with extras pyproject.toml declares; it pins no version of torch and never
names the package by its PyPI name.
"""

from __future__ import annotations

import importlib.metadata
import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CPU_INDEX = "https://download.pytorch.org/whl/cpu"  # pytorch.org's CPU install


def _first_install_block() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("\n## Install\n") :]
    block = re.search(r"```bash\n(.*?)```", section, re.S)
    assert block is not None, "README.md's Install section has no bash block"
    return block.group(1)


def test_the_first_install_block_installs_the_clone_with_its_extras_and_torch_for_the_cpu() -> None:
    extras = set(importlib.metadata.metadata("clsd-mteb").get_all("Provides-Extra") or [])  # pyproject.toml's, as installed
    installs = [shlex.split(line.split("#")[0]) for line in _first_install_block().splitlines() if line.startswith("pip install")]
    torch, clone = installs  # PyTorch's own CPU install first, then the clone
    assert torch == ["pip", "install", "torch", "--index-url", CPU_INDEX], shlex.join(torch)  # no version pinned
    assert "clsd-mteb" not in " ".join(clone) and "-c" not in clone, f"not on PyPI yet, nothing pinned: {shlex.join(clone)}"
    target = clone[clone.index("-e") + 1]
    named = set(re.findall(r"[\w-]+", target.partition("[")[2]))
    assert target.startswith(".") and named <= extras, f"{target}: extras {named - extras} not in pyproject.toml"


def test_the_makefile_installs_torch_from_the_index_the_readme_names() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert f"TORCH_CPU_INDEX ?= {CPU_INDEX}\n" in makefile
