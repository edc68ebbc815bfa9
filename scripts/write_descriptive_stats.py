"""Write the descriptive statistics of the eight released tasks, the files shipped in ``clsd_mteb/descriptive_stats``.

A maintainer's tool, run from a checkout after the pinned release changes::

    python scripts/write_descriptive_stats.py --data-dir <folder with the release CSVs>

The statistics are computed by the library (:mod:`clsd_mteb.task_statistics`); this script only
decides where they are written. An existing file is never replaced: delete the old revision's folder first.
"""

from __future__ import annotations

import argparse
from pathlib import Path

SHIPPED = Path(__file__).resolve().parents[1] / "clsd_mteb" / "descriptive_stats"


def main() -> None:
    parser = argparse.ArgumentParser(description="Write the descriptive statistics of the eight released tasks.")
    parser.add_argument("--data-dir", required=True, help="a folder holding the release CSVs")
    parser.add_argument("--out", type=Path, default=SHIPPED, help="default: clsd_mteb/descriptive_stats of this checkout")
    args = parser.parse_args()

    import clsd_mteb
    from clsd_mteb.task_statistics import write_statistics

    for task in clsd_mteb.get_tasks(data_dir=args.data_dir):
        print(write_statistics(task, args.out))


if __name__ == "__main__":
    main()
