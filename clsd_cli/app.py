"""The top-level ``clsd`` typer app: mounts each package's commands and runs them through one error path.

Module-level imports here and in every mounted ``cli`` module are light (typer, clsd_format); see
``tests/test_cli_startup.py``, which fails if ``clsd --help`` imports mteb, torch or another heavy library.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence

import typer

from clsd_format.console import run_cli

app = typer.Typer(
    help="Cross-Lingual Semantic Discrimination (CLSD) for MTEB: evaluate models, build datasets, analyse results. "
    "Add --debug (or set CLSD_DEBUG=1) to any command to see tracebacks and library warnings.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)

# The packages whose commands `clsd` offers, in the order `clsd --help` lists them.
COMMAND_MODULES = ("clsd_cli.evaluate", "clsd_generation.cli", "clsd_analysis.cli")


def _mount_commands() -> None:
    """Add each package's commands to ``app``; a package that is not installed adds none."""
    for module_name in COMMAND_MODULES:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name is None or not module_name.startswith(exc.name):
                raise
            continue
        app.registered_commands.extend(module.app.registered_commands)


_mount_commands()


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``clsd`` script."""
    run_cli(app, argv, prog_name="clsd")


if __name__ == "__main__":
    main()
