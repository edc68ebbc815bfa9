"""The one error path of every command line (clsd_format.console): one redacted line, status 2 for the user, 1 for a bug."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import typer

from clsd_format.console import INTERNAL_ERROR, USER_ERROR, debug_requested, run_cli
from clsd_format.errors import DataError
from clsd_format.redaction import REDACTED

app = typer.Typer()


@app.command()
def demo(kind: str) -> None:
    """Fail the way ``kind`` says."""
    if kind == "user":
        raise DataError("empty cell", file="pairs.csv", row=3, column="de")
    if kind == "os":
        raise NotADirectoryError(20, "Not a directory", os.environ["CLSD_TEST_PATH"])
    if kind == "bug":
        raise ZeroDivisionError("sk-leakedinabug1234")
    if kind == "exit":
        raise typer.Exit(3)


@pytest.fixture(autouse=True)
def _keep_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """run_cli sets these with setdefault for the process it runs; already set, they stay, and are restored after."""
    for name in ("PYTHONWARNINGS", "TOKENIZERS_PARALLELISM", "TRANSFORMERS_VERBOSITY", "HF_HUB_VERBOSITY", "DATASETS_VERBOSITY"):
        monkeypatch.setenv(name, os.environ.get(name, "default"))
    monkeypatch.delenv("CLSD_DEBUG", raising=False)


def _run(args: list[str]) -> int:
    with pytest.raises(SystemExit) as caught:
        run_cli(app, args)
    return int(caught.value.code or 0)


def test_a_user_error_is_one_line_with_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["user"]) == USER_ERROR
    assert capsys.readouterr().err == "error: file pairs.csv, row 3, column 'de': empty cell\n"


def test_an_os_error_names_the_blocking_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    monkeypatch.setenv("CLSD_TEST_PATH", str(tmp_path / "notes.txt" / "out"))
    assert _run(["os"]) == USER_ERROR
    expected = f"error: NotADirectoryError: Not a directory ({tmp_path / 'notes.txt'} is a file, not a folder)\n"
    assert capsys.readouterr().err == expected


def test_a_bug_is_status_1_redacted_with_the_debug_hint(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["bug"]) == INTERNAL_ERROR
    err = capsys.readouterr().err
    assert (
        err
        == f"error: ZeroDivisionError: {REDACTED} (an internal error; run the command again with --debug to see its traceback)\n"
    )


def test_debug_re_raises_with_the_message_redacted() -> None:
    with pytest.raises(ZeroDivisionError) as caught:
        run_cli(app, ["bug", "--debug"])
    assert caught.value.args == (REDACTED,)


def test_exit_codes_and_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["exit"]) == 3
    assert _run(["user", "--bogus"]) == 2
    assert "No such option: --bogus" in capsys.readouterr().err


def test_debug_requested(monkeypatch: pytest.MonkeyPatch) -> None:
    assert debug_requested(["x", "--debug"]) and not debug_requested(["x"])
    for value, expected in (("1", True), ("yes", True), ("0", False), ("false", False), ("", False)):
        monkeypatch.setenv("CLSD_DEBUG", value)
        assert debug_requested([]) is expected
