"""Where ``clsd export-training`` reads its rows, declared once: :class:`TrainingSource`.

A dataset folder is exported as it is; a ``clsd generate`` run folder is first built as ``clsd build`` would build it,
into a temporary folder, under the dataset name given. The exporter itself (``clsd_mteb``) knows nothing of runs:
it is handed the built folder.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from clsd_format.declared_settings import DeclaredSettings, option_name, same_as, setting
from clsd_format.folders import folder_callback
from clsd_generation.core.run_folder import RunFolder
from clsd_generation.dataset.description import DatasetDescription

RUN_NAME = "RUN"  # the dataset name of a run's tasks when none is given (CLSD-RUN-DE-FR)


@dataclass(frozen=True)
class TrainingSource(DeclaredSettings):
    """The folder whose rows are exported, and the dataset name a generation run's tasks get."""

    data: Path = setting(
        help="The release CSVs, a Hub-format export of them, a generated CLSD dataset folder, or a clsd generate "
        f"run folder ({option_name(RunFolder, 'run_dir')}; built as clsd build would, then exported).",
        argument=True,
        metavar="DATA",
        check=folder_callback("data folder"),
    )
    name: str = same_as(
        DatasetDescription,
        "name",
        default=RUN_NAME,
        help="For a generation run: the dataset name its tasks get, as in clsd build (CLSD-<NAME>-DE-FR, ...).",
        metavar="NAME",
    )

    def is_generation_run(self) -> bool:
        from clsd_generation.core.checkpoint import CHECKPOINT_FILE

        return (self.data / CHECKPOINT_FILE).is_file()

    @contextmanager
    def dataset(self) -> Iterator[tuple[Path, str | None]]:
        """The dataset folder to export and how its card names the source (None: as the folder itself); a generation
        run's is built into a temporary folder, removed when the export is done."""
        if not self.is_generation_run():
            yield self.data, None
            return
        from clsd_generation.dataset.builder import build_dataset

        with tempfile.TemporaryDirectory(prefix="clsd-export-training-") as tmp:
            built = build_dataset(self.data, Path(tmp) / "dataset", DatasetDescription(self.name)).folder
            yield built, f"the generation run {self.data}"


__all__ = ["RUN_NAME", "TrainingSource"]
