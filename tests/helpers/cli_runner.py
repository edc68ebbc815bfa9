"""Run a ``clsd`` command in-process: errors the command raises come back raised, not swallowed."""

from __future__ import annotations

from typer.testing import CliRunner

from clsd_cli.app import app


def invoke(*args: str) -> str:
    result = CliRunner().invoke(app, list(args), catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code == 0, result.output
    return result.output
