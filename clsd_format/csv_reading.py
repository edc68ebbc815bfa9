"""Strict reading of CSV and TSV files: the part that the release reader and the generator's input reader share.

Both readers must stop on the first byte or quote they cannot read and say where (file, row, column),
and both take cells as the exact strings in the file: nothing is turned into a missing value, so a
sentence reading "NA" stays a sentence. What differs is left to the caller: whether a blank line is a
row (the generator reports it as an empty row; the release, like pandas, skips it) and what a row with
the wrong number of fields means.

Rows are numbered from 1, the first line after the header, as a spreadsheet shows them less the
header line; the header is row 0.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from clsd_format.errors import DataError

if TYPE_CHECKING:
    from _csv import Reader


@dataclass(frozen=True)
class DelimitedRecord:
    row: int  # 1-based data row
    line: int  # the file line the record ends on (a quoted cell may span lines)
    fields: list[str]  # [] for a blank line


def format_name(delimiter: str) -> str:
    """'TSV' or 'CSV', for messages."""
    return "TSV" if delimiter == "\t" else "CSV"


def decode_utf8(payload: bytes, path: Path, delimiter: str = ",") -> str:
    """The file's text (a UTF-8 byte-order mark dropped); an undecodable byte is reported with its line and column."""
    try:
        return payload.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line_start = payload.rfind(b"\n", 0, exc.start) + 1
        line = payload[: exc.start].count(b"\n") + 1
        prefix = payload[line_start : exc.start].decode("utf-8", errors="replace")
        fields_before = next(csv.reader([prefix], delimiter=delimiter), [""])
        first_line = payload.split(b"\n", 1)[0].decode("utf-8", errors="replace").lstrip("\ufeff")
        header = next(csv.reader([first_line], delimiter=delimiter), [])
        column_index = len(fields_before) - 1
        column = header[column_index] if 0 <= column_index < len(header) else f"#{column_index + 1}"
        raise DataError(
            f"undecodable byte 0x{payload[exc.start]:02x} (not UTF-8) on line {line}",
            file=str(path),
            row=line - 1,
            column=column,
        ) from exc


def read_delimited(
    path: Path, *, delimiter: str = ",", blank_lines_are_rows: bool
) -> tuple[list[str], Iterator[DelimitedRecord]]:
    """The header and the data records of a UTF-8 CSV/TSV file.

    The header is checked here (present, parseable, no repeated name); the records are parsed lazily
    and a record that does not parse stops the iteration with a :class:`DataError`. A record's
    field count is not checked: the caller decides what a short or long row means.
    """
    text = decode_utf8(path.read_bytes(), path, delimiter)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    kind = format_name(delimiter)
    try:
        header = next(reader)
    except StopIteration:
        raise DataError("empty file (no header row)", file=str(path)) from None
    except csv.Error as exc:
        raise DataError(f"header does not parse as {kind}: {exc}", file=str(path), row=0) from exc
    repeated = sorted({name for name in header if header.count(name) > 1})
    if repeated:
        raise DataError(f"repeated column name(s) {repeated} in the header {header}", file=str(path), row=0)
    return header, _records(reader, path, kind, blank_lines_are_rows)


def _records(reader: Reader, path: Path, kind: str, blank_lines_are_rows: bool) -> Iterator[DelimitedRecord]:
    row = 0
    while True:
        try:
            fields = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise DataError(f"does not parse as {kind} ({exc}) near line {reader.line_num}", file=str(path), row=row + 1) from exc
        if not fields and not blank_lines_are_rows:
            continue
        row += 1
        yield DelimitedRecord(row, reader.line_num, fields)
