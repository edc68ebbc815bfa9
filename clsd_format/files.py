"""Files the commands write: new files get the user's umask, and an OS error becomes one line naming the path.

``tempfile.mkstemp`` creates files readable by their owner only (0600), whatever the umask; a file
written atomically (temporary name, then rename) would keep that mode, unlike one written in place.
:func:`new_temp_file` creates the temporary file as ``open()`` does, mode ``0o666`` less the umask.

:func:`writing` turns an ``OSError`` (a folder under a regular file, permission denied, disk full)
into a :class:`~clsd_format.errors.CLSDError` that says what was being written and where, so the
command prints one line and exits with status 2 instead of showing ``NotADirectoryError: [Errno 20]``.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

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
