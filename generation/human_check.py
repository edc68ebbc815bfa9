"""The paper's human check: annotators judge a seeded sample of distractors; the share that meets
the criteria is reported (the paper: over 98% of 200 per language).

The sheet is a CSV anyone can open in a spreadsheet: one row per (original, distractor) with three
yes/no columns, one per criterion. A distractor meets the criteria when all three are "yes".
"""

from __future__ import annotations

import csv
import random
from dataclasses import dataclass
from pathlib import Path

from clsd_format.errors import DataError

from clsd_generation.checkpoint import Checkpoint
from clsd_generation.pivot import languages_of

CRITERIA = ("structurally_similar", "lexically_similar", "different_meaning")
SHEET_COLUMNS = ("sample_id", "language", "pair_id", "original", "distractor", *CRITERIA, "comment")
YES = frozenset({"yes", "y", "1", "true", "x", "ja", "oui"})
NO = frozenset({"no", "n", "0", "false", "nein", "non"})


def export_sample(run_dir: Path, sheet: Path, *, per_language: int = 200, seed: int = 0) -> dict[str, int]:
    """Write the sheet; returns how many distractors were sampled per language."""
    sheet = Path(sheet)
    if sheet.exists():
        raise DataError("already exists; refusing to overwrite a sheet that may hold annotations.", file=str(sheet))
    with Checkpoint.existing(run_dir) as checkpoint:
        languages = languages_of(checkpoint)
        pairs = {p.pair_id: p for p in checkpoint.pairs()}
        results = sorted(checkpoint.results(), key=lambda r: (r.lang, r.pair_id))
    rows, counts = [], {}
    for side, language in enumerate(languages):
        population = [
            (r.pair_id, pairs[r.pair_id].texts[side], d) for r in results if r.lang == language.code and r.status == "ok" for d in r.distractors
        ]
        chosen = random.Random(f"{seed}|{language.code}").sample(population, min(per_language, len(population)))
        counts[language.code] = len(chosen)
        rows.extend((language.code, *item) for item in chosen)
    sheet.parent.mkdir(parents=True, exist_ok=True)
    with sheet.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(SHEET_COLUMNS)
        for number, (code, pair_id, original, distractor) in enumerate(rows, start=1):
            writer.writerow([number, code, pair_id, original, distractor, "", "", "", ""])
    return counts


@dataclass(frozen=True)
class CheckReport:
    judged: dict[str, int]  # per language
    meeting: dict[str, int]

    def share(self, code: str | None = None) -> float:
        judged = sum(self.judged.values()) if code is None else self.judged[code]
        meeting = sum(self.meeting.values()) if code is None else self.meeting[code]
        return meeting / judged if judged else float("nan")


def import_sample(sheet: Path) -> CheckReport:
    """Read a filled sheet; every criterion cell must be a yes or a no (a blank is reported)."""
    sheet = Path(sheet)
    try:
        with sheet.open(encoding="utf-8-sig", newline="") as handle:
            reader = csv.DictReader(handle)
            missing = [c for c in ("language", *CRITERIA) if c not in (reader.fieldnames or [])]
            if missing:
                raise DataError("missing column", file=str(sheet), column=missing[0])
            judged: dict[str, int] = {}
            meeting: dict[str, int] = {}
            for number, row in enumerate(reader, start=1):
                answers = []
                for criterion in CRITERIA:
                    value = (row.get(criterion) or "").strip().casefold()
                    if value not in YES | NO:
                        raise DataError(f"expected yes or no, found {row.get(criterion)!r}", file=str(sheet), row=number, column=criterion)
                    answers.append(value in YES)
                code = row["language"]
                judged[code] = judged.get(code, 0) + 1
                meeting[code] = meeting.get(code, 0) + all(answers)
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise DataError(f"cannot read the sheet ({exc})", file=str(sheet)) from exc
    if not judged:
        raise DataError("the sheet has no rows.", file=str(sheet))
    return CheckReport(judged, meeting)
