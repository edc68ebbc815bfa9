"""JSON and JSON Lines read as their formats define them: lines end at "\\n" only, a failure names file and line."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from clsd_format.errors import DataError
from clsd_format.json_files import read_json, read_json_lines
from clsd_mteb.publishing.results_export import _run_settings

# characters str.splitlines() takes for line ends, which a JSON string may hold unescaped
LINE_BREAKS_IN_STRINGS = "\u2028\u2029\u0085\x1c\x1d\x1e\x0b\x0c"


def _settings_file(folder: Path) -> Path:
    entries = [{"task": "CLSD-WMT19-DE-FR", "note": f"a{LINE_BREAKS_IN_STRINGS}b"}, {"task": "other"}]
    path = folder / "run_settings.jsonl"
    path.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in entries) + "\n", encoding="utf-8")
    return path


def test_json_lines_end_at_newline_only(tmp_path):
    path = _settings_file(tmp_path)
    assert [line for line, _ in read_json_lines(path)] == [1, 2]
    recorded = _run_settings(tmp_path, SimpleNamespace(task_name="CLSD-WMT19-DE-FR", scores={}))
    assert recorded == [{"task": "CLSD-WMT19-DE-FR", "note": f"a{LINE_BREAKS_IN_STRINGS}b"}]


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b'{"task": "a"}\n{"task": "\xff"}\n', "undecodable byte 0xff (not UTF-8) on line 2"),
        (b'{"task": "a"}\n{"task": \n', "line 2 of this mteb run settings file is not JSON"),
        (b'{"task": "a"}\n[1, 2]\n', "line 2 holds a list, expected an object of run settings"),
    ],
)
def test_a_damaged_run_settings_file_is_one_line_naming_file_and_line(tmp_path, content, said):
    (tmp_path / "run_settings.jsonl").write_bytes(content)
    with pytest.raises(DataError, match=re.escape(said)) as error:
        _run_settings(tmp_path, SimpleNamespace(task_name="a", scores={}))
    assert str(tmp_path / "run_settings.jsonl") in str(error.value) and "\n" not in str(error.value)


def test_a_json_file_that_is_not_utf8_or_cut_names_its_line(tmp_path):
    path = tmp_path / "x.json"
    path.write_bytes(b'{\n "a": 1,\n "b": "\xc3"\n}')
    with pytest.raises(DataError, match=r"x\.json: undecodable byte 0xc3 \(not UTF-8\) on line 3"):
        read_json(path)
    path.write_bytes(b'{\n "a": 1,\n "b": ')
    with pytest.raises(DataError, match=r"not JSON on line 3 .*damaged or cut short"):
        read_json(path)
