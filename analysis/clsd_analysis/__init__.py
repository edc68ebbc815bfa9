"""The paper's analyses of CLSD results: what ``clsd analyze`` writes (package ``clsd_analysis``).

Reads a results folder of ``clsd evaluate`` (results and per-row predictions) and the tasks' texts, and
computes Table 1, direct-versus-pivot disagreements, successful distractors by edit similarity, examples
of successful distractors, distractor statistics and one-word changes by part of speech; renders them as
tables (Markdown, LaTeX, CSV), figures (PNG, PDF) and one Markdown report. :func:`analyze` is the call behind
``clsd analyze``: results folders or :class:`clsd_mteb.CLSDRun` objects in, a :class:`Report` out (the answer,
the tables, the files written; :mod:`clsd_analysis.report`). Method and options: ``docs/analysis.md``.

The names are imported when first asked for, so that ``clsd --help``, which reads the command's declared options
(:mod:`clsd_analysis.command_options`), imports none of the analysis.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from clsd_analysis.report import AnalysisOptions, Report, analyze

__all__ = ["AnalysisOptions", "Report", "analyze"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from clsd_analysis import report

        return getattr(report, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
