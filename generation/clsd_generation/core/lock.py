"""One process per run folder: ``clsd generate``, ``translate`` and ``build`` hold an exclusive lock on it.

Two commands on one checkpoint at once would both do (and pay for) the same work, and the later one
would fail on a duplicate answer. The lock is a :class:`filelock.FileLock` on ``run.lock`` in the run
folder (``flock`` on POSIX, ``msvcrt`` locking on Windows): the operating system holds it for the open
file and releases it when its process ends, however it ends (``kill -9`` included), so a stale lock
cannot exist. A second command stops at once, before any request, with one line naming the folder and
the holder's pid.

The pid is kept beside the lock, in ``run.pid``: written by the holder as soon as it holds the lock,
removed when it lets go. It cannot live in ``run.lock`` itself, which filelock 3 truncates each time
a process tries the lock. A holder that was killed leaves its pid there; the next holder
replaces it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

from clsd_format.errors import CLSDError
from clsd_format.files import new_temp_file, writing

LOCK_FILE = "run.lock"
PID_FILE = "run.pid"


@contextmanager
def run_folder_lock(run_dir: Path, *, create: bool = True) -> Iterator[None]:
    """Hold the run folder's lock inside the block; another holder makes it raise a one-line CLSDError.

    ``create=False`` (``translate``, ``build``): a missing folder is not created and not locked, and the
    command reports the missing checkpoint itself.
    """
    run_dir = Path(run_dir)
    if not create and not run_dir.is_dir():
        yield
        return
    lock = FileLock(run_dir / LOCK_FILE, timeout=0)  # timeout 0: one try, never a wait
    with writing("the run folder", run_dir):
        run_dir.mkdir(parents=True, exist_ok=True)
        try:
            lock.acquire()
        except Timeout:  # an OSError too: caught here, before `writing` reads it as a write failure
            raise CLSDError(
                f"run folder {run_dir} is in use by another clsd process (pid {_holder(run_dir)}): "
                "wait for it to finish or stop it, then run the command again."
            ) from None
    try:
        with writing("the run folder", run_dir):
            _write_pid(run_dir)
        yield
    finally:
        try:
            (run_dir / PID_FILE).unlink(missing_ok=True)
        finally:
            lock.release()


def _write_pid(run_dir: Path) -> None:
    """This process's pid in ``run.pid``, written whole (a temporary file renamed), so a reader never sees half."""
    tmp = new_temp_file(run_dir, ".pid.tmp")
    tmp.write_text(f"{os.getpid()}\n", encoding="ascii")
    tmp.replace(run_dir / PID_FILE)


def _holder(run_dir: Path) -> str:
    """The pid the holder wrote; it writes it just after taking the lock, so wait a moment for it."""
    for _ in range(20):
        try:
            pid = (run_dir / PID_FILE).read_text(encoding="ascii", errors="replace").strip()
        except OSError:
            pid = ""
        if pid.isdigit():
            return pid
        time.sleep(0.05)
    return "unknown"
