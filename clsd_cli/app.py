"""The top-level ``clsd`` typer app: mounts the command modules of this package and runs them through one error path.

Module-level imports here and in every command module are light (typer, clsd_format); see
``tests/cli/test_cli_startup.py``, which fails if ``clsd --help`` imports mteb, torch or another heavy library.

Every command is listed whatever is installed. The dataset and analysis commands need an extra of the
package (``clsd-mteb[generate]``, ``clsd-mteb[analysis]``); run without it, such a command stops before
it starts with one line naming the pip command, and exit status 2. Their ``--help`` works either way.
"""

from __future__ import annotations

import copy
import functools
import importlib
from collections.abc import Callable, Sequence
from typing import Any

import typer
from typer.models import CommandInfo

from clsd_format.console import run_cli
from clsd_format.extras import require_extra

app = typer.Typer(
    help="Cross-Lingual Semantic Discrimination (CLSD) for MTEB: evaluate models, build datasets, analyse results. "
    "Add --debug (or set CLSD_DEBUG=1) to any command to see tracebacks and library warnings.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    # click's plain help: wraps whole words at any width (rich's boxed columns cut option names at 80)
    rich_markup_mode=None,
)

# The command modules `clsd` offers, in the order `clsd --help` lists them, with the extra of
# pyproject.toml their commands need (None: the base install).
COMMAND_MODULES: dict[str, str | None] = {
    "clsd_cli.evaluate": None,
    "clsd_cli.sources": None,
    "clsd_cli.mteb_cli": None,
    "clsd_cli.training": None,
    "clsd_cli.submission": None,
    "clsd_cli.plan": None,
    "clsd_cli.generate": "generate",
    "clsd_cli.translate": "generate",
    "clsd_cli.judge": "generate",
    "clsd_cli.human_check": "generate",
    "clsd_cli.build": "generate",
    "clsd_cli.publish": "generate",
    "clsd_cli.analyze": "analysis",
}


def _command_name(info: CommandInfo) -> str:
    """The name typer gives the command: its own, else the function's with dashes."""
    return info.name or str(getattr(info.callback, "__name__", "")).lower().replace("_", "-")


def _needing_extra(callback: Callable[..., Any], extra: str, command: str) -> Callable[..., Any]:
    """``callback``, run only once every package of ``extra`` is installed (else one line and exit status 2)."""

    @functools.wraps(callback)  # typer reads the options from the wrapped signature
    def run(*args: Any, **kwargs: Any) -> Any:
        require_extra(extra, f"`clsd {command}`")
        return callback(*args, **kwargs)

    return run


def _mount_commands() -> None:
    """Add each package's commands to ``app``, those of an extra behind the check that it is installed.

    A command module imports nothing of its extra at module level, so importing it cannot fail for a
    missing extra; any error here is a bug and is raised.
    """
    for module_name, extra in COMMAND_MODULES.items():
        module = importlib.import_module(module_name)
        for info in module.app.registered_commands:
            if extra is not None and info.callback is not None:
                info = copy.copy(info)  # the package's own app keeps its commands as they are
                info.callback = _needing_extra(info.callback, extra, _command_name(info))
            app.registered_commands.append(info)


_mount_commands()


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``clsd`` script."""
    run_cli(app, argv, prog_name="clsd")


if __name__ == "__main__":
    main()
