"""Commands made from settings declared once (:mod:`clsd_format.declared_settings`).

A command function here takes settings objects, annotated with their classes; :func:`declared_command` gives typer a
signature of one parameter per declared field (its type, default, help, panel and name read from the field) and
calls the function with the settings objects built back from the parsed values, by name. So ``clsd generate`` has
as many options as its settings have declared fields, and none is written twice.

Settings that plug-ins declare (an answer check's) are options too, but they are made by the command itself
(:class:`PluginOptionsCommand`) once it is the command being run: reading plug-ins when ``clsd`` starts would let
one broken plug-in end every command, ``clsd --help`` included.
"""

from __future__ import annotations

import inspect
import re
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import MISSING, dataclass, field, replace
from typing import Annotated, Any

import typer

from clsd_cli.help_panels import PanelledCommand
from clsd_format.declared_settings import DeclaredField, build, declared_fields
from clsd_format.errors import CLSDError
from clsd_format.extras import require_extra

PLUGIN_SOURCE = "clsd_plugin_settings"  # the attribute of a command's function: how to read its plug-ins' settings
# The attribute of a command's function naming the extra it needs and how to say the command: checked before the
# plug-ins' settings objects are built, since building them may import what the extra installs.
NEEDS_EXTRA = "clsd_needs_extra"
PLUGIN_VALUES = "clsd plug-in settings"  # the key of the click context's meta: the plug-ins' settings objects
CONTEXT = "plugin_context"  # the parameter of a command with plug-in settings that receives the click context


# In a help text, ``{--field}`` stands for the option that sets ``field`` in the same command: a help names another
# option from its declaration, never by hand ("with {--backend} llm" reads "with --backend llm").
OPTION_PLACEHOLDER = re.compile(r"\{--(\w+)\}")


def help_text(text: str, options: Mapping[str, str]) -> str:
    """``text`` with each ``{--field}`` replaced by ``options[field]``, the command's option for that field; naming a
    field the command does not offer is a TypeError, at import, never a help that names a missing option."""

    def option(match: re.Match[str]) -> str:
        if match.group(1) not in options:
            raise TypeError(f"a help text names {match.group(0)}, which the command does not offer")
        return options[match.group(1)]

    return OPTION_PLACEHOLDER.sub(option, text)


def _options(found: Sequence[DeclaredField]) -> dict[str, str]:
    return {item.path[-1]: item.declared.option_name(item.path[-1]) for item in found}


def option_info(item: DeclaredField, options: Mapping[str, str] | None = None) -> Any:
    """The typer ``Option`` (or ``Argument``) of one declared field; ``options``, the command's options by field, for
    the ``{--field}`` its help names (none where not given)."""
    declared = replace(item.declared, help=help_text(item.declared.help, options or {}))
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
        max=declared.maximum,
        envvar=declared.envvar,
    )


def option_of(cls: type, field_name: str) -> Any:
    """The typer ``Option`` of one declared field of ``cls``, for a command that takes that setting alone."""
    found = next((item for item in declared_fields(cls) if item.path[-1] == field_name), None)
    if found is None:
        raise TypeError(f"{cls.__name__} declares no option for {field_name!r}")
    return option_info(found, _options(list(declared_fields(cls))))


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


@dataclass(frozen=True)
class Offered:
    """How a command offers a settings class it shares with others (annotate its parameter ``Annotated[Cls, Offered(...)]``):
    ``without``, fields it does not offer (they keep their default, or a value the library call sets from another
    group); ``panel``, the help panel all its options are listed under in this command; ``help``, a field's help
    where this command uses it for something narrower (the judge's token limit is per verdict)."""

    without: tuple[str, ...] = ()
    panel: str | None = None
    help: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Group:
    """One settings parameter of a command: its class, the object whose values are its defaults (the parameter's
    default in the command function, else the class's own), and how the command offers it."""

    cls: type
    defaults: Any = None
    offered: Offered = Offered()

    def fields(self) -> list[DeclaredField]:
        offered = self.offered
        found = [item for item in declared_fields(self.cls, (), self.defaults) if item.path[-1] not in offered.without]
        return [
            replace(
                item,
                declared=replace(
                    item.declared,
                    panel=offered.panel or item.declared.panel,
                    help=offered.help.get(item.path[-1], item.declared.help),
                ),
            )
            for item in found
        ]

    def build(self, values: dict[str, Any]) -> Any:
        return build(self.cls, values, self.defaults, self.offered.without)


