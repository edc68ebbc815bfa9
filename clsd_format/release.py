"""What the authors' public release is: its repository and commit, its files and their checksums, its eight tasks.

The one place for these facts. The mteb plugin builds its task classes from :data:`RELEASED_TASKS`
(:mod:`clsd_mteb.tasks`) and fetches the files (:mod:`clsd_mteb.release_fetch`); ``clsd evaluate`` reads the
task names and checks a ``--data-dir`` from here before it imports mteb. No mteb or torch import here.

A run reads, first that applies: a ``data_dir`` argument (:func:`clsd_mteb.get_tasks`,
``clsd evaluate --data-dir``), the ``CLSD_DATA_DIR`` environment variable (:func:`resolve_data_dir`),
else the release fetched once from GitHub at the pinned commit (:func:`clsd_mteb.release_fetch.fetch`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from clsd_format.folders import check_folder
from clsd_format.languages import ENGLISH, FRENCH, GERMAN, Language

REPOSITORY = "impresso/cross_lingual_semantic_discrimination"
COMMIT = "ba143c27c3db67a1f3ef2303cd5cc9fe127681f8"
DATA_DIR_ENV = "CLSD_DATA_DIR"


@dataclass(frozen=True)
class ReleaseDataset:
    """One test set of the release: its name in task names, its two CSV files and the dates of its texts."""

    name: str  # "WMT19"
    direct_file: str
    pivot_file: str
    date: tuple[str, str]


RELEASE_DATASETS = (
    ReleaseDataset(
        "WMT19",
        "CLSD_wmt2019_adversarial_dataset.csv",
        "MT_M2M_CLSD_wmt2019_adversarial_dataset.csv",
        ("2018-01-01", "2019-12-31"),
    ),
    ReleaseDataset(
        "WMT21",
        "CLSD_wmt2021_adversarial_dataset.csv",
        "MT_M2M_CLSD_wmt2021_adversarial_dataset.csv",
        ("2020-01-01", "2021-12-31"),
    ),
)
_WMT19, _WMT21 = RELEASE_DATASETS

# file name -> (folder in the repository, SHA-256)
FILES: dict[str, tuple[str, str]] = {
    _WMT19.direct_file: ("evaluation_sets", "97452d4b4416cf228790a4c3674ceb8e5188fde8cfa69f1e52a0a0f90804cdf8"),
    _WMT21.direct_file: ("evaluation_sets", "6e569c6a0b58bb1e9bd3899c4b9832531ed960fa370e8b624962b0d7a33c97ca"),
    _WMT19.pivot_file: ("evaluation_sets", "4e29bb27594e0a9c953743e2df5d7d2f99b7514567cc3e9c0a612e3f7a05fcaf"),
    _WMT21.pivot_file: ("evaluation_sets", "6d95f272ec9732eec534403ab3dbc6851b0c6d8670575662228db613832fc1ab"),
    "DE_wmt1921_swaps_ner_pos.tsv": (
        "single_token_swaps_annotations",
        "54f855ffe83e793302da6b3e892e023400cadfd208a6933e2238bd6b57d1c7df",
    ),
    "FR_wmt1921_swaps_ner_pos.tsv": (
        "single_token_swaps_annotations",
        "8989e69ac928caf3f2b97617a53647a8946d67792ca2a137123f263edd4791ec",
    ),
}

RELEASE_DIRECTIONS: tuple[tuple[Language, Language], ...] = ((GERMAN, FRENCH), (FRENCH, GERMAN))
PIVOT_LANGUAGE = ENGLISH  # the pivot setting: every text machine-translated to English (M2M-100 1.2B)
PIVOT_SUFFIX = f"-Pivot{PIVOT_LANGUAGE.code.upper()}"  # "-PivotEN"


@dataclass(frozen=True)
class ReleasedTask:
    """One released task: a test set, a direction (source in ``source``, candidates in ``target``), direct or pivot."""

    dataset: ReleaseDataset
    source: Language
    target: Language
    pivot: bool

    @property
    def name(self) -> str:
        """``CLSD-<WMT19|WMT21>-<SRC>-<TGT>``, with ``-PivotEN`` for the English-pivot setting."""
        suffix = PIVOT_SUFFIX if self.pivot else ""
        return f"CLSD-{self.dataset.name}-{self.source.code.upper()}-{self.target.code.upper()}{suffix}"

    @property
    def file(self) -> str:
        """The release CSV holding this task's rows."""
        return self.dataset.pivot_file if self.pivot else self.dataset.direct_file

    @property
    def hub_config(self) -> str:
        """This task's config in a Hub-format export of the release (``wmt19-de-fr``, ``wmt19-de-fr-pivot-en``)."""
        suffix = f"-pivot-{PIVOT_LANGUAGE.code}" if self.pivot else ""
        return f"{self.dataset.name.lower()}-{self.source.code}-{self.target.code}{suffix}"


RELEASED_TASKS: tuple[ReleasedTask, ...] = tuple(
    ReleasedTask(dataset, source, target, pivot)
    for pivot in (False, True)
    for dataset in RELEASE_DATASETS
    for source, target in RELEASE_DIRECTIONS
)
RELEASE_TASK_NAMES: tuple[str, ...] = tuple(task.name for task in RELEASED_TASKS)


def resolve_data_dir(data_dir: str | os.PathLike[str] | None = None) -> Path | None:
    """The local folder the user chose (``data_dir``, else ``$CLSD_DATA_DIR``), or None when the fetched release applies."""
    chosen = data_dir if data_dir is not None else os.environ.get(DATA_DIR_ENV)
    if not chosen:
        return None
    origin = "data_dir" if data_dir is not None else f"${DATA_DIR_ENV}"
    return check_folder(Path(chosen).expanduser(), "data folder", label=origin)
