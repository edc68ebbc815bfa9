"""The sections of the report, one module each, found as every extension point of clsd-mteb is: by entry point.

A new analysis is one module: a :class:`Section` (a frozen dataclass whose fields are its options; a field made
with :func:`clsd_format.declared_settings.setting` is an option of ``clsd analyze`` too), and one entry-point line
in the group ``clsd_analysis.sections``. clsd-mteb's own sections are its entries in its ``pyproject.toml``, placed
in the report by their ``order``; another package's are numbered after them, by entry-point name:

.. code-block:: toml

    [project.entry-points."clsd_analysis.sections"]
    my-analysis = "my_package.report:MyAnalysis"

The sections are read when a report is made or ``clsd analyze`` shows its options (:func:`registered`), never at
import; a section module imports the analysis's heavy parts inside its functions, so that ``clsd analyze --help``
answers at once. A section that cannot be loaded, names no Section subclass, or takes a built-in section's name,
and a section whose ``write`` raises (:func:`write_section`), is one line naming its entry point and distribution
(:mod:`clsd_format.plugins`), never clsd's internal error; ``clsd analyze --skip-failing-sections`` writes the
report without it and says so (:func:`refused`, :mod:`clsd_analysis.report`).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from clsd_analysis.sections.base import Section
from clsd_format.plugins import PluginError, PluginOrigin, Plugins, read_group, run_plugin

if TYPE_CHECKING:
    from clsd_analysis.report_context import ReportContext

__all__ = [
    "ENTRY_POINT_GROUP",
    "Section",
    "default_sections",
    "read_entries",
    "refused",
    "registered",
    "with_options",
    "write_section",
]

ENTRY_POINT_GROUP = "clsd_analysis.sections"


@functools.cache
def read_entries() -> Plugins[type]:
    """The group's entries as read (once; ``read_entries.cache_clear()`` reads them afresh), an entry that names no
    Section subclass, or one another entry names, among the refused."""
    read: Plugins[type] = read_group(ENTRY_POINT_GROUP, type, None)
    seen: set[type] = set()
    for name, section in list(read.found.items()):
        if not issubclass(section, Section) or section in seen:
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
    """Every section class in report order: clsd-mteb's by their ``order``, then those of other packages by name.

    An entry point that cannot be used is refused in one line naming it and its distribution, before any part of a
    report is written; with ``skip_failing``, it is left out (:func:`refused` says which).
    """
    read = read_entries()
    found = {name: kind for name, kind in (read.found if skip_failing else read.strict()).items() if issubclass(kind, Section)}

    def place(name: str) -> tuple[bool, int, str]:
        return not read.origins[name].built_in, found[name].order, name

    return tuple(found[name] for name in sorted(found, key=place))


def refused() -> list[PluginError]:
    """Why each section that cannot be used is left out, in the order of the entry names."""
    read = read_entries()
    return [read.refused[name] for name in sorted(read.refused)]


def _origin(section: Section) -> PluginOrigin | None:
    read = read_entries()
    return next((origin for name, origin in read.origins.items() if read.found.get(name) is type(section)), None)


def write_section(section: Section, report: ReportContext) -> None:
    """The section's declared ``intro``, then ``section.write(report)``; a package's section that raises is one line
    naming its entry point and distribution."""
    if section.intro:
        report.writer.add(section.intro)
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
    classes = registered(skip_failing)
    unknown = set(by_class) - set(classes)
    if unknown:
        raise ValueError(f"not a section of the report: {', '.join(sorted(c.__name__ for c in unknown))}")
    return tuple(by_class[section] if section in by_class else section() for section in classes)
