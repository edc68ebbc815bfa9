"""The one reader of the plugin's prediction files (clsd_mteb.predictions): rows of a split, hits recomputed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clsd_format.errors import DataError
from clsd_mteb.predictions import ModelRun, read_predictions

RUN = ModelRun("m", "r1", "m/r1")


def _write(path: Path, split: str, rows: list[dict[str, object]]) -> Path:
    path.write_text(json.dumps({"default": {split: rows}}), encoding="utf-8")
    return path


def test_rows_are_read_in_order_and_a_tie_is_a_miss(tmp_path: Path) -> None:
    rows = [
        {"id": 1, "cosines": [0.9, 0.2, 0.3]},
        {"id": "b", "cosines": [0.5, 0.5]},  # T tied with a distractor
        {"id": "c", "scores": [0.1, 0.4, 0.2, 0.0]},  # a cross-encoder's scores
    ]
    read = read_predictions(_write(tmp_path / "T_predictions.json", "test", rows), RUN, "T")
    assert read.ids == ["1", "b", "c"] and read.cosines.shape == (3, 4)
    assert read.correct() == {"1": True, "b": False, "c": False}


def test_a_file_without_the_split_is_refused_naming_the_file(tmp_path: Path) -> None:
    path = _write(tmp_path / "T_predictions.json", "test_first_10", [{"id": 1, "cosines": [0.9, 0.2]}])
    with pytest.raises(DataError, match="not a CLSD prediction file") as refused:
        read_predictions(path, RUN, "T")
    assert refused.value.file == str(path)
