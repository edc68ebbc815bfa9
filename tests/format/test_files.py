"""Files the commands write (clsd_format.files): the user's umask, an OS error as one line naming the path, and a
folder written whole or not at all, whose leftovers from killed processes the next write removes."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from clsd_format.errors import CLSDError
from clsd_format.files import new_temp_file, os_error_reason, remove_stale_staging, staged_folder, writing
from tests.helpers.staging import end, hold_staging, kill_unreaped


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


def test_a_staged_folder_appears_whole_and_leaves_nothing_beside_it(tmp_path: Path) -> None:
    target = tmp_path / "out" / "ds"
    with staged_folder(target) as staging:
        (staging / "README.md").write_text("card", encoding="utf-8")
        assert not target.exists() and staging.parent == target.parent and staging.name.startswith(".ds.building-")
    assert (target / "README.md").read_text(encoding="utf-8") == "card"
    with pytest.raises(RuntimeError), staged_folder(tmp_path / "failed") as staging:
        (staging / "half.parquet").write_bytes(b"half")
        raise RuntimeError("a writer failed halfway")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["ds"]  # no staging folder, no lock file
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


@pytest.mark.skipif(not hasattr(os, "waitid"), reason="a process killed but not reaped needs os.waitid")
def test_the_next_write_removes_the_staging_folders_of_killed_processes_only(tmp_path: Path) -> None:
    target = tmp_path / "ds"
    killed, killed_folder = hold_staging(target)
    alive, alive_folder = hold_staging(target)
    other, other_folder = hold_staging(tmp_path / "other")  # another target's: not this write's to judge
    try:
        kill_unreaped(killed)  # its pid still names a process: only its lock, now free, says that it is dead
        kill_unreaped(other)
        assert killed_folder.is_dir() and Path(f"{killed_folder}.lock").exists()
        with staged_folder(target) as staging:
            (staging / "README.md").write_text("card", encoding="utf-8")
        assert not killed_folder.exists() and not Path(f"{killed_folder}.lock").exists()
        assert (alive_folder / "half.parquet").exists() and other_folder.exists()
        assert remove_stale_staging(target) == []  # the live one's lock is held
    finally:
        for holder in (killed, alive, other):
            end(holder)
    assert remove_stale_staging(target) == [alive_folder]  # once its process is gone
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["ds", other_folder.name, f"{other_folder.name}.lock"])
