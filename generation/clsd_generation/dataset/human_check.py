"""The paper's human check: annotators judge a seeded sample of distractors; the share that meets
the criteria is reported (the paper: over 98% of 200 per language).

The sheet is a CSV anyone can open in a spreadsheet: one row per (original, distractor) with three
yes/no columns, one per criterion. A distractor meets the criteria when all three are "yes".
For a run of the rule backend the sheet also names the rule behind each distractor (as the checkpoint
stored it) and whether it passes the automatic checks, re-run on the two texts
(:mod:`clsd_generation.rules.explain`), so the annotators' verdict can be set beside the machine's.
"""

from __future__ import annotations

import csv
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from clsd_format.errors import DataError
from clsd_generation.core.checkpoint import GENERATION_KEY, Checkpoint
from clsd_generation.core.languages import languages_of
from clsd_generation.dataset.human_check_settings import FilledSheet, SampleSettings

CRITERIA = ("structurally_similar", "lexically_similar", "different_meaning")
SHEET_COLUMNS = ("sample_id", "language", "pair_id", "original", "distractor", "rule", "automatic_checks", *CRITERIA, "comment")
YES = frozenset({"yes", "y", "1", "true", "x", "ja", "oui"})
NO = frozenset({"no", "n", "0", "false", "nein", "non"})


@dataclass
class SampleSummary:
    """What ``clsd check-sample`` wrote: per language, how many distractors, and for rule runs the checks and rule mix."""

    counts: dict[str, int] = field(default_factory=dict)
    passing: dict[str, int] = field(default_factory=dict)  # rule runs only: distractors passing the automatic checks
    rules: dict[str, Counter[str]] = field(default_factory=dict)  # rule runs only: rule -> distractors
    failures: dict[str, Counter[str]] = field(default_factory=dict)  # rule runs only: reason -> distractors

    def lines(self) -> list[str]:
        out = []
        for code, n in self.counts.items():
            if code not in self.passing:
                continue
            mix = ", ".join(f"{rule} {k}" for rule, k in self.rules[code].most_common())
            failed = ", ".join(f"{k} {reason}" for reason, k in self.failures[code].most_common())
            share = self.passing[code] / n if n else float("nan")
            out.append(
                f"{code}: {self.passing[code]} of {n} pass the automatic checks ({share:.1%}); rules: {mix}"
                + (f"; failing: {failed}" if failed else "")
            )
        return out


def _checks(code: str, items: list[tuple[str, str, str, str | None]]) -> list[tuple[str, str]]:
    """(rule, "pass" or the reason it fails) for each (pair_id, original, distractor, stored rule) of a rule run."""
    from clsd_generation.rules import TagCache, rules_for
    from clsd_generation.rules.explain import explain

    rules, tags = rules_for(code), TagCache(code)
    originals = tags.tag([original for _, original, _, _ in items])
    distractors = tags.tag([distractor for _, _, distractor, _ in items])
    verdicts = [explain(o, d, rules, known_rule=item[3]) for o, d, item in zip(originals, distractors, items, strict=True)]
    return [(rule, reason or "pass") for rule, reason in verdicts]


def export_sample(settings: SampleSettings) -> SampleSummary:
    """Write the sheet; returns how many distractors were sampled per language (and, for rule runs, their checks)."""
    run_dir, sheet, per_language, seed = settings.run_dir, Path(settings.sheet), settings.per_language, settings.seed
    if sheet.exists():
        raise DataError("already exists; refusing to overwrite a sheet that may hold annotations.", file=str(sheet))
    with Checkpoint.existing(run_dir) as checkpoint:
        languages = languages_of(checkpoint)
        pairs = {p.pair_id: p for p in checkpoint.pairs()}
        results = sorted(checkpoint.results(), key=lambda r: (r.lang, r.pair_id))
        by_rules = (checkpoint.get_meta(GENERATION_KEY) or {}).get("backend") == "rules"
    rows: list[tuple[str, ...]] = []
    summary = SampleSummary()
    for side, language in enumerate(languages):
        population = [
            (r.pair_id, pairs[r.pair_id].texts[side], d, r.rules[slot] if r.rules else None)
            for r in results
            if r.lang == language.code and r.status == "ok"
            for slot, d in enumerate(r.distractors)
        ]
        chosen = random.Random(f"{seed}|{language.code}").sample(population, min(per_language, len(population)))
        summary.counts[language.code] = len(chosen)
        verdicts = _checks(language.code, chosen) if by_rules and chosen else [("", "")] * len(chosen)
        if by_rules:
            summary.passing[language.code] = sum(v == "pass" for _, v in verdicts)
            summary.rules[language.code] = Counter(rule for rule, _ in verdicts)
            summary.failures[language.code] = Counter(v for _, v in verdicts if v != "pass")
        rows.extend((language.code, *item[:3], *verdict) for item, verdict in zip(chosen, verdicts, strict=True))
    sheet.parent.mkdir(parents=True, exist_ok=True)
    with sheet.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(SHEET_COLUMNS)
        for number, (code, pair_id, original, distractor, rule, verdict) in enumerate(rows, start=1):
            writer.writerow([number, code, pair_id, original, distractor, rule, verdict, "", "", "", ""])
    return summary


