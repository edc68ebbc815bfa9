"""Every name the user's guide, the docs and the changelog give as public resolves in the code.

A module path (`clsd_generation.llm.client`, `clsd_mteb.tasks.get_tasks`) imports and has the attribute named; a
source file named by its path (`clsd_generation/rules/registry.py`) exists; a `clsd` command exists and every option
written after it in the same code span or line of a code block is one of its options; an entry-point group a doc
declares is the one the code reads. A renamed command's old name, kept hidden for a release, is not a name to document.
The same holds for the strings of the code (messages, printed lines, help texts; docstrings aside): an option they
name is one a `clsd` command offers, and one of that command where a `clsd` command is written before it.
Names under a changelog's "Removed" and "Deprecated" headings, and the old side of a move it records ("`a.b` became
`c.d`", "`a.b` to `c.d`"), are exempt: they name what went or is going.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path
from typing import Any

import pytest
import typer

from clsd_analysis.sections import ENTRY_POINT_GROUP as SECTIONS_GROUP
from clsd_cli.analyze import section_classes
from clsd_cli.app import app
from clsd_format.declared_settings import declared_fields
from clsd_generation.checks.registry import ENTRY_POINT_GROUP as CHECKS_GROUP
from clsd_generation.rules.languages import ENTRY_POINT_GROUP
from clsd_mteb.models import ENTRY_POINT_GROUP as MODELS_GROUP

ROOT = Path(__file__).resolve().parents[2]
DOCS = [
    ROOT / "README.md",
    ROOT / "CHANGELOG.md",
    ROOT / "CONTRIBUTING.md",
    *sorted((ROOT / "docs").glob("*.md")),
    ROOT / "dataset_cards" / "FORMAT.md",
]
PACKAGE_FOLDERS = {"clsd_generation": "generation/clsd_generation", "clsd_analysis": "analysis/clsd_analysis"}
MODULE_PATH = re.compile(r"(?<![\w./])(clsd_(?:format|mteb|generation|analysis|cli)(?:\.[A-Za-z_]\w*)+)")
FILE_PATH = re.compile(r"(?<![\w./])((?:generation/|analysis/)?clsd_(?:format|mteb|generation|analysis|cli)(?:/[\w.]+)+\.py)")
REPO_FILE = re.compile(r"(?<![\w./-])((?:tests|scripts|benchmarks)/[\w./-]+\.(?:py|md|tsv|json))")
COMMAND = re.compile(r"(?:^|[`\s$(])clsd ([a-z][a-z-]*)((?:[^`\n|]*))")
READ_GROUPS = {ENTRY_POINT_GROUP, MODELS_GROUP, SECTIONS_GROUP, CHECKS_GROUP}  # the entry-point groups the code reads
ENTRY_GROUP = re.compile(r'\[project\.entry-points\."([^"]+)"\]')
OPTION = re.compile(r"(?<![\w{-])(--[a-z][a-z0-9-]*)")  # not a help's {--field}, which names a declared field
CODE_FOLDERS = ["clsd_cli", "clsd_format", "clsd_mteb", *PACKAGE_FOLDERS.values()]
# Options of other programs that the code's messages name, each with the program: not clsd's to offer.
OTHER_PROGRAMS = {"--no-deps": "pip install", "--output-folder": "mteb run"}


def _public_text(path: Path) -> str:
    """The text of ``path``, a changelog's without the sections that name what was removed or is going."""
    text = path.read_text(encoding="utf-8")
    return _changelog_public(text) if path.name == "CHANGELOG.md" else text


def _changelog_public(text: str) -> str:
    text = re.sub(r"^### (?:Removed|Deprecated)\n.*?(?=^##)", "", text, flags=re.S | re.M)
    return re.sub(r"`clsd_[\w.]+`(?= became|\s+to\s+`)", "", text)  # the old side of a move: "`a.b` became `c.d`"


def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            target: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        try:
            for name in parts[cut:]:
                target = getattr(target, name)
        except AttributeError:
            return False
        return True
    return False


