"""What a results folder records of the data its runs read, so that a run rebuilt from the folder answers the same.

mteb's result files hold scores and the dataset revision, not where the rows were read or who wrote the distractors;
the answer opens with that line (:mod:`clsd_mteb.data_origin`) and names the pivot configs a dataset left out. Each
run writes those facts per task into ``clsd-data.json`` beside ``results/`` (a task evaluated again replaces its
entry), and :func:`clsd_mteb.evaluation.load_run` reads them back through the one strict reader, so that a notebook
that restarts gets the answer it had, its data line included.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from clsd_format.errors import DataError
from clsd_format.files import new_temp_file, writing
from clsd_format.json_files import read_json

RECORD_FILE = "clsd-data.json"


@dataclass(frozen=True)
class TaskData:
    """One task's data as a run read it: the answer's data line and why its pivot config was not built (or "")."""

    origin: str
    pivot_not_built: str = ""


def write_record(output: Path, tasks: Mapping[str, TaskData]) -> None:
    """Add ``tasks`` to the folder's record (replacing their entries), written whole and moved in place."""
    output = Path(output)
    known = read_record(output)
    known.update(tasks)
    output.mkdir(parents=True, exist_ok=True)
    with writing("the results folder's data record", output / RECORD_FILE):
        temp = new_temp_file(output, ".json")
        text = json.dumps({name: asdict(entry) for name, entry in sorted(known.items())}, ensure_ascii=False, indent=1)
        temp.write_text(text + "\n", encoding="utf-8")
        os.replace(temp, output / RECORD_FILE)


def read_record(output: Path) -> dict[str, TaskData]:
    """The folder's record by task name (empty when no run wrote one), each entry checked for what it claims."""
    path = Path(output) / RECORD_FILE
    if not path.is_file():
        return {}
    return checked_record(read_json(path, "data record"), str(path))


def checked_record(found: Any, path: str) -> dict[str, TaskData]:
    """A record as JSON gave it (``path``: where it was read, for the error), each entry checked for what it claims."""
    if not isinstance(found, dict):
        raise DataError("must map task names to their data (an object)", file=str(path))
    out = {}
    for name, entry in found.items():
        if not isinstance(entry, dict) or set(entry) != {"origin", "pivot_not_built"}:
            raise DataError(f"entry {name!r} must hold 'origin' and 'pivot_not_built'", file=str(path))
        if not all(isinstance(value, str) for value in entry.values()):
            raise DataError(f"entry {name!r}: 'origin' and 'pivot_not_built' must be text", file=str(path))
        out[name] = TaskData(**entry)
    return out


def origins_of(record: Mapping[str, TaskData], tasks: Sequence[str]) -> tuple[str, ...]:
    """The data lines of ``tasks``, each once, in the tasks' order (tasks the record does not hold say nothing)."""
    return tuple(dict.fromkeys(record[name].origin for name in tasks if name in record))


__all__ = ["RECORD_FILE", "TaskData", "checked_record", "origins_of", "read_record", "write_record"]
