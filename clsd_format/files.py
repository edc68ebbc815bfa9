"""Files the commands write: new files get the user's umask, and an OS error becomes one line naming the path.

``tempfile.mkstemp`` creates files readable by their owner only (0600), whatever the umask; a file
written atomically (temporary name, then rename) would keep that mode, unlike one written in place.
:func:`new_temp_file` creates the temporary file as ``open()`` does, mode ``0o666`` less the umask.

:func:`writing` turns an ``OSError`` (a folder under a regular file, permission denied, disk full)
into a :class:`~clsd_format.errors.CLSDError` that says what was being written and where, so the
command prints one line and exits with status 2 instead of showing ``NotADirectoryError: [Errno 20]``.

:func:`staged_folder` writes a folder of many files (a dataset, a report) under a hidden name beside its target and
moves it in place only once everything is written: a failure halfway (a plug-in's section raising, a full disk,
Ctrl-C) leaves the target as it was, never half a folder. The staging folders of processes that are gone (killed)
are removed by the next run that writes the same target, judged by a lock each run holds while it writes: the
operating system lets go of a lock when its process ends, however it ends (``kill -9`` included), so a free lock is a
dead run's. A process id alone would not tell: a killed process its parent has not yet reaped still has one, and ids
are reused.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

from clsd_format.errors import CLSDError


def new_temp_file(folder: Path, suffix: str) -> Path:
    """A new empty file in ``folder`` with a unique hidden name; its mode is ``0o666`` less the umask."""
    while True:
        path = Path(folder) / f".tmp-{secrets.token_hex(8)}{suffix}"
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        except FileExistsError:
            continue
        return path


def os_error_reason(exc: OSError) -> str:
    """``Not a directory (/data/notes.txt is a file)``: the system's words, and the path they concern when it helps."""
    reason = exc.strerror or str(exc)
    if exc.filename is None:
        return reason
    path = Path(os.fsdecode(exc.filename))
    if isinstance(exc, NotADirectoryError):
        blocking = next((p for p in path.parents if p.exists() and not p.is_dir()), None)
        if blocking is not None:
            return f"{reason} ({blocking} is a file, not a folder)"
    return f"{reason} ({path})"


@contextmanager
def writing(what: str, path: Path) -> Iterator[None]:
    """Inside, an ``OSError`` becomes ``cannot write <what> <path>: <reason>`` (a CLSDError)."""
    try:
        yield
    except OSError as exc:
        raise CLSDError(f"cannot write {what} {path}: {os_error_reason(exc)}.") from exc


STAGING_MARK = ".building-"  # a staging folder is ".<target name>.building-<pid>" beside its target
LOCK_SUFFIX = ".lock"  # its lock, held while the folder is written: ".<target name>.building-<pid>.lock"


def remove_stale_staging(target: Path) -> list[Path]:
    """Remove the staging folders of earlier writes of ``target`` whose lock no process holds (killed, crashed), with
    their lock files; return the folders removed.

    A folder whose lock is held is left alone: a live process is writing it.
    """
    target = Path(target)
    if not target.parent.is_dir():
        return []
    pattern = re.compile(rf"\.{re.escape(target.name)}{re.escape(STAGING_MARK)}\d+")
    names = {entry.name.removesuffix(LOCK_SUFFIX) for entry in target.parent.iterdir()}
    removed = []
    for name in sorted(n for n in names if pattern.fullmatch(n)):
        folder = target.parent / name
        lock = FileLock(f"{folder}{LOCK_SUFFIX}", timeout=0)  # one try, never a wait
        try:
            lock.acquire()
        except Timeout:
            continue
        try:
            if folder.is_dir():
                shutil.rmtree(folder, ignore_errors=True)
                removed.append(folder)
        finally:
            _let_go(lock)
    return removed


def _let_go(lock: FileLock) -> None:
    """Remove the lock's file while still holding it, then release it: no other run finds it free while its folder
    is there. (Windows cannot remove an open file; filelock removes it there on release.)"""
    with contextlib.suppress(OSError):
        Path(lock.lock_file).unlink()
    lock.release()


def _move_in_place(staging: Path, target: Path) -> None:
    """``staging`` becomes ``target``: renamed when the target is missing or an empty folder; into a folder that holds
    other files, each entry of ``staging`` replaces the entry of the same name, and the rest of the folder stays."""
    if target.is_dir() and not any(target.iterdir()):
        target.rmdir()
    if not target.exists():
        staging.replace(target)
        return
    for entry in sorted(staging.iterdir()):
        old = target / entry.name
        if old.is_dir() and not old.is_symlink():
            shutil.rmtree(old)
        elif old.exists() or old.is_symlink():
            old.unlink()
        entry.replace(old)
    staging.rmdir()


@contextmanager
def staged_folder(target: Path) -> Iterator[Path]:
    """A fresh hidden folder beside ``target`` to write it in, moved in place when the block ends without an error
    (:func:`_move_in_place`), removed when it raises (the target untouched). Stale ones of dead processes go first."""
    target = Path(target)
    staging = target.parent / f".{target.name}{STAGING_MARK}{os.getpid()}"
    if target.parent.exists() and not target.parent.is_dir():  # as mkdir says it, not as "File exists"
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(staging))
    target.parent.mkdir(parents=True, exist_ok=True)  # the lock is taken before its folder is made
    remove_stale_staging(target)
    lock = FileLock(f"{staging}{LOCK_SUFFIX}", timeout=0)
    lock.acquire()  # free: no other live process has this id
    try:
        if staging.exists():  # left by an ended process that had this id
            shutil.rmtree(staging)
        staging.mkdir()
        try:
            yield staging
            _move_in_place(staging, target)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
    finally:
        _let_go(lock)
