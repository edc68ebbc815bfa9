"""How many of the release's GPT-4 distractors each answer check keeps: the measurement behind their defaults.

Reads the two direct-language CSV files of the release (18,928 distractors) and runs every distractor
through :class:`clsd_generation.checks.answers.AnswerReader` with the default settings, each check on its
own (language, near-copy, invented words) and the decoration stripping, and prints the counts with the
distractors each check refuses or changes (docs/generation.md, "Answer checks, measured").

    python scripts/measure_answer_checks.py path/to/clsd-release
"""

from __future__ import annotations

import argparse
import csv
from collections import Counter
from dataclasses import replace
from pathlib import Path

from clsd_generation.checks.answers import AnswerReader
from clsd_generation.checks.candidates import reason_kind
from clsd_generation.core.settings import ReadingChecks

FILES = ("CLSD_wmt2019_adversarial_dataset.csv", "CLSD_wmt2021_adversarial_dataset.csv")
COLUMNS = {"de": "German", "fr": "French"}
ALL_OFF = ReadingChecks(language=False, near_copy_edits=0, max_unknown_share=2.0, max_unknown_lowercase=0)
ONE_AT_A_TIME = {
    "language": replace(ALL_OFF, language=True),
    "near-copy": replace(ALL_OFF, near_copy_edits=ReadingChecks.near_copy_edits),
    "invented words": replace(
        ALL_OFF, max_unknown_share=ReadingChecks.max_unknown_share, max_unknown_lowercase=ReadingChecks.max_unknown_lowercase
    ),
}


def release_distractors(folder: Path) -> list[tuple[str, str, str]]:
    """(language, original, distractor) for every GPT-4 distractor of the two direct-language files."""
    rows = []
    for name in FILES:
        with (folder / name).open(encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle):
                for code, column in COLUMNS.items():
                    rows += [(code, row[column], row[f"{code}_adv{k}"]) for k in range(1, 5)]
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("release", type=Path, help="folder holding the release's CSV files")
    parser.add_argument("--show", type=int, default=20, help="refused or changed distractors to print per check")
    args = parser.parse_args()
    rows = release_distractors(args.release)
    print(f"{len(rows)} GPT-4 distractors")
    stripped = [(code, d, s) for code, t, d in rows if (s := AnswerReader(code).strip_decoration(t, d)) != d.strip()]
    print(f"decoration stripped: {len(stripped)}")
    for code, before, after in stripped[: args.show]:
        print(f"  [{code}] {before!r} -> {after!r}")
    for name, checks in [*ONE_AT_A_TIME.items(), ("all (defaults)", ReadingChecks())]:
        readers = {code: AnswerReader(code, checks) for code in COLUMNS}
        refused = [
            (code, reason, d) for code, t, d in rows if (reason := readers[code].refusal(t, readers[code].strip_decoration(t, d)))
        ]
        kept = len(rows) - len(refused)
        by_language = Counter(code for code, _, _ in refused)
        print(f"{name}: keeps {kept} of {len(rows)} ({kept / len(rows):.2%}); refuses {dict(by_language)}")
        if name != "all (defaults)":
            for code, reason, distractor in refused[: args.show]:
                print(f"  [{code}] {reason_kind(reason)}: {reason} | {distractor[:160]!r}")


if __name__ == "__main__":
    main()
