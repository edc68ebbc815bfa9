"""Two data sources of the same tasks, compared row by row (``clsd compare-sources``).

Made for the question the authors' two publications leave open: do the GitHub release's CSV files and
the Hub dataset ``Andrianos/clsd_wmt19_21`` hold the same rows? Each task both sources define is
loaded from each, as an evaluation would load it, and its rows are compared in order on the texts a
model sees (source, true translation, distractors); ids are not compared, since each source names its
rows its own way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from clsd_format import schema
from clsd_format.data_source import DataSource
from clsd_format.errors import CLSDError
from clsd_mteb.abstask import AbsTaskCLSD
from clsd_mteb.tasks import get_tasks

COMPARED = (schema.SOURCE, schema.TARGET, schema.DISTRACTORS)


@dataclass
class TaskComparison:
    """One task in both sources: row counts, and the rows whose texts differ (``row``, first differing column)."""

    task: str
    rows: tuple[int, int]
    differences: list[tuple[int, str]] = field(default_factory=list)

    @property
    def equal(self) -> bool:
        return self.rows[0] == self.rows[1] and not self.differences

    def summary(self, shown: int = 3) -> str:
        """One line: the counts, then "same rows" or the first differing rows."""
        line = f"{self.task}: {self.rows[0]} / {self.rows[1]} rows"
        if self.equal:
            return line + ", the same texts in the same order"
        if self.rows[0] != self.rows[1]:
            line += " (the counts differ)"
        if self.differences:
            first = ", ".join(f"row {row} ({column})" for row, column in self.differences[:shown])
            line += f"; {len(self.differences)} of the first {min(self.rows)} rows differ, first {first}"
        return line


def _rows(task: AbsTaskCLSD) -> list[dict[str, Any]]:
    return list(task.evaluated_rows())


def compare_rows(name: str, first: Sequence[dict[str, Any]], second: Sequence[dict[str, Any]]) -> TaskComparison:
    """Compare two row lists in order on :data:`COMPARED`, as far as the shorter one goes."""
    differences = [
        (row, next(column for column in COMPARED if a[column] != b[column]))
        for row, (a, b) in enumerate(zip(first, second, strict=False))
        if any(a[column] != b[column] for column in COMPARED)
    ]
    return TaskComparison(name, (len(first), len(second)), differences)


def compare_sources(first: DataSource, second: DataSource, names: Sequence[str] | None = None) -> list[TaskComparison]:
    """Every task of ``names`` (default: all that both sources define), loaded from each source and compared."""
    shared = [name for name in first.task_names() if name in second.task_names()]
    if not shared:
        raise CLSDError(f"{first.describe()} and {second.describe()} define no task in common.")
    chosen = list(names) if names else shared
    firsts, seconds = get_tasks(chosen, source=first), get_tasks(chosen, source=second)
    return [compare_rows(a.metadata.name, _rows(a), _rows(b)) for a, b in zip(firsts, seconds, strict=True)]
