"""Registries filled by entry points, the built-in entries among them: what clsd-mteb ships is found as a plug-in is.

The rule backend's languages (``clsd_generation.languages``), the answer checks (``clsd_generation.answer_checks``),
the embedded models (``clsd_mteb.models``) and the report's sections (``clsd_analysis.sections``) are each read from
one entry-point group. clsd-mteb declares its own entries in its ``pyproject.toml``, so a package of its own adds one
by the same one line, and the built-in path is the path a plug-in takes. The entries are read in the order of their
names, whoever declares them.

A plug-in is another package's code, so one that is broken must not take the tool down or be taken for clsd's own
bug. Each group is read by the command that uses it (the registries are cached functions, never read at import of
the command line), and everything that goes wrong with an entry is one :class:`PluginError` line (a user's error:
exit status 2) naming the entry point and the distribution that declares it (``EntryPoint.dist``):

- it cannot be loaded (its module raises on import, the object is missing), or names no object of the kind;
- it takes the name of an entry clsd-mteb declares: the third party is refused and named, never clsd-mteb's entry,
  and the built-in is never replaced unseen (the plug-in's module is not even imported);
- it raises while it runs (:func:`run_plugin`, :func:`guarded`, :func:`running`); a built-in's exception stays what
  it is, clsd's own bug, and a :class:`CLSDError` a plug-in raises is already a line the user can act on.

:func:`read_group` keeps each failure by entry name, for a registry whose entries are asked for one by name (a
model): only the command that asks for a broken entry stops. :func:`registry` raises the first failure, for a
registry a command uses whole (every answer check reads every candidate).

An install whose metadata was written before a group got its built-in entries (an editable install not
reinstalled since) would lose the built-ins without a word: it is refused in one line that says how to reinstall.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, PackageNotFoundError, distribution, entry_points
from typing import Generic, ParamSpec, TypeVar

from clsd_format.console import DEBUG_FLAG
from clsd_format.errors import CLSDError

DISTRIBUTION = "clsd-mteb"  # the distribution whose own entries are the built-in ones
T = TypeVar("T")
R = TypeVar("R")
P = ParamSpec("P")


class StaleInstall(CLSDError):
    """The installed metadata of clsd-mteb lacks the entry points its source declares."""


class PluginError(CLSDError):
    """An entry point that cannot be used: it cannot be loaded, names the wrong object or name, or raised while it ran."""


def _canonical(name: str) -> str:
    """A distribution name as packaging compares them (PEP 503): case and runs of ``-_.`` folded."""
    return re.sub(r"[-_.]+", "-", name).lower()


@dataclass(frozen=True)
class PluginOrigin:
    """Where one entry of a registry comes from: its entry point and the distribution that declares it."""

    group: str
    name: str
    value: str
    distribution: str  # "" when the entry point's metadata names no distribution
    version: str = ""

    @classmethod
    def of(cls, entry: EntryPoint) -> PluginOrigin:
        found = getattr(entry, "dist", None)
        return cls(entry.group, entry.name, entry.value, found.name if found else "", found.version if found else "")

    @property
    def built_in(self) -> bool:
        """Declared by clsd-mteb itself: its failure is clsd's own bug."""
        return _canonical(self.distribution) == _canonical(DISTRIBUTION)

    def __str__(self) -> str:
        declared = f"{self.distribution} {self.version}".strip() or "a distribution without a name"
        return f"the entry point {self.name!r} = {self.value!r} of group {self.group} (distribution {declared})"

    def remedy(self) -> str:
        """What the user can do about a failing entry of this origin."""
        if self.built_in:
            return f"reinstall {DISTRIBUTION} (from a clone: pip install --no-deps -e .)"
        return f"fix or uninstall {self.distribution or 'the package that declares it'}"


