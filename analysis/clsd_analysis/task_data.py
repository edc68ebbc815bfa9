"""The texts behind a task's predictions: the rows a model saw, found by task name.

Prediction files hold cosines and row ids only; reading texts back needs the task. Sources, in
order: Hub-format dataset folders the user names (``--dataset``, e.g. the generation module's
output), then the source ``clsd evaluate`` recorded beside the results for a dataset other than the
release (:mod:`clsd_mteb.source_record`), then the released tasks read from ``data_dir`` (its source
decided once). Every task is made by :func:`clsd_mteb.get_tasks`. :meth:`TaskCatalog.unlocated` names
the tasks none of these can find, so that ``clsd analyze`` stops before writing a report without texts.

Texts are only used for the data the results were computed on. Given the dataset revisions the results
name (``revisions``), the record's entry of that revision is chosen, and the data found is checked: texts
of another revision (another dataset of the same name, a folder changed since) are left out, and so are
the texts of a task the results hold at several revisions (one set of texts cannot be all of them); the
report's notes say so (:attr:`TaskCatalog.problems`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clsd_analysis.command_options import ReportSources
from clsd_format import schema
from clsd_format.data_source import DataSource, resolve_data_source
from clsd_format.declared_settings import option_name
from clsd_format.errors import CLSDError
from clsd_format.folders import check_folder
from clsd_format.release import RELEASE_TASK_NAMES
from clsd_mteb.same_data import ResultData, why_other_data

if TYPE_CHECKING:
    from mteb.abstasks.task_metadata import TaskMetadata

    from clsd_mteb.abstask import AbsTaskCLSD
    from clsd_mteb.source_record import RecordedSource, SourceKey


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
    """Find task data by name; remember what could not be found (or was of other data) and why."""

    def __init__(
        self,
        data_dir: str | Path | None = None,
        dataset_folders: Sequence[str | Path] = (),
        recorded: Mapping[SourceKey, RecordedSource] | None = None,
        revisions: Mapping[str, Collection[str]] | None = None,
    ) -> None:
        self.data_dir = data_dir
        self.dataset_folders = [Path(f) for f in dataset_folders]
        self.recorded = dict(recorded or {})
        self.revisions = {name: set(found) for name, found in (revisions or {}).items()}  # whole-task revisions
        self._cache: dict[str, TaskData | None] = {}
        self.problems: dict[str, str] = {}

    @cached_property
    def _folder_tasks(self) -> dict[str, AbsTaskCLSD]:
        """Tasks of the --dataset folders by name; the first folder holding a name wins."""
        import clsd_mteb

        found: dict[str, AbsTaskCLSD] = {}
        for folder in self.dataset_folders:
            check_folder(folder, "dataset folder")
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
            and not any(n == name and self._record_usable(record) for (n, _), record in self.recorded.items())
        ]

    @staticmethod
    def _record_usable(record: RecordedSource) -> bool:
        return record.kind != "hub-folder" or Path(record.location).is_dir()

    def _record_for(self, name: str) -> tuple[RecordedSource | None, bool]:
        """The recorded source of ``name`` for the results' revision (True), else one of unknown or other revision (False)."""
        entries = {revision: record for (n, revision), record in self.recorded.items() if n == name}
        for revision in self.revisions.get(name, ()):
            if revision in entries:
                return entries[revision], True
        return entries.get(None) or next(iter(entries.values()), None), False

    def _recorded_task(self, name: str, record: RecordedSource) -> AbsTaskCLSD:
        import clsd_mteb

        if record.kind == "hub-folder":
            (task,) = clsd_mteb.get_tasks([name], data_dir=record.location)
        else:
            (task,) = clsd_mteb.get_tasks([name], hub_dataset=f"{record.location}@{record.revision}")
        return task

    def pivot_not_built(self) -> dict[str, str]:
        """Direct task -> why its pivot set was not built, as the cards of the local dataset folders say it (the
        --dataset folders, then the recorded ones); a Hub dataset's card is not fetched for it."""
        from clsd_format import hub

        folders = [*self.dataset_folders]
        folders += [Path(r.location) for r in self.recorded.values() if r.kind == "hub-folder" and Path(r.location).is_dir()]
        found: dict[str, str] = {}
        for folder in reversed(folders):  # the first folder's word wins, as for the tasks
            if (folder / hub.CARD_FILE).is_file():
                found.update(hub.pivot_not_built(hub.read_front_matter(folder), str(folder / hub.CARD_FILE)))
        return found

    def origins(self, names: Sequence[str]) -> list[str]:
        """The line each data source of these tasks opens the answer with, once per source: who made its
        distractors (:func:`clsd_mteb.data_origin.origin_line`, the line ``clsd evaluate`` opens its answer with)."""
        from clsd_mteb.data_origin import origin_line

        lines: list[str] = []
        for name in names:
            data = self.get(name)
            line = origin_line(data.task.data_source) if data is not None else None
            if line is not None and line not in lines:
                lines.append(line)
        return lines

    def get(self, name: str) -> TaskData | None:
        if name not in self._cache:
            self._cache[name] = self._resolve(name)
        return self._cache[name]

    def _resolve(self, name: str) -> TaskData | None:
        wanted = sorted(self.revisions.get(name, ()))
        if len(wanted) > 1:
            self.problems[name] = (
                f"the results hold it at {len(wanted)} dataset revisions ({', '.join(wanted)}): two datasets of one name, "
                "which no one set of texts fits; its texts are left out (analyse each dataset's results apart)"
            )
            return None
        try:
            found = self._find(name)
            if found is None:
                return None
            data, where = found
            _ = data.rows  # load now, so a broken source is reported here, once
        except CLSDError as exc:
            self.problems[name] = str(exc)
            return None
        return data if self._same_data(data, where, wanted) else None

    def _find(self, name: str) -> tuple[TaskData, str] | None:
        """The task's data and where it was found, or None (with why in ``problems``)."""
        import clsd_mteb

        record, exact = self._record_for(name)
        if name in self._folder_tasks:
            return TaskData(name, self._folder_tasks[name]), f"its {option_name(ReportSources, 'dataset')} folder"
        if record is not None and (exact or name not in RELEASE_TASK_NAMES):
            return TaskData(name, self._recorded_task(name, record)), f"{record.location}, as data_sources.json records it"
        if name in RELEASE_TASK_NAMES:
            (task,) = clsd_mteb.get_tasks([name], source=self._release_source)
            return TaskData(name, task), self._release_source.describe()
        dataset = option_name(ReportSources, "dataset")
        self.problems[name] = (
            f"not a released CLSD task and not in any {dataset} folder; pass the folder the "
            f"generation module wrote with {dataset} to analyse its texts"
        )
        return None

    def _same_data(self, data: TaskData, where: str, wanted: Sequence[str]) -> bool:
        """Whether the data found is the data the results were computed on (their dataset revision, a trial's cut aside)."""
        from clsd_mteb.trials import whole_task_revision

        found = whole_task_revision(str(data.metadata.dataset["revision"]))
        if wanted and why_other_data(ResultData(data.name, found), ResultData(data.name, wanted[0])) is not None:
            self.problems[data.name] = (
                f"the texts found ({where}) are of dataset revision {found}, the results of {wanted[0]}: another "
                "dataset of this name, so its texts are left out (pass the dataset the results were computed on with "
                f"{option_name(ReportSources, 'dataset')})"
            )
            return False
        return True
