"""CLSD (Cross-Lingual Semantic Discrimination) as MTEB tasks.

``import clsd_mteb`` registers the eight released tasks with mteb, so that
``mteb.get_tasks(["CLSD-WMT19-DE-FR"])`` works, and three benchmarks: ``mteb.get_benchmark("CLSD")``
(the four direct tasks, the paper's main number), ``"CLSD-PivotEN"`` (the four English-pivot tasks)
and ``"CLSD-All"`` (all eight; its mean mixes the two questions). It also registers the models the
package declares and those other installed packages name under the entry-point group ``clsd_mteb.models``
(``clsd_mteb.models.MODELS``: the embedded USE and e5-small-q4, the two baselines, any others), so that
``mteb.get_model(name)`` loads them offline; another package's model that cannot be used is left out and named in
one line when its name is asked for (:mod:`clsd_mteb.models`). Importing loads no model and no data.
:func:`get_tasks` makes task instances over any CLSD data source (the release, a local folder, a
Hub dataset); it is the one factory, which ``clsd evaluate`` and the analysis use too. :func:`evaluate` is
``mteb.evaluate`` for CLSD: the models a user holds in, a :class:`CLSDRun` out (intervals, per-row hits, the pivot
tests), which :meth:`CLSDRun.load` rebuilds from its results folder.
"""

from __future__ import annotations

from importlib.metadata import version as _installed_version

from clsd_format.release import RELEASE_TASK_NAMES
from clsd_mteb.abstask import AbsTaskCLSD
from clsd_mteb.benchmark import make_benchmarks
from clsd_mteb.embedding_cache import SharedEmbeddingCache
from clsd_mteb.encoding import encode_texts
from clsd_mteb.evaluation import CLSDRun, evaluate, load_run
from clsd_mteb.evaluator import CLSDEvaluator
from clsd_mteb.metrics import clsd_metrics
from clsd_mteb.models import register_with_mteb
from clsd_mteb.task_registry import register_benchmarks, register_models, register_tasks
from clsd_mteb.tasks import (
    CITATION,
    PAPER_URL,
    RELEASE_TASKS,
    get_tasks,
    make_clsd_task,
    tasks_from_folder,
    tasks_from_hub,
    tasks_from_source,
)

__version__ = _installed_version("clsd-mteb")  # written once, in pyproject.toml

register_tasks(RELEASE_TASKS)
CLSD_BENCHMARK, CLSD_PIVOT_BENCHMARK, CLSD_ALL_BENCHMARK = make_benchmarks()  # "CLSD", "CLSD-PivotEN", "CLSD-All"
register_benchmarks((CLSD_BENCHMARK, CLSD_PIVOT_BENCHMARK, CLSD_ALL_BENCHMARK))
register_with_mteb()

__all__ = [
    "CITATION",
    "CLSD_ALL_BENCHMARK",
    "CLSD_BENCHMARK",
    "CLSD_PIVOT_BENCHMARK",
    "PAPER_URL",
    "RELEASE_TASK_NAMES",
    "AbsTaskCLSD",
    "CLSDEvaluator",
    "CLSDRun",
    "SharedEmbeddingCache",
    "clsd_metrics",
    "encode_texts",
    "evaluate",
    "get_tasks",
    "load_run",
    "make_clsd_task",
    "register_benchmarks",
    "register_models",
    "register_tasks",
    "tasks_from_folder",
    "tasks_from_hub",
    "tasks_from_source",
]
