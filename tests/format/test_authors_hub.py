"""The authors' Hub copy of the direct test sets (clsd_format.authors_hub): configs, direction check, rows."""

from __future__ import annotations

from typing import Any

import pytest

from clsd_format import schema
from clsd_format.authors_hub import CONFIGS, TASK_NAMES, config_name, is_authors_repository, task_rows, written_language
from clsd_format.errors import DataError
from clsd_format.languages import FRENCH, GERMAN
from clsd_format.release import RELEASED_TASKS

DE_FR = RELEASED_TASKS[0]  # CLSD-WMT19-DE-FR
GERMAN_TEXT = "Der Hund ist nicht mit dem Kind auf der Straße."
FRENCH_TEXT = "Le chien est avec les enfants de la ville."


def _record(source: str = GERMAN_TEXT, target: str = FRENCH_TEXT, **extra: Any) -> dict[str, Any]:
    record = {"Source": source, "Target": target, "lang": "de-fr", **extra}
    record.update({f"TargetAdv{slot}": f"Le chat {slot} est dans la ville." for slot in range(1, 5)})
    return record


def test_configs_and_repository() -> None:
    assert CONFIGS == {
        "CLSD-WMT19-DE-FR": "wmt19.de.fr",
        "CLSD-WMT19-FR-DE": "wmt19.fr.de",
        "CLSD-WMT21-DE-FR": "wmt21.de.fr",
        "CLSD-WMT21-FR-DE": "wmt21.fr.de",
    }
    assert TASK_NAMES == tuple(CONFIGS)
    assert is_authors_repository("andrianos/CLSD_WMT19_21") and not is_authors_repository("Andrianos/other")
    pivot = next(task for task in RELEASED_TASKS if task.pivot)
    with pytest.raises(DataError, match="holds the four direct test sets only; CLSD-WMT19-DE-FR-PivotEN"):
        config_name(pivot)


def test_written_language() -> None:
    assert written_language([GERMAN_TEXT]) == GERMAN
    assert written_language([FRENCH_TEXT, "et pour que"]) == FRENCH
    assert written_language(["12 34", "東京"]) is None


def test_task_rows_become_hub_rows() -> None:
    rows = task_rows([_record(), _record()], DE_FR, "cfg")
    assert [row[schema.ID] for row in rows] == ["wmt19.de.fr-0", "wmt19.de.fr-1"]
    assert rows[0][schema.SOURCE] == GERMAN_TEXT and len(rows[0][schema.DISTRACTORS]) == 4
    assert (rows[0][schema.SOURCE_LANG], rows[0][schema.TARGET_LANG]) == ("deu-Latn", "fra-Latn")


def test_a_config_in_the_other_direction_is_refused() -> None:
    with pytest.raises(DataError) as caught:
        task_rows([_record(FRENCH_TEXT, GERMAN_TEXT)], DE_FR, "cfg")
    assert str(caught.value).startswith("file cfg, column 'Source': reads as French, but config wmt19.de.fr should hold German")


@pytest.mark.parametrize(
    ("records", "message"),
    [
        ([], "file cfg: no rows"),
        ([{"Source": "x"}], "file cfg, column 'Target': missing column"),
        ([_record(TargetAdv5="x")], "file cfg, column 'TargetAdv5': the config has 5 distractor columns, the task scores 4"),
        ([_record(note="x")], "file cfg, column 'note': a column this layout does not have"),
    ],
)
def test_layouts_it_does_not_read(records: list[dict[str, Any]], message: str) -> None:
    with pytest.raises(DataError) as caught:
        task_rows(records, DE_FR, "cfg")
    assert str(caught.value).startswith(message)
