"""Make CLSD tasks visible to ``mteb.get_task`` / ``mteb.get_tasks``.

mteb builds its task registry once, from the classes in ``mteb.tasks``, and offers no public hook
to add tasks from a plugin. We therefore extend its two module-level structures
(``mteb.get_tasks._TASKS_REGISTRY`` and ``TASK_LIST``). ``pyproject.toml`` declares the mteb range
where both exist as used here, and ``make test`` runs the registration and evaluator tests on its
lowest version too; if a future mteb moves these, registration fails loudly here instead of the
tasks silently going missing.
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib.metadata import version

from mteb.abstasks.abstask import AbsTask


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
