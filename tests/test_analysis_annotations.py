"""The release's annotation files, read as published (UTF-8 vs UTF-16 with stray BOMs, CRLF, column order)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from clsd_analysis.annotations import ANNOTATION_FILES, read_annotation_table, read_annotations, release_annotations
from clsd_format.errors import DataError


def test_german_file_reads_all_rows(release_dir: Path) -> None:
    rows = read_annotation_table(release_dir / ANNOTATION_FILES["de"])
    assert len(rows) == 631
    assert Counter(r["Dataset"] for r in rows) == {"wmt19": 385, "wmt21": 246}
    assert rows[0]["AdversarialExample"] == "de_adv3" and rows[0]["RowIndex"] == "45"
    assert rows[0]["OriginalTextGerman"].startswith("Gegenwärtig können die Liberalen")  # UTF-8 decoded
    assert not any(value.endswith("\r") for row in rows for value in row.values())  # CRLF handled


def test_french_file_reads_all_rows_without_stray_boms(release_dir: Path) -> None:
    path = release_dir / ANNOTATION_FILES["fr"]
    assert path.read_bytes().startswith(b"\xff\xfe")  # the file really is UTF-16 LE with a BOM
    rows = read_annotation_table(path)
    assert len(rows) == 364
    # Seven Dataset values start with U+FEFF in the file; read by name and cleaned they are plain.
    assert Counter(r["Dataset"] for r in rows) == {"wmt19": 245, "wmt21": 119}
    assert not any("\ufeff" in value for row in rows for value in row.values())
    assert rows[0]["AdversarialExample"] == "fr_adv3" and rows[0]["RowIndex"] == "251"
    assert "Européenne" in rows[0]["OriginalTextFrench"]


def test_columns_are_read_by_name_whatever_their_order(release_dir: Path) -> None:
    german = read_annotation_table(release_dir / ANNOTATION_FILES["de"])
    french = read_annotation_table(release_dir / ANNOTATION_FILES["fr"])
    assert list(german[0]) != list(french[0])  # the two files order their columns differently
    assert set(german[0]) == set(french[0])
    assert Counter(r["POSTag"] for r in german)["NOUN"] == 242
    assert Counter(r["POSTag"] for r in french)["VERB"] == 153


def test_annotations_key_release_rows(release_dir: Path) -> None:
    notes = release_annotations(release_dir)
    assert len(notes) == 631 + 364
    note = notes[("wmt19-45", "de", 3)]
    assert note.operation == "Addition" and note.pos == ""
    assert sum(n.semantically_equivalent is True for n in notes.values()) == 12 + 9
    assert {n.language for n in read_annotations(release_dir / ANNOTATION_FILES["fr"])} == {"fr"}


def test_a_missing_column_is_named(tmp_path: Path) -> None:
    broken = tmp_path / "broken.tsv"
    broken.write_text("Dataset\tOperation\r\nwmt19\tSwap\r\n", encoding="utf-8")
    with pytest.raises(DataError, match="POSTag"):
        read_annotation_table(broken)
