"""A path given as a folder is named for what it is: a file, a link, a device, a broken link, a path under a file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from clsd_format.folders import NotAFolderError, check_folder, folder_problem


def test_each_kind_of_path_is_named_for_what_it_is(tmp_path: Path) -> None:
    afile = tmp_path / "afile"
    afile.write_text("", encoding="utf-8")
    (tmp_path / "broken").symlink_to(tmp_path / "nowhere")
    (tmp_path / "to-folder").symlink_to(tmp_path)
    assert folder_problem(tmp_path, "results folder") is None
    assert folder_problem(tmp_path / "to-folder", "results folder") is None  # a link to a folder is a folder
    assert folder_problem(afile, "results folder") == f"{afile} is a file, not a results folder."
    assert folder_problem(os.devnull, "results folder", label="--out") == f"--out {os.devnull} is a device, not a results folder."
    assert folder_problem(tmp_path / "broken", "run folder") == (
        f"run folder {tmp_path / 'broken'} does not exist (a link to {tmp_path / 'nowhere'}, which does not exist)."
    )
    assert folder_problem(afile / "sub", "data folder", label="--data-dir") == (
        f"--data-dir {afile / 'sub'} does not exist ({afile} is a file)."
    )


def test_a_folder_to_write_may_be_missing_but_not_a_file(tmp_path: Path) -> None:
    assert check_folder(tmp_path / "new", "report folder", may_be_missing=True) == tmp_path / "new"
    (tmp_path / "afile").write_text("", encoding="utf-8")
    with pytest.raises(NotAFolderError, match="is a file, not a report folder"):
        check_folder(tmp_path / "afile", "report folder", may_be_missing=True)
    with pytest.raises(NotAFolderError, match="does not exist"):
        check_folder(tmp_path / "new", "results folder")