@dataclass(frozen=True)
class CheckReport:
    judged: dict[str, int]  # per language
    meeting: dict[str, int]

    def share(self, code: str | None = None) -> float:
        judged = sum(self.judged.values()) if code is None else self.judged[code]
        meeting = sum(self.meeting.values()) if code is None else self.meeting[code]
        return meeting / judged if judged else float("nan")


@dataclass(frozen=True)
class SheetRow:
    """One annotated distractor: its language, pair and text, and whether it meets all three criteria."""

    language: str
    pair_id: str
    distractor: str
    meets: bool
    row: int = 0  # its number in the sheet (1: the first row under the header), for messages
    original: str | None = None  # the sheet's "original" cell, when it has the column


def read_sheet(sheet: Path) -> list[SheetRow]:
    """Every row of a filled sheet; every criterion cell must be a yes or a no (a blank is reported).

    A distractor appears once: a repeated row (the same verdict twice would count twice) or two rows with
    opposite verdicts (which one holds?) are refused, naming both rows.
    """
    sheet = Path(sheet)
    rows = []
    try:
        with sheet.open(encoding="utf-8-sig", newline="") as handle:
            reader = csv.DictReader(handle)
            missing = [c for c in ("language", "pair_id", "distractor", *CRITERIA) if c not in (reader.fieldnames or [])]
            if missing:
                raise DataError("missing column", file=str(sheet), column=missing[0])
            for number, row in enumerate(reader, start=1):
                answers = []
                for criterion in CRITERIA:
                    value = (row.get(criterion) or "").strip().casefold()
                    if value not in YES | NO:
                        raise DataError(
                            f"expected yes or no, found {row.get(criterion)!r}", file=str(sheet), row=number, column=criterion
                        )
                    answers.append(value in YES)
                original = row.get("original") if "original" in (reader.fieldnames or []) else None
                rows.append(SheetRow(row["language"], row["pair_id"], row["distractor"], all(answers), number, original))
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise DataError(f"cannot read the sheet ({exc})", file=str(sheet)) from exc
    if not rows:
        raise DataError("the sheet has no rows.", file=str(sheet))
    _refuse_repeats(sheet, rows)
    return rows


def _refuse_repeats(sheet: Path, rows: list[SheetRow]) -> None:
    """A distractor judged in two rows is an error: counted twice, or two verdicts of which neither is known to hold."""
    first: dict[tuple[str, str, str], SheetRow] = {}
    for row in rows:
        earlier = first.setdefault((row.language, row.pair_id, row.distractor), row)
        if earlier is row:
            continue
        what = "repeats" if earlier.meets == row.meets else "contradicts the verdict of"
        raise DataError(
            f"the distractor of pair {row.pair_id!r} ({row.language}) {what} row {earlier.row}; keep one row per distractor.",
            file=str(sheet),
            row=row.row,
            column="distractor",
        )


def import_sample(settings: FilledSheet) -> CheckReport:
    """Read a filled sheet: per language, how many distractors were judged and how many meet all criteria."""
    sheet = settings.sheet
    judged: dict[str, int] = {}
    meeting: dict[str, int] = {}
    for row in read_sheet(sheet):
        judged[row.language] = judged.get(row.language, 0) + 1
        meeting[row.language] = meeting.get(row.language, 0) + row.meets
    return CheckReport(judged, meeting)
