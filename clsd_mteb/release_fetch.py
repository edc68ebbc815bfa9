"""Getting the authors' public release: fetched once from GitHub at the pinned commit, checked, cached.

What the release is (repository, commit, files and their SHA-256, tasks) is written in
:mod:`clsd_format.release`; which source a run reads, in :mod:`clsd_format.data_source`. With no local
folder chosen, a task fetches its file here into the cache (``CLSD_CACHE_DIR``, default
``~/.cache/clsd_mteb``), each file checked against its SHA-256.

The download is ``huggingface_hub``'s (its HTTP client, retries and resumption, progress bar), checked
with ``hashlib`` and moved into place only once it matches. Pooch, the usual known-hash fetcher, would do
the same, but it brings two more distributions (pooch and platformdirs) than the base install may add
(tests/project/test_packaging.py), while ``huggingface_hub`` is there already. It also makes the release follow
the Hub's switches, as every mteb task's data does: with ``HF_HUB_OFFLINE=1`` nothing is fetched, and
``HF_HUB_DOWNLOAD_TIMEOUT`` bounds a request.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import BinaryIO

from clsd_format.declared_settings import option_name
from clsd_format.errors import DataError, DataSourceUnavailable
from clsd_format.evaluation_settings import DataChoice
from clsd_format.files import new_temp_file
from clsd_format.hub import sha256_of as sha256_of  # kept importable from here
from clsd_format.release import COMMIT, DATA_DIR_ENV, FILES, REPOSITORY
from clsd_format.release import resolve_data_dir as resolve_data_dir  # kept importable from here

logger = logging.getLogger(__name__)

DEFAULT_BASE_URL = f"https://raw.githubusercontent.com/{REPOSITORY}/{COMMIT}"
CACHE_DIR_ENV = "CLSD_CACHE_DIR"
BASE_URL_ENV = "CLSD_RELEASE_URL"  # a mirror of the repository at COMMIT (tests use a local server)

HOW_TO_SET_A_SOURCE = (
    f"Point at a local copy instead: pass {option_name(DataChoice, 'data_dir')} <folder> to `clsd evaluate` (data_dir=... in Python) "
    f"or set {DATA_DIR_ENV}=<folder>. The folder may hold the release CSVs as published or a Hub-format export."
)


def cache_root() -> Path:
    """The one cache folder of this project (``CLSD_CACHE_DIR``, default ``~/.cache/clsd_mteb``).

    The release files and the analysis's embeddings live side by side under it, so one variable moves both.
    """
    return Path(os.environ.get(CACHE_DIR_ENV) or Path.home() / ".cache" / "clsd_mteb")


def cache_dir() -> Path:
    return cache_root() / "release" / COMMIT


def is_pristine(path: Path) -> bool:
    """Whether a local release file is byte-identical to the pinned release."""
    expected = FILES.get(path.name, (None, None))[1]
    return expected is not None and sha256_of(path) == expected


def fetch(file_name: str, *, base_url: str | None = None) -> Path:
    """Return the cached, checksum-verified release file, downloading it once if needed.

    The download goes to a temporary file that is renamed into place only after the checksum
    matches, so an interrupted or corrupted download never poisons the cache.
    """
    folder, expected = FILES[file_name]
    target = cache_dir() / file_name
    if target.exists():
        if sha256_of(target) == expected:
            return target
        raise DataError(
            f"cached release file does not match its SHA-256 ({expected}); delete it to fetch it again.",
            file=str(target),
        )
    base = (base_url or os.environ.get(BASE_URL_ENV) or DEFAULT_BASE_URL).rstrip("/")
    url = f"{base}/{folder}/{file_name}"
    logger.info("Fetching %s", url)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = new_temp_file(target.parent, ".part")
    try:
        with partial.open("wb") as handle:
            _download(url, handle, file_name)
        actual = sha256_of(partial)
        if actual != expected:
            raise DataError(f"downloaded content has SHA-256 {actual}, expected {expected}; refusing to use it.", file=url)
        partial.replace(target)
    finally:
        partial.unlink(missing_ok=True)
    return target


def _download(url: str, handle: BinaryIO, file_name: str) -> None:
    """``url`` into ``handle`` with ``huggingface_hub``'s downloader; any failure says how to use a local copy instead."""
    from huggingface_hub import constants
    from huggingface_hub.file_download import http_get

    if constants.HF_HUB_OFFLINE:
        raise DataSourceUnavailable(
            f"Could not fetch the CLSD release file {file_name} from {url}: offline mode is on (HF_HUB_OFFLINE). "
            + HOW_TO_SET_A_SOURCE
        )
    try:
        http_get(url, handle, displayed_filename=file_name)
    except Exception as exc:  # the HTTP errors' types depend on huggingface_hub's version (requests, httpx)
        raise DataSourceUnavailable(
            f"Could not fetch the CLSD release file {file_name} from {url} ({exc}). {HOW_TO_SET_A_SOURCE}"
        ) from exc