def _file_exists(relative: str) -> bool:
    package = relative.split("/")[0]
    folder = PACKAGE_FOLDERS.get(package)
    return (ROOT / relative).is_file() or (folder is not None and (ROOT / folder).parent.joinpath(relative).is_file())


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of a module's docstring nodes (its own, its classes' and functions')."""
    return {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }


def _code_strings(source: str) -> list[tuple[int, str]]:
    """The strings of a module's code but its docstrings, by line: an f-string with each value as "{}"."""
    tree = ast.parse(source)
    docstrings = _docstrings(tree)
    parts = {id(value) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for value in node.values}
    strings = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            text = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
            strings.append((node.lineno, str(text)))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings | parts:
            strings.append((node.lineno, node.value))
    return strings


def _options_not_offered(source: str, commands: dict[str, Any]) -> list[str]:
    """The options ``source``'s strings name that no command offers (or, after `clsd NAME`, that command does not)."""
    offered = {name: _options_of(command) | set(OTHER_PROGRAMS) for name, command in commands.items()}
    offered["analyze"] |= {name for cls in section_classes() for name in _declared_options(cls)}  # added as it runs
    every = set().union(*offered.values())
    wrong = []
    for line, text in _code_strings(source):
        wrong += [f"line {line}: {option}" for option in OPTION.findall(text) if option not in every]
        for name, rest in COMMAND.findall(text):
            if name in offered and not commands[name].context_settings.get("ignore_unknown_options"):
                wrong += [f"line {line}: clsd {name} {option}" for option in OPTION.findall(rest) if option not in offered[name]]
    return wrong


def _options_of(command: Any) -> set[str]:
    return {opt for param in command.params for opt in (*param.opts, *param.secondary_opts)} | {"--help", "--debug"}


def _declared_options(cls: type) -> set[str]:
    """The options a settings class declares: each field's, both sides of an on/off pair ("--a/--no-a")."""
    names = set()
    for item in declared_fields(cls):
        flag = item.declared.flag or item.declared.option_name(item.path[-1])
        names |= {name for part in flag.split(",") for name in part.split("/") if name.startswith("--")}
    return names


def _commands() -> dict[str, Any]:
    """The commands of ``clsd`` by name, but the hidden old names (click's, or the copy typer vendors: both have ``commands``)."""
    commands = typer.main.get_command(app).commands  # type: ignore[attr-defined]
    return {name: command for name, command in commands.items() if not command.hidden}


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_module_path_and_file_a_doc_names_exists(doc: Path) -> None:
    text = _public_text(doc)
    names = {m.rstrip(".") for m in MODULE_PATH.findall(text)} - READ_GROUPS
    missing = sorted(name for name in names if not _resolves(name))
    missing += sorted({f for f in FILE_PATH.findall(text) if not _file_exists(f)})
    missing += sorted({f for f in REPO_FILE.findall(text) if not (ROOT / f).exists()})
    assert not missing, f"{doc.name} names what does not exist: {missing}"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_clsd_command_and_option_a_doc_names_exists(doc: Path) -> None:
    commands = _commands()
    wrong = []
    for name, rest in COMMAND.findall(_public_text(doc)):
        command = commands.get(name)
        if command is None:
            wrong.append(f"clsd {name}")
            continue
        if command.context_settings.get("ignore_unknown_options"):
            continue  # a pass-through (`clsd mteb ...`): its options are another program's
        known = {opt for param in command.params for opt in (*param.opts, *param.secondary_opts)} | {"--help", "--debug"}
        wrong += [f"clsd {name} {option}" for option in re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", rest) if option not in known]
    assert not wrong, f"{doc.name} names commands or options `clsd` does not have: {sorted(set(wrong))}"


def test_every_option_the_code_names_in_a_string_is_offered() -> None:
    commands = _commands()
    wrong = []
    for folder in CODE_FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            relative = path.relative_to(ROOT)
            wrong += [f"{relative} {where}" for where in _options_not_offered(path.read_text(encoding="utf-8"), commands)]
    assert not wrong, f"strings of the code name options `clsd` does not offer: {wrong}"


def test_an_option_no_command_offers_is_seen_in_a_message() -> None:
    source = '''
def f(n):
    """Docstrings may name --anything."""
    raise CLSDError(f"{n} is too small; raise --max-tokenz or run `clsd translate --max-tokens {n}`")
'''
    assert _options_not_offered(source, _commands()) == ["line 4: --max-tokenz", "line 4: clsd translate --max-tokens"]


# Options a message writes out by hand, each where the field that declares it sits in a layer the message's module may
# not import (tests/project/test_import_layers.py); every other message names an option through `option_name` or a
# help's `{--field}`, read from the declaration.
HAND_WRITTEN = {
    ("clsd_mteb/answer.py", "--run-dir"): "the generator's commands, in a package the plugin does not import",
    ("clsd_mteb/answer.py", "--out"): "the generator's commands, in a package the plugin does not import",
    ("clsd_mteb/answer.py", "--name"): "the generator's commands, in a package the plugin does not import",
}


def _hand_written_options(source: str, declared: set[str]) -> list[tuple[int, str]]:
    """The declared options ``source``'s strings write out (by line), but where a string declares one: a ``flag=``,
    a served setting's flag, a ``*_FLAG`` constant."""
    tree = ast.parse(source)
    skipped = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "flag":
            skipped |= {id(inner) for inner in ast.walk(node.value)}
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id.endswith("_FLAG") for t in node.targets):
            skipped |= {id(inner) for inner in ast.walk(node.value)}
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "served_setting" and node.args:
            skipped.add(id(node.args[0]))
    return [
        (node.lineno, option)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped
        for option in OPTION.findall(node.value)
        if option in declared
    ]


