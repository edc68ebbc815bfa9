"""A real process writing a staging folder (``clsd_format.files.staged_folder``) that a test keeps alive or kills.

The process enters the staging folder of ``target``, writes a half file into it, prints the folder's path and
sleeps: as a command does halfway through a dataset or an export. :func:`kill_unreaped` ends it with SIGKILL and
waits until it has ended without reaping it: a killed process its parent has not yet waited for still has its
pid (a zombie), as under a shell or a job runner that is slow to reap, and must count as dead all the same.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

_HOLD = """
import sys, time
from pathlib import Path
from clsd_format.files import staged_folder

with staged_folder(Path(sys.argv[1])) as staging:
    (staging / "half.parquet").write_bytes(b"half written")
    print(staging, flush=True)
    time.sleep(300)
"""


def hold_staging(target: Path) -> tuple[subprocess.Popen[str], Path]:
    """Start a process writing ``target``'s staging folder; return it and the folder, once the folder is there."""
    process = subprocess.Popen([sys.executable, "-c", _HOLD, str(target)], stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline().strip()
    assert line, f"the holder ended with status {process.wait()}"
    return process, Path(line)


def kill_unreaped(process: subprocess.Popen[str]) -> None:
    """SIGKILL ``process`` and wait for its end without reaping it: its pid still names a (zombie) process."""
    os.kill(process.pid, signal.SIGKILL)
    os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOWAIT)
    assert os.kill(process.pid, 0) is None  # the pid still answers: only the lock tells that it is dead


def end(process: subprocess.Popen[str]) -> None:
    """Kill (if alive) and reap ``process``."""
    process.kill()
    process.wait()
    if process.stdout is not None:
        process.stdout.close()
