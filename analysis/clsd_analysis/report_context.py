"""What every section of a report reads: the results, the task texts, the writer, and the facts computed once.

Sections share the expensive tables (each distractor's cosine outcome, each distractor's edit type) and
the report-wide choices (the model the report is about, each model's label and colour) through one
:class:`ReportContext`; each is computed the first time a section asks for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np
import pandas as pd

from clsd_analysis.command_options import ReportSources
from clsd_analysis.distractor_types import DistractorTypes, distractor_types
from clsd_analysis.edit_distance import distractor_table
from clsd_analysis.edit_typing import TaggerFactory, offline_tagger
from clsd_analysis.model_style import ModelStyle, model_styles
from clsd_analysis.report_writer import ReportWriter
from clsd_analysis.result_hits import data_of, hits_of
from clsd_analysis.results import ResultsFolder
from clsd_analysis.task_data import TaskCatalog
from clsd_format.declared_settings import option_name
from clsd_format.errors import CLSDError
from clsd_mteb.comparisons import (
    PairedComparison,
    PivotTest,
    left_out,
    model_comparisons,
    pivot_left_out,
    pivot_notes,
    pivot_tests,
)
from clsd_mteb.naming import is_pivot
from clsd_mteb.release_fetch import resolve_data_dir
from clsd_mteb.same_data import ResultData


@dataclass
class ReportContext:
    results: ResultsFolder
    catalog: TaskCatalog
    writer: ReportWriter
    data_dir: str | Path | None = None  # as the user gave it (the release's annotation files live there)
    focus_request: str | None = None  # --focus: the model the report is about; None: the best
    tagger_factory: TaggerFactory = offline_tagger  # the taggers that type distractors from their text
    notes: list[str] = field(default_factory=list)  # said at the end of the report

    @cached_property
    def labels(self) -> list[str]:
        """Model labels in the results' order (by name, then revision)."""
        return [self.results.label(run) for run in self.results.runs]

    @cached_property
    def styles(self) -> dict[str, ModelStyle]:
        return model_styles(self.labels)

    @cached_property
    def distractors(self) -> pd.DataFrame:
        """:func:`clsd_analysis.edit_distance.distractor_table`: every scored distractor and whether it won."""
        return distractor_table(self.results, self.catalog)

    @cached_property
    def edit_types(self) -> DistractorTypes:
        return distractor_types(self.results.task_names, self.catalog, self.tagger_factory)

    @cached_property
    def hits(self) -> dict[str, dict[str, dict[str, bool]]]:
        """Per-row hits by model label, task and row id, from the prediction files."""
        return hits_of(self.results)

    @cached_property
    def data(self) -> dict[str, dict[str, ResultData]]:
        """What each model's result on each task was computed on, by model label (:func:`clsd_analysis.comparisons.data_of`)."""
        return data_of(self.results)

    @cached_property
    def left_out(self) -> dict[tuple[str, str, str], str]:
        """The pairs of models not compared, on other rows or other data, and why (:func:`clsd_analysis.comparisons.left_out`)."""
        return left_out(self.hits, self.data)

    @cached_property
    def comparisons(self) -> list[PairedComparison]:
        """Every pair of models on the same rows of every task, and pooled per setting (:mod:`clsd_analysis.comparisons`)."""
        rows, notes = model_comparisons(self.hits, self.data)
        self.notes += notes
        return rows

    @cached_property
    def pivot_left_out(self) -> dict[tuple[str, str], str]:
        """(model, direct task) whose pivot result is not known to be on its direct result's rows, and why."""
        return pivot_left_out(self.hits, self.data)

    @cached_property
    def pivot_tests(self) -> list[PivotTest]:
        """Per model, pivot minus direct on the same rows (:mod:`clsd_analysis.comparisons`)."""
        self.notes += pivot_notes(self.pivot_left_out)
        return pivot_tests(self.hits, self.data)

    @cached_property
    def annotation_dir(self) -> Path | None:
        folder = resolve_data_dir(self.data_dir)
        return Path(folder) if folder is not None else None

    def mean_p1(self, label: str, direct_only: bool = True) -> float:
        """A model's mean P@1 over the tasks it has (direct ones only, by default); NaN without any."""
        run = next(r for r in self.results.runs if self.results.label(r) == label)
        tasks = [t for t in self.results.task_names if not (direct_only and is_pivot(t))]
        scores = [s for s in (self.results.score(run, t) for t in tasks) if s is not None]
        return float(np.mean(scores)) if scores else float("nan")

    @cached_property
    def focus(self) -> str:
        """The model the report is about: ``--focus``, else the highest mean direct P@1 (all tasks where none is direct)."""
        if self.focus_request is not None:
            for run in self.results.runs:
                if self.focus_request in (run.name, self.results.label(run)):
                    return self.results.label(run)
            raise CLSDError(
                f"{option_name(ReportSources, 'focus')} {self.focus_request!r} is not a model of the results: {', '.join(self.labels)}."
            )
        direct = {label: self.mean_p1(label) for label in self.labels}
        means = direct if any(not np.isnan(v) for v in direct.values()) else {m: self.mean_p1(m, False) for m in self.labels}
        return max(self.labels, key=lambda m: (-np.inf if np.isnan(means[m]) else means[m], -self.labels.index(m)))
