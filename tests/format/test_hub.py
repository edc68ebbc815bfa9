"""The project's Hub format (clsd_format.hub): rows validated, files written and read back, cards' records checked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from clsd_format import hub, schema
from clsd_format.errors import CLSDError, DataError

SPEC = hub.DirectionSpec("x-de-fr", "CLSD-X-DE-FR", "deu-Latn", "fra-Latn")


def _row(row_id: str = "1", **changes: Any) -> dict[str, Any]:
    row = {
        schema.ID: row_id,
        schema.SOURCE: "Der Hund schläft.",
        schema.TARGET: "Le chien dort.",
        schema.DISTRACTORS: ["Le chat dort.", "Le chien court."],
        schema.SOURCE_LANG: "deu-Latn",
        schema.TARGET_LANG: "fra-Latn",
    }
    row.update(changes)
    return row


def _folder(tmp_path: Path, rows: list[dict[str, Any]], *, records: bool = True) -> Path:
    hub.write_config(tmp_path, SPEC, rows)
    header = hub.front_matter([SPEC], license="cc-by-4.0")
    if records:
        header[hub.MANIFEST_KEY][hub.FILES_KEY] = hub.file_records(tmp_path, [SPEC])
    (tmp_path / hub.CARD_FILE).write_text(hub.render_card(header, "# Card\n"), encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([{k: v for k, v in _row().items() if k != schema.TARGET}], "row 0, column 'target': missing column"),
        ([_row(source="  ")], "row 0, column 'source': empty or non-text value '  '"),
        ([_row(distractors="Le chat dort.")], "row 0, column 'distractors': needs a list of at least one distractor"),
        ([_row(distractors=["ok", ""])], "row 0, column 'distractors': distractor 2 is empty"),
        ([_row(distractor_rules=["r1"])], "row 0, column 'distractor_rules': needs one label per distractor (2)"),
        ([_row("a"), _row("b"), _row("a")], "row 2, column 'id': duplicate id 'a' (first at row 0)"),
    ],
)
def test_validate_rows_names_row_and_column(rows: list[dict[str, Any]], message: str) -> None:
    with pytest.raises(DataError) as caught:
        hub.validate_rows(rows, where="t.parquet")
    assert str(caught.value) == f"file t.parquet, {message}"


def test_unknown_columns_are_refused() -> None:
    hub.refuse_unknown_columns([*schema.HUB_COLUMNS, schema.DISTRACTOR_RULES], "t")
    with pytest.raises(DataError, match=r"column 'extra': a column the CLSD Hub format does not have"):
        hub.refuse_unknown_columns([*schema.HUB_COLUMNS, "zz", "extra"], "t")


def test_a_config_round_trips_and_is_never_overwritten_silently(tmp_path: Path) -> None:
    rows = [_row("1", distractor_rules=["a", "b"]), _row("2", distractor_rules=["c", "d"], source="日本語の文。")]
    path = hub.write_config(tmp_path, SPEC, rows)
    assert path == tmp_path / "x-de-fr" / "test.parquet"
    assert hub.read_config(tmp_path, "x-de-fr") == rows
    with pytest.raises(DataError, match="already exists; refusing to overwrite"):
        hub.write_config(tmp_path, SPEC, rows)
    hub.write_config(tmp_path, SPEC, rows[:1], overwrite=True)
    assert len(hub.read_config(tmp_path, "x-de-fr")) == 1


def test_a_card_manifest_and_records_are_read_back(tmp_path: Path) -> None:
    folder = _folder(tmp_path, [_row()])
    assert hub.read_manifest(folder) == [SPEC] and hub.is_hub_folder(folder)
    header = hub.read_front_matter(folder)
    assert header["license"] == "cc-by-4.0" and hub.check_files(folder, header)
    assert hub.recorded_file(header, "x-de-fr", "c")["rows"] == 1  # type: ignore[index]


def test_a_changed_data_file_is_named(tmp_path: Path) -> None:
    folder = _folder(tmp_path, [_row()])
    header = hub.read_front_matter(folder)
    hub.write_config(folder, SPEC, [_row("1"), _row("2")], overwrite=True)
    with pytest.raises(DataError, match=r"test.parquet: changed since the dataset card was written: .* 2 rows; .* 1 rows"):
        hub.check_files(folder, header)


def test_a_card_without_records_is_not_checked(tmp_path: Path) -> None:
    folder = _folder(tmp_path, [_row()], records=False)
    assert hub.check_files(folder, hub.read_front_matter(folder)) is False


def test_bad_manifests_are_data_errors(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"column 'clsd': YAML front matter has no 'clsd: tasks:' list"):
        hub.read_manifest_from_header({}, "c")
    with pytest.raises(DataError, match=r"row 0, column 'clsd': bad task entry"):
        hub.read_manifest_from_header({"clsd": {"tasks": [{"config": "x"}]}}, "c")
    with pytest.raises(DataError, match="must map each data file to its sha256 and rows"):
        hub.recorded_files({"clsd": {"files": {"a": {"sha256": 1}}}}, "c")
    with pytest.raises(DataError, match=r"records other data files but not x-de-fr/test\.parquet"):
        hub.recorded_file({"clsd": {"files": {"y/test.parquet": {"sha256": "0", "rows": 1}}}}, "x-de-fr", "c")
    assert not hub.is_hub_folder(tmp_path)
    (tmp_path / hub.CARD_FILE).write_text("no header\n", encoding="utf-8")
    with pytest.raises(DataError, match="has no YAML front matter"):
        hub.read_front_matter(tmp_path)


def test_pivot_not_built_is_read_strictly() -> None:
    assert hub.pivot_not_built({}, "c") == {}
    assert hub.pivot_not_built({"clsd": {"pivot_not_built": {"T": "why"}}}, "c") == {"T": "why"}
    with pytest.raises(DataError, match="must map task names to reasons"):
        hub.pivot_not_built({"clsd": {"pivot_not_built": ["T"]}}, "c")


def test_read_config_refuses_what_is_not_parquet(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="config 'x-de-fr' has no data file"):
        hub.read_config(tmp_path, "x-de-fr")
    (tmp_path / "x-de-fr").mkdir()
    (tmp_path / "x-de-fr" / "test.parquet").write_bytes(b"not parquet")
    with pytest.raises(DataError, match="not a readable parquet file"):
        hub.read_config(tmp_path, "x-de-fr")


def test_repo_ids_and_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    hub.check_repo_id("owner/name")
    with pytest.raises(CLSDError, match="write it as owner/name"):
        hub.check_repo_id("name")
    with pytest.raises(CLSDError, match="is not valid on the Hub"):
        hub.check_repo_id("owner/na..me")
    for name in hub.TOKEN_ENV_VARS:
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(CLSDError, match=r"no Hugging Face token for the upload: set HF_TOKEN .* or use --a-way-round\.$"):
        hub.hub_token("the upload", "--a-way-round")
    monkeypatch.setenv("HUGGING_FACE_HUB_TOKEN", "hf-test-token-0000")
    assert hub.hub_token("the upload", "--a-way-round") == "hf-test-token-0000"
