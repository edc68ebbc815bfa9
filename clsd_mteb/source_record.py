"""Where each task's rows came from, written beside a results folder, so that the texts can be found again.

Result files name a task and a dataset revision, not where the rows were read: for the release that is
enough (the analysis reads it again), for a generated dataset it is not. ``clsd evaluate`` therefore
writes ``<output>/data_sources.json``: one entry per task *and dataset revision* of a dataset other than
the release, with its Hub-format folder (as an absolute path) or its Hub repository and revision. One
results folder may hold several datasets, even two of one name (two models evaluated on two versions of
a set): each keeps its entry, and a later run adds its own, never replacing another revision's. ``clsd
analyze`` reads it to find the texts without ``--dataset``, and uses an entry only for results of its
dataset revision.

The file is ``{"format": 2, "sources": [{"task", "dataset_revision", "kind", "location", "revision"}, ...]}``.
A file of the first format (``{task: {"kind", "location", "revision"}}``, no dataset revision) is still
read, its entries under an unknown revision: the analysis checks the data it finds against the results
either way. The file is read strictly: anything but these shapes is an error naming the file.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clsd_format.errors import DataError
from clsd_format.files import new_temp_file, writing
from clsd_format.json_files import read_json

if TYPE_CHECKING:
    from mteb.abstasks.abstask import AbsTask

SOURCES_FILE = "data_sources.json"
FORMAT = 2
_KINDS = ("hub-folder", "hub-repository")  # the sources of datasets other than the release
_FIELDS = {"kind", "location", "revision"}

SourceKey = tuple[str, str | None]  # (task name, dataset revision of the whole task; None in a first-format file)


@dataclass(frozen=True)
class RecordedSource:
    """A task's data: a Hub-format folder (``location`` a path) or a Hub repository at ``revision``."""

    kind: str
    location: str
    revision: str | None = None


def _source(path: Path, name: object, entry: Any) -> RecordedSource:
    """One entry's source, checked strictly."""
    if not (
        isinstance(entry, dict)
        and _FIELDS <= set(entry)
        and entry["kind"] in _KINDS
        and isinstance(entry["location"], str)
        and (entry["revision"] is None or isinstance(entry["revision"], str))
    ):
        raise DataError(f"{path}, task {name!r}: not a recorded data source ({json.dumps(entry)[:200]})")
    return RecordedSource(entry["kind"], entry["location"], entry["revision"])


def _entries(path: Path, data: Any) -> dict[SourceKey, RecordedSource]:
    """The entries of either format, by (task, dataset revision)."""
    if isinstance(data, dict) and data.get("format") == FORMAT and isinstance(data.get("sources"), list):
        found = {}
        for entry in data["sources"]:
            name = entry.get("task") if isinstance(entry, dict) else None
            revision = entry.get("dataset_revision") if isinstance(entry, dict) else None
            known = revision is None or isinstance(revision, str)  # None: kept from a first-format file
            if not (isinstance(name, str) and known and set(entry) == {"task", "dataset_revision", *_FIELDS}):
                raise DataError(f"{path}: not a recorded data source ({json.dumps(entry)[:200]})")
            found[(name, revision)] = _source(path, name, entry)
        return found
    if not isinstance(data, dict) or "format" in data:
        raise DataError(f"{path}: expected a record of data sources (format {FORMAT}), found {json.dumps(data)[:200]}")
    for name, entry in data.items():  # the first format: no dataset revision
        if not (isinstance(entry, dict) and set(entry) == _FIELDS):
            raise DataError(f"{path}, task {name!r}: not a recorded data source ({json.dumps(entry)[:200]})")
    return {(name, None): _source(path, name, entry) for name, entry in data.items()}


def read_sources(results_dir: Path) -> dict[SourceKey, RecordedSource]:
    """The recorded sources, by (task, dataset revision) (empty when the folder has no record)."""
    path = Path(results_dir) / SOURCES_FILE
    if not path.is_file():
        return {}
    try:
        data = read_json(path, "record of where the rows were read")
    except DataError as exc:
        raise DataError(f"{exc}; delete it") from exc  # the analysis adds its own way round it
    return _entries(path, data)


def record_sources(output: Path, tasks: Sequence[AbsTask]) -> None:
    """Add the source of every task of ``tasks`` that does not read the release to ``output``'s record.

    An entry is replaced only by one of the same task and dataset revision; a first-format entry of the
    same task and place is dropped (the new one says the same, with its revision).
    """
    from clsd_mteb.tasks import HubCLSDTask  # the tasks of datasets other than the release
    from clsd_mteb.trials import whole_task_revision

    new: dict[SourceKey, RecordedSource] = {}
    for task in tasks:
        if isinstance(task, HubCLSDTask):
            revision = whole_task_revision(str(task.metadata.dataset["revision"]))  # a trial's data is the task's
            folder = Path(task.source)
            if folder.is_dir():
                new[(task.metadata.name, revision)] = RecordedSource("hub-folder", str(folder.resolve()))
            else:
                new[(task.metadata.name, revision)] = RecordedSource("hub-repository", str(task.source), revision)
    if not new:
        return
    kept = {
        key: entry
        for key, entry in read_sources(output).items()
        if not (key[1] is None and any(k[0] == key[0] and e == entry for k, e in new.items()))
    }
    _write(Path(output) / SOURCES_FILE, {**kept, **new})


def _write(path: Path, sources: dict[SourceKey, RecordedSource]) -> None:
    entries = [
        {"task": name, "dataset_revision": revision, **asdict(entry)}
        for (name, revision), entry in sorted(sources.items(), key=lambda item: (item[0][0], item[0][1] or ""))
    ]
    text = json.dumps({"format": FORMAT, "sources": entries}, indent=2, ensure_ascii=False)
    with writing("the record of data sources", path):
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = new_temp_file(path.parent, ".json")
        try:
            temporary.write_text(text + "\n", encoding="utf-8")
            temporary.replace(path)
        finally:
            temporary.unlink(missing_ok=True)
