"""Settings declared once: the fields a command's options are made from, and the objects built back from them."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from clsd_format.declared_settings import build, declared_fields, setting


@dataclass(frozen=True)
class Inner:
    edits: int = setting(2, help="Edits.", panel="Checks")
    names: tuple[str, ...] = setting((), help="Names (repeatable).", panel="Checks", flag="--name")


@dataclass(frozen=True)
class Outer:
    path: str = setting(help="Where.", panel="Input", argument=True)
    size: int = setting(5_000_000, help="Megabytes.", panel="Batch", flag="--size-mb", unit=1_000_000)
    inner: Inner = field(default_factory=Inner)
    fixed: int = 4  # no option: keeps its default


def test_fields_are_listed_in_order_nested_ones_flattened_with_their_parameter_names() -> None:
    found = list(declared_fields(Outer))
    assert [item.path for item in found] == [("path",), ("size",), ("inner", "edits"), ("inner", "names")]
    assert [item.name for item in found] == ["path", "size_mb", "edits", "name"]
    assert found[2].type is int and found[3].default == ()


def test_an_object_is_built_by_name_with_units_and_repeated_options_converted() -> None:
    built = build(Outer, {"path": "a.csv", "size_mb": 1.5, "edits": 0, "name": ["x", "y"]})
    assert built == Outer("a.csv", 1_500_000, Inner(0, ("x", "y")), 4)
    assert build(Outer, {"path": "b", "size_mb": 5.0, "edits": 2, "name": None}).inner.names == ()


def test_a_missing_value_is_an_error_not_a_default() -> None:
    with pytest.raises(KeyError):
        build(Outer, {"path": "a.csv", "size_mb": 1.0, "edits": 0})
