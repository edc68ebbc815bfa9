"""Registries filled by entry points, the built-in entries among them: what clsd-mteb ships is found as a plug-in is.

The rule backend's languages (``clsd_generation.languages``) and the embedded models (``clsd_mteb.models``) are
each one registry read from one entry-point group. clsd-mteb declares its own entries in its ``pyproject.toml``,
so a package of its own adds a language or a model by the same one line, and the built-in path is the path a
plug-in takes. The entries are read in the order of their names, whoever declares them.

An install whose metadata was written before a group got its built-in entries (an editable install not
reinstalled since) would lose the built-ins without a word: it is refused in one line that says how to reinstall.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, distribution, entry_points
from typing import TypeVar

from clsd_format.errors import CLSDError

DISTRIBUTION = "clsd-mteb"  # the distribution whose own entries are the built-in ones
T = TypeVar("T")


class StaleInstall(CLSDError):
    """The installed metadata of clsd-mteb lacks the entry points its source declares."""


def _check_own_entries(group: str) -> None:
    """Refuse metadata of clsd-mteb that declares no entry of ``group``: its built-ins would be missing."""
    try:
        own = bool(distribution(DISTRIBUTION).entry_points.select(group=group))
    except PackageNotFoundError:
        own = False
    if not own:
        raise StaleInstall(
            f"the installed metadata of {DISTRIBUTION} declares no entry point of group {group}, so its built-in "
            f"entries are missing: reinstall {DISTRIBUTION} (from a clone: pip install --no-deps -e .)."
        )


def registry(group: str, kind: type[T], name_of: Callable[[T], str]) -> dict[str, T]:
    """Every object the entry points of ``group`` name, by entry name, in the order of the names.

    An entry must name an instance of ``kind`` whose own name (``name_of``) is the entry's, and no two entries
    may share a name (a package that declared a built-in's name again would replace it unseen): either is refused
    in one line naming the entry.
    """
    _check_own_entries(group)
    found: dict[str, T] = {}
    for entry in sorted(entry_points(group=group), key=lambda e: (e.name, e.value)):
        try:
            value = entry.load()
        except (ImportError, AttributeError) as exc:
            raise CLSDError(f"the entry point {entry.name!r} = {entry.value!r} of group {group} cannot be loaded: {exc}") from exc
        if not isinstance(value, kind) or name_of(value) != entry.name or entry.name in found:
            raise CLSDError(
                f"the entry point {entry.name!r} = {entry.value!r} of group {group} must name a {kind.__name__} object "
                f"whose name is {entry.name!r}, and no other entry of the group may have that name."
            )
        found[entry.name] = value
    return found
