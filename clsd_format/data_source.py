"""Where a run's CLSD data comes from: decided once, by :func:`resolve_data_source`, without importing mteb.

The four sources, first that applies wins:

1. ``hub_dataset`` (``REPO_ID@REVISION``): a Hub-format dataset on the Hugging Face Hub, its card
   fetched (``huggingface_hub``) when the source is resolved; or the authors' own Hub copy of the four
   direct test sets, ``Andrianos/clsd_wmt19_21`` (:mod:`clsd_format.authors_hub`), whose revision
   defaults to the one mteb pinned;
2. a local folder (``data_dir``, else ``$CLSD_DATA_DIR``) holding the release CSVs as published;
3. a local Hub-format folder (a ``README.md`` with a ``clsd`` manifest): an export of the release
   (``clsd export-release``), or a generated dataset; its data files are checked against the SHA-256
   its card records (:func:`check_hub_folder`);
4. nothing chosen: the release fetched once from GitHub at the pinned commit (:mod:`clsd_mteb.release_fetch`).

The decision is a :class:`DataSource`, which :func:`clsd_mteb.get_tasks` hands to every task it makes
(``source=``), so a run resolves its source once and reads a card, and the manifest in it, once.
``clsd evaluate`` resolves it, and checks the task names against it, before it imports mteb: a
mistake answers at once.
"""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from clsd_format import authors_hub, hub
from clsd_format.declared_settings import option_name
from clsd_format.errors import CLSDError, DataError, UnknownTaskError
from clsd_format.evaluation_settings import DataChoice
from clsd_format.release import COMMIT, FILES, RELEASE_TASK_NAMES, REPOSITORY, resolve_data_dir

logger = logging.getLogger(__name__)

SourceKind = Literal["fetched-release", "release-csv-folder", "hub-folder", "hub-repository", "authors-hub"]


@dataclass(frozen=True)
class DataSource:
    """A resolved data source: ``location`` is a folder, a Hub repo id, or None for the fetched release.

    A Hub-format folder or repository carries its card's YAML header (``card``) and the configs its
    ``clsd`` manifest lists (``configs``), read when the source was resolved.
    """

    kind: SourceKind
    location: Path | str | None = None
    revision: str | None = None  # the pinned commit of a Hub repository
    configs: tuple[hub.DirectionSpec, ...] = ()
    card: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def folder(self) -> Path:
        """The local folder of a folder source (a programming error to ask otherwise)."""
        if not isinstance(self.location, Path):
            raise TypeError(f"a {self.kind} source has no local folder")
        return self.location

    @property
    def holds_release(self) -> bool:
        """Whether the source holds released tasks: the release CSVs (fetched or local), an export of them, the authors' Hub copy."""
        if self.kind == "hub-folder":
            return {spec.task_name for spec in self.configs} <= set(RELEASE_TASK_NAMES)
        return self.kind in ("fetched-release", "release-csv-folder", "authors-hub")

    def task_names(self) -> tuple[str, ...]:
        """The tasks the source defines."""
        if self.kind == "authors-hub":
            return authors_hub.TASK_NAMES
        if self.holds_release:
            return RELEASE_TASK_NAMES
        return tuple(spec.task_name for spec in self.configs)

    def check_task_names(self, names: Sequence[str] | None) -> list[str] | None:
        """``names`` as given, once each is known to be a task of this source (:class:`UnknownTaskError` if not)."""
        if names:
            choose_tasks(names, self.task_names())
        return list(names) if names else None

    @property
    def card_file(self) -> str:
        """How messages name the source's dataset card."""
        return f"{self.location}/{hub.CARD_FILE}"

    def describe(self) -> str:
        """One line for the console: which data this run read (said once the data is loaded: the release is fetched then)."""
        if self.kind == "fetched-release":
            return f"the CLSD release at {REPOSITORY}@{COMMIT[:12]} (each file's SHA-256 checked, kept in the release cache)"
        if self.kind == "hub-repository":
            return f"the Hub dataset {self.location}@{self.revision}"
        if self.kind == "authors-hub":
            return f"the authors' Hub dataset {self.location}@{self.revision} (the four direct test sets)"
        return f"{self.location} ({'release CSVs' if self.kind == 'release-csv-folder' else 'Hub-format folder'})"


