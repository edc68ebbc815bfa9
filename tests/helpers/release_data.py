"""Where the authors' release is for the ``release``-marked tests, and ``make test``'s check that it is there.

The tests look for it the way ``clsd evaluate`` does, first that applies: ``$CLSD_DATA_DIR``, the release
beside the repository (``../shared/data/clsd-release``), the release cache (``$CLSD_CACHE_DIR``, default
``~/.cache/clsd_mteb``). A folder counts only when it holds all six files, each with its pinned SHA-256.

``python -m tests.helpers.release_data`` (``make test`` runs it before the suite) finds the release or, where
the network allows, fetches it into the cache with the package's own pinned, checksummed fetch, as
``clsd evaluate`` would. Without a copy and without network it stops at once with one line saying how to
point at a copy, instead of letting half an hour of tests end in errors. The tests themselves never download.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path

RELEASE_BESIDE = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "clsd-release"


@dataclass(frozen=True)
class Located:
    """The release folder found, or why the folder the user chose is not the release (then ``folder`` is None)."""

    folder: Path | None
    problem: str | None = None


def release_problem(folder: Path) -> str | None:
    """Why ``folder`` is not the pinned release (a missing or changed file), or None."""
    from clsd_mteb import release_fetch

    missing = [name for name in release_fetch.FILES if not (folder / name).is_file()]
    if missing:
        return f"lacks {', '.join(missing)}"
    changed = [name for name in release_fetch.FILES if not release_fetch.is_pristine(folder / name)]
    return f"{', '.join(changed)} differ(s) from the pinned SHA-256" if changed else None


def locate(chosen: Path | None, cache: Path) -> Located:
    """The release among the user's choice, the folder beside the repository and the cache; nothing is fetched."""
    from clsd_mteb import release_fetch

    commit = release_fetch.COMMIT[:12]
    # a folder the user chose (or placed beside) is used or reported, never skipped
    for folder, name in (
        (chosen, f"CLSD_DATA_DIR={chosen}"),
        (RELEASE_BESIDE if RELEASE_BESIDE.is_dir() else None, str(RELEASE_BESIDE)),
    ):
        if folder is not None:
            problem = release_problem(folder)
            return (
                Located(folder) if problem is None else Located(None, f"{name} is not the CLSD release at {commit}: it {problem}")
            )
    return Located(cache if cache.is_dir() and release_problem(cache) is None else None)


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Find or fetch the CLSD release for the tests marked `release`.")
    parser.add_argument("--target", default="test", help="the make target that was run, named in the advice")
    parser.add_argument("--markers", default="", help="the target's pytest marker expression, kept in the advice")
    return parser.parse_args(argv)


def advice(target: str, markers: str) -> str:
    """How to point ``make TARGET`` at a copy, and the same tests without the release, with the target's own filters."""
    keep = f"{markers} and not release" if markers else "not release"
    return (
        f"Point at a copy of its six files with make {target} RELEASE=<folder> (or CLSD_DATA_DIR=<folder>), "
        f"or leave those tests out: .venv/bin/python -m pytest -m '{keep}'"
    )


def main(argv: list[str] | None = None) -> int:
    """Find or fetch the release; exit status 2 with one line when neither works."""
    from clsd_format.errors import CLSDError
    from clsd_mteb import release_fetch

    arguments = _arguments(argv)
    try:
        found = locate(release_fetch.resolve_data_dir(), release_fetch.cache_dir())
    except CLSDError as error:
        found = Located(None, str(error))
    if found.problem:
        print(f"error: {found.problem}", file=sys.stderr)
        return 2
    if found.folder is None:
        try:
            for name in release_fetch.FILES:
                release_fetch.fetch(name)
        except CLSDError as error:
            reason = error.__cause__ or error  # the network's own reason, without evaluate's advice
            print(
                f"error: the tests marked `release` need the CLSD release; none was found and fetching it failed ({reason}). "
                + advice(arguments.target, arguments.markers),
                file=sys.stderr,
            )
            return 2
        found = Located(release_fetch.cache_dir())
    print(f"release data: {found.folder}")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("HF_HUB_VERBOSITY", "error")  # one line, not the downloader's retries
    sys.exit(main())
