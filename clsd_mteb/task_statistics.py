"""Descriptive statistics of CLSD tasks, in mteb's shape, shipped inside the package.

mteb finds a task's statistics at ``TaskMetadata.descriptive_stat_path``, a path inside the installed
mteb, and its ``calculate_descriptive_statistics()`` writes there. For CLSD tasks:

* :class:`CLSDTaskMetadata` points that path at this package's data,
  ``clsd_mteb/descriptive_stats/<dataset revision>/<task name>.json``. The revision is part of the path
  because statistics describe data: a task reading a cut (``-limit<N>``) or modified local copy finds
  no shipped file, rather than the release's.
* :meth:`clsd_mteb.abstask.AbsTaskCLSD.calculate_descriptive_statistics` computes and returns, and never
  writes (an installed package is no place for output). :func:`write_statistics` writes where asked;
  the shipped files are refreshed, from a checkout of the repository, with::

      python scripts/write_descriptive_stats.py --data-dir <folder with the release CSVs>

Per text role (source, target, distractors) the numbers are mteb's ``TextStatistics``; beside them, the
CLSD counts a user needs to read a score: rows with a distractor identical to T (a tie, so a miss for
every model: such a task can never reach 100) and rows repeating a distractor.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from mteb.abstasks.task_metadata import TaskMetadata
from mteb.types.statistics import SplitDescriptiveStatistics, TextStatistics

if TYPE_CHECKING:
    from mteb.abstasks.abstask import AbsTask

STATS_DIR = Path(__file__).parent / "descriptive_stats"


class CLSDDescriptiveStatistics(SplitDescriptiveStatistics):
    """Statistics of one split of a CLSD task.

    Attributes:
        num_samples: rows (source sentences)
        number_of_characters: characters of all sources, targets and distractors
        num_distractors: distractor cells
        average_distractors_per_row: distractors per row
        unique_texts: distinct texts over all roles (what the evaluator encodes)
        source_text_statistics, target_text_statistics, distractor_text_statistics: per role
        rows_with_distractor_identical_to_target: rows where a distractor's text equals T
        rows_repeating_a_distractor: rows holding the same distractor text twice or more
    """

    num_samples: int
    number_of_characters: int
    num_distractors: int
    average_distractors_per_row: float
    unique_texts: int
    source_text_statistics: TextStatistics
    target_text_statistics: TextStatistics
    distractor_text_statistics: TextStatistics
    rows_with_distractor_identical_to_target: int
    rows_repeating_a_distractor: int


def text_statistics(texts: Sequence[str]) -> TextStatistics:
    """mteb's ``TextStatistics`` (lengths in characters; unique = distinct strings)."""
    lengths = [len(text) for text in texts]
    return TextStatistics(
        total_text_length=sum(lengths),
        min_text_length=min(lengths),
        average_text_length=sum(lengths) / len(lengths),
        max_text_length=max(lengths),
        unique_texts=len(set(texts)),
    )


def split_statistics(
    sources: Sequence[str], targets: Sequence[str], distractor_lists: Sequence[Sequence[str]]
) -> CLSDDescriptiveStatistics:
    flat = [d for ds in distractor_lists for d in ds]
    roles = (text_statistics(sources), text_statistics(targets), text_statistics(flat))
    return CLSDDescriptiveStatistics(
        num_samples=len(sources),
        number_of_characters=sum(role["total_text_length"] for role in roles),
        num_distractors=len(flat),
        average_distractors_per_row=len(flat) / len(sources),
        unique_texts=len({*sources, *targets, *flat}),
        source_text_statistics=roles[0],
        target_text_statistics=roles[1],
        distractor_text_statistics=roles[2],
        rows_with_distractor_identical_to_target=sum(t in ds for t, ds in zip(targets, distractor_lists, strict=True)),
        rows_repeating_a_distractor=sum(len(set(ds)) < len(ds) for ds in distractor_lists),
    )


class CLSDTaskMetadata(TaskMetadata):
    """mteb's ``TaskMetadata``, with the descriptive statistics looked up in this package (module docstring)."""

    @property
    def descriptive_stat_path(self) -> Path:
        return STATS_DIR / str(self.revision) / f"{self.name}.json"


def write_statistics(task: AbsTask, folder: Path) -> Path:
    """Compute ``task``'s statistics and write them to ``folder/<revision>/<name>.json``; never replaces a file.

    Typed with mteb's ``AbsTask``, whose method it calls: the CLSD task class imports this module, and
    this module does not import it back.
    """
    stats = task.calculate_descriptive_statistics(overwrite_results=True)
    path = Path(folder) / str(task.metadata.revision) / f"{task.metadata.name}.json"
    if path.exists():
        raise FileExistsError(f"{path} exists; delete it first if it is meant to be replaced")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(stats, indent=4) + "\n", encoding="utf-8")
    return path
