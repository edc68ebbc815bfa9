"""No command takes more than a handful of parameters: a command's settings are declared once, in settings objects.

``clsd generate``, ``evaluate``, ``translate``, ``judge``, ``build`` and ``analyze`` are made from settings dataclasses
(:mod:`clsd_cli.declared`); a command that grew a long list of parameters again would be a setting declared twice
(its option here, its field there). Read from the source with ``ast``, so a helper function counts as much as a command.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MOST = 7  # parameters of any function in clsd_cli


def _counts() -> dict[str, int]:
    found = {}
    for path in sorted((ROOT / "clsd_cli").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                arguments = node.args
                names = [a.arg for a in arguments.posonlyargs + arguments.args + arguments.kwonlyargs]
                found[f"{path.relative_to(ROOT)}:{node.name}"] = len([n for n in names if n not in ("self", "cls")])
    return found


def test_no_function_of_the_cli_takes_more_than_a_handful_of_parameters() -> None:
    many = {name: count for name, count in _counts().items() if count > MOST}
    assert not many, f"functions with more than {MOST} parameters (declare their settings once, in a dataclass): {many}"


def test_the_generator_and_evaluation_commands_take_settings_objects() -> None:
    counts = _counts()
    assert counts["clsd_cli/generate.py:generate"] <= 2 and counts["clsd_cli/evaluate.py:evaluate"] <= 4
    assert counts["clsd_cli/analyze.py:analyze"] <= 4 and counts["clsd_cli/judge.py:judge"] <= 3
