"""Task names, parsed in one place: which task is the English-pivot twin of which, and short labels.

``CLSD-WMT19-DE-FR-PivotEN`` is the English-pivot version of ``CLSD-WMT19-DE-FR`` (the suffix is
:data:`clsd_format.release.PIVOT_SUFFIX`); datasets made by the generation module follow the same
convention, and any pivot language code of two or three capitals is understood (``-PivotDE``).
Kept free of mteb imports so that tables can be printed without loading tasks.
"""

from __future__ import annotations

import re

_PIVOT = re.compile(r"^(?P<base>.+)-Pivot(?P<lang>[A-Z]{2,3})$")
_DIRECTION = re.compile(r"CLSD-(?P<ds>[^-]+)-(?P<src>[A-Z]{2,3})-(?P<tgt>[A-Z]{2,3})")
DIRECT = "direct"


def split_pivot(task_name: str) -> tuple[str, str | None]:
    """(direct task, pivot language) — ("CLSD-WMT19-DE-FR", "EN") for "CLSD-WMT19-DE-FR-PivotEN"; language None if direct."""
    match = _PIVOT.match(task_name)
    return (match.group("base"), match.group("lang")) if match else (task_name, None)


def pivot_base(task_name: str) -> str | None:
    """The direct task a pivot task translates, or None for a direct task."""
    base, language = split_pivot(task_name)
    return base if language is not None else None


def is_pivot(task_name: str) -> bool:
    return pivot_base(task_name) is not None


def setting_of(task_name: str) -> str:
    """'direct', or 'pivot EN' for an English-pivot task."""
    language = split_pivot(task_name)[1]
    return DIRECT if language is None else f"pivot {language}"


def short_task(name: str) -> str:
    """'CLSD-WMT19-DE-FR' -> 'WMT19 DE→FR'; other names lose only a 'CLSD-' prefix."""
    match = _DIRECTION.fullmatch(name)
    if match:
        return f"{match['ds']} {match['src']}→{match['tgt']}"
    return name.removeprefix("CLSD-")
