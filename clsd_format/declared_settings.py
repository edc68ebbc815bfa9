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
from typing import Any

SETTING_KEY = "clsd_setting"


@dataclass(frozen=True)
class Declared:
    """How ``clsd`` offers one field: as an option (``--field-name`` unless ``flag`` names it) or an argument."""

    help: str
    panel: str
    # the option's declaration when it is not --field-name: "--batch", "--a/--no-a", "--tasks,-t" (with a short name)
    flag: str | None = None
    metavar: str | None = None
    minimum: float | None = None  # the smallest value the option takes (checked as it is parsed)
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


def setting(default: Any = MISSING, *, help: str, panel: str, **how: Any) -> Any:
    """A dataclass field with its option declared (:class:`Declared`); without ``default`` the option is required.

    Typed ``Any`` as :func:`dataclasses.field` is, so that ``x: int = setting(2, ...)`` type-checks."""
    metadata = {SETTING_KEY: Declared(help, panel, **how)}
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


def declared_fields(cls: type, path: tuple[str, ...] = ()) -> Iterator[DeclaredField]:
    """Every declared field of ``cls``, in order, nested settings classes (a field whose type is a dataclass) flattened."""
    hints = typing.get_type_hints(cls)
    for item in dataclasses.fields(cls):
        declared = item.metadata.get(SETTING_KEY)
        kind = hints[item.name]
        if declared is not None:
            yield DeclaredField((*path, item.name), kind, item.default, declared)
        elif dataclasses.is_dataclass(kind) and isinstance(kind, type):
            yield from declared_fields(kind, (*path, item.name))


def build(cls: type, values: dict[str, Any], path: tuple[str, ...] = ()) -> Any:
    """An instance of ``cls`` from parsed option values by parameter name (nested settings built first); a field no
    option sets keeps its default. Values arrive as the command line gives them: a list for a tuple field, a count
    of units for a field with a unit."""
    hints = typing.get_type_hints(cls)
    given: dict[str, Any] = {}
    for item in dataclasses.fields(cls):
        declared = item.metadata.get(SETTING_KEY)
        kind = hints[item.name]
        if declared is not None:
            given[item.name] = _from_option(values[declared.parameter_name(item.name)], kind, declared)
        elif dataclasses.is_dataclass(kind) and isinstance(kind, type) and any(declared_fields(kind)):
            given[item.name] = build(kind, values, (*path, item.name))
    return cls(**given)


def _from_option(value: Any, kind: Any, declared: Declared) -> Any:
    if typing.get_origin(kind) is tuple:
        return tuple(value or ())
    if declared.unit != 1 and value is not None:
        return int(value * declared.unit)
    return value


__all__ = ["SETTING_KEY", "Declared", "DeclaredField", "build", "declared_fields", "same_as", "setting"]
