"""What a dataset says of itself that its run cannot know (its name, licence, dates, corpus): :class:`DatasetDescription`.

Declared once with the options of ``clsd build`` that set it, and kept free of the builder's imports, so that the
command's ``--help`` reads it without loading the builder.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from clsd_format.declared_settings import DeclaredSettings, option_name, setting
from clsd_format.errors import CLSDError


def task_prefix(name: str) -> str:
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_]*", name):
        raise CLSDError(
            f"dataset name {name!r}: use letters, digits and underscores (it becomes the task name CLSD-<NAME>-DE-FR)."
        )
    return f"CLSD-{name.upper()}"


_LICENSE_ID = re.compile(r"[a-z0-9][a-z0-9.+-]*")  # the Hub's licence ids: "cc-by-4.0", "apache-2.0", "other"


@dataclass(frozen=True)
class DatasetDescription(DeclaredSettings):
    """What the builder says of the dataset: its name and the card's facts that the run cannot know."""

    name: str = setting(help="Dataset name used in task names: CLSD-<NAME>-DE-FR.")
    license: str | None = setting(  # a Hub licence id; None: the card says "not specified"
        None, help="Licence of the dataset, a Hub licence id (cc-by-4.0, ...); default: not specified."
    )
    domains: tuple[str, ...] = setting((), help="mteb domain of the texts (News, Legal, ...); repeatable.", flag="--domain")
    # earliest and latest date of the texts; neither: the generation dates
    date_from: str | None = setting(None, help="Earliest date of the texts (ISO); default: generation dates.")
    date_to: str | None = setting(None, help="Latest date of the texts (ISO).")
    reference: str | None = setting(None, help="URL describing the corpus.")
    source_datasets: tuple[str, ...] = setting(  # Hub ids of the corpus (a Hub input adds its own)
        (), help="Hub id of the corpus (owner/name), for the card; repeatable.", flag="--source-dataset"
    )

    def check(self) -> None:
        task_prefix(self.name)
        option = functools.partial(option_name, DatasetDescription)
        if self.license is not None and not _LICENSE_ID.fullmatch(self.license):
            raise CLSDError(
                f"{option('license')} {self.license!r}: give a Hub licence id such as cc-by-4.0, apache-2.0 or other."
            )
        for repo in self.source_datasets:
            if repo.count("/") != 1 or not all(repo.split("/")):
                raise CLSDError(f"{option('source_datasets')} {repo!r}: give a Hub dataset id, owner/name.")
        if (self.date_from is None) != (self.date_to is None):
            raise CLSDError(f"give both {option('date_from')} and {option('date_to')}, or neither.")

    @property
    def date(self) -> tuple[str, str] | None:
        """The texts' earliest and latest date, or None (the card then gives the generation dates)."""
        return (self.date_from, self.date_to) if self.date_from and self.date_to else None


__all__ = ["DatasetDescription", "task_prefix"]
