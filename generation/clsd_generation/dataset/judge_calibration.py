"""``clsd judge --against SHEET``: how often the judge model agrees with the people who filled a sample sheet.

The sheet is one ``clsd check-sample`` wrote and annotators filled (three yes/no criteria per distractor; a
distractor meets them when all three are yes). The judge is asked its three questions about the very
same distractors (stored in the run's checkpoint like any verdict, so a repeated command asks nothing
twice), and the two readings are compared: counts, accuracy, and both kinds of error (the judge
accepting what people refused, and refusing what they accepted). The human reading is the reference.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from clsd_format.errors import DataError
from clsd_generation.core.checkpoint import Checkpoint, checkpoint_writes
from clsd_generation.core.languages import languages_of
from clsd_generation.core.lock import run_folder_lock
from clsd_generation.dataset.human_check import SheetRow, read_sheet
from clsd_generation.llm.judge import Item, Judge, JudgeSettings, bind_judge, record_refusals, verdict_of


@dataclass(frozen=True)
class Agreement:
    """Judge against people, over the sheet's distractors the judge settled."""

    both_valid: int
    both_invalid: int
    judge_only_valid: int  # the judge accepted what people refused
    people_only_valid: int  # the judge refused what people accepted
    unclear: int  # the judge left unclear or unanswered
    model: str

    @property
    def compared(self) -> int:
        return self.both_valid + self.both_invalid + self.judge_only_valid + self.people_only_valid

    def lines(self) -> list[str]:
        accuracy = (self.both_valid + self.both_invalid) / self.compared if self.compared else float("nan")
        return [
            f"judge {self.model} against the sheet: {self.compared} distractors compared"
            + (f", {self.unclear} left unclear by the judge" if self.unclear else ""),
            f"  agree: {self.both_valid} valid, {self.both_invalid} invalid (accuracy {accuracy:.1%})",
            f"  judge accepts what people refused: {self.judge_only_valid}",
            f"  judge refuses what people accepted: {self.people_only_valid}",
            "  the human reading is the reference; the judge is only as good as its model.",
        ]


def calibrate(run_dir: Path, sheet: Path, settings: JudgeSettings, *, progress: bool = True) -> Agreement:
    """Judge the sheet's distractors (from the run they were sampled from) and compare with the annotators.

    The sheet is checked against the run before any request: each row's pair and language must be in the run,
    its original the pair's text, its distractor one the run kept for that pair (a column sorted on its own
    would otherwise compare verdicts on the wrong distractors).
    """
    rows = read_sheet(sheet)
    with checkpoint_writes(run_dir), run_folder_lock(run_dir, create=False), Checkpoint.existing(run_dir) as checkpoint:
        items = _sheet_items(checkpoint, run_dir, sheet, rows)
        bind_judge(checkpoint, settings)
        judge = Judge(checkpoint, settings, progress)
        try:
            judge.run(items)
        finally:
            record_refusals(checkpoint, judge.refused)
        answers = checkpoint.judgments()
    verdicts = [verdict_of(answers.get(item.key, {})) for item in items]
    pairs_of = [(verdict, row.meets) for verdict, row in zip(verdicts, rows, strict=True)]
    return Agreement(
        both_valid=sum(v == "valid" and meets for v, meets in pairs_of),
        both_invalid=sum(v == "invalid" and not meets for v, meets in pairs_of),
        judge_only_valid=sum(v == "valid" and not meets for v, meets in pairs_of),
        people_only_valid=sum(v == "invalid" and meets for v, meets in pairs_of),
        unclear=sum(v is None for v in verdicts),
        model=settings.llm.model,
    )


def _sheet_items(checkpoint: Checkpoint, run_dir: Path, sheet: Path, rows: list[SheetRow]) -> list[Item]:
    """The judge's item for each sheet row; a row that does not match the run is refused, naming row and column."""
    ordered = languages_of(checkpoint)
    languages = {language.code: side for side, language in enumerate(ordered)}
    pairs = {pair.pair_id: pair for pair in checkpoint.pairs()}
    kept = {(r.pair_id, r.lang): set(r.distractors) for r in checkpoint.results() if r.status == "ok"}
    items = []
    for row in rows:
        if row.pair_id not in pairs or row.language not in languages:
            raise DataError(
                f"pair {row.pair_id!r} ({row.language}) is not in {run_dir}; use the run the sheet was sampled from.",
                file=str(sheet),
                row=row.row,
                column="pair_id",
            )
        side, texts = languages[row.language], pairs[row.pair_id].texts
        if row.original is not None and row.original != texts[side]:
            problem, column = "is not the original of its pair", "original"
        elif row.distractor not in kept.get((row.pair_id, row.language), set()):
            problem, column = "is not a distractor the run kept for its pair", "distractor"
        else:
            items.append(Item(ordered[side], ordered[1 - side], texts[1 - side], texts[side], row.distractor))
            continue
        raise DataError(
            f"this {column} {problem} ({row.pair_id!r}, {row.language}) in {run_dir}; was the column sorted on its own?",
            file=str(sheet),
            row=row.row,
            column=column,
        )
    return items
