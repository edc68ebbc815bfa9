"""Every `clsd` command is declared in `clsd_cli`, and `clsd generate --help` lists its options by what they are for."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from typer.testing import CliRunner

from clsd_cli.app import COMMAND_MODULES, app

ROOT = Path(__file__).resolve().parents[2]


def test_every_command_module_is_part_of_clsd_cli() -> None:
    assert all(module.startswith("clsd_cli.") for module in COMMAND_MODULES), COMMAND_MODULES


def test_no_package_but_clsd_cli_declares_a_command() -> None:
    declaring = []
    for folder in ("clsd_format", "clsd_mteb", "generation", "analysis"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)]
            if any(isinstance(c.func.value, ast.Name) and c.func.value.id == "typer" and c.func.attr == "Typer" for c in calls):
                declaring.append(str(path.relative_to(ROOT)))
    assert not declaring, f"commands declared outside clsd_cli: {declaring}"


def test_generate_help_groups_the_options_and_shows_each_backend_apart() -> None:
    result = CliRunner().invoke(app, ["generate", "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    headings = re.findall(r"^(\S[^\n:]*(?::[^\n:]+)?):$", result.output, flags=re.M)
    assert headings == [
        "Arguments",
        "Input",
        "Run folder",
        "Backend and protocol",
        "LLM backend: endpoint and sampling",
        "LLM backend: Batch API and request files",
        "Checks of every distractor",
        "Checks of LLM answers",
        "Rule backend",
        "Options",
    ], headings

    def section(title: str) -> str:
        return result.output.split(f"\n{title}:\n", 1)[1].split("\n\n", 1)[0]

    assert "--rules" in section("Rule backend") and "--base-url" not in section("Rule backend")
    assert "--run-anyway" in section("Rule backend")
    assert "--base-url" in section("LLM backend: endpoint and sampling") and "--rules" not in section(
        "LLM backend: endpoint and sampling"
    )
    assert "--batch " in section("LLM backend: Batch API and request files")
