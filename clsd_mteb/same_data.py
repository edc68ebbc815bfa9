"""Whether two results were computed on the same data: the one decision behind every paired test, pooled row,
pivot test, ``clsd plan`` and merge of results folders.

A result file names the dataset revision its rows were read at: the release's pinned commit, a Hub dataset's
commit, or ``local-sha256-`` and the start of a local data file's digest (a trial's ends in ``-limit<N>``).
Row ids alone cannot tell two datasets apart: two generated sets of one task name number their rows alike.
So two results of one task are on the same data only when both revisions are known and equal. An unknown
revision (a prediction file without its result file, a result file that names none) matches nothing, not
even another unknown one.

A pivot task and its direct task are two data files of one dataset: their revisions are equal when both were
read at one Hub commit or from the pinned release, and differ by design when read from local files, each
named by its own digest. A pivot test therefore asks for both revisions known and then for one dataset:
equal revisions, or the record of where the rows were read (:mod:`clsd_mteb.source_record`, kept per folder
by ``clsd evaluate``) naming one source for both. A record naming two sources, or one side recorded and the
other not, is other data. Local release files record no source: two unrecorded files of known revisions are
taken as one dataset's, and their row ids decide.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from clsd_mteb.source_record import RecordedSource

# What mteb files when it knows no revision: the placeholder it gives result files older than mteb 1.11
# (``mteb.results.task_result.TaskResult._convert_from_before_v1_11_0``).
_NO_REVISION = frozenset({"", "dataset revision not available"})


def known_revision(revision: object) -> str | None:
    """The dataset revision a result file names, or None when it names none (absent, blank, mteb's placeholder)."""
    if not isinstance(revision, str) or revision.strip() in _NO_REVISION:
        return None
    return revision


@dataclass(frozen=True)
class ResultData:
    """What one result was computed on: its task, the dataset revision (None: unknown), and where its rows were
    read when its folder's record says so."""

    task: str
    revision: str | None
    source: RecordedSource | None = None


def _where(data: ResultData) -> str:
    if data.source is None:
        return "no recorded source"
    return data.source.location + (f"@{data.source.revision}" if data.source.revision else "")


def why_other_data(a: ResultData, b: ResultData) -> str | None:
    """None when ``a`` and ``b`` are known to be on the same data (one task) or one dataset (a pivot task and its
    direct task); else why not, as the notes, the answer and ``clsd plan`` say it."""
    if a.revision is None or b.revision is None:
        return (
            f"unknown data (dataset revisions {a.revision or 'unknown'} and {b.revision or 'unknown'}: a result is paired only "
            "when its result file names the dataset revision it was computed on)"
        )
    if a.revision == b.revision:
        return None
    if a.task == b.task:
        return f"other data (dataset revisions {a.revision} and {b.revision})"
    if a.source == b.source:  # one recorded source, or two local release files (none recorded)
        return None
    return f"other data ({a.task} at {a.revision} from {_where(a)}, {b.task} at {b.revision} from {_where(b)})"


__all__ = ["ResultData", "known_revision", "why_other_data"]
