"""Where a run's CLSD data comes from: decided once, by :func:`resolve_data_source`.

The four sources, first that applies wins:

1. ``hub_dataset`` (``REPO_ID@REVISION``): a Hub-format dataset on the Hugging Face Hub;
2. a local folder (``data_dir``, else ``$CLSD_DATA_DIR``) holding the release CSVs as published;
3. a local Hub-format folder (a ``README.md`` with a ``clsd`` manifest): this project's export of
   the release, or a generated dataset;
4. nothing chosen: the release fetched once from GitHub at the pinned commit (:mod:`clsd_mteb.release`).

``clsd evaluate`` resolves the source once and hands the result to its tasks; a task built from
Python with a plain ``data_dir`` resolves it through the same function when it loads its rows.
This module imports neither mteb nor torch.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from clsd_format import hub
from clsd_format.errors import CLSDError, DataError
from clsd_mteb import release

if TYPE_CHECKING:
    from clsd_mteb.abstask import AbsTaskCLSD

SourceKind = Literal["fetched-release", "release-csv-folder", "hub-folder", "hub-repository"]


@dataclass(frozen=True)
class DataSource:
    """A resolved data source: ``location`` is a folder, a Hub repo id, or None for the fetched release."""

    kind: SourceKind
    location: Path | str | None = None
    revision: str | None = None  # the pinned commit of a Hub repository

    @property
    def folder(self) -> Path:
        """The local folder of a folder source (a programming error to ask otherwise)."""
        if not isinstance(self.location, Path):
            raise TypeError(f"a {self.kind} source has no local folder")
        return self.location

    def describe(self) -> str:
        """One line for the console: which data this run reads."""
        if self.kind == "fetched-release":
            return f"the CLSD release at {release.REPOSITORY}@{release.COMMIT[:12]} (fetched, checksummed, cached)"
        if self.kind == "hub-repository":
            return f"the Hub dataset {self.location}@{self.revision}"
        return f"{self.location} ({'release CSVs' if self.kind == 'release-csv-folder' else 'Hub-format folder'})"


def resolve_data_source(
    data_dir: str | os.PathLike[str] | DataSource | None = None, hub_dataset: str | None = None
) -> DataSource:
    """Decide the data source of a run; an already resolved :class:`DataSource` is returned as is.

    A bad choice fails here, before any model loads: a folder that does not exist or holds neither
    the release CSVs nor a Hub-format dataset, or a Hub dataset without a pinned revision.
    """
    if isinstance(data_dir, DataSource):
        return data_dir
    if hub_dataset:
        if data_dir is not None:
            raise CLSDError("give either --data-dir or --hub-dataset, not both.")
        repo_id, _, revision = hub_dataset.partition("@")
        if not repo_id or not revision:
            raise CLSDError("--hub-dataset needs a pinned revision: REPO_ID@COMMIT")
        return DataSource("hub-repository", repo_id, revision)
    folder = release.resolve_data_dir(data_dir)
    if folder is None:
        return DataSource("fetched-release")
    if any((folder / name).is_file() for name in release.FILES):
        return DataSource("release-csv-folder", folder)
    if hub.is_hub_folder(folder):
        return DataSource("hub-folder", folder)
    raise DataError(
        f"holds neither release CSVs (e.g. {next(iter(release.FILES))}) nor a Hub-format export "
        f"({hub.CARD_FILE} with a 'clsd' manifest).",
        file=str(folder),
    )


def tasks_for(
    source: DataSource, names: list[str] | None = None, *, limit: int | None = None, exact: bool = False
) -> list[AbsTaskCLSD]:
    """Task instances for a run over ``source``: all its tasks, or the ``names`` given (unknown names fail).

    ``limit`` and ``exact`` are the task options of :class:`clsd_mteb.abstask.AbsTaskCLSD`.
    """
    from clsd_mteb.tasks import RELEASE_TASK_NAMES, RELEASE_TASKS, tasks_from_folder, tasks_from_hub

    release_tasks = False
    classes: Sequence[type[AbsTaskCLSD]]
    if source.kind == "hub-repository":
        classes = tasks_from_hub(str(source.location), str(source.revision))
    elif source.kind == "hub-folder" and not {s.task_name for s in hub.read_manifest(source.folder)} <= set(RELEASE_TASK_NAMES):
        classes = tasks_from_folder(source.folder)  # a generated dataset, not an export of the release
    else:
        classes, release_tasks = RELEASE_TASKS, True
    by_name = {cls.metadata.name: cls for cls in classes}
    unknown = [name for name in names or [] if name not in by_name]
    if unknown:
        raise CLSDError(f"unknown task(s) {unknown}; this data source defines {list(by_name)}")
    chosen = [by_name[name] for name in names] if names else classes
    if release_tasks:  # they read the source given; a Hub task class already carries its own
        return [cls(data_dir=source, limit=limit, exact=exact) for cls in chosen]
    return [cls(limit=limit, exact=exact) for cls in chosen]
