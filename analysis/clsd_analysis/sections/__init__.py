"""The sections of the report, one module each, in the order the report numbers them.

A new analysis is one module here: a :class:`Section` (a frozen dataclass whose fields are its options)
and its place in :func:`default_sections`. ``clsd analyze`` sets a section's options by passing an
instance of it to :func:`with_options`.
"""

from __future__ import annotations

from clsd_analysis.sections.base import Section
from clsd_analysis.sections.comparison import Comparison
from clsd_analysis.sections.disagreements import Disagreements
from clsd_analysis.sections.edit_similarity import EditSimilarity
from clsd_analysis.sections.edit_types import EditTypes
from clsd_analysis.sections.examples import Examples
from clsd_analysis.sections.pos_shift import PosShift
from clsd_analysis.sections.statistics import Statistics

__all__ = [
    "Comparison",
    "Disagreements",
    "EditSimilarity",
    "EditTypes",
    "Examples",
    "PosShift",
    "Section",
    "Statistics",
    "default_sections",
    "with_options",
]


def default_sections() -> tuple[Section, ...]:
    """Every section with its default options, in report order (the numbers a report's headings carry)."""
    return (Comparison(), Disagreements(), EditSimilarity(), Examples(), Statistics(), PosShift(), EditTypes())


def with_options(*chosen: Section) -> tuple[Section, ...]:
    """The default sections, each one of ``chosen`` in place of the default of its class."""
    by_class = {type(section): section for section in chosen}
    unknown = set(by_class) - {type(section) for section in default_sections()}
    if unknown:
        raise ValueError(f"not a section of the report: {', '.join(sorted(c.__name__ for c in unknown))}")
    return tuple(by_class.get(type(section), section) for section in default_sections())