def parameters(groups: Mapping[str, type | Group], panels: Sequence[str] = ()) -> list[inspect.Parameter]:
    """One keyword parameter per declared field of every settings class, grouped by panel in ``panels``' order (the
    help lists them so); a name two fields would take is refused at import."""
    found = [item for group in groups.values() for item in _group(group).fields()]
    names = [item.name for item in found]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise TypeError(f"settings declare the option name(s) {twice} more than once")
    options = _options(found)
    order = {panel: index for index, panel in enumerate(panels)}
    found.sort(key=lambda item: (not item.declared.argument, order.get(item.declared.panel, len(order))))
    return [
        inspect.Parameter(
            item.name,
            inspect.Parameter.KEYWORD_ONLY,
            default=_option_default(item),
            annotation=Annotated[_option_type(item), option_info(item, options)],
        )
        for item in found
    ]


def _group(group: type | Group) -> Group:
    return group if isinstance(group, Group) else Group(group)


def _groups(function: Callable[..., None], names: Sequence[str]) -> dict[str, Group]:
    """The settings parameters of a command function, each with its defaults object and the fields it leaves out."""
    hints = typing.get_type_hints(function, include_extras=True)
    signature = inspect.signature(function).parameters
    groups = {}
    for name in names:
        kind, offered = hints[name], Offered()
        if typing.get_origin(kind) is Annotated:
            kind, *marks = typing.get_args(kind)
            offered = next((mark for mark in marks if isinstance(mark, Offered)), offered)
        default = signature[name].default
        groups[name] = Group(kind, None if default is inspect.Parameter.empty else default, offered)
    return groups


@dataclass
class _PluginOptions:
    """The options of the plug-ins' settings classes, as one click command typer made of their fields (its params,
    and its callback, which turns parsed values into the settings objects), or why they cannot be made."""

    command: Any = None
    failure: CLSDError | None = None


def _plugin_options(source: Callable[[], Sequence[type]], taken: set[str]) -> _PluginOptions:
    """The plug-ins' options, made now; a plug-in that cannot be loaded, or an option name a built-in one has, is the
    failure (one line naming it)."""
    try:
        classes = tuple(source())
    except CLSDError as exc:  # a plug-in that cannot be loaded: clsd_format.plugins.PluginError
        return _PluginOptions(failure=exc)
    names = [item.name for cls in classes for item in declared_fields(cls)]
    twice = sorted({name for name in names if name in taken or names.count(name) > 1})
    if twice:
        owners = ", ".join(sorted(f"{cls.__module__}.{cls.__qualname__}" for cls in classes))
        return _PluginOptions(
            failure=CLSDError(
                f"the settings of plug-ins ({owners}) declare the option(s) {twice} twice, or as one the command has"
            )
        )
    if not names:
        return _PluginOptions()
    found = parameters({f"plugin {index}": cls for index, cls in enumerate(classes)})

    def settings(**values: Any) -> tuple[object, ...]:
        return tuple(build(cls, values) for cls in classes)

    settings.__signature__ = inspect.Signature(found)  # type: ignore[attr-defined]
    settings.__annotations__ = {parameter.name: parameter.annotation for parameter in found}
    holder = typer.Typer(add_completion=False)
    holder.command()(settings)
    return _PluginOptions(command=typer.main.get_command(holder))


