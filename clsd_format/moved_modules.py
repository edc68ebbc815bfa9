"""Old import paths of modules that moved into subpackages: still importable for one release, with a warning.

Code that imported ``clsd_generation.llm_backend`` or ``clsd_mteb.hub_eval`` keeps working: a finder on
``sys.meta_path`` hands out the module at its new place (the same module object, so ``isinstance`` and
monkeypatching see one module) and warns with a :class:`DeprecationWarning` naming the new path. Each
package declares its moves once, in its ``__init__``, by calling :func:`register_moves`.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from collections.abc import Mapping, Sequence
from types import ModuleType

REMOVED_IN = "0.3"  # the release that drops the old paths


class _Alias(importlib.abc.Loader):
    def __init__(self, new_name: str) -> None:
        self.new_name = new_name

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        warnings.warn(
            f"{spec.name} moved to {self.new_name}; the old path goes away in clsd-mteb {REMOVED_IN}",
            DeprecationWarning,
            stacklevel=2,
        )
        return importlib.import_module(self.new_name)

    def exec_module(self, module: ModuleType) -> None:
        """The module is the new one, already executed."""


class _MovedModuleFinder(importlib.abc.MetaPathFinder):
    def __init__(self) -> None:
        self.moves: dict[str, str] = {}

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        new_name = self.moves.get(fullname)
        if new_name is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _Alias(new_name))


_FINDER = _MovedModuleFinder()


def register_moves(moves: Mapping[str, str]) -> None:
    """Make each old dotted module path (key) import the module at its new path (value)."""
    _FINDER.moves.update(moves)
    if _FINDER not in sys.meta_path:
        sys.meta_path.append(_FINDER)
