"""The sections of the report, one module each, in the order the report numbers them.

A new analysis is one module: a :class:`Section` (a frozen dataclass whose fields are its options). A built-in
one lives here and takes its place in :data:`BUILT_IN`; another package adds one without touching this package
by naming its class under the entry-point group ``clsd_analysis.sections``, and the report numbers it after the
built-in ones (by entry-point name):

.. code-block:: toml

    [project.entry-points."clsd_analysis.sections"]
    my-analysis = "my_package.report:MyAnalysis"

``clsd analyze`` sets a section's options by passing an instance of it to :func:`with_options`.
"""

from __future__ import annotations

import functools
from importlib.metadata import entry_points

from clsd_analysis.sections.base import Section
from clsd_analysis.sections.comparison import Comparison
from clsd_analysis.sections.disagreements import Disagreements
from clsd_analysis.sections.edit_similarity import EditSimilarity
from clsd_analysis.sections.edit_types import EditTypes
from clsd_analysis.sections.examples import Examples
from clsd_analysis.sections.pos_shift import PosShift
from clsd_analysis.sections.statistics import Statistics
from clsd_format.errors import CLSDError

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
    "registered",
    "with_options",
]


BUILT_IN: tuple[type[Section], ...] = (Comparison, Disagreements, EditSimilarity, Examples, Statistics, PosShift, EditTypes)
ENTRY_POINT_GROUP = "clsd_analysis.sections"


@functools.cache
def registered() -> tuple[type[Section], ...]:
    """Every section class in report order: the built-in ones, then those of installed packages by entry-point name.

    A package's entry point that does not name a :class:`Section` subclass is refused in one line naming it, before
    any part of a report is written.
    """
    found: list[type[Section]] = []
    for entry in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        section = entry.load()
        if not (isinstance(section, type) and issubclass(section, Section)) or section in BUILT_IN or section in found:
            raise CLSDError(
                f"the entry point {entry.name!r} = {entry.value!r} of group {ENTRY_POINT_GROUP} must name a Section "
                "subclass (clsd_analysis.sections.Section) that no other entry names."
            )
        found.append(section)
    return BUILT_IN + tuple(found)


def default_sections() -> tuple[Section, ...]:
    """Every section with its default options, in report order (the numbers a report's headings carry)."""
    return tuple(section() for section in registered())


def with_options(*chosen: Section) -> tuple[Section, ...]:
    """The default sections, each one of ``chosen`` in place of the default of its class."""
    by_class = {type(section): section for section in chosen}
    unknown = set(by_class) - {type(section) for section in default_sections()}
    if unknown:
        raise ValueError(f"not a section of the report: {', '.join(sorted(c.__name__ for c in unknown))}")
    return tuple(by_class.get(type(section), section) for section in default_sections())
