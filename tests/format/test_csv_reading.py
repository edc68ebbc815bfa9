"""Strict CSV/TSV reading (clsd_format.csv_reading): exact cells, and every unreadable byte or quote named by row and column."""

from __future__ import annotations

from pathlib import Path

import pytest

from clsd_format.csv_reading import DelimitedRecord, decode_utf8, format_name, read_delimited
from clsd_format.errors import DataError


def _write(tmp_path: Path, payload: bytes, name: str = "pairs.csv") -> Path:
    path = tmp_path / name
    path.write_bytes(payload)
    return path


def test_format_name() -> None:
    assert (format_name("\t"), format_name(","), format_name(";")) == ("TSV", "CSV", "CSV")


def test_cells_stay_exact_strings_and_a_quoted_cell_may_span_lines(tmp_path: Path) -> None:
    path = _write(tmp_path, '\ufeffid,de,fr\n1,NA,""\n2,"zwei\nZeilen",日本語\n'.encode())
    header, records = read_delimited(path, blank_lines_are_rows=False)
    assert header == ["id", "de", "fr"]
    assert list(records) == [DelimitedRecord(1, 2, ["1", "NA", ""]), DelimitedRecord(2, 4, ["2", "zwei\nZeilen", "日本語"])]


def test_blank_lines_are_rows_only_when_asked(tmp_path: Path) -> None:
    path = _write(tmp_path, b"a\tb\nx\ty\n\nz\tw\n", "pairs.tsv")
    _, kept = read_delimited(path, delimiter="\t", blank_lines_are_rows=True)
    _, skipped = read_delimited(path, delimiter="\t", blank_lines_are_rows=False)
    assert [r.fields for r in kept] == [["x", "y"], [], ["z", "w"]]
    assert [(r.row, r.fields) for r in skipped] == [(1, ["x", "y"]), (2, ["z", "w"])]


def test_an_empty_file_has_no_header(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"pairs.csv: empty file \(no header row\)"):
        read_delimited(_write(tmp_path, b""), blank_lines_are_rows=False)


def test_a_repeated_column_name_is_refused_at_row_0(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"row 0: repeated column name\(s\) \['de'\]"):
        read_delimited(_write(tmp_path, b"de,fr,de\n1,2,3\n"), blank_lines_are_rows=False)


def test_a_bad_quote_stops_at_its_row(tmp_path: Path) -> None:
    path = _write(tmp_path, b'de,fr\nok,ok\n"a"b,c\n')
    _, records = read_delimited(path, blank_lines_are_rows=False)
    with pytest.raises(DataError, match=r"row 2: does not parse as CSV .* near line 3"):
        list(records)


def test_an_undecodable_byte_names_line_row_and_column(tmp_path: Path) -> None:
    payload = "id;de;fr\n1;gut;bien\n2;schl\xe9cht;mal\n".encode("latin-1")
    with pytest.raises(DataError) as caught:
        decode_utf8(payload, tmp_path / "x.csv", ";")
    assert str(caught.value) == (f"file {tmp_path / 'x.csv'}, row 2, column 'de': undecodable byte 0xe9 (not UTF-8) on line 3")


def test_an_undecodable_byte_beyond_the_header_is_numbered(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"column '#3'"):
        decode_utf8(b"a,b\n1,2,\xff\n", tmp_path / "x.csv")
