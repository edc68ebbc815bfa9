"""Make CLSD tasks, benchmarks and models visible to ``mteb.get_task(s)``, ``mteb.get_benchmark(s)`` and ``mteb.get_model(_meta)``.

mteb builds its task registry once, from the classes in ``mteb.tasks``, and offers no public hook
to add tasks from a plugin. We therefore extend its two module-level structures
(``mteb.get_tasks._TASKS_REGISTRY`` and ``TASK_LIST``). Its benchmark registry is built, and cached,
from the ``Benchmark`` instances in the module ``mteb.benchmarks.benchmarks``: we add ours to that
module and clear the two caches of ``mteb.benchmarks.get_benchmark``. Its model registry is one dict,
``mteb.models.model_implementations.MODEL_REGISTRY`` (name to ``ModelMeta``), which
``mteb.models.get_model_meta`` imports and reads: we add our ``ModelMeta`` to it. ``pyproject.toml`` declares the
mteb range where all of these exist as used here, and ``make test`` runs the registration and
evaluator tests on its lowest version too; if a future mteb moves them, registration fails loudly
here instead of the tasks or benchmarks silently going missing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from importlib.metadata import version
from types import ModuleType
from typing import cast

from mteb.abstasks.abstask import AbsTask
from mteb.benchmarks.benchmark import Benchmark
from mteb.models import ModelMeta


class RegistrationError(RuntimeError):
    pass


def register_tasks(task_classes: Iterable[type[AbsTask]]) -> None:
    """Add task classes to mteb's registry; re-registering the same class is a no-op."""
    import importlib

    import mteb

    # `mteb.get_tasks` the attribute is the function; the module holds the registry.
    mteb_get_tasks = importlib.import_module("mteb.get_tasks")

    registry = getattr(mteb_get_tasks, "_TASKS_REGISTRY", None)
    task_list = getattr(mteb_get_tasks, "TASK_LIST", None)
    if not isinstance(registry, dict) or not isinstance(task_list, tuple):
        raise RegistrationError(
            f"clsd_mteb cannot register its tasks with mteb {version('mteb')}: mteb.get_tasks no longer has "
            "_TASKS_REGISTRY (dict) and TASK_LIST (tuple). Install an mteb within the range clsd-mteb declares (pip show clsd-mteb)."
        )
    added = []
    for cls in task_classes:
        name = cls.metadata.name
        existing = registry.get(name)
        if existing is cls:
            continue
        if existing is not None:
            raise RegistrationError(f"a different task named {name!r} is already registered with mteb ({existing!r}).")
        registry[name] = cls
        added.append(cls)
    mteb_get_tasks.TASK_LIST = task_list + tuple(added)  # type: ignore[attr-defined]  # a private module global
    for cls in added:  # prove the public API now finds them
        if type(mteb.get_task(cls.metadata.name)) is not cls:
            raise RegistrationError(f"registered {cls.metadata.name!r} but mteb.get_task does not return it.")


@contextmanager
def tasks_standing_in(task_classes: Iterable[type[AbsTask]]) -> Iterator[None]:
    """Inside the ``with`` block, ``mteb.get_task(name)`` returns these classes for their names; afterwards, what it did.

    For mteb code that looks a result's task up by name when the task at hand reads other data under the same
    name: a released task read from the authors' Hub dataset names that repository, the registered one the
    GitHub release (:mod:`clsd_mteb.publishing.hub_results`).
    """
    import importlib

    registry = getattr(importlib.import_module("mteb.get_tasks"), "_TASKS_REGISTRY", None)
    if not isinstance(registry, dict):
        raise RegistrationError(
            f"mteb {version('mteb')} has no task registry clsd_mteb can read (mteb.get_tasks._TASKS_REGISTRY)."
        )
    classes = {cls.metadata.name: cls for cls in task_classes}
    saved = {name: registry.get(name) for name in classes}
    registry.update(classes)
    try:
        yield
    finally:
        for name, cls in saved.items():
            if cls is None:
                registry.pop(name, None)
            else:
                registry[name] = cls


