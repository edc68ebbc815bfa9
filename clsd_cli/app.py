"""The top-level ``clsd`` typer app: mounts the command modules of this package and runs them through one error path.

Module-level imports here and in every command module are light (typer, clsd_format); see
``tests/cli/test_cli_startup.py``, which fails if ``clsd --help`` imports mteb, torch or another heavy library.

``clsd --help`` lists the commands in sections, in the order a user meets them (:data:`COMMAND_GROUPS`). A
renamed command keeps its old name for one release (:data:`RENAMED`): hidden from the help, it runs the command
after one line on stderr that gives the new name.

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
from typer.core import TyperGroup
from typer.models import CommandInfo

from clsd_cli.declared import NEEDS_EXTRA
from clsd_format.console import DEBUG_ENV, DEBUG_FLAG, run_cli
from clsd_format.extras import require_extra


class GroupedHelp(TyperGroup):
    """The top-level command whose help lists the subcommands in one section per help panel.

    typer draws ``rich_help_panel`` only in rich help, and ``clsd`` uses click's plain help (it wraps whole words at
    any width), so the sections are written here, in the order of the commands, their summaries in one column.
    """

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """One ``formatter.section`` per panel, as click writes its single "Commands" section."""
        shown = [(name, command) for name, command in self.commands.items() if not command.hidden]
        if not shown:
            return
        width = max(len(name) for name, _ in shown)
        sections: dict[str, list[tuple[str, str]]] = {}
        for name, command in shown:
            panel = getattr(command, "rich_help_panel", None) or "Commands"
            summary = command.get_short_help_str(formatter.width - 6 - width)
            sections.setdefault(panel, []).append((name.ljust(width), summary))  # padded: one column across sections
        for panel, rows in sections.items():
            with formatter.section(panel):
                formatter.write_dl(rows)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        """As typer resolves a name, but a mistyped one is answered with the near names of the help, never an old name."""
        if not args or args[0] in self.commands:
            return super().resolve_command(ctx, args)
        every = self.commands
        self.commands = {name: command for name, command in every.items() if not command.hidden}
        try:
            return super().resolve_command(ctx, args)  # typer suggests from self.commands
        finally:
            self.commands = every


app = typer.Typer(
    cls=GroupedHelp,
    help="Cross-Lingual Semantic Discrimination (CLSD) for MTEB: evaluate models, build datasets, analyse results. "
    f"Add {DEBUG_FLAG} (or set {DEBUG_ENV}=1) to any command to see tracebacks and library warnings.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    # click's plain help: wraps whole words at any width (rich's boxed columns cut option names at 80)
    rich_markup_mode=None,
)

# The command modules `clsd` offers, with the extra of pyproject.toml their commands need (None: the base install).
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
    "clsd_cli.answer_requests": "ray",
    "clsd_cli.publish": "generate",
    "clsd_cli.analyze": "analysis",
}

# The sections of `clsd --help` and the commands in each, in the order they are listed: every command in one.
COMMAND_GROUPS: dict[str, tuple[str, ...]] = {
    "Evaluate models and analyse results": ("evaluate", "analyze", "plan", "compare-sources", "mteb"),
    "Make a dataset": ("generate", "answer-requests", "translate", "judge", "build"),
    "Check by hand": ("check-sample", "check-import"),
    "Publish": ("push-dataset", "export-release", "push-results", "export-results", "export-training"),
}

# Old names of renamed commands, kept for one release as hidden aliases of the new ones.
RENAMED: dict[str, str] = {"push": "push-dataset", "sample": "check-sample", "import-sample": "check-import"}


def _command_name(info: CommandInfo) -> str:
    """The name typer gives the command: its own, else the function's with dashes."""
    return info.name or str(getattr(info.callback, "__name__", "")).lower().replace("_", "-")


def _needing_extra(callback: Callable[..., Any], extra: str, command: str) -> Callable[..., Any]:
    """``callback``, run only once every package of ``extra`` is installed (else one line and exit status 2)."""

    @functools.wraps(callback)  # typer reads the options from the wrapped signature
    def run(*args: Any, **kwargs: Any) -> Any:
        require_extra(extra, f"`clsd {command}`")
        return callback(*args, **kwargs)

    setattr(run, NEEDS_EXTRA, (extra, f"`clsd {command}`"))  # checked first by a command with plug-in options too
    return run


def _deprecated(callback: Callable[..., Any], old: str, new: str) -> Callable[..., Any]:
    """``callback`` run under its old name ``old``, after one line on stderr that gives its new name."""

    @functools.wraps(callback)  # typer reads the options from the wrapped signature
    def run(*args: Any, **kwargs: Any) -> Any:
        typer.echo(f"`clsd {old}` is now `clsd {new}`; the old name goes in the next release.", err=True)
        return callback(*args, **kwargs)

    return run


def _package_commands() -> dict[str, CommandInfo]:
    """Each package's commands by name, those of an extra behind the check that it is installed.

    A command module imports nothing of its extra at module level, so importing it cannot fail for a
    missing extra; any error here is a bug and is raised.
    """
    commands: dict[str, CommandInfo] = {}
    for module_name, extra in COMMAND_MODULES.items():
        module = importlib.import_module(module_name)
        for info in module.app.registered_commands:
            if extra is not None and info.callback is not None:
                info = copy.copy(info)  # the package's own app keeps its commands as they are
                info.callback = _needing_extra(info.callback, extra, _command_name(info))
            commands[_command_name(info)] = info
    return commands


def _mount_commands() -> None:
    """Add the commands to ``app`` in the order of :data:`COMMAND_GROUPS`, each in its panel, then the old names, hidden."""
    commands = _package_commands()
    grouped = [name for names in COMMAND_GROUPS.values() for name in names]
    if sorted(grouped) != sorted(commands) or set(RENAMED) & set(commands):  # a bug of these tables, never the user's
        raise RuntimeError(f"each command in one group of COMMAND_GROUPS: {sorted(grouped)} vs {sorted(commands)}")
    for panel, names in COMMAND_GROUPS.items():
        for name in names:
            info = copy.copy(commands[name])
            info.name, info.rich_help_panel = name, panel
            app.registered_commands.append(info)
    for old, new in RENAMED.items():
        alias = copy.copy(commands[new])
        alias.name, alias.hidden = old, True
        alias.callback = _deprecated(alias.callback, old, new) if alias.callback is not None else None
        app.registered_commands.append(alias)


_mount_commands()


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``clsd`` script."""
    run_cli(app, argv, prog_name="clsd")


if __name__ == "__main__":
    main()
