"""JSON and JSON Lines reading (clsd_format.json_files): values as the formats define them, failures as one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from clsd_format.errors import DataError
from clsd_format.json_files import read_json, read_json_lines, read_utf8


def test_read_utf8_drops_the_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_bytes('\ufeff{"τ": 1}'.encode())
    assert read_utf8(path) == '{"τ": 1}'


def test_an_undecodable_byte_is_named_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_bytes(b'{\n"a":\n"\xff"}')
    with pytest.raises(DataError, match=r"undecodable byte 0xff \(not UTF-8\) on line 3") as caught:
        read_json(path)
    assert str(path) in str(caught.value) and "\n" not in str(caught.value)


def test_a_missing_file_is_a_data_error(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"cannot read this settings file"):
        read_utf8(tmp_path / "absent.json", "settings file")


def test_damaged_json_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_text('{"a": 1,\n "b": }', encoding="utf-8")
    with pytest.raises(DataError, match=r"not JSON on line 2 .*damaged or cut short"):
        read_json(path)


def test_deep_nesting_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(DataError, match="nests too deep"):
        read_json(path)


def test_json_lines_split_at_newline_only_and_skip_blank_lines(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    # U+2028 and U+0085 are allowed unescaped inside a JSON string; str.splitlines() would cut there
    path.write_text('{"s": "a\u2028b"}\n\n  \r\n["\u0085", 2]\n', encoding="utf-8")
    assert read_json_lines(path) == [(1, {"s": "a\u2028b"}), (4, ["\u0085", 2])]


def test_a_bad_json_lines_line_is_named(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    path.write_text('{"a": 1}\n{"a": \n', encoding="utf-8")
    with pytest.raises(DataError, match=r"line 2 of this JSON Lines file is not JSON"):
        read_json_lines(path)