class PluginOptionsCommand(PanelledCommand):
    """A command some of whose options plug-ins declare: they are made when this command is parsed or its help shown.

    A plug-in that cannot be loaded stops the command with the one line naming it (exit status 2), before its
    arguments are read: read first, an option of that plug-in would be answered "no such option", blaming the user.
    The command's ``--help`` still shows its built-in options and then that line, exit status 0. Help is asked for to
    learn what a command takes; the user of a broken plug-in needs both what the command is and why part of it is
    missing, and help refused with an error would hide the first while the command itself already refuses to run.
    """

    _made: _PluginOptions | None = None

    def _plugins(self) -> _PluginOptions:
        if self._made is None:
            source = getattr(self.callback, PLUGIN_SOURCE, None)
            taken = {param.name for param in self.params if param.name}
            self._made = _plugin_options(source, taken) if source is not None else _PluginOptions()
        return self._made

    def get_params(self, ctx: Any) -> list[Any]:
        """The command's own options, the plug-ins', then click's help option."""
        params = super().get_params(ctx)
        made = self._plugins().command
        own = len(self.params)
        return params if made is None else [*params[:own], *made.params, *params[own:]]

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        failure = self._plugins().failure
        if failure is not None and not set(args) & set(ctx.help_option_names):
            raise failure
        return super().parse_args(ctx, args)

    def format_options(self, ctx: Any, formatter: Any) -> None:
        super().format_options(ctx, formatter)
        failure = self._plugins().failure
        if failure is not None:
            with formatter.section("Options of plug-ins"):
                formatter.write_text(f"not shown: {failure}")

    def invoke(self, ctx: Any) -> Any:
        """The plug-ins' values taken out of the parsed ones, made into their settings objects for the command."""
        made = self._plugins().command
        needed = getattr(self.callback, NEEDS_EXTRA, None)
        if needed is not None:
            require_extra(*needed)
        if made is not None:
            values = {param.name: ctx.params.pop(param.name) for param in made.params if param.name in ctx.params}
            ctx.meta[PLUGIN_VALUES] = made.callback(**values)
        return super().invoke(ctx)


def declared_command(
    app: typer.Typer,
    *,
    panels: Sequence[str] = (),
    plugins: Callable[[], Sequence[type]] | None = None,
    **command: Any,
) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Register ``function`` on ``app`` as a command whose options are its settings classes' declared fields.

    ``function``'s parameters are settings objects, each annotated with its class; it is called with them by name.
    ``plugins``: settings classes other packages register (an answer check's), read when the command runs (the
    command's ``cls`` is then a :class:`PluginOptionsCommand`); their fields are options too, and their objects reach
    ``function`` as the keyword ``plugins`` (a tuple)."""
    if plugins is not None and not issubclass(command.get("cls", PanelledCommand), PluginOptionsCommand):
        raise TypeError("a command with plug-in settings is made with cls=PluginOptionsCommand")

    def register(function: Callable[..., None]) -> Callable[..., None]:
        hints = typing.get_type_hints(function)
        names = [name for name in inspect.signature(function).parameters if name != "plugins"]
        context = [name for name in names if hints[name] is typer.Context]  # typer's context, passed as it comes
        groups = _groups(function, [name for name in names if name not in context])
        # typer hands its context to one parameter: the command's own where it takes one, else one added for the plug-ins
        holder = context[0] if context else CONTEXT
        contexts = [holder] if plugins is not None and not context else context
        signature = [
            inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=typer.Context) for name in contexts
        ] + parameters(groups, panels)

        def run(**values: Any) -> None:
            built = {name: group.build(values) for name, group in groups.items()} | {name: values[name] for name in context}
            if plugins is not None:
                built["plugins"] = values[holder].meta.get(PLUGIN_VALUES, ())
            function(**built)

        run.__signature__ = inspect.Signature(signature)  # type: ignore[attr-defined]
        run.__annotations__ = {parameter.name: parameter.annotation for parameter in signature}
        run.__name__, run.__doc__ = function.__name__, function.__doc__
        if plugins is not None:
            setattr(run, PLUGIN_SOURCE, plugins)  # read by PluginOptionsCommand; wrappers copy it (functools.wraps)
        app.command(**command)(run)
        return function

    return register


__all__ = ["Group", "Offered", "PluginOptionsCommand", "declared_command", "option_info", "option_of", "parameters"]
