"""What ``clsd compare-sources`` is asked, declared once: :class:`CompareSourcesSettings`.

The two sources and the tasks are the settings ``clsd evaluate`` reads its data with
(:class:`clsd_format.evaluation_settings.DataChoice`), offered with this command's defaults: the GitHub release
against the authors' Hub dataset. Here, below the plugin, so that the command's ``--help`` imports no mteb; the
comparison itself is :func:`clsd_mteb.compare.compare_sources`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from clsd_format.authors_hub import DEFAULT_REVISION, REPO_ID
from clsd_format.data_source import DataSource, resolve_data_source
from clsd_format.declared_settings import DeclaredSettings, option_name, same_as
from clsd_format.evaluation_settings import DataChoice, split_names
from clsd_format.release import DATA_DIR_ENV


@dataclass(frozen=True)
class CompareSourcesSettings(DeclaredSettings):
    """The first source (local files or the release), the second (a Hub dataset) and the tasks compared."""

    data_dir: Path | None = same_as(
        DataChoice,
        "data_dir",
        help="The first source: a folder of the release CSVs (or any "
        f"{option_name(DataChoice, 'data_dir')} of clsd evaluate). Default: ${DATA_DIR_ENV}, else the release fetched "
        "from GitHub.",
    )
    hub_dataset: str = same_as(
        DataChoice,
        "hub_dataset",
        default=f"{REPO_ID}@{DEFAULT_REVISION}",
        help="The second source, on the Hugging Face Hub.",
        metavar="REPO_ID[@REVISION]",
    )
    tasks: tuple[str, ...] = same_as(
        DataChoice, "tasks", help="Task names, comma-separated or repeated. Default: every task both sources define."
    )

    def sources(self) -> tuple[DataSource, DataSource]:
        """The two sources, resolved (a Hub revision pinned, a folder's files read)."""
        return resolve_data_source(self.data_dir), resolve_data_source(hub_dataset=self.hub_dataset)

    def task_names(self) -> list[str] | None:
        return split_names(self.tasks)


__all__ = ["CompareSourcesSettings"]