def test_no_message_writes_out_a_declared_option() -> None:
    commands = _commands()
    declared = set().union(*(_options_of(command) for command in commands.values())) - {"--help", "--debug"}
    declared |= {name for cls in section_classes() for name in _declared_options(cls)}
    wrong = []
    for folder in CODE_FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            found = _hand_written_options(path.read_text(encoding="utf-8"), declared)
            wrong += [f"{relative} line {line}: {option}" for line, option in found if (relative, option) not in HAND_WRITTEN]
    assert not wrong, f"options written out by hand, not read from their declaration (option_name, {{--field}}): {wrong}"


def test_an_option_written_out_by_hand_is_seen() -> None:
    source = """
BATCH = setting(8, help="With {--model}, per batch.", panel="x", flag="--batch-size")
def f(n):
    raise CLSDError(f"{n} is too large; lower --batch-size")
"""
    assert _hand_written_options(source, {"--batch-size", "--model"}) == [(4, "--batch-size")]


def test_every_entry_point_group_a_doc_declares_is_read() -> None:
    groups = {group for doc in DOCS for group in ENTRY_GROUP.findall(_public_text(doc))}
    for module in ("generation/clsd_generation/rules/languages/__init__.py", "analysis/clsd_analysis/sections/__init__.py"):
        groups |= set(ENTRY_GROUP.findall((ROOT / module).read_text(encoding="utf-8")))
    assert groups <= READ_GROUPS, f"entry-point groups in the docs: {groups}; the code reads {READ_GROUPS}"


def test_the_checks_see_a_missing_name() -> None:
    assert _resolves("clsd_mteb.tasks.get_tasks") and not _resolves("clsd_generation.llm_backend")
    assert not _resolves("clsd_mteb.tasks.no_such_name")
    assert _file_exists("clsd_generation/rules/registry.py") and not _file_exists("clsd_generation/nothing.py")
    assert REPO_FILE.findall("in `tests/cli/test_table1.py` and tests/none.py") == ["tests/cli/test_table1.py", "tests/none.py"]
    assert not (ROOT / "tests/none.py").exists()
    assert COMMAND.findall("run `clsd generate x --run-dir r --bogus`") == [("generate", " x --run-dir r --bogus")]
    assert "push-dataset" in _commands() and "push" not in _commands()  # an old name runs, but is no name to document
    changelog = "## [Unreleased]\n\n### Deprecated\n\n- `clsd push`\n\n### Removed\n\n- `clsd mine`\n\n## [0.1.0]\n"
    assert _changelog_public(changelog) == "## [Unreleased]\n\n## [0.1.0]\n"
