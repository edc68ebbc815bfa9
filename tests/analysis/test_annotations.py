"""The annotation files, read as published (UTF-8 vs UTF-16 with stray BOMs, CRLF, column order).

The reader is tested on the project's own files in the release's formats (tests/data/clsd-mini); the
tests marked ``release`` check the counts of the authors' two files.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from clsd_analysis.annotations import ANNOTATION_FILES, read_annotation_table, read_annotations, release_annotations
from clsd_format.errors import DataError

# --- the fixture files -------------------------------------------------------------------------------


def test_german_file_reads_all_rows(small_release: Path) -> None:
    path = small_release / ANNOTATION_FILES["de"]
    assert b"\r\n" in path.read_bytes() and not path.read_bytes().startswith(b"\xef\xbb\xbf")  # UTF-8, CRLF, no BOM
    rows = read_annotation_table(path)
    assert len(rows) == 90
    assert Counter(r["Dataset"] for r in rows) == {"wmt19": 45, "wmt21": 45}
    assert rows[0]["AdversarialExample"] == "de_adv1" and rows[0]["RowIndex"] == "0"
    assert rows[0]["AdversarialText"].startswith("Der Stadtrat von Lindenau hat am Freitag")  # UTF-8 decoded
    assert rows[0]["OriginalTextFrench"].startswith("Mardi, le conseil")  # a quoted cell (it holds a comma)
    assert not any(value.endswith("\r") for row in rows for value in row.values())  # CRLF handled


def test_french_file_reads_all_rows_without_stray_boms(small_release: Path) -> None:
    path = small_release / ANNOTATION_FILES["fr"]
    payload = path.read_bytes()
    assert payload.startswith(b"\xff\xfe") and payload.count(b"\xff\xfe") == 3  # UTF-16 LE, a BOM and two stray ones
    rows = read_annotation_table(path)
    assert len(rows) == 62
    # Two Dataset values start with U+FEFF in the file; read by name and cleaned they are plain.
    assert Counter(r["Dataset"] for r in rows) == {"wmt19": 35, "wmt21": 27}
    assert not any("\ufeff" in value for row in rows for value in row.values())
    assert rows[0]["AdversarialExample"] == "fr_adv1" and rows[0]["RowIndex"] == "0"
    assert "Lindenau a approuvé" in rows[0]["OriginalTextFrench"]


def test_columns_are_read_by_name_whatever_their_order(small_release: Path) -> None:
    german = read_annotation_table(small_release / ANNOTATION_FILES["de"])
    french = read_annotation_table(small_release / ANNOTATION_FILES["fr"])
    assert list(german[0]) != list(french[0])  # the two files order their columns differently
    assert set(german[0]) == set(french[0])
    assert Counter(r["POSTag"] for r in german)["NOUN"] == 49
    assert Counter(r["POSTag"] for r in french)["VERB"] == 10


def test_annotations_key_rows_of_the_data(small_release: Path) -> None:
    notes = release_annotations(small_release)
    assert len(notes) == 90 + 62
    note = notes[("wmt21-6", "de", 3)]
    assert note.operation == "Addition" and note.pos == "" and note.semantically_equivalent is None
    assert note.distractor == "Die Gemeinde hat nicht beschlossen, das alte Schwimmbad zu schließen und ein neues zu bauen."
    assert notes[("wmt19-0", "fr", 4)].entity_type == "LOC"
    assert sum(n.semantically_equivalent is True for n in notes.values()) == 1 + 1
    assert {n.language for n in read_annotations(small_release / ANNOTATION_FILES["fr"])} == {"fr"}


def test_a_missing_column_is_named(tmp_path: Path) -> None:
    broken = tmp_path / "broken.tsv"
    broken.write_text("Dataset\tOperation\r\nwmt19\tSwap\r\n", encoding="utf-8")
    with pytest.raises(DataError, match="POSTag"):
        read_annotation_table(broken)


# --- the release's files -----------------------------------------------------------------------------


@pytest.mark.release
def test_the_release_files_read_completely(release_dir: Path) -> None:
    german = read_annotation_table(release_dir / ANNOTATION_FILES["de"])
    assert len(german) == 631
    assert Counter(r["Dataset"] for r in german) == {"wmt19": 385, "wmt21": 246}
    assert german[0]["AdversarialExample"] == "de_adv3" and german[0]["RowIndex"] == "45"
    assert german[0]["OriginalTextGerman"].startswith("Gegenwärtig können die Liberalen")
    french = read_annotation_table(release_dir / ANNOTATION_FILES["fr"])
    assert len(french) == 364
    # Seven Dataset values start with U+FEFF in the file; read by name and cleaned they are plain.
    assert Counter(r["Dataset"] for r in french) == {"wmt19": 245, "wmt21": 119}
    assert not any("\ufeff" in value for row in french for value in row.values())
    assert french[0]["AdversarialExample"] == "fr_adv3" and french[0]["RowIndex"] == "251"
    assert Counter(r["POSTag"] for r in german)["NOUN"] == 242
    assert Counter(r["POSTag"] for r in french)["VERB"] == 153


@pytest.mark.release
def test_the_release_annotations_key_release_rows(release_dir: Path) -> None:
    notes = release_annotations(release_dir)
    assert len(notes) == 631 + 364
    note = notes[("wmt19-45", "de", 3)]
    assert note.operation == "Addition" and note.pos == ""
    assert sum(n.semantically_equivalent is True for n in notes.values()) == 12 + 9
