"""No function of the packages runs past 60 lines (signature included), and none takes more than 8 parameters.

Settings travel as objects (``RunOptions``, ``LLMSettings``, ``RunContext``...), not one by one through layers.
Exempt from the parameter bound: a command's callback (its parameters are the command's options, which
the user names) and an override whose signature a library fixes.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE_FOLDERS = ("clsd_format", "clsd_mteb", "clsd_cli", "generation", "analysis", "benchmarks")
MAX_LINES = 60
MAX_PARAMETERS = 8
LIBRARY_SIGNATURES = {"_evaluate_subset"}  # mteb's AbsTask._evaluate_subset, overridden by the CLSD task


def _functions() -> Iterator[tuple[Path, ast.FunctionDef | ast.AsyncFunctionDef]]:
    for folder in PACKAGE_FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    yield path, node


def test_no_function_is_longer_than_sixty_lines() -> None:
    long = []
    for path, node in _functions():
        lines = (node.end_lineno or node.lineno) - node.lineno + 1
        if lines > MAX_LINES:
            long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({lines} lines)")
    assert not long, "split these functions: " + "; ".join(long)


def _is_command(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Decorated with ``@app.command()`` (or any ``@<typer app>.command``)."""
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(target, ast.Attribute) and target.attr in ("command", "callback"):
            return True
    return False


def test_no_internal_function_takes_more_than_eight_parameters() -> None:
    many = []
    for path, node in _functions():
        if _is_command(node) or node.name in LIBRARY_SIGNATURES:
            continue
        arguments = node.args
        names = [a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)]
        count = len([n for n in names if n not in ("self", "cls")]) + bool(arguments.vararg) + bool(arguments.kwarg)
        if count > MAX_PARAMETERS:
            many.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({count} parameters)")
    assert not many, "pass a settings object instead: " + "; ".join(many)
