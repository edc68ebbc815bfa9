"""What the benchmarks share: quick mode, the project's fixture data, and test helpers started as processes.

Every other file of this folder is a benchmark, run from a clone as ``python benchmarks/NAME.py``. Each takes
``--quick``: tiny sizes on the project's own fixture data (``tests/data/clsd-mini``), seconds instead of minutes,
its table printed and no figure judged. Quick mode checks that a benchmark still runs, not how fast anything is;
``tests/project/test_benchmarks.py`` runs every benchmark that way. A benchmark that cannot run on the machine at hand
(the llama.cpp server missing, say) prints why and exits with :data:`SKIPPED`.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn

REPO_ROOT = Path(__file__).resolve().parent.parent
FIXTURE_DATA = REPO_ROOT / "tests" / "data" / "clsd-mini"  # the project's own small data folder, in the release's formats
SKIPPED = 77  # the exit status of a benchmark that cannot run here (the test-harness convention for "skipped")
QUICK_HELP = "tiny sizes on the project's fixture data (seconds): checks that the benchmark runs; its figures measure nothing"


def add_quick(parser: argparse.ArgumentParser) -> None:
    """The ``--quick`` flag every benchmark takes."""
    parser.add_argument("--quick", action="store_true", help=QUICK_HELP)


def announce_quick(what: str) -> None:
    """One line saying that this run is quick mode, and what it runs, so that nobody quotes its figures."""
    print(f"quick mode ({what}): a check that the benchmark runs; its figures measure nothing", flush=True)


def quick_settings(args: argparse.Namespace, quick: Mapping[str, object]) -> None:
    """With ``--quick``, the arguments ``quick`` gives (by option name), said in the quick-mode line."""
    if args.quick:
        vars(args).update(quick)
        announce_quick(", ".join(f"{key.replace('_', '-')} {value}" for key, value in quick.items()))


def skip(reason: str) -> NoReturn:
    """Stop a benchmark that cannot run here: the reason on one line, exit status :data:`SKIPPED`."""
    print(f"skipped: {reason}", flush=True)
    raise SystemExit(SKIPPED)


@contextmanager
def helper_process(module: str, *args: str) -> Iterator[str]:
    """``python -m tests.helpers.MODULE ARGS`` in its own process; yields the first line it prints (its address), then stops it.

    The test helpers are modules of the ``tests`` package, importable from the repository root and nowhere else
    (neither an install nor ``python benchmarks/NAME.py`` puts the root on the path), so the helper starts there.
    """
    command = [sys.executable, "-m", f"tests.helpers.{module}", *args]
    server = subprocess.Popen(command, cwd=REPO_ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        first = server.stdout.readline().strip()
        if not first:
            raise SystemExit(f"tests.helpers.{module} exited with status {server.wait()} before printing its address")
        yield first
    finally:
        server.terminate()
        server.wait()
