"""Files the commands write (clsd_format.files): the user's umask, and an OS error as one line naming the path."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from clsd_format.errors import CLSDError
from clsd_format.files import new_temp_file, os_error_reason, writing


def test_a_temp_file_gets_the_umask_not_0600(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        first, second = new_temp_file(tmp_path, ".csv.tmp"), new_temp_file(tmp_path, ".csv.tmp")
    finally:
        os.umask(old)
    assert first != second and first.parent == tmp_path
    assert first.name.startswith(".tmp-") and first.name.endswith(".csv.tmp")
    assert first.read_bytes() == b"" and stat.S_IMODE(first.stat().st_mode) == 0o644


def test_a_file_in_the_way_of_a_folder_is_named(tmp_path: Path) -> None:
    blocking = tmp_path / "notes.txt"
    blocking.write_text("x", encoding="utf-8")
    target = blocking / "out" / "data.csv"
    with pytest.raises(CLSDError) as caught, writing("the dataset", target):
        target.write_text("x", encoding="utf-8")
    assert str(caught.value) == f"cannot write the dataset {target}: Not a directory ({blocking} is a file, not a folder)."


def test_os_error_reason_with_and_without_a_path(tmp_path: Path) -> None:
    assert os_error_reason(PermissionError(13, "Permission denied", str(tmp_path / "a"))) == (
        f"Permission denied ({tmp_path / 'a'})"
    )
    assert os_error_reason(OSError(28, "No space left on device")) == "No space left on device"


def test_writing_lets_other_errors_through(tmp_path: Path) -> None:
    with pytest.raises(ValueError), writing("the card", tmp_path / "README.md"):
        raise ValueError("not an OS error")
