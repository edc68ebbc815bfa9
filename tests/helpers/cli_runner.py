"""Run a ``clsd`` command in-process: errors the command raises come back raised, not swallowed; or, as ``clsd``
runs it (its one error path), a command that must fail with exit status 2 and one error line."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from clsd_cli.app import app, main


def invoke(*args: str) -> str:
    result = CliRunner().invoke(app, list(args), catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code == 0, result.output
    return result.output


def exits_two(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    """The command run as ``clsd`` runs it, ending with exit status 2 and one error line: (stdout, the error line)."""
    capsys.readouterr()
    with pytest.raises(SystemExit) as done:
        main(argv)
    out, err = capsys.readouterr()
    (line,) = err.strip().splitlines()
    assert done.value.code == 2, line
    return out, line
