"""A results folder's per-row hits and what each result was computed on, by display label: what the paired
comparisons of :mod:`clsd_mteb.comparisons` take from ``clsd analyze``'s folders (``clsd evaluate`` passes its run's)."""

from __future__ import annotations

from clsd_analysis.results import ResultsFolder
from clsd_mteb.same_data import ResultData


def hits_of(results: ResultsFolder) -> dict[str, dict[str, dict[str, bool]]]:
    """Per-row hits of every model and task with a prediction file, by display label and row id."""
    found: dict[str, dict[str, dict[str, bool]]] = {}
    for run, task in sorted(results.prediction_paths):
        predictions = results.predictions(run, task)
        if predictions is not None:
            found.setdefault(results.label(run), {})[task] = predictions.correct()
    return found


def data_of(results: ResultsFolder) -> dict[str, dict[str, ResultData]]:
    """What every model's result on every task with a prediction file was computed on (:meth:`ResultsFolder.result_data`)."""
    found: dict[str, dict[str, ResultData]] = {}
    for run, task in sorted(results.prediction_paths):
        found.setdefault(results.label(run), {})[task] = results.result_data(run, task)
    return found


__all__ = ["data_of", "hits_of"]
