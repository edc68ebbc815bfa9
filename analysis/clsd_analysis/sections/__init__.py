"""The sections of the report, one module each, in the order the report numbers them.

A new analysis is one module: a :class:`Section` (a frozen dataclass whose fields are its options). A built-in
one lives here and takes its place in :data:`BUILT_IN`; another package adds one without touching this package
by naming its class under the entry-point group ``clsd_analysis.sections``, and the report numbers it after the
built-in ones (by entry-point name):

.. code-block:: toml

    [project.entry-points."clsd_analysis.sections"]
    my-analysis = "my_package.report:MyAnalysis"

``clsd analyze`` sets a section's options by passing an instance of it to :func:`with_options`.

The packages' sections are read when a report is made (:func:`registered`), never at import. A section that cannot
be loaded, names no new Section subclass, or takes a built-in section's name (:data:`BUILT_IN_NAMES`), and a
section whose ``write`` raises (:func:`write_section`), is one line naming its entry point and distribution
(:mod:`clsd_format.plugins`), never clsd's internal error; ``clsd analyze --skip-failing-sections`` writes the
report without it and says so (:func:`refused`, :mod:`clsd_analysis.report`).
"""

from __future__ import annotations

import functools

from clsd_analysis.report_context import ReportContext
from clsd_analysis.sections.base import Section
from clsd_analysis.sections.comparison import Comparison
from clsd_analysis.sections.disagreements import Disagreements
from clsd_analysis.sections.edit_similarity import EditSimilarity
from clsd_analysis.sections.edit_types import EditTypes
from clsd_analysis.sections.examples import Examples
from clsd_analysis.sections.pos_shift import PosShift
from clsd_analysis.sections.statistics import Statistics
from clsd_format.plugins import PluginError, PluginOrigin, Plugins, read_group, run_plugin

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
    "read_entries",
    "refused",
    "registered",
    "with_options",
    "write_section",
]


BUILT_IN: tuple[type[Section], ...] = (Comparison, Disagreements, EditSimilarity, Examples, Statistics, PosShift, EditTypes)
# The name of each built-in section, as an entry point would name it (its module's, with dashes): no package's may take it.
BUILT_IN_NAMES = {section.__module__.rsplit(".", 1)[-1].replace("_", "-"): section for section in BUILT_IN}
ENTRY_POINT_GROUP = "clsd_analysis.sections"


@functools.cache
def read_entries() -> Plugins[object]:
    """The group's entries as read (once; ``read_entries.cache_clear()`` reads them afresh), an entry that names no
    new Section subclass among the refused."""
    read: Plugins[object] = read_group(ENTRY_POINT_GROUP, object, None, reserved=BUILT_IN_NAMES)
    seen: set[object] = set(BUILT_IN)
    for name, section in list(read.found.items()):
        if not (isinstance(section, type) and issubclass(section, Section)) or section in seen:
            origin = read.origins.pop(name)
            read.refused[name] = PluginError(
                f"{origin} must name a Section subclass (clsd_analysis.sections.Section) that no other entry names; "
                f"{origin.remedy()}."
            )
            del read.found[name]
        else:
            seen.add(section)
    return read


def registered(skip_failing: bool = False) -> tuple[type[Section], ...]:
    """Every section class in report order: the built-in ones, then those of installed packages by entry-point name.

    A package's entry point that cannot be used is refused in one line naming it and its distribution, before any
    part of a report is written; with ``skip_failing``, it is left out (:func:`refused` says which).
    """
    read = read_entries()
    found = read.found if skip_failing else read.strict()
    return BUILT_IN + tuple(section for section in found.values() if isinstance(section, type))


def refused() -> list[PluginError]:
    """Why each package's section that cannot be used is left out, in the order of the entry names."""
    read = read_entries()
    return [read.refused[name] for name in sorted(read.refused)]


def _origin(section: Section) -> PluginOrigin | None:
    read = read_entries()
    return next((origin for name, origin in read.origins.items() if read.found.get(name) is type(section)), None)


def write_section(section: Section, report: ReportContext) -> None:
    """``section.write(report)``; a package's section that raises is one line naming its entry point and distribution."""
    origin = _origin(section)
    if origin is None:
        section.write(report)
    else:
        run_plugin(origin, section.write, report)


def default_sections(skip_failing: bool = False) -> tuple[Section, ...]:
    """Every section with its default options, in report order (the numbers a report's headings carry)."""
    return tuple(section() for section in registered(skip_failing))


def with_options(*chosen: Section, skip_failing: bool = False) -> tuple[Section, ...]:
    """The default sections, each one of ``chosen`` in place of the default of its class."""
    by_class = {type(section): section for section in chosen}
    defaults = default_sections(skip_failing)
    unknown = set(by_class) - {type(section) for section in defaults}
    if unknown:
        raise ValueError(f"not a section of the report: {', '.join(sorted(c.__name__ for c in unknown))}")
    return tuple(by_class.get(type(section), section) for section in defaults)
