"""Where a run's data comes from (clsd_format.data_source): decided once, a bad choice refused before any model loads."""

from __future__ import annotations

from pathlib import Path

import pytest

from clsd_format import authors_hub, hub, schema
from clsd_format.data_source import DataSource, choose_tasks, resolve_data_source
from clsd_format.errors import CLSDError, DataError, UnknownTaskError
from clsd_format.release import DATA_DIR_ENV, RELEASE_TASK_NAMES

SPEC = hub.DirectionSpec("mine-ja-ko", "CLSD-MINE-JA-KO", "jpn-Jpan", "kor-Hang")
ROW = {
    schema.ID: "1",
    schema.SOURCE: "犬が寝ている。",
    schema.TARGET: "개가 자고 있다.",
    schema.DISTRACTORS: ["고양이가 자고 있다."],
    schema.SOURCE_LANG: "jpn-Jpan",
    schema.TARGET_LANG: "kor-Hang",
}


@pytest.fixture(autouse=True)
def _no_data_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(DATA_DIR_ENV, raising=False)


def test_choose_tasks() -> None:
    assert choose_tasks(None, ["A", "B"]) == ["A", "B"]
    assert choose_tasks(["B"], ["A", "B"]) == ["B"]
    with pytest.raises(UnknownTaskError, match=r"^unknown task\(s\) \['C'\]; the data source defines A, B\.$"):
        choose_tasks(["B", "C"], ["A", "B"])


def test_nothing_chosen_is_the_fetched_release() -> None:
    source = resolve_data_source()
    assert source == DataSource("fetched-release") and source.holds_release
    assert source.task_names() == RELEASE_TASK_NAMES
    assert source.describe().startswith("the CLSD release at impresso/")


def test_hub_dataset_choices() -> None:
    source = resolve_data_source(hub_dataset="ANDRIANOS/clsd_wmt19_21")
    assert (source.kind, source.location, source.revision) == ("authors-hub", authors_hub.REPO_ID, authors_hub.DEFAULT_REVISION)
    assert source.task_names() == authors_hub.TASK_NAMES
    with pytest.raises(UnknownTaskError):
        source.check_task_names(["CLSD-WMT19-DE-FR-PivotEN"])
    with pytest.raises(CLSDError, match="needs a pinned revision: REPO_ID@COMMIT"):
        resolve_data_source(hub_dataset="owner/data")
    with pytest.raises(CLSDError, match="give either --data-dir or --hub-dataset, not both"):
        resolve_data_source("x", hub_dataset="owner/data@abc")


def test_an_unreachable_hub_card_is_one_line() -> None:
    # the tests run with HF_HUB_OFFLINE=1 (tests/conftest.py): the card cannot be fetched
    with pytest.raises(DataError, match=r"could not fetch the dataset card of owner/data@abc .* pass it with --data-dir"):
        resolve_data_source(hub_dataset="owner/data@abc")


def test_local_folders(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"holds neither release CSVs .* nor a Hub-format export"):
        resolve_data_source(tmp_path)
    (tmp_path / "CLSD_wmt2019_adversarial_dataset.csv").write_text("Index\n", encoding="utf-8")
    source = resolve_data_source(tmp_path)
    assert (source.kind, source.folder, source.holds_release) == ("release-csv-folder", tmp_path, True)


def test_a_hub_folder_is_read_with_its_manifest(tmp_path: Path) -> None:
    hub.write_config(tmp_path, SPEC, [ROW])
    header = hub.front_matter([SPEC])
    header[hub.MANIFEST_KEY][hub.FILES_KEY] = hub.file_records(tmp_path, [SPEC])
    (tmp_path / hub.CARD_FILE).write_text(hub.render_card(header, ""), encoding="utf-8")
    source = resolve_data_source(str(tmp_path))
    assert (source.kind, source.configs, source.holds_release) == ("hub-folder", (SPEC,), False)
    assert source.task_names() == ("CLSD-MINE-JA-KO",)
    assert source.check_task_names(["CLSD-MINE-JA-KO"]) == ["CLSD-MINE-JA-KO"] and source.check_task_names([]) is None
    assert source.describe() == f"{tmp_path} (Hub-format folder)"
    hub.write_config(tmp_path, SPEC, [ROW, {**ROW, schema.ID: "2"}], overwrite=True)
    with pytest.raises(DataError, match="changed since the dataset card was written"):
        resolve_data_source(tmp_path)


def test_only_a_folder_source_has_a_folder() -> None:
    with pytest.raises(TypeError, match="a fetched-release source has no local folder"):
        _ = DataSource("fetched-release").folder