def _first_line(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {next(iter(str(exc).splitlines()), '')}".rstrip(": ")


@dataclass
class Plugins(Generic[T]):
    """One group's entries as read, by entry name: the objects that loaded, where each came from, those refused.

    An entry of another distribution that takes a built-in's name is refused while the built-in stays in ``found``:
    the name is then refused as a whole (:meth:`check`), since nobody can tell which of the two its user meant.
    """

    group: str
    found: dict[str, T] = field(default_factory=dict)
    origins: dict[str, PluginOrigin] = field(default_factory=dict)
    refused: dict[str, PluginError] = field(default_factory=dict)

    def check(self, name: str) -> None:
        """Raise the refusal of entry ``name``, if it has one."""
        if name in self.refused:
            raise self.refused[name]

    def strict(self) -> dict[str, T]:
        """Every entry that loaded, once none is refused (else the first refusal, in the order of the names)."""
        for name in sorted(self.refused):
            self.check(name)
        return self.found

    def run(self, name: str, call: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """``call(*args, **kwargs)``, the code of entry ``name``: its exception becomes one line naming it."""
        return run_plugin(self.origins[name], call, *args, **kwargs)


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


def _taken(origin: PluginOrigin, found: Plugins[T], built_in: set[str]) -> PluginError | None:
    """Why ``origin``'s name cannot be its: a built-in has it (and ``origin`` is another distribution's), or an entry
    read before it; None when the name is free."""
    if origin.name in built_in and not origin.built_in:
        return PluginError(
            f"{origin} takes the name of a built-in entry of {DISTRIBUTION} and is refused: rename the entry in "
            f"{origin.distribution or 'its package'}'s entry points, or uninstall it."
        )
    if origin.name in found.origins or origin.name in found.refused:
        first = found.origins.get(origin.name)
        return PluginError(
            f"{origin} takes the name of {first or 'another entry of the group'}: no two entries of a group may share "
            f"a name; {origin.remedy()}."
        )
    return None


def _load(entry: EntryPoint, origin: PluginOrigin, kind: type[T], name_of: Callable[[T], str] | None) -> T:
    """The object ``entry`` names, checked to be a ``kind`` of the entry's own name; else one PluginError."""
    try:
        value = entry.load()
    except Exception as exc:  # a plug-in's module may raise anything while it is imported
        raise PluginError(f"{origin} cannot be loaded ({_first_line(exc)}); {origin.remedy()}.") from exc
    if not isinstance(value, kind) or (name_of is not None and name_of(value) != entry.name):
        named = f" whose name is {entry.name!r}" if name_of is not None else ""
        raise PluginError(f"{origin} must name a {kind.__name__} object{named}; {origin.remedy()}.")
    return value


def read_group(
    group: str, kind: type[T], name_of: Callable[[T], str] | None, *, reserved: Collection[str] | None = None
) -> Plugins[T]:
    """Every entry of ``group`` read, none raised: the objects that load, by entry name, and each refusal by name.

    An entry must name an instance of ``kind`` whose own name (``name_of``; None: its objects have none) is the
    entry's; no two entries may share a name, and another distribution's entry with the name of a built-in one is
    refused unloaded. The built-ins are clsd-mteb's own entries of the group, which its metadata must declare, or,
    for a group whose built-ins are not entry points, the names ``reserved`` for them.
    """
    if reserved is None:
        _check_own_entries(group)
    entries = sorted(entry_points(group=group), key=lambda e: (e.name, e.value))
    built_in = {entry.name for entry in entries if PluginOrigin.of(entry).built_in} | set(reserved or ())
    read: Plugins[T] = Plugins(group)
    for entry in sorted(entries, key=lambda e: not PluginOrigin.of(e).built_in):  # the built-ins first: they keep their names
        origin = PluginOrigin.of(entry)
        try:
            taken = _taken(origin, read, built_in)
            if taken is not None:
                raise taken
            read.found[entry.name] = _load(entry, origin, kind, name_of)
            read.origins[entry.name] = origin
        except PluginError as refused:
            read.refused.setdefault(entry.name, refused)
    read.found = {name: read.found[name] for name in sorted(read.found)}
    return read


def registry(group: str, kind: type[T], name_of: Callable[[T], str]) -> dict[str, T]:
    """Every object the entry points of ``group`` name, by entry name, in the order of the names; the first entry
    that is refused (:func:`read_group`) raised as one line naming it and its distribution."""
    return read_group(group, kind, name_of).strict()


@contextmanager
def running(origin: PluginOrigin) -> Iterator[None]:
    """Inside, an exception of another distribution's entry becomes one PluginError naming it.

    A built-in's exception is left as it is (clsd's own bug, an internal error), and so is a CLSDError: a plug-in
    that refuses what it was given has said so in a line the user can act on.
    """
    try:
        yield
    except CLSDError:
        raise
    except Exception as exc:
        if origin.built_in:
            raise
        raise PluginError(f"{origin} raised {_first_line(exc)}; {origin.remedy()} ({DEBUG_FLAG} shows the traceback).") from exc


def run_plugin(origin: PluginOrigin, call: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """``call(*args, **kwargs)``, code of the entry ``origin``, its exception named as :func:`running` says."""
    with running(origin):
        return call(*args, **kwargs)


def guarded(origin: PluginOrigin, call: Callable[P, R]) -> Callable[P, R]:
    """``call`` as a function whose exception names the entry it comes from (:func:`running`); a built-in's as is."""
    if origin.built_in:
        return call

    @functools.wraps(call)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        with running(origin):
            return call(*args, **kwargs)

    return run


__all__ = [
    "DISTRIBUTION",
    "PluginError",
    "PluginOrigin",
    "Plugins",
    "StaleInstall",
    "guarded",
    "read_group",
    "registry",
    "run_plugin",
    "running",
]
