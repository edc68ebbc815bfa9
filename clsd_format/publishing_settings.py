"""What the plugin's publishing commands are asked, declared once: ``clsd export-training``
(:class:`TrainingExportSettings`), ``clsd export-results`` and ``clsd push-results`` (:class:`ResultsExportSettings`,
:class:`ResultsPushSettings`) and ``clsd export-release`` (:class:`ReleaseExportSettings`).

The exporters of :mod:`clsd_mteb.publishing` take these objects and the commands are made from their fields
(:mod:`clsd_cli.declared`), so a script and a command line are refused alike (an unknown way to split, fewer than one
negative), each refusal naming the option; the results folder both results commands read is declared once. They
live here, below the plugin, as :mod:`clsd_format.evaluation_settings` does, so that the commands' ``--help`` imports
no mteb (importing any module of ``clsd_mteb`` registers its tasks with mteb).
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass
from pathlib import Path
from typing import Any, Literal

from clsd_format.declared_settings import DeclaredSettings, option_name, same_as, setting
from clsd_format.evaluation_settings import DataChoice, EvaluationSettings, split_names
from clsd_format.folders import WRITE_FOLDER, folder_callback
from clsd_format.release import DATA_DIR_ENV, RELEASED_TASKS

SplitBy = Literal["corpus", "id"]  # what the eval split keeps out of train (see clsd_mteb.publishing.training_export)
SPLIT_BY: tuple[SplitBy, ...] = ("corpus", "id")
DIRECT_RELEASE_TASKS: tuple[str, ...] = tuple(task.name for task in RELEASED_TASKS if not task.pivot)


def _out_argument(help: str) -> Any:
    """The new (or empty) folder an export writes into, as every export declares it: an argument OUT."""
    return setting(help=help, argument=True, metavar="OUT", check=WRITE_FOLDER)


@dataclass(frozen=True)
class TrainingExportSettings(DeclaredSettings):
    """Where the training set goes, which tasks train and which are held out for evaluation, and how many negatives."""

    out: Path = _out_argument("New (or empty) folder to write the training dataset into.")
    tasks: tuple[str, ...] = same_as(
        DataChoice,
        "tasks",
        help="Tasks whose rows go into the train split. Default: the release's direct tasks "
        f"({', '.join(DIRECT_RELEASE_TASKS)}), or every task of a generated dataset.",
    )
    eval_tasks: tuple[str, ...] = setting(
        (),
        help="Tasks whose rows form an eval split, held out of training (see {--split_by}). Default: none.",
        metavar="NAME[,NAME...]",
    )
    split_by: SplitBy = setting(
        "corpus",
        help="corpus: no training row from a corpus the eval split draws on (WMT19, WMT21; a generated dataset is one "
        "corpus); id: no training row of a sentence pair the eval split holds.",
        choices=SPLIT_BY,
    )
    negatives: int | None = setting(
        None,
        help="Negatives per row; rows with fewer distractors are left out. Default: the fewest any row has.",
        flag="--negatives,-k",
        metavar="K",
        minimum=1,
    )

    def train_tasks(self) -> list[str] | None:
        """The train split's task names as given (comma-separated, repeated); None: the default."""
        return split_names(self.tasks)

    def eval_task_names(self) -> list[str]:
        return split_names(self.eval_tasks) or []


@dataclass(frozen=True)
class ResultsExportSettings(DeclaredSettings):
    """The results folder to read and the new folder the submission is written into."""

    results_dir: Path = setting(
        help=f"The folder clsd evaluate {option_name(EvaluationSettings, 'output')} (or mteb run --output-folder) wrote.",
        argument=True,
        metavar="RESULTS_DIR",
        check=folder_callback("results folder"),
    )
    out: Path = _out_argument("New (or empty) folder to write the submission into.")


@dataclass(frozen=True)
class ResultsPushSettings(DeclaredSettings):
    """The results folder, the Hub dataset its results were computed on, whose results, and how they are published."""

    results_dir: Path = same_as(ResultsExportSettings, "results_dir")
    hub_dataset: str = same_as(
        DataChoice,
        "hub_dataset",
        default=MISSING,
        help="The Hub dataset the results were computed on, as given to clsd evaluate "
        f"{option_name(DataChoice, 'hub_dataset')} (Andrianos/clsd_wmt19_21 defaults to the revision mteb pinned).",
    )
    model: str | None = setting(None, help="Whose results, when the folder holds several models'.", metavar="NAME[@REVISION]")
    user: str | None = setting(
        None, help="Hub user or organisation shown as the results' source (mteb's `user`).", metavar="NAME"
    )
    create_pr: bool = setting(
        False, help="Open a pull request on the model repository instead of committing.", flag="--create-pr"
    )
    dry_run: Path | None = setting(
        None,
        help="Write the files that would be uploaded into OUT instead.",
        metavar="OUT",
        check=WRITE_FOLDER,
    )


@dataclass(frozen=True)
class ReleaseExportSettings(DeclaredSettings):
    """The new folder the Hub-format dataset is written into, and where the release CSVs are read."""

    out: Path = _out_argument("New folder to write the Hub-format dataset into.")
    data_dir: Path | None = same_as(
        DataChoice, "data_dir", help=f"Where the release CSVs are (default: ${DATA_DIR_ENV}, else fetched)."
    )


__all__ = [
    "DIRECT_RELEASE_TASKS",
    "SPLIT_BY",
    "ReleaseExportSettings",
    "ResultsExportSettings",
    "ResultsPushSettings",
    "SplitBy",
    "TrainingExportSettings",
]
