"""Trials: a task cut to its first rows (``limit``) files its scores apart from the task's own.

mteb finds a stored result by model, model revision and task name, and compares the dataset revision only
when the stored result lacks a split or subset the task asks for (``mteb.evaluate._check_cache``, the same
from mteb 2.22 on): a result that covers the task's splits is served as it is. A trial filed under the
task's own split would thus be served for the full task from any cache, mteb's default included (and the
full result for a trial). So a trial evaluates and files its rows under a split of its own,
``test_first_<N>``, and its dataset revision ends in ``-limit<N>``: a full run finds no ``test`` scores in
a trial's result, compares the revisions, finds them different and computes; a trial does the same with
a full result. Everything that reads results knows a trial by its split: the analysis marks it, and the
exports and pushes refuse it.

A task made with a limit is a trial whatever the number of rows it holds: mteb looks into its cache
before the rows are read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from mteb.abstasks.task_metadata import TaskMetadata

from clsd_format import schema

_TRIAL_SPLIT = re.compile(rf"{re.escape(schema.HUB_SPLIT)}_first_([1-9][0-9]*)")
_TRIAL_REVISION = re.compile(r"-limit[1-9][0-9]*$")


def trial_split(limit: int) -> str:
    """The split a trial on the first ``limit`` rows is evaluated and filed under."""
    if limit < 1:
        raise ValueError(f"a trial needs at least one row, got limit={limit}")
    return f"{schema.HUB_SPLIT}_first_{limit}"


def trial_rows(split: str) -> int | None:
    """How many first rows a trial's split holds, or None when ``split`` is not a trial's."""
    match = _TRIAL_SPLIT.fullmatch(split)
    return int(match.group(1)) if match else None


def trial_of(splits: Iterable[str]) -> int | None:
    """The rows of the trial among a result's splits (``TaskResult.scores``), or None for a result on the whole task."""
    return next((rows for rows in map(trial_rows, splits) if rows is not None), None)


def whole_task_revision(revision: str) -> str:
    """The dataset revision of the data a trial was cut from: ``<revision>`` of ``<revision>-limit<N>`` (others as they are)."""
    return _TRIAL_REVISION.sub("", revision)


def trial_metadata(metadata: TaskMetadata, limit: int) -> TaskMetadata:
    """A task's metadata for a trial on its first ``limit`` rows: the trial's split, and ``-limit<N>`` after the revision."""
    revision = f"{metadata.revision}-limit{limit}"
    return metadata.model_copy(
        update={"eval_splits": [trial_split(limit)], "dataset": {**metadata.dataset, "revision": revision}}
    )
