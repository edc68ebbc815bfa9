"""Options grouped by what they are for in a command's plain ``--help``.

``clsd`` prints click's plain help (whole words wrapped at any width), where typer ignores an option's
``rich_help_panel``. A command made with ``cls=PanelledCommand`` lists its options under the panel each option
declares (in the order the panels first appear in the signature), so a command with many options reads as a few
short lists: where the input comes from, which backend, the LLM endpoint, the checks, the batch, the rules.
"""

from __future__ import annotations

from typing import Any

from typer.core import TyperCommand

from clsd_format.declared_settings import OPTIONS


class PanelledCommand(TyperCommand):
    """A typer command whose plain help groups the options by their ``rich_help_panel``."""

    # ``Any``: typer vendors click from 0.2x on and used click itself before; both have these methods.
    def format_options(self, ctx: Any, formatter: Any) -> None:
        arguments: list[tuple[str, str]] = []
        panels: dict[str, list[tuple[str, str]]] = {}
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            if param.param_type_name == "argument":
                arguments.append(record)
            else:
                panels.setdefault(getattr(param, "rich_help_panel", None) or OPTIONS, []).append(record)
        if arguments:
            with formatter.section("Arguments"):
                formatter.write_dl(arguments)
        for panel, records in panels.items():
            with formatter.section(panel):
                formatter.write_dl(records)
