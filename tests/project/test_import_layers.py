"""The packages depend on each other in one direction only, and no two modules import each other.

``clsd_format`` <- ``clsd_mteb`` <- ``clsd_analysis`` and ``clsd_format`` <- ``clsd_generation``; the
``clsd`` command (``clsd_cli``) sits on top and may use all four.
Read from the source with ``ast`` (every ``import`` and ``from ... import``, also inside functions and
``TYPE_CHECKING`` blocks), so neither a lazy import nor one for typing only can hide a cycle.

Between modules (also inside one package) the graph holds every import: at module level, inside
functions (a lazy import still runs, only later) and under ``if TYPE_CHECKING:``. A circle that only
the type checker follows still ties two modules into one: neither can be read, tested or moved
without the other, and it turns into an import error the day one of those imports is needed at run
time. An edge goes to the module named:
``from clsd_mteb.tasks import X`` and ``from clsd_mteb import tasks`` to ``clsd_mteb.tasks``;
``import clsd_mteb`` and ``from clsd_mteb import get_tasks`` to the package's ``__init__``. Importing
``clsd_mteb.tasks`` also runs ``clsd_mteb/__init__.py`` first, but that implicit step is no edge:
Python always finishes a package's ``__init__`` before handing out its modules, so it cannot close a
circle. A module that names its own package, on the other hand, needs what ``__init__`` defines, and
``__init__`` importing that module back is a circle like any other.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE_DIRS = {
    "clsd_format": "clsd_format",
    "clsd_mteb": "clsd_mteb",
    "clsd_analysis": "analysis/clsd_analysis",
    "clsd_generation": "generation/clsd_generation",
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


MODULE_DIRS = {package: ROOT / folder for package, folder in PACKAGE_DIRS.items()}


def _module_files() -> dict[str, Path]:
    """Every module of the five packages by dotted name (a package by its ``__init__.py``)."""
    modules: dict[str, Path] = {}
    for package, folder in MODULE_DIRS.items():
        for path in sorted(folder.rglob("*.py")):
            parts = [package, *path.relative_to(folder).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def _module_imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules among ``known`` that module ``name`` (file ``path``) imports, for typing too (module docstring)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()

    def add(module: str) -> None:
        while module and module not in known:  # `import a.b.c` of a name defined in a.b: the module a.b
            module = module.rpartition(".")[0]
        if module:
            targets.add(module)

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                add(submodule if submodule in known else base)
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", getattr(node.func, "attr", None)) in {"import_module", "__import__"}
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            add(node.args[0].value)
    return targets - {name}


def _module_graph() -> dict[str, set[str]]:
    files = _module_files()
    return {name: _module_imports(name, path, set(files)) for name, path in files.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_there_is_no_import_cycle_between_modules() -> None:
    graph = _module_graph()
    cycles = _cycles(graph)
    described = ["; ".join(f"{m} imports {sorted(graph[m] & set(cycle))}" for m in cycle) for cycle in cycles]
    assert not cycles, "modules that import each other (typing imports included): " + " | ".join(described)


def test_the_module_graph_counts_lazy_typing_and_own_package_imports(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("from pkg.a import f\n")
    (package / "a.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from pkg.c import C\nelse:\n    import json\n"
        "def f():\n    from . import b\n    import pkg\n"
    )
    (package / "b.py").write_text("import importlib\nimportlib.import_module('pkg.a')\n")
    (package / "c.py").write_text("from pkg.a import f\n")
    (package / "d.py").write_text("import typing\nif typing.TYPE_CHECKING:\n    from pkg.e import E\n")
    (package / "e.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import d\n")
    names = ["pkg", "pkg.a", "pkg.b", "pkg.c", "pkg.d", "pkg.e"]
    files = [package / "__init__.py", *(package / f"{n.split('.')[1]}.py" for n in names[1:])]
    graph = {name: _module_imports(name, path, set(names)) for name, path in zip(names, files, strict=True)}
    assert graph == {
        "pkg": {"pkg.a"},
        "pkg.a": {"pkg", "pkg.b", "pkg.c"},
        "pkg.b": {"pkg.a"},
        "pkg.c": {"pkg.a"},
        "pkg.d": {"pkg.e"},
        "pkg.e": {"pkg.d"},
    }
    # a circle of typing imports alone (d <-> e) fails like one that runs
    assert _cycles(graph) == [["pkg", "pkg.a", "pkg.b", "pkg.c"], ["pkg.d", "pkg.e"]]


# The layers inside each package, lowest first: a module may import its own unit and the units of lower layers,
# never a unit of its own layer or above. A unit is a subpackage or a top-level module; "*" stands for every
# top-level module (and the package's ``__init__``) not named in a layer. docs/architecture.md draws these.
LAYERS: dict[str, list[tuple[str, ...]]] = {
    "clsd_format": [("*",)],
    "clsd_mteb": [("encoders",), ("*",), ("publishing",)],
    "clsd_analysis": [("*",), ("sections",), ("report",), ("",)],  # its __init__ exports the report's call
    "clsd_generation": [("*",), ("core",), ("checks",), ("jobs",), ("llm", "rules"), ("dataset",), ("run",)],
    "clsd_cli": [("*",)],
}


def _unit(module: str, package: str) -> str:
    """The unit of ``module`` inside ``package``: its subpackage or top-level module, "" for the package's ``__init__``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == package else ""


def _layer_of(unit: str, package: str) -> int:
    layers = LAYERS[package]
    named = {name: level for level, layer in enumerate(layers) for name in layer if name != "*"}
    if unit in named:
        return named[unit]
    return next(level for level, layer in enumerate(layers) if "*" in layer)


def _layer_violations(graph: dict[str, set[str]]) -> list[str]:
    wrong = []
    for module, targets in sorted(graph.items()):
        package = module.split(".")[0]
        for target in sorted(targets):
            if target.split(".")[0] != package:
                continue
            unit, other = _unit(module, package), _unit(target, package)
            star = {"*"} & set(LAYERS[package][_layer_of(unit, package)])
            same_star = bool(star) and _layer_of(unit, package) == _layer_of(other, package)
            if unit == other or same_star:
                continue
            if _layer_of(other, package) >= _layer_of(unit, package):
                wrong.append(f"{module} imports {target}")
    return wrong


def test_every_subpackage_has_a_declared_layer() -> None:
    undeclared = []
    for package, folder in MODULE_DIRS.items():
        named = {name for layer in LAYERS[package] for name in layer}
        subpackages = {p.parent.name for p in folder.glob("*/__init__.py")}
        undeclared += [f"{package}.{name}" for name in sorted(subpackages - named)]
        assert sum("*" in layer for layer in LAYERS[package]) == 1, f"{package}: exactly one layer holds '*'"
    assert not undeclared, f"subpackages missing from LAYERS: {undeclared}"


def test_inside_each_package_every_import_points_down() -> None:
    wrong = _layer_violations(_module_graph())
    assert not wrong, "imports that point sideways or up the layers (LAYERS): " + "; ".join(wrong)


def test_the_layer_check_sees_an_import_up_and_sideways() -> None:
    graph = {
        "clsd_generation.core.checkpoint": {"clsd_generation.llm.client"},
        "clsd_generation.llm.live": {"clsd_generation.rules.backend", "clsd_generation.core.settings"},
        "clsd_generation.run.loop": {"clsd_generation.jobs.state"},
    }
    assert _layer_violations(graph) == [
        "clsd_generation.core.checkpoint imports clsd_generation.llm.client",
        "clsd_generation.llm.live imports clsd_generation.rules.backend",
    ]
