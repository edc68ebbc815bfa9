"""Where each task's rows came from, written beside a results folder, so that the texts can be found again.

Result files name a task and a dataset revision, not where the rows were read: for the release that is
enough (the analysis reads it again), for a generated dataset it is not. ``clsd evaluate`` therefore
writes ``<output>/data_sources.json``, one entry per task of a dataset other than the release: its
Hub-format folder (as an absolute path) or its Hub repository and revision. ``clsd analyze`` reads it to
find the texts without ``--dataset``. The file is read strictly: anything but the shape written here is an
error naming the file.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from clsd_format.errors import DataError
from clsd_format.files import new_temp_file, writing
from clsd_format.json_files import read_json

if TYPE_CHECKING:
    from mteb.abstasks.abstask import AbsTask

SOURCES_FILE = "data_sources.json"
_KINDS = ("hub-folder", "hub-repository")  # the sources of datasets other than the release


@dataclass(frozen=True)
class RecordedSource:
    """A task's data: a Hub-format folder (``location`` a path) or a Hub repository at ``revision``."""

    kind: str
    location: str
    revision: str | None = None


def read_sources(results_dir: Path) -> dict[str, RecordedSource]:
    """The recorded source of each task (empty when the folder has no record)."""
    path = Path(results_dir) / SOURCES_FILE
    if not path.is_file():
        return {}
    try:
        data = read_json(path, "record of where the rows were read")
    except DataError as exc:
        raise DataError(f"{exc}; delete it or pass the data with --dataset") from exc
    if not isinstance(data, dict):
        raise DataError(f"{path}: expected an object of task names, found {type(data).__name__}")
    found = {}
    for name, entry in data.items():
        if not (
            isinstance(entry, dict)
            and set(entry) == {"kind", "location", "revision"}
            and entry["kind"] in _KINDS
            and isinstance(entry["location"], str)
            and (entry["revision"] is None or isinstance(entry["revision"], str))
        ):
            raise DataError(f"{path}, task {name!r}: not a recorded data source ({json.dumps(entry)[:200]})")
        found[name] = RecordedSource(**entry)
    return found


def record_sources(output: Path, tasks: Sequence[AbsTask]) -> None:
    """Add the source of every task of ``tasks`` that does not read the release to ``output``'s record."""
    from clsd_mteb.tasks import HubCLSDTask  # the tasks of datasets other than the release

    new = {}
    for task in tasks:
        if isinstance(task, HubCLSDTask):
            folder = Path(task.source)
            if folder.is_dir():
                new[task.metadata.name] = RecordedSource("hub-folder", str(folder.resolve()))
            else:
                new[task.metadata.name] = RecordedSource("hub-repository", str(task.source), task.metadata.dataset["revision"])
    if not new:
        return
    merged = {**read_sources(output), **new}
    text = json.dumps({name: asdict(entry) for name, entry in sorted(merged.items())}, indent=2, ensure_ascii=False)
    path = Path(output) / SOURCES_FILE
    with writing("the record of data sources", path):
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = new_temp_file(path.parent, ".json")
        try:
            temporary.write_text(text + "\n", encoding="utf-8")
            temporary.replace(path)
        finally:
            temporary.unlink(missing_ok=True)