def choose_tasks(names: Sequence[str] | None, known: Sequence[str]) -> list[str]:
    """``names`` in the order given (every one of ``known`` when none are given); an unknown name fails, listing ``known``."""
    if not names:
        return list(known)
    unknown = [name for name in names if name not in known]
    if unknown:
        raise UnknownTaskError(unknown, known)
    return list(names)


def resolve_data_source(data_dir: str | os.PathLike[str] | None = None, hub_dataset: str | None = None) -> DataSource:
    """Decide the data source of a run from the user's choice (module docstring).

    A bad choice fails here, before any model loads: a folder that does not exist or holds neither
    the release CSVs nor a Hub-format dataset, a Hub dataset without a pinned revision or whose card
    cannot be had.
    """
    data_dir_option, hub_option = option_name(DataChoice, "data_dir"), option_name(DataChoice, "hub_dataset")
    if hub_dataset:
        if data_dir is not None:
            raise CLSDError(f"give either {data_dir_option} or {hub_option}, not both.")
        repo_id, _, revision = hub_dataset.partition("@")
        if authors_hub.is_authors_repository(repo_id):
            return DataSource("authors-hub", authors_hub.REPO_ID, revision or authors_hub.DEFAULT_REVISION)
        if not repo_id or not revision:
            raise CLSDError(f"{hub_option} needs a pinned revision: REPO_ID@COMMIT (only {authors_hub.REPO_ID} has a default).")
        return hub_repository_source(repo_id, revision)
    folder = resolve_data_dir(data_dir)
    if folder is None:
        return DataSource("fetched-release")
    if any((folder / name).is_file() for name in FILES):
        return DataSource("release-csv-folder", folder)
    if not (folder / hub.CARD_FILE).is_file():
        raise DataError(
            f"the data folder {folder} holds neither release CSVs (e.g. {next(iter(FILES))}) nor a Hub-format export "
            f"({hub.CARD_FILE} with a 'clsd' manifest)."
        )
    # a card is there: what is wrong with it is said with its file, row and column
    card = hub.read_front_matter(folder)
    configs = hub.read_manifest_from_header(card, where=str(folder / hub.CARD_FILE))
    check_hub_folder(folder, card)
    return DataSource("hub-folder", folder, configs=tuple(configs), card=card)


def hub_repository_source(repo_id: str, revision: str) -> DataSource:
    """A Hub-format dataset on the Hub: its card fetched at ``revision`` (``huggingface_hub``, so ``HF_ENDPOINT``,
    ``HF_HUB_OFFLINE`` and the Hub cache apply) and its manifest read; the rows are fetched when a task loads them.
    """
    from huggingface_hub import hf_hub_download

    where = f"{repo_id}/{hub.CARD_FILE}"
    try:
        card = hf_hub_download(repo_id, hub.CARD_FILE, repo_type="dataset", revision=revision)
    except Exception as exc:  # offline, missing-repository and HTTP errors come in several types
        raise DataError(
            f"could not fetch the dataset card of {repo_id}@{revision} from the Hugging Face Hub ({type(exc).__name__}: {exc}). "
            "Without network access, download the repository folder elsewhere and pass it with "
            f"{option_name(DataChoice, 'data_dir')}."
        ) from exc
    header = hub.read_card_header(Path(card), where=where)
    configs = hub.read_manifest_from_header(header, where=where)
    return DataSource("hub-repository", repo_id, revision, configs=tuple(configs), card=header)


def check_hub_folder(folder: Path, card: Mapping[str, Any]) -> None:
    """Check a Hub-format folder's data files against its card's checksums, before any model loads.

    A changed file stops the run with one line naming it (:class:`DataError`). A card without checksums
    (an older export, a hand-made folder) is read as it is, with one logged note per folder.
    """
    if not hub.check_files(folder, card):
        _note_unchecked(str(folder))


@functools.cache
def _note_unchecked(folder: str) -> None:
    logger.warning(
        f"{Path(folder) / hub.CARD_FILE} records no checksums of its data files (written before they were recorded, "
        "or by hand): the data is read unchecked."
    )