def _quietly_import(name: str) -> ModuleType:
    """Import a module of mteb without the warnings some versions print on its first import ("task ... in beta")."""
    import importlib
    import logging
    import warnings

    mteb_logger = logging.getLogger("mteb")
    level = mteb_logger.level
    mteb_logger.setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return importlib.import_module(name)
    finally:
        mteb_logger.setLevel(level)


def register_benchmarks(benchmarks: Iterable[Benchmark]) -> None:
    """Add benchmarks to mteb's registry; re-registering the same instance is a no-op."""
    import importlib

    import mteb

    module = _quietly_import("mteb.benchmarks.benchmarks")  # the instances mteb's registry is built from
    lookup = importlib.import_module("mteb.benchmarks.get_benchmark")
    caches = [getattr(lookup, name, None) for name in ("_build_registry", "_build_aliases_registry")]
    if not all(callable(getattr(cache, "cache_clear", None)) for cache in caches):
        raise RegistrationError(
            f"clsd_mteb cannot register its benchmarks with mteb {version('mteb')}: mteb.benchmarks.get_benchmark "
            "no longer builds its registry with the cached _build_registry and _build_aliases_registry. "
            "Install an mteb within the range clsd-mteb declares (pip show clsd-mteb)."
        )
    benchmarks = list(benchmarks)
    known = {inst.name: inst for inst in vars(module).values() if isinstance(inst, Benchmark)}
    for benchmark in benchmarks:
        existing = known.get(benchmark.name)
        if existing is benchmark:
            continue
        if existing is not None:
            raise RegistrationError(f"a different benchmark named {benchmark.name!r} is already registered with mteb.")
        setattr(module, "_CLSD_" + re.sub(r"\W", "_", benchmark.name), benchmark)
    for cache in caches:
        cache.cache_clear()  # type: ignore[union-attr]  # checked above
    for benchmark in benchmarks:  # prove the public API now finds them
        if mteb.get_benchmark(benchmark.name) is not benchmark:
            raise RegistrationError(f"registered benchmark {benchmark.name!r} but mteb.get_benchmark does not return it.")


def register_models(metas: Iterable[ModelMeta]) -> None:
    """Add model metadata to mteb's model registry; re-registering an equal ``ModelMeta`` is a no-op.

    A name mteb already knows with other metadata is refused: replacing mteb's entry would change
    what ``mteb.get_model`` loads for everyone in the process.
    """
    import importlib

    import mteb

    implementations = importlib.import_module("mteb.models.model_implementations")
    lookup = importlib.import_module("mteb.models.get_model_meta")
    found = getattr(implementations, "MODEL_REGISTRY", None)
    if not isinstance(found, dict) or getattr(lookup, "MODEL_REGISTRY", None) is not found:
        raise RegistrationError(
            f"clsd_mteb cannot register its models with mteb {version('mteb')}: mteb.models.get_model_meta no longer "
            "reads the dict MODEL_REGISTRY of mteb.models.model_implementations. "
            "Install an mteb within the range clsd-mteb declares (pip show clsd-mteb)."
        )
    registry = cast("dict[str, ModelMeta]", found)  # checked above
    by_name: dict[str, ModelMeta] = {}
    for meta in metas:
        if meta.name is None:
            raise RegistrationError(f"cannot register a ModelMeta without a name ({meta!r}).")
        existing = registry.get(meta.name)
        if existing is not None and existing is not meta and existing != meta:
            raise RegistrationError(f"a different model named {meta.name!r} is already registered with mteb.")
        registry.setdefault(meta.name, meta)
        by_name[meta.name] = registry[meta.name]
    for name, meta in by_name.items():  # prove the public API now finds them
        if mteb.get_model_meta(name) is not meta:
            raise RegistrationError(f"registered model {name!r} but mteb.get_model_meta does not return it.")
