"""Every path a `clsd` command takes as a folder says what it is when it is not one, before the command runs.

The commands' parameters are read from the `clsd` app itself, so a folder option added later is tried too: each
one that takes a path (the options naming a file aside) is given a regular file, a link to a file and, where the
folder must exist, a missing path; the answer is one line with exit status 2 naming the path for what it is.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_args

import pytest
import typer

from clsd_cli.app import app, main

# The path options that name a file, not a folder (a sheet, a prompt file, a request or answers file, a CSV).
FILE_PARAMETERS = {"prompt_file", "requests_out", "requests", "answers", "against", "sheet", "alignment"}


def _takes_path(annotation: Any) -> bool:
    return annotation is Path or any(_takes_path(arg) for arg in get_args(annotation))


def _folder_parameters() -> Iterator[tuple[str, Any, list[Any]]]:
    """(command, parameter, the command's positional arguments) for every path parameter that is no file's."""
    command = typer.main.get_command(app)
    for name, sub in command.commands.items():  # type: ignore[attr-defined]
        arguments = [p for p in sub.params if p.param_type_name == "argument"]
        for param in sub.params:
            if _takes_path(param.type_descriptor.annotation) and param.name not in FILE_PARAMETERS:
                yield name, param, arguments


FOLDER_PARAMETERS = list(_folder_parameters())


def _command_line(command: str, param: Any, arguments: list[Any], path: Path, folder: Path) -> list[str]:
    """The command with ``path`` for ``param``; the positional arguments before it get an existing folder."""
    if param.param_type_name == "option":
        return [command, param.opts[0], str(path)]
    before = arguments[: arguments.index(param)]
    return [command, *(str(folder) for _ in before), str(path)]


def _answer(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as done:
        main(argv)
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert done.value.code == 2, line
    return line


def test_the_folder_parameters_are_found() -> None:
    found = {(command, param.name) for command, param, _ in FOLDER_PARAMETERS}
    assert {("plan", "results_dir"), ("analyze", "results_dir"), ("analyze", "dataset"), ("build", "out")} <= found


@pytest.mark.parametrize(
    ("command", "param", "arguments"), FOLDER_PARAMETERS, ids=[f"{c}-{p.name}" for c, p, _ in FOLDER_PARAMETERS]
)
def test_a_folder_parameter_given_something_else_says_what_it_is(
    command: str, param: Any, arguments: list[Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, afile, alink = tmp_path / "folder", tmp_path / "afile", tmp_path / "alink"
    folder.mkdir()
    afile.write_text("notes\n", encoding="utf-8")
    alink.symlink_to(afile)
    label = f"{param.opts[0]} " if param.param_type_name == "option" else ""
    line = _answer(_command_line(command, param, arguments, afile, folder), capsys)
    assert line.startswith(f"error: {label}{afile} is a file, not a "), line
    line = _answer(_command_line(command, param, arguments, alink, folder), capsys)
    assert line.startswith(f"error: {label}{alink} is a link to a file, not a "), line
    if not getattr(param.callback, "may_be_missing", True):  # a folder to read: it must be there
        line = _answer(_command_line(command, param, arguments, tmp_path / "missing", folder), capsys)
        assert line.startswith("error: ") and line.endswith(f"{tmp_path / 'missing'} does not exist."), line
    assert not (afile.read_text(encoding="utf-8") != "notes\n" or any(folder.iterdir()))  # nothing was written


def test_clsd_analyze_given_a_file_for_a_results_folder_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "A").mkdir()
    (tmp_path / "afile").write_text("", encoding="utf-8")
    line = _answer(["analyze", str(tmp_path / "A"), str(tmp_path / "afile"), "--out", str(tmp_path / "report")], capsys)
    assert line == f"error: {tmp_path / 'afile'} is a file, not a results folder."
    assert not (tmp_path / "report").exists()


def test_a_data_folder_from_the_environment_is_named_by_its_variable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "afile").write_text("", encoding="utf-8")
    monkeypatch.setenv("CLSD_DATA_DIR", str(tmp_path / "afile"))
    line = _answer(["analyze", str(tmp_path), "--out", str(tmp_path / "report")], capsys)
    assert line == f"error: $CLSD_DATA_DIR {tmp_path / 'afile'} is a file, not a data folder."
