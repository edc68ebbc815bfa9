"""The authors' public release: which files, where they live, their checksums, and how to get them.

Resolution order for a task's data (first that applies wins):

1. a ``data_dir`` argument (task constructor, :func:`clsd_mteb.get_tasks`, ``clsd evaluate --data-dir``);
2. the ``CLSD_DATA_DIR`` environment variable;
3. the release fetched once from GitHub at the pinned commit into the cache
   (``CLSD_CACHE_DIR``, default ``~/.cache/clsd_mteb``), each file checked against its SHA-256.

A local folder may hold the release CSVs as published, or this project's Hub-format export.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

from clsd_format.errors import DataError, DataSourceUnavailable

logger = logging.getLogger(__name__)

REPOSITORY = "impresso/cross_lingual_semantic_discrimination"
COMMIT = "ba143c27c3db67a1f3ef2303cd5cc9fe127681f8"
DEFAULT_BASE_URL = f"https://raw.githubusercontent.com/{REPOSITORY}/{COMMIT}"

DATA_DIR_ENV = "CLSD_DATA_DIR"
CACHE_DIR_ENV = "CLSD_CACHE_DIR"
BASE_URL_ENV = "CLSD_RELEASE_URL"  # a mirror of the repository at COMMIT (tests use a local server)

# file name -> (folder in the repository, SHA-256)
FILES: dict[str, tuple[str, str]] = {
    "CLSD_wmt2019_adversarial_dataset.csv": (
        "evaluation_sets",
        "97452d4b4416cf228790a4c3674ceb8e5188fde8cfa69f1e52a0a0f90804cdf8",
    ),
    "CLSD_wmt2021_adversarial_dataset.csv": (
        "evaluation_sets",
        "6e569c6a0b58bb1e9bd3899c4b9832531ed960fa370e8b624962b0d7a33c97ca",
    ),
    "MT_M2M_CLSD_wmt2019_adversarial_dataset.csv": (
        "evaluation_sets",
        "4e29bb27594e0a9c953743e2df5d7d2f99b7514567cc3e9c0a612e3f7a05fcaf",
    ),
    "MT_M2M_CLSD_wmt2021_adversarial_dataset.csv": (
        "evaluation_sets",
        "6d95f272ec9732eec534403ab3dbc6851b0c6d8670575662228db613832fc1ab",
    ),
    "DE_wmt1921_swaps_ner_pos.tsv": (
        "single_token_swaps_annotations",
        "54f855ffe83e793302da6b3e892e023400cadfd208a6933e2238bd6b57d1c7df",
    ),
    "FR_wmt1921_swaps_ner_pos.tsv": (
        "single_token_swaps_annotations",
        "8989e69ac928caf3f2b97617a53647a8946d67792ca2a137123f263edd4791ec",
    ),
}

HOW_TO_SET_A_SOURCE = (
    f"Point at a local copy instead: pass --data-dir <folder> to `clsd evaluate` (data_dir=... in Python) "
    f"or set {DATA_DIR_ENV}=<folder>. The folder may hold the release CSVs as published or a Hub-format export."
)


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def cache_root() -> Path:
    """The one cache folder of this project (``CLSD_CACHE_DIR``, default ``~/.cache/clsd_mteb``).

    The release files and the analysis's embeddings live side by side under it, so one variable moves both.
    """
    return Path(os.environ.get(CACHE_DIR_ENV) or Path.home() / ".cache" / "clsd_mteb")


def cache_dir() -> Path:
    return cache_root() / "release" / COMMIT


def resolve_data_dir(data_dir: str | os.PathLike[str] | None = None) -> Path | None:
    """The local folder the user chose, or None when the default (fetched) source applies."""
    chosen = data_dir if data_dir is not None else os.environ.get(DATA_DIR_ENV)
    if not chosen:
        return None
    folder = Path(chosen).expanduser()
    if not folder.is_dir():
        origin = "data_dir" if data_dir is not None else DATA_DIR_ENV
        raise DataError(f"{origin} points at {folder}, which is not a folder.")
    return folder


def is_pristine(path: Path) -> bool:
    """Whether a local release file is byte-identical to the pinned release."""
    expected = FILES.get(path.name, (None, None))[1]
    return expected is not None and sha256_of(path) == expected


def fetch(file_name: str, *, base_url: str | None = None, timeout: float = 30.0) -> Path:
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
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            payload = response.read()
    except (urllib.error.URLError, TimeoutError, OSError) as exc:
        raise DataSourceUnavailable(
            f"Could not fetch the CLSD release file {file_name} from {url} ({exc}). {HOW_TO_SET_A_SOURCE}"
        ) from exc
    actual = hashlib.sha256(payload).hexdigest()
    if actual != expected:
        raise DataError(
            f"downloaded content has SHA-256 {actual}, expected {expected}; refusing to use it.",
            file=url,
        )
    with tempfile.NamedTemporaryFile(dir=target.parent, delete=False) as tmp:
        tmp.write(payload)
        tmp.flush()
        os.fsync(tmp.fileno())
    Path(tmp.name).replace(target)
    return target
