"""JSON and JSON Lines files read as their formats define them, every failure one line naming file and line.

Both formats are UTF-8, and a byte that does not decode is reported by its line. JSON Lines puts one
value on each line, and a line ends at ``"\\n"`` only: a JSON string may hold U+2028, U+2029 or U+0085
unescaped, which ``str.splitlines()`` would take for line ends and cut the value in two. A blank line
(only JSON's whitespace) holds no value and is skipped, as most writers' trailing newline makes one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from clsd_format.errors import DataError


def read_utf8(path: Path, what: str = "file") -> str:
    """The text of ``path`` (a UTF-8 byte-order mark dropped); unreadable or not UTF-8 is a DataError naming the line."""
    try:
        payload = Path(path).read_bytes()
    except OSError as exc:
        raise DataError(f"cannot read this {what} ({exc.strerror or exc})", file=str(path)) from exc
    try:
        return payload.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = payload[: exc.start].count(b"\n") + 1
        raise DataError(
            f"undecodable byte 0x{payload[exc.start]:02x} (not UTF-8) on line {line} of this {what}", file=str(path)
        ) from exc


def read_json(path: Path, what: str = "JSON file") -> Any:
    """The one JSON value of ``path``; a DataError naming file and line when it is not UTF-8 or not JSON."""
    text = read_utf8(path, what)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(
            f"not JSON on line {exc.lineno} ({exc.msg}): this {what} is damaged or cut short", file=str(path)
        ) from exc
    except RecursionError as exc:
        raise DataError(f"this {what} nests too deep to read", file=str(path)) from exc


def read_json_lines(path: Path, what: str = "JSON Lines file") -> list[tuple[int, Any]]:
    """(line number, value) of each non-blank line of ``path``, lines split at ``"\\n"`` only (module docstring)."""
    values = []
    for number, line in enumerate(read_utf8(path, what).split("\n"), start=1):
        if not line.strip(" \t\r"):
            continue
        try:
            values.append((number, json.loads(line)))
        except json.JSONDecodeError as exc:
            raise DataError(f"line {number} of this {what} is not JSON ({exc.msg})", file=str(path)) from exc
        except RecursionError as exc:
            raise DataError(f"line {number} of this {what} nests too deep to read", file=str(path)) from exc
    return values
