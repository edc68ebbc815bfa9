"""Strict reader for the release CSV files.

Strict because a silently skipped or filled row changes a score: every problem stops the read
with the file, the row (data row number and line) and the column. Cells are taken as the exact
strings in the file; nothing is turned into a missing value (the release holds no NA markers,
and a loader that treats "NA" or "None" as missing is wrong here).
"""

from __future__ import annotations

import functools
from pathlib import Path

from clsd_format import schema
from clsd_format.csv_reading import read_delimited
from clsd_format.errors import DataError
from clsd_format.languages import Language


@functools.lru_cache(maxsize=16)
def _read_cached(path: Path, mtime_ns: int, size: int) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    # An empty line is no record (pandas, which the authors used, skips it too); the published
    # MT_M2M_CLSD_wmt2019 file has one between its last two rows.
    header, records = read_delimited(path, blank_lines_are_rows=False)
    rows: list[tuple[str, ...]] = []
    for record in records:
        if len(record.fields) != len(header):
            raise DataError(
                f"has {len(record.fields)} fields but the header has {len(header)} (line {record.line})",
                file=str(path),
                row=record.row,
            )
        rows.append(tuple(record.fields))
    return tuple(header), tuple(rows)


def read_release_csv(path: Path, required: list[str]) -> list[dict[str, str]]:
    """Rows of a release CSV as dicts of the required columns, every cell checked non-empty.

    Rows are numbered from 1 (the first line after the header), as a spreadsheet shows them less
    the header line. The parsed file is memoised by (path, mtime, size): both directions of a
    dataset read the same file.
    """
    path = Path(path)
    if not path.is_file():
        raise DataError("file not found", file=str(path))
    stat = path.stat()
    header, rows = _read_cached(path.resolve(), stat.st_mtime_ns, stat.st_size)
    positions = {name: i for i, name in enumerate(header)}
    for column in required:
        if column not in positions:
            raise DataError(f"missing column (header has {list(header)})", file=str(path), row=0, column=column)
    out: list[dict[str, str]] = []
    seen: dict[str, int] = {}
    for number, fields in enumerate(rows, start=1):
        record = {column: fields[positions[column]] for column in required}
        for column, value in record.items():
            if not value.strip():
                raise DataError("empty cell", file=str(path), row=number, column=column)
        index = record.get(schema.RELEASE_INDEX)
        if index is not None:
            if index in seen:
                raise DataError(
                    f"duplicate Index {index!r} (first on row {seen[index]})",
                    file=str(path),
                    row=number,
                    column=schema.RELEASE_INDEX,
                )
            seen[index] = number
        out.append(record)
    if not out:
        raise DataError("no data rows", file=str(path))
    return out


def release_direction_rows(
    path: Path,
    *,
    dataset: str,
    source: Language,
    target: Language,
    pivot_lang: str | None = None,
) -> list[dict[str, object]]:
    """One direction of a release file in Hub-format rows (source in ``source``, candidates in ``target``)."""
    distractor_columns = target.distractor_columns()
    required = [schema.RELEASE_INDEX, source.release_column, target.release_column, *distractor_columns]
    records = read_release_csv(path, required)
    return [
        {
            schema.ID: f"{dataset}-{record[schema.RELEASE_INDEX]}",
            schema.SOURCE: record[source.release_column],
            schema.TARGET: record[target.release_column],
            schema.DISTRACTORS: [record[c] for c in distractor_columns],
            schema.SOURCE_LANG: pivot_lang or source.mteb_code,
            schema.TARGET_LANG: pivot_lang or target.mteb_code,
        }
        for record in records
    ]
