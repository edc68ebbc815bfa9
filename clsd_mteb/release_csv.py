"""Strict reader for the release CSV files.

Strict because a silently skipped or filled row changes a score: every problem stops the read
with the file, the row (data row number and line) and the column. Cells are taken as the exact
strings in the file; nothing is turned into a missing value (the release holds no NA markers,
and a loader that treats "NA" or "None" as missing is wrong here).
"""

from __future__ import annotations

import csv
import functools
import io
from pathlib import Path

from clsd_format import schema
from clsd_format.errors import DataError
from clsd_format.schema import Language


def _decode(payload: bytes, path: Path) -> str:
    try:
        return payload.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line_start = payload.rfind(b"\n", 0, exc.start) + 1
        line = payload[: exc.start].count(b"\n") + 1
        prefix = payload[line_start : exc.start].decode("utf-8", errors="replace")
        fields_before = next(csv.reader([prefix]), [""])
        header = next(csv.reader([payload.split(b"\n", 1)[0].decode("utf-8", errors="replace").lstrip("\ufeff")]))
        column_index = len(fields_before) - 1
        column = header[column_index] if 0 <= column_index < len(header) else f"#{column_index + 1}"
        raise DataError(
            f"undecodable byte 0x{payload[exc.start]:02x} (not UTF-8) on line {line}",
            file=str(path),
            row=line - 1,
            column=column,
        ) from exc


@functools.lru_cache(maxsize=16)
def _read_cached(path: Path, mtime_ns: int, size: int) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    text = _decode(path.read_bytes(), path)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = next(reader)
    except StopIteration:
        raise DataError("file is empty", file=str(path)) from None
    except csv.Error as exc:
        raise DataError(f"header does not parse as CSV: {exc}", file=str(path), row=0) from exc
    rows: list[tuple[str, ...]] = []
    while True:
        try:
            fields = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            raise DataError(
                f"does not parse as CSV ({exc}) near line {reader.line_num}", file=str(path), row=len(rows) + 1
            ) from exc
        if not fields:
            # An empty line is no record (pandas, which the authors used, skips it too); the
            # published MT_M2M_CLSD_wmt2019 file has one between its last two rows.
            continue
        if len(fields) != len(header):
            raise DataError(
                f"has {len(fields)} fields but the header has {len(header)} (line {reader.line_num})",
                file=str(path),
                row=len(rows) + 1,
            )
        rows.append(tuple(fields))
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
