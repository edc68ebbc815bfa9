"""One process per run folder: ``clsd generate``, ``translate`` and ``build`` hold an exclusive lock on it.

Two commands on one checkpoint at once would both do (and pay for) the same work, and the later one
would fail on a duplicate answer. The lock is ``fcntl.flock`` on ``run.lock`` in the run folder: it
belongs to the open file, so the kernel releases it when its process ends, however it ends
(``kill -9`` included), and a stale lock cannot exist. The file stays; it holds the pid of the last
holder, which a refused command names. A second command stops at once, before any request, with
one line naming the folder and that pid.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from clsd_format.errors import CLSDError
from clsd_format.files import writing

LOCK_FILE = "run.lock"


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
    with writing("the run folder", run_dir):
        run_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(run_dir / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise CLSDError(
                f"run folder {run_dir} is in use by another clsd process (pid {_holder(fd)}): "
                "wait for it to finish or stop it, then run the command again."
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        yield
    finally:
        os.close(fd)  # releases the lock


def _holder(fd: int) -> str:
    """The pid the holder wrote; it writes it just after taking the lock, so wait a moment for it."""
    for _ in range(20):
        pid = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        if pid.isdigit():
            return pid
        time.sleep(0.05)
    return "unknown"
