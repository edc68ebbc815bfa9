"""What ``clsd evaluate`` prints while it runs: a line per task, and a heartbeat when nobody watches a terminal.

Each task ends with one line: its time, or the stored result file it was served from and that file's
date. Without a terminal (a log file, a CI job), where mteb's progress bars are off, each task also
says when it starts, and a heartbeat prints "still running <task>: N s" every
:data:`HEARTBEAT_S` seconds (``$CLSD_PROGRESS_INTERVAL`` sets another) while the task runs, so a log
never stays silent for minutes. Only the standard library and typer are imported here.
"""

from __future__ import annotations

import os
import threading
import time
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from types import TracebackType

    from clsd_mteb.run import TaskOutcome

HEARTBEAT_S = 30.0
INTERVAL_ENV = "CLSD_PROGRESS_INTERVAL"


def heartbeat_interval() -> float:
    """Seconds between heartbeat lines: ``$CLSD_PROGRESS_INTERVAL`` when set to a positive number, else :data:`HEARTBEAT_S`."""
    try:
        value = float(os.environ.get(INTERVAL_ENV, ""))
    except ValueError:
        return HEARTBEAT_S
    return value if value > 0 else HEARTBEAT_S


class ConsoleProgress:
    """A :class:`clsd_mteb.evaluation.EvaluationProgress` that prints; ``watched``: stdout is a terminal (no start lines, no heartbeat).

    Use it as a context manager, so that the heartbeat thread stops however the run ends.
    """

    def __init__(self, *, watched: bool, interval: float | None = None, err: bool = False) -> None:
        self.watched = watched
        self.interval = heartbeat_interval() if interval is None else interval
        self.err = err
        self._task: tuple[str, float] | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def echo(self, line: str) -> None:
        with self._lock:
            typer.echo(line, err=self.err)

    def warn(self, line: str) -> None:
        """A warning: on stderr, whatever stdout holds."""
        with self._lock:
            typer.echo(line, err=True)

    def __enter__(self) -> ConsoleProgress:
        if not self.watched:
            self._thread = threading.Thread(target=self._beat, name="clsd-progress", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _beat(self) -> None:
        while not self._stop.wait(self.interval):
            running = self._task
            if running is not None:
                name, start = running
                self.echo(f"  still running {name}: {time.perf_counter() - start:.0f} s")

    def task_started(self, name: str) -> None:
        self._task = (name, time.perf_counter())
        if not self.watched:
            self.echo(f"  {name}: started")

    def task_finished(self, outcome: TaskOutcome) -> None:
        self._task = None
        date = outcome.stored_date
        if outcome.stored is not None and date is not None:
            self.echo(f"  {outcome.name}: served from stored result {outcome.stored} ({date:%Y-%m-%d %H:%M})")
        else:
            self.echo(f"  {outcome.name}: {outcome.seconds:.0f} s")
