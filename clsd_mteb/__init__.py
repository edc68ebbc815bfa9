"""CLSD (Cross-Lingual Semantic Discrimination) as MTEB tasks.

``import clsd_mteb`` registers the eight released tasks with mteb, so that
``mteb.get_tasks(["CLSD-WMT19-DE-FR"])`` works. Importing loads no model and no data.
:func:`get_tasks` makes task instances over any CLSD data source (the release, a local folder, a
Hub dataset); it is the one factory, which ``clsd evaluate`` and the analysis use too.
"""

from __future__ import annotations

from importlib.metadata import version as _installed_version

import mteb

from clsd_mteb.abstask import AbsTaskCLSD
from clsd_mteb.embedding_cache import SharedEmbeddingCache
from clsd_mteb.encoding import encode_texts
from clsd_mteb.evaluator import CLSDEvaluator
from clsd_mteb.metrics import clsd_metrics
from clsd_mteb.registry import register_tasks
from clsd_mteb.tasks import (
    CITATION,
    PAPER_URL,
    RELEASE_TASK_NAMES,
    RELEASE_TASKS,
    get_tasks,
    make_clsd_task,
    tasks_from_folder,
    tasks_from_hub,
)

__version__ = _installed_version("clsd-mteb")  # written once, in pyproject.toml

register_tasks(RELEASE_TASKS)

CLSD_BENCHMARK = mteb.Benchmark(
    name="CLSD",
    tasks=mteb.get_tasks(list(RELEASE_TASK_NAMES)),
    description=(
        "Cross-Lingual Semantic Discrimination on German-French news (WMT19, WMT21), both directions, "
        "direct and through an English pivot: rank a sentence's true translation above four "
        "LLM-generated look-alike distractors."
    ),
    reference=PAPER_URL,
    citation=CITATION,
)


__all__ = [
    "CLSD_BENCHMARK",
    "RELEASE_TASK_NAMES",
    "AbsTaskCLSD",
    "CLSDEvaluator",
    "SharedEmbeddingCache",
    "clsd_metrics",
    "encode_texts",
    "get_tasks",
    "make_clsd_task",
    "register_tasks",
    "tasks_from_folder",
    "tasks_from_hub",
]
