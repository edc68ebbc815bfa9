"""The CLSD benchmarks: the four direct tasks (the paper's main number), the four English-pivot tasks, all eight.

Direct and pivot ask two different questions (German against French, or every text in English), so
their means are kept apart: ``mteb.get_benchmark("CLSD")`` is the direct one, ``"CLSD-PivotEN"`` the
pivot one; ``"CLSD-All"`` holds both, for running everything at once. The task names come from
:mod:`clsd_format.release`; :mod:`clsd_mteb` registers these with mteb on import.
"""

from __future__ import annotations

import mteb

from clsd_format.release import PIVOT_SUFFIX, RELEASE_TASK_NAMES
from clsd_mteb.tasks import CITATION, PAPER_URL

DIRECT_TASK_NAMES: tuple[str, ...] = tuple(name for name in RELEASE_TASK_NAMES if not name.endswith(PIVOT_SUFFIX))
PIVOT_TASK_NAMES: tuple[str, ...] = tuple(name for name in RELEASE_TASK_NAMES if name.endswith(PIVOT_SUFFIX))

_TASK = (
    "rank a sentence's true translation above four LLM-generated look-alike distractors "
    "(German-French news, WMT19 and WMT21, both directions)"
)


def make_benchmarks() -> tuple[mteb.Benchmark, mteb.Benchmark, mteb.Benchmark]:
    """The direct, pivot and all-tasks benchmarks, over the tasks mteb has registered (call after registering them)."""

    def benchmark(name: str, names: tuple[str, ...], description: str) -> mteb.Benchmark:
        return mteb.Benchmark(
            name=name,
            tasks=mteb.get_tasks(list(names)),
            description=description,
            reference=PAPER_URL,
            citation=CITATION,
        )

    return (
        benchmark("CLSD", DIRECT_TASK_NAMES, f"Cross-Lingual Semantic Discrimination, direct: {_TASK}."),
        benchmark(
            "CLSD" + PIVOT_SUFFIX,
            PIVOT_TASK_NAMES,
            f"Cross-Lingual Semantic Discrimination through an English pivot: {_TASK}, every text machine-translated "
            "to English and compared monolingually.",
        ),
        benchmark(
            "CLSD-All",
            RELEASE_TASK_NAMES,
            f"Cross-Lingual Semantic Discrimination, direct and through an English pivot: {_TASK}. "
            "Its mean mixes two questions: report CLSD and CLSD-PivotEN apart.",
        ),
    )
