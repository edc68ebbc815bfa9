"""The progress a Python call shows by default: one bar over the run's tasks on stderr, as mteb shows its own.

:func:`clsd_mteb.evaluate` prints nothing to stdout (a notebook's output, a script's pipe stay the caller's): with
``show_progress_bar=True`` and no progress of the caller's, a tqdm bar counts the tasks of every model (tqdm picks
its notebook form by itself through ``tqdm.auto``), and the lines ``clsd evaluate`` prints (the data read, each
model's revision, the languages a model was not trained on) go to the ``clsd_mteb`` logger, warnings as warnings.
"""

from __future__ import annotations

import logging
from types import TracebackType
from typing import Any

from clsd_mteb.run import TaskOutcome

logger = logging.getLogger("clsd_mteb")


class BarProgress:
    """A :class:`clsd_mteb.evaluation.EvaluationProgress` as a tqdm bar; a context manager that closes the bar."""

    watched = False  # mteb's own bars stay off: one bar, not one per encoding batch under it

    def __init__(self) -> None:
        from tqdm.auto import tqdm

        self._bar: Any = tqdm(total=0, unit="task", desc="CLSD", leave=True)

    def echo(self, line: str) -> None:
        logger.info(line.strip())

    def warn(self, line: str) -> None:
        logger.warning(line.strip())

    def task_started(self, name: str) -> None:
        self._bar.total += 1
        self._bar.set_postfix_str(name, refresh=False)
        self._bar.refresh()

    def task_finished(self, outcome: TaskOutcome) -> None:
        self._bar.update(1)

    def __enter__(self) -> BarProgress:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None) -> None:
        self._bar.close()


__all__ = ["BarProgress"]
