"""The release's part-of-speech annotation files, read as published.

``DE_wmt1921_swaps_ner_pos.tsv`` is UTF-8; ``FR_wmt1921_swaps_ner_pos.tsv`` is UTF-16 little-endian
with byte-order marks, some of them stray inside the data (a few ``Dataset`` values start with
U+FEFF). Both use CRLF line ends and tab separators, and their columns come in different orders.
So: the encoding is taken from the byte-order mark, every U+FEFF is removed from the decoded text
(it is never content), and columns are read by name only. Anything else unexpected stops the read
with the file, line and column named.

Which annotated pairs the one-word analysis uses is a :class:`SelectionRule`. The paper analyses 523
German and 324 French single-word pairs but does not say how it chose them from these files (631 and
364 rows). No combination of operation, semantic equivalence, entity type, dataset and single-word
test reproduces both counts; the closest, :data:`PAPER_SELECTION` (swaps, not semantically
equivalent, no named entity, exactly one word replaced), gives 528 and 326. See docs/analysis.md.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from clsd_format.errors import DataError

# target language (ISO 639-1 prefix of the distractor column) -> file in the release folder
ANNOTATION_FILES: dict[str, str] = {
    "de": "DE_wmt1921_swaps_ner_pos.tsv",
    "fr": "FR_wmt1921_swaps_ner_pos.tsv",
}
REQUIRED_COLUMNS = (
    "Dataset",
    "Operation",
    "POSTag",
    "EntityType",
    "SemanticallyEquivalent",
    "AdversarialText",
    "AdversarialExample",
    "RowIndex",
    "OriginalTextGerman",
    "OriginalTextFrench",
)
_ORIGINAL_COLUMN = {"de": "OriginalTextGerman", "fr": "OriginalTextFrench"}
BOM = "\ufeff"


@dataclass(frozen=True)
class Annotation:
    """One annotated original/distractor pair."""

    row_id: str  # "wmt19-45": the Hub-format id of the row (dataset + RowIndex)
    language: str  # "de": language of original and distractor
    slot: int  # distractor slot, 1-based (from AdversarialExample "de_adv3")
    operation: str
    pos: str  # Universal POS of the changed token; "" when the annotators gave none
    entity_type: str
    semantically_equivalent: bool | None
    distractor: str
    original: str  # the sentence the distractor was made from (same language)
    details: str = ""  # the annotators' words for the change: "Swap: 'elf' with 'zehn'", "Addition of 'nicht'"


def _decode(payload: bytes, path: Path) -> str:
    if payload.startswith((b"\xff\xfe", b"\xfe\xff")):
        encoding = "utf-16"  # the BOM gives the byte order
    elif payload.startswith(b"\xef\xbb\xbf"):
        encoding = "utf-8-sig"
    else:
        encoding = "utf-8"
    try:
        text = payload.decode(encoding)
    except UnicodeDecodeError as exc:
        raise DataError(
            f"not decodable as {encoding} (byte {exc.start}); expected UTF-8, or UTF-16 with a byte-order mark",
            file=str(path),
        ) from exc
    return text.replace(BOM, "")


def read_annotation_table(path: str | Path) -> list[dict[str, str]]:
    """All rows of one annotation file as dicts keyed by column name (every column the file has)."""
    path = Path(path)
    if not path.is_file():
        raise DataError("annotation file not found", file=str(path))
    text = _decode(path.read_bytes(), path)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter="\t", strict=True)
    try:
        header = [h.strip() for h in next(reader)]
    except StopIteration:
        raise DataError("file is empty", file=str(path)) from None
    missing = [c for c in REQUIRED_COLUMNS if c not in header]
    if missing:
        raise DataError(f"missing column (header has {header})", file=str(path), row=0, column=missing[0])
    rows: list[dict[str, str]] = []
    for fields in reader:
        if not fields or all(not f.strip() for f in fields):
            continue  # a blank line carries no annotation
        if len(fields) != len(header):
            raise DataError(
                f"has {len(fields)} fields, the header {len(header)} (line {reader.line_num})",
                file=str(path),
                row=len(rows) + 1,
            )
        rows.append(dict(zip(header, fields, strict=True)))
    return rows


def _slot(value: str, path: Path, number: int) -> tuple[str, int]:
    prefix, _, digits = value.partition("_adv")
    if not prefix or not digits.isdigit():
        raise DataError(
            f"AdversarialExample {value!r} is not like 'de_adv3'", file=str(path), row=number, column="AdversarialExample"
        )
    return prefix, int(digits)


def read_annotations(path: str | Path) -> list[Annotation]:
    path = Path(path)
    out = []
    for number, row in enumerate(read_annotation_table(path), start=1):
        language, slot = _slot(row["AdversarialExample"].strip(), path, number)
        dataset, index = row["Dataset"].strip(), row["RowIndex"].strip()
        if not dataset or not index:
            raise DataError("empty Dataset or RowIndex", file=str(path), row=number, column="RowIndex")
        equivalent = row["SemanticallyEquivalent"].strip()
        out.append(
            Annotation(
                row_id=f"{dataset}-{index}",
                language=language,
                slot=slot,
                operation=row["Operation"].strip(),
                pos=row["POSTag"].strip(),
                entity_type=row["EntityType"].strip(),
                semantically_equivalent={"1": True, "0": False}.get(equivalent),
                distractor=row["AdversarialText"],
                original=row[_ORIGINAL_COLUMN.get(language, "OriginalTextGerman")],
                details=row.get("Details", "").strip(),
            )
        )
    return out


def release_annotations(data_dir: str | Path) -> dict[tuple[str, str, int], Annotation]:
    """Both files of a release folder, keyed by (row id, language, slot). Missing files give no keys."""
    found: dict[tuple[str, str, int], Annotation] = {}
    for name in ANNOTATION_FILES.values():
        path = Path(data_dir) / name
        if path.is_file():
            for note in read_annotations(path):
                found[(note.row_id, note.language, note.slot)] = note
    return found


def one_word_replaced(original: str, changed: str) -> bool:
    """Exactly one word of the original gone and exactly one new word in its place (the paper's words)."""
    from clsd_format.text_measures import word_set  # rapidfuzz, not needed to name the selections (clsd analyze --help)

    before, after = word_set(original), word_set(changed)
    return len(before - after) == 1 and len(after - before) == 1


@dataclass(frozen=True)
class SelectionRule:
    """Which annotated pairs count as one-word changes.

    ``operations``: kept values of ``Operation`` (empty: all); ``exclude_equivalent``: drop pairs
    annotated semantically equivalent (not meaning changes); ``exclude_entities``: drop pairs whose
    changed token is a named entity; ``single_word``: keep only pairs where exactly one word is
    replaced (:func:`one_word_replaced`).
    """

    operations: tuple[str, ...] = ("Swap",)
    exclude_equivalent: bool = True
    exclude_entities: bool = True
    single_word: bool = True

    def keeps(self, note: Annotation) -> bool:
        return (
            (not self.operations or note.operation in self.operations)
            and not (self.exclude_equivalent and note.semantically_equivalent)
            and not (self.exclude_entities and note.entity_type)
            and (not self.single_word or one_word_replaced(note.original, note.distractor))
        )


PAPER_SELECTION = SelectionRule()  # the closest rule to the paper's counts (528 / 326 against 523 / 324)
SELECTIONS = {
    "paper": PAPER_SELECTION,
    "swaps": SelectionRule(exclude_entities=False, single_word=False),  # swaps not annotated equivalent: 600 / 351
    "all": SelectionRule(operations=(), exclude_equivalent=False, exclude_entities=False, single_word=False),
}


def select(notes: Iterable[Annotation], rule: SelectionRule = PAPER_SELECTION) -> list[Annotation]:
    return [note for note in notes if rule.keeps(note)]
