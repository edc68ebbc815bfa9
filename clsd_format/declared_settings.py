"""Settings declared once: a settings dataclass's field carries the command-line option that sets it.

The settings of ``clsd generate``, ``evaluate``, ``translate``, ``judge``, ``build`` and ``analyze`` are frozen
dataclasses: their defaults and their validation (``__post_init__``) are in one place, and a Python user builds them
as a ``clsd`` user sets them. A field made with :func:`setting` also says how
``clsd`` offers it (help text, help panel, the option's name where it is not the field's, a metavar, a unit), so
that :mod:`clsd_cli.declared` can make the command's options from the fields and the settings objects back from
the parsed values, by name. Adding an option is adding a field.

Plain Python (no typer, no click): the packages below the CLI declare their settings with it and stay free of it.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable, Iterator
from dataclasses import MISSING, dataclass, field
from typing import Any, ClassVar

from clsd_format.errors import CLSDError

SETTING_KEY = "clsd_setting"
OPTIONS = "Options"  # the help panel of a command whose options need no other grouping (click's own heading)


@dataclass(frozen=True)
class Declared:
    """How ``clsd`` offers one field: as an option (``--field-name`` unless ``flag`` names it) or an argument."""

    help: str
    panel: str = ""  # the help panel it is listed under; none named: its settings class's ``PANEL``
    # the option's declaration when it is not --field-name: "--batch", "--a/--no-a", "--tasks,-t" (with a short name)
    flag: str | None = None
    metavar: str | None = None
    minimum: float | None = None  # the smallest value the field takes (checked as it is parsed and as it is built)
    maximum: float | None = None  # the largest, likewise
    choices: tuple[str, ...] | None = None  # the values the field takes (checked as the settings object is built)
    fingerprint: bool = False  # part of what a run binds: other values on resume are refused (fingerprint_of)
    envvar: str | None = None  # an environment variable that gives the value when the option is not
    argument: bool = False  # a positional argument, not an option
    unit: int = 1  # the option counts in units of this many of the field's (megabytes of a field in bytes)
    # A click parameter callback that checks the value as it is parsed (a folder that must exist, ...).
    check: Callable[[Any, Any, Any], Any] | None = None

    def parameter_name(self, field_name: str) -> str:
        """The command's parameter name: the flag's first long name as an identifier, else the field's name."""
        if self.flag is None:
            return field_name
        return self.flag.split(",")[0].split("/")[0].lstrip("-").replace("-", "_")

    def option_name(self, field_name: str, *, off: bool = False) -> str:
        """The option as a user types it (``--max-tokens``), for messages: read from the declaration, never written out;
        ``off``: the form that turns a switch off (``--no-pos-shift`` of ``--pos-shift/--no-pos-shift``)."""
        if self.argument:
            return field_name.upper()
        if self.flag is None:
            return "--" + field_name.replace("_", "-")
        names = self.flag.split(",")[0].split("/")
        if off and len(names) < 2:
            raise TypeError(f"the option of {field_name!r} has no form that turns it off")
        return names[-1] if off else names[0]


class DeclaredSettings:
    """The base of every declared settings dataclass: each field's declared minimum and choices are checked when the
    object is built, from Python as from the command line, and a refusal names the option (``--concurrency``).

    A subclass says what ties its fields together in :meth:`check` (called after the declared checks); a dataclass's
    generated ``__init__`` calls ``__post_init__``, which this class defines, so no subclass defines its own.

    ``PANEL`` is the help panel of the fields that name none: a class's fields are listed together unless one says
    otherwise, so a panel is written once per class, not once per field."""

    PANEL: ClassVar[str] = OPTIONS

    def __post_init__(self) -> None:
        for item in dataclasses.fields(self):  # type: ignore[arg-type]
            declared = item.metadata.get(SETTING_KEY)
            if declared is not None:
                _check_declared(declared, item.name, getattr(self, item.name))
        self.check()

    def check(self) -> None:
        """What ties fields together (both dates or neither, ...); raise a CLSDError naming the options."""


def option_name(cls: type, field_name: str, *, off: bool = False) -> str:
    """The option that sets ``cls``'s field ``field_name``, as a user types it, for a message that names it (``off``:
    the form that turns a switch off)."""
    item = next((item for item in dataclasses.fields(cls) if item.name == field_name), None)
    if item is None or SETTING_KEY not in item.metadata:
        raise TypeError(f"{cls.__name__} declares no setting {field_name!r}")
    declared: Declared = item.metadata[SETTING_KEY]
    return declared.option_name(field_name, off=off)


def fingerprint_of(settings: Any) -> dict[str, Any]:
    """The values of ``settings``' fields declared ``fingerprint=True`` (nested groups' too), by field name: what a
    run folder binds, read from the declarations so that a new setting that changes the output says so where it is
    declared, and no key list elsewhere can forget it."""
    out = {}
    for item in declared_fields(type(settings)):
        if item.declared.fingerprint:
            value = settings
            for name in item.path:
                value = getattr(value, name)
            out[item.path[-1]] = value
    return out


