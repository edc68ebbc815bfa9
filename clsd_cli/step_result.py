"""How a command prints the typed result of its library call: its lines, then its problem as the failure (exit 2).

``clsd generate``, ``translate`` and ``judge`` each print what :mod:`clsd_generation.run.steps` returns; the result
says its lines (``lines()``) and why the step is not done (``problem()``), so that a script stops where the work is
unfinished. Only typer is imported here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import typer

from clsd_format.errors import CLSDError


class StepResult(Protocol):
    def lines(self) -> Sequence[str]: ...

    def problem(self) -> str | None: ...


def print_result(result: StepResult) -> None:
    """Every line of ``result`` on stdout; its problem, if any, raised as the command's error."""
    for line in result.lines():
        typer.echo(line)
    problem = result.problem()
    if problem is not None:
        raise CLSDError(problem)


__all__ = ["StepResult", "print_result"]
