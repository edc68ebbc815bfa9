"""Errors a user can act on. The CLI prints their message alone and exits with status 2."""

from __future__ import annotations

from collections.abc import Sequence


class CLSDError(Exception):
    """Base class: anything the user can fix (input, configuration, environment)."""


class DataError(CLSDError):
    """A data file is missing, unreadable or malformed. The message names file, row and column."""

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        row: int | str | None = None,
        column: str | None = None,
    ) -> None:
        self.file, self.row, self.column = file, row, column
        where = ", ".join(
            part
            for part in (
                f"file {file}" if file is not None else "",
                f"row {row}" if row is not None else "",
                f"column {column!r}" if column is not None else "",
            )
            if part
        )
        super().__init__(f"{where}: {message}" if where else message)


class UnknownTaskError(CLSDError, KeyError):
    """A task name the data source does not define; the message lists the ones it does.

    Also a ``KeyError``, which is what ``clsd_mteb.get_tasks`` raised for an unknown name before.
    """

    def __init__(self, unknown: Sequence[str], known: Sequence[str]) -> None:
        self.unknown, self.known = list(unknown), list(known)
        super().__init__(f"unknown task(s) {self.unknown}; the data source defines {', '.join(self.known) or 'none'}.")

    __str__ = Exception.__str__  # the message as written, not KeyError's quoted repr


class DataSourceUnavailable(CLSDError):
    """The default data source cannot be reached and no local source is set."""


class EmbeddingError(CLSDError):
    """A model returned embeddings that cannot be scored (NaN, inf, all-zero, wrong shape)."""
