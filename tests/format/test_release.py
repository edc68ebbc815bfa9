"""What the authors' release is (clsd_format.release): its eight tasks, their files and names, and the data folder chosen."""

from __future__ import annotations

from pathlib import Path

import pytest

from clsd_format.errors import CLSDError
from clsd_format.release import DATA_DIR_ENV, FILES, RELEASE_TASK_NAMES, RELEASED_TASKS, resolve_data_dir


def test_the_eight_released_tasks() -> None:
    assert len(RELEASED_TASKS) == 8 and len(set(RELEASE_TASK_NAMES)) == 8
    assert RELEASE_TASK_NAMES[:2] == ("CLSD-WMT19-DE-FR", "CLSD-WMT19-FR-DE")
    pivot = next(task for task in RELEASED_TASKS if task.pivot and task.dataset.name == "WMT21" and task.source.code == "fr")
    assert pivot.name == "CLSD-WMT21-FR-DE-PivotEN"
    assert pivot.file == "MT_M2M_CLSD_wmt2021_adversarial_dataset.csv"
    assert pivot.hub_config == "wmt21-fr-de-pivot-en"
    assert RELEASED_TASKS[0].hub_config == "wmt19-de-fr" and RELEASED_TASKS[0].file == "CLSD_wmt2019_adversarial_dataset.csv"
    assert {task.file for task in RELEASED_TASKS} <= set(FILES)


def test_resolve_data_dir_prefers_the_argument(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(DATA_DIR_ENV, raising=False)
    assert resolve_data_dir() is None
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "env"))
    (tmp_path / "env").mkdir()
    assert resolve_data_dir() == tmp_path / "env"
    assert resolve_data_dir(tmp_path) == tmp_path
    monkeypatch.setenv(DATA_DIR_ENV, "")
    assert resolve_data_dir() is None


def test_a_missing_data_dir_is_one_line_naming_where_it_came_from(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "absent"))
    with pytest.raises(CLSDError, match=rf"^\$CLSD_DATA_DIR {tmp_path / 'absent'} does not exist"):
        resolve_data_dir()
    (tmp_path / "file.csv").write_text("x", encoding="utf-8")
    with pytest.raises(CLSDError, match=r"^data_dir .*file.csv is a .*, not a data folder"):
        resolve_data_dir(tmp_path / "file.csv")
