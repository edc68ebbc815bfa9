"""What a path the user gives as a folder turns out to be, said in one line before anything runs.

Every ``clsd`` option or argument that reads a folder (a results folder, a dataset, a run) or writes one
(a report, an export) checks its path when the command line is read (:func:`folder_callback`): a regular
file, a link to one, a device or a missing path is named for what it is ("afile is a file, not a results
folder", "--dataset sets does not exist"), instead of a later error about something inside it. The
library functions that take such a folder check it the same way (:func:`check_folder`).
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from clsd_format.errors import DataError

_MISSING = (errno.ENOENT, errno.ENOTDIR)


class NotAFolderError(DataError):
    """A path given as a folder is missing, or is a file, a link to one or a device (a :class:`DataError`, as the
    data folder's own checks raise)."""


def _kind(mode: int) -> str:
    """What a path of this mode is, in words ("a file"); never called for a folder."""
    if stat.S_ISREG(mode):
        return "a file"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a special file"


def _missing(path: Path) -> str:
    """Why a missing path is missing, when a part of it says more: a broken link, a file where a folder should be."""
    if path.is_symlink():
        return f" (a link to {os.readlink(path)}, which does not exist)"
    blocking = next((p for p in path.parents if p.exists() and not p.is_dir()), None)
    return "" if blocking is None else f" ({blocking} is a file)"


def folder_problem(
    path: str | os.PathLike[str], what: str, *, label: str | None = None, may_be_missing: bool = False
) -> str | None:
    """Why ``path`` cannot be the ``what`` ("results folder") asked for, as one line, or None when it can.

    ``label`` names where the path was given (``--dataset``, ``$CLSD_DATA_DIR``); ``may_be_missing``: a folder
    the command creates.
    """
    path = Path(path)
    subject = f"{label} {path}" if label else str(path)
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        if exc.errno not in _MISSING:
            return f"{subject} cannot be read as a {what}: {exc.strerror or exc}."
        if may_be_missing and not path.is_symlink():
            return None
        return f"{subject if label else f'{what} {path}'} does not exist{_missing(path)}."
    if stat.S_ISDIR(mode):
        return None
    kind = _kind(mode)
    if path.is_symlink():
        kind = f"a link to {kind}"
    return f"{subject} is {kind}, not a {what}."


def check_folder(path: str | os.PathLike[str], what: str, *, label: str | None = None, may_be_missing: bool = False) -> Path:
    """``path`` as a :class:`~pathlib.Path` when it is a folder (or may be made one); else :class:`NotAFolderError`."""
    problem = folder_problem(path, what, label=label, may_be_missing=may_be_missing)
    if problem is not None:
        raise NotAFolderError(problem)
    return Path(path)


def _label(ctx: Any, param: Any) -> str | None:
    """How the user gave the value: the option's name, ``$VARIABLE`` for one read from the environment, None for an argument."""
    if getattr(param, "param_type_name", None) != "option":
        return None
    source = ctx.get_parameter_source(param.name) if ctx is not None and param.name else None
    if source is not None and source.name == "ENVIRONMENT" and isinstance(param.envvar, str):
        return f"${param.envvar}"
    return str(param.opts[0])


def folder_callback(what: str, *, may_be_missing: bool = False) -> Callable[[Any, Any, Any], Any]:
    """A typer parameter callback that checks each path of an option or argument with :func:`check_folder`.

    ``clsd`` commands name it in their folder options (``typer.Option(callback=folder_callback("results folder"))``),
    so a wrong path stops the command before anything is loaded. ``may_be_missing`` is kept on the callback for
    the tests that try every command's folders.
    """

    def check(ctx: Any, param: Any, value: Any) -> Any:
        if value is None:
            return value
        for path in value if isinstance(value, Sequence) and not isinstance(value, str) else [value]:
            check_folder(path, what, label=_label(ctx, param), may_be_missing=may_be_missing)
        return value

    check.may_be_missing = may_be_missing  # type: ignore[attr-defined]
    return check


# The check of every new folder a command writes (a dataset, an export, a dry run's files): one wording for all.
WRITE_FOLDER = folder_callback("folder to write into", may_be_missing=True)


__all__ = ["WRITE_FOLDER", "NotAFolderError", "check_folder", "folder_callback", "folder_problem"]
