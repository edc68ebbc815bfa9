"""The texts behind a task's predictions: the rows a model saw, found by task name.

Prediction files hold cosines and row ids only; reading texts back needs the task. Sources, in
order: Hub-format dataset folders the user names (``--dataset``, e.g. the generation module's
output), then the source ``clsd evaluate`` recorded beside the results for a dataset other than the
release (:mod:`clsd_mteb.source_record`), then the released tasks read from ``data_dir`` (its source
decided once). Every task is made by :func:`clsd_mteb.get_tasks`. :meth:`TaskCatalog.unlocated` names
the tasks none of these can find, so that ``clsd analyze`` stops before writing a report without texts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clsd_format import schema
from clsd_format.data_source import DataSource, resolve_data_source
from clsd_format.errors import CLSDError
from clsd_format.release import RELEASE_TASK_NAMES

if TYPE_CHECKING:
    from mteb.abstasks.task_metadata import TaskMetadata

    from clsd_mteb.abstask import AbsTaskCLSD
    from clsd_mteb.source_record import RecordedSource


@dataclass
class TaskData:
    """One task's rows, addressable by id, with what the model-facing code needs."""

    name: str
    task: AbsTaskCLSD

    @cached_property
    def rows(self) -> dict[str, dict[str, Any]]:
        return {row[schema.ID]: row for row in self.task.evaluated_rows()}

    @property
    def metadata(self) -> TaskMetadata:
        return self.task.metadata

    @cached_property
    def languages(self) -> tuple[str, str]:
        """(source_lang, target_lang) as the rows give them (mteb codes)."""
        first = next(iter(self.rows.values()))
        return first[schema.SOURCE_LANG], first[schema.TARGET_LANG]

    @property
    def dataset_label(self) -> str:
        """The dataset part of a task name: 'CLSD-WMT19-DE-FR' -> 'WMT19' (falls back to the name)."""
        parts = self.name.split("-")
        return parts[1] if len(parts) >= 4 and parts[0] == "CLSD" else self.name


class TaskCatalog:
    """Find task data by name; remember what could not be found and why."""

    def __init__(
        self,
        data_dir: str | Path | None = None,
        dataset_folders: Sequence[str | Path] = (),
        recorded: Mapping[str, RecordedSource] | None = None,
    ) -> None:
        self.data_dir = data_dir
        self.dataset_folders = [Path(f) for f in dataset_folders]
        self.recorded = dict(recorded or {})
        self._cache: dict[str, TaskData | None] = {}
        self.problems: dict[str, str] = {}

    @cached_property
    def _folder_tasks(self) -> dict[str, AbsTaskCLSD]:
        """Tasks of the --dataset folders by name; the first folder holding a name wins."""
        import clsd_mteb

        found: dict[str, AbsTaskCLSD] = {}
        for folder in self.dataset_folders:
            if not folder.is_dir():
                raise CLSDError(f"dataset folder {folder} does not exist.")
            for task in clsd_mteb.get_tasks(data_dir=folder):
                found.setdefault(task.metadata.name, task)
        return found

    @cached_property
    def _release_source(self) -> DataSource:
        """Where the released tasks' rows come from, decided once for every task."""
        return resolve_data_source(self.data_dir)

    def unlocated(self, names: Sequence[str]) -> list[str]:
        """The tasks of ``names`` whose rows no source can give: not released, not in a --dataset folder, no usable record."""
        return [
            name
            for name in names
            if name not in RELEASE_TASK_NAMES
            and name not in self._folder_tasks
            and not (name in self.recorded and self._record_usable(self.recorded[name]))
        ]

    @staticmethod
    def _record_usable(record: RecordedSource) -> bool:
        return record.kind != "hub-folder" or Path(record.location).is_dir()

    def _recorded_task(self, name: str) -> AbsTaskCLSD:
        import clsd_mteb

        record = self.recorded[name]
        if record.kind == "hub-folder":
            (task,) = clsd_mteb.get_tasks([name], data_dir=record.location)
        else:
            (task,) = clsd_mteb.get_tasks([name], hub_dataset=f"{record.location}@{record.revision}")
        return task

    def get(self, name: str) -> TaskData | None:
        if name not in self._cache:
            self._cache[name] = self._resolve(name)
        return self._cache[name]

    def _resolve(self, name: str) -> TaskData | None:
        import clsd_mteb

        try:
            if name in self._folder_tasks:
                data = TaskData(name, self._folder_tasks[name])
            elif name in self.recorded and name not in RELEASE_TASK_NAMES:
                data = TaskData(name, self._recorded_task(name))
            elif name in RELEASE_TASK_NAMES:
                (task,) = clsd_mteb.get_tasks([name], source=self._release_source)
                data = TaskData(name, task)
            else:
                self.problems[name] = (
                    "not a released CLSD task and not in any --dataset folder; pass the folder the "
                    "generation module wrote with --dataset to analyse its texts"
                )
                return None
            _ = data.rows  # load now, so a broken source is reported here, once
        except CLSDError as exc:
            self.problems[name] = str(exc)
            return None
        return data
