"""The packages depend on each other in one direction only.

``clsd_format`` <- ``clsd_mteb`` <- ``clsd_analysis`` and ``clsd_format`` <- ``clsd_generation``; the
``clsd`` command (``clsd_cli``) sits on top and may use all four.
Read from the source with ``ast`` (every ``import`` and ``from ... import``, also inside functions and
``TYPE_CHECKING`` blocks), so a lazy import cannot hide a cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE_DIRS = {
    "clsd_format": "clsd_format",
    "clsd_mteb": "clsd_mteb",
    "clsd_analysis": "analysis",
    "clsd_generation": "generation",
    "clsd_cli": "clsd_cli",
}
ALLOWED = {
    "clsd_format": set(),
    "clsd_mteb": {"clsd_format"},
    "clsd_analysis": {"clsd_format", "clsd_mteb"},
    "clsd_generation": {"clsd_format"},
    "clsd_cli": {"clsd_format", "clsd_mteb", "clsd_analysis", "clsd_generation"},
}


def _imported_packages(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, (ast.Name, ast.Attribute))
            and getattr(node.func, "id", getattr(node.func, "attr", None)) in {"import_module", "__import__"}
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names.add(node.args[0].value.split(".")[0])
    return names & set(PACKAGE_DIRS)


def _edges() -> list[tuple[str, str, Path]]:
    edges = []
    for package, folder in PACKAGE_DIRS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            edges.extend((package, other, path) for other in _imported_packages(path) if other != package)
    return edges


@pytest.mark.parametrize("package", list(PACKAGE_DIRS))
def test_each_package_imports_only_the_layers_below_it(package: str) -> None:
    wrong = [
        f"{path.relative_to(ROOT)} imports {other}"
        for pkg, other, path in _edges()
        if pkg == package and other not in ALLOWED[pkg]
    ]
    assert not wrong, f"{package} may import only {sorted(ALLOWED[package])}: " + "; ".join(wrong)


def test_there_is_no_import_cycle_between_the_packages() -> None:
    graph: dict[str, set[str]] = {package: set() for package in PACKAGE_DIRS}
    for package, other, _ in _edges():
        graph[package].add(other)

    def reaches(start: str, goal: str, seen: frozenset[str] = frozenset()) -> bool:
        return any(nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})) for nxt in graph[start])

    cycles = [package for package in graph if reaches(package, package)]
    assert not cycles, f"import cycle through {cycles}: {graph}"


def test_the_checker_sees_a_lazy_import(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "def f():\n    from clsd_analysis.report import x\n    import importlib\n    importlib.import_module('clsd_mteb.models')\n"
    )
    assert _imported_packages(module) == {"clsd_analysis", "clsd_mteb"}
