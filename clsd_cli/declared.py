"""Commands made from settings declared once (:mod:`clsd_format.declared_settings`).

A command function here takes settings objects, annotated with their classes; :func:`declared_command` gives typer a
signature of one parameter per declared field (its type, default, help, panel and name read from the field) and
calls the function with the settings objects built back from the parsed values, by name. So ``clsd generate`` has
as many options as its settings have declared fields, and none is written twice.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable, Sequence
from dataclasses import MISSING
from typing import Annotated, Any

import typer

from clsd_format.declared_settings import DeclaredField, build, declared_fields


def option_info(item: DeclaredField) -> Any:
    """The typer ``Option`` (or ``Argument``) of one declared field."""
    declared = item.declared
    if declared.argument:
        return typer.Argument(
            help=declared.help, rich_help_panel=declared.panel, metavar=declared.metavar, callback=declared.check
        )
    names = tuple(declared.flag.split(",")) if declared.flag else ()
    return typer.Option(
        *names,
        help=declared.help,
        rich_help_panel=declared.panel,
        metavar=declared.metavar,
        callback=declared.check,
        min=declared.minimum,
        envvar=declared.envvar,
    )


def option_of(cls: type, field_name: str) -> Any:
    """The typer ``Option`` of one declared field of ``cls``, for a command that takes that setting alone."""
    found = next((item for item in declared_fields(cls) if item.path[-1] == field_name), None)
    if found is None:
        raise TypeError(f"{cls.__name__} declares no option for {field_name!r}")
    return option_info(found)


def _option_type(item: DeclaredField) -> Any:
    """The type the command line reads: a list for a tuple field (a repeatable option), a float for a field in units."""
    if typing.get_origin(item.type) is tuple:
        listed: Any = list[typing.get_args(item.type)[0]]  # type: ignore[misc]
        return listed if item.default is MISSING else listed | None
    if item.declared.unit != 1:
        return float
    return item.type


def _option_default(item: DeclaredField) -> Any:
    if item.default is MISSING:
        return inspect.Parameter.empty
    if typing.get_origin(item.type) is tuple:
        return None if not item.default else list(item.default)
    return item.default / item.declared.unit if item.declared.unit != 1 else item.default


def parameters(groups: dict[str, type], panels: Sequence[str] = ()) -> list[inspect.Parameter]:
    """One keyword parameter per declared field of every settings class, grouped by panel in ``panels``' order (the
    help lists them so); a name two fields would take is refused at import."""
    found = [item for cls in groups.values() for item in declared_fields(cls)]
    names = [item.name for item in found]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise TypeError(f"settings declare the option name(s) {twice} more than once")
    order = {panel: index for index, panel in enumerate(panels)}
    found.sort(key=lambda item: (not item.declared.argument, order.get(item.declared.panel, len(order))))
    return [
        inspect.Parameter(
            item.name,
            inspect.Parameter.KEYWORD_ONLY,
            default=_option_default(item),
            annotation=Annotated[_option_type(item), option_info(item)],
        )
        for item in found
    ]


def declared_command(
    app: typer.Typer,
    *,
    panels: Sequence[str] = (),
    plugins: Callable[[], Sequence[type]] | None = None,
    **command: Any,
) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Register ``function`` on ``app`` as a command whose options are its settings classes' declared fields.

    ``function``'s parameters are settings objects, each annotated with its class; it is called with them by name.
    ``plugins``: settings classes other packages register (an answer check's), read when the command is made; their
    fields are options too, and their objects reach ``function`` as the keyword ``plugins`` (a tuple)."""

    def register(function: Callable[..., None]) -> Callable[..., None]:
        hints = typing.get_type_hints(function)
        names = [name for name in inspect.signature(function).parameters if name != "plugins"]
        context = [name for name in names if hints[name] is typer.Context]  # typer's context, passed as it comes
        groups = {name: hints[name] for name in names if name not in context}
        extra = {f"plugin {index}": cls for index, cls in enumerate(plugins() if plugins is not None else ())}
        signature = [
            inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=typer.Context) for name in context
        ] + parameters(groups | extra, panels)

        def run(**values: Any) -> None:
            built = {name: build(cls, values) for name, cls in groups.items()} | {name: values[name] for name in context}
            if plugins is not None:
                built["plugins"] = tuple(build(cls, values) for cls in extra.values())
            function(**built)

        run.__signature__ = inspect.Signature(signature)  # type: ignore[attr-defined]
        run.__annotations__ = {parameter.name: parameter.annotation for parameter in signature}
        run.__name__, run.__doc__ = function.__name__, function.__doc__
        app.command(**command)(run)
        return function

    return register


__all__ = ["declared_command", "option_info", "option_of", "parameters"]