def _check_declared(declared: Declared, field_name: str, value: Any) -> None:
    option = declared.option_name(field_name)
    if declared.minimum is not None and value is not None and value < declared.minimum:
        raise CLSDError(f"{option} must be at least {declared.minimum:g} (got {value!r}).")
    if declared.maximum is not None and value is not None and value > declared.maximum:
        raise CLSDError(f"{option} must be at most {declared.maximum:g} (got {value!r}).")
    if declared.choices is not None and value not in declared.choices:
        raise CLSDError(f"{option} {value!r} is unknown; use one of {', '.join(declared.choices)}.")


def setting(default: Any = MISSING, *, help: str, **how: Any) -> Any:
    """A dataclass field with its option declared (:class:`Declared`); without ``default`` the option is required.

    Typed ``Any`` as :func:`dataclasses.field` is, so that ``x: int = setting(2, ...)`` type-checks."""
    metadata = {SETTING_KEY: Declared(help, **how)}
    if default is MISSING:
        return field(metadata=metadata)
    return field(default=default, metadata=metadata)


def same_as(cls: type, name: str, **changes: Any) -> Any:
    """A field declared as ``cls``'s field ``name`` is (its default, help, panel and checks), for a settings class of
    another command that offers the same setting; ``changes`` replace parts of the declaration (``default``, ``help``,
    ...) where that command's differ."""
    item = next((item for item in dataclasses.fields(cls) if item.name == name), None)
    if item is None or SETTING_KEY not in item.metadata:
        raise TypeError(f"{cls.__name__} declares no setting {name!r}")
    default = changes.pop("default", item.default)
    declared = dataclasses.replace(item.metadata[SETTING_KEY], **changes)
    metadata = {SETTING_KEY: declared}
    return field(metadata=metadata) if default is MISSING else field(default=default, metadata=metadata)


@dataclass(frozen=True)
class DeclaredField:
    """One declared field of a settings class, with its resolved type and where it sits (``path``: nested fields)."""

    path: tuple[str, ...]  # ("bounds", "reading", "near_copy_edits")
    type: Any
    default: Any  # dataclasses.MISSING: required
    declared: Declared

    @property
    def name(self) -> str:
        return self.declared.parameter_name(self.path[-1])


def declared_fields(cls: type, path: tuple[str, ...] = (), defaults: Any = None) -> Iterator[DeclaredField]:
    """Every declared field of ``cls``, in order, nested settings classes (a field whose type is a dataclass) flattened.

    ``defaults``: an instance of ``cls`` whose values are the defaults (a nested group's default object, such as the
    judge's endpoint with its own token limit), else the fields' own."""
    hints = typing.get_type_hints(cls)
    for item in dataclasses.fields(cls):
        declared = item.metadata.get(SETTING_KEY)
        kind = hints[item.name]
        if declared is not None:
            default = item.default if defaults is None else getattr(defaults, item.name)
            panel = declared.panel or getattr(cls, "PANEL", OPTIONS)
            yield DeclaredField((*path, item.name), kind, default, dataclasses.replace(declared, panel=panel))
        elif dataclasses.is_dataclass(kind) and isinstance(kind, type):
            inner = getattr(defaults, item.name) if defaults is not None else _default_object(item)
            yield from declared_fields(kind, (*path, item.name), inner)


def _default_object(item: dataclasses.Field[Any]) -> Any:
    """A nested group's default object, or None where the field has none (the group's fields then give theirs)."""
    return None if item.default is MISSING else item.default


def build(cls: type, values: dict[str, Any], defaults: Any = None, without: tuple[str, ...] = ()) -> Any:
    """An instance of ``cls`` from parsed option values by parameter name (nested settings built first); a value
    missing is an error (KeyError), but for the fields named in ``without``, which the command does not offer: they
    keep ``defaults``' value (an instance of ``cls``) where given, else the field's own default. Values arrive as the
    command line gives them: a list for a tuple field, a count of units for a field with a unit."""
    hints = typing.get_type_hints(cls)
    given: dict[str, Any] = {}
    for item in dataclasses.fields(cls):
        declared = item.metadata.get(SETTING_KEY)
        kind = hints[item.name]
        if declared is not None and item.name not in without:
            given[item.name] = _from_option(values[declared.parameter_name(item.name)], kind, declared)
        elif declared is None and dataclasses.is_dataclass(kind) and isinstance(kind, type) and any(declared_fields(kind)):
            inner = getattr(defaults, item.name) if defaults is not None else _default_object(item)
            given[item.name] = build(kind, values, inner, without)
    return cls(**given) if defaults is None else dataclasses.replace(defaults, **given)


def _from_option(value: Any, kind: Any, declared: Declared) -> Any:
    if typing.get_origin(kind) is tuple:
        return tuple(value or ())
    if declared.unit != 1 and value is not None:
        return int(value * declared.unit)
    return value


__all__ = [
    "SETTING_KEY",
    "Declared",
    "DeclaredField",
    "DeclaredSettings",
    "build",
    "declared_fields",
    "fingerprint_of",
    "option_name",
    "same_as",
    "setting",
]
