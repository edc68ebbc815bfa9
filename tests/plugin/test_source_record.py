"""The record of where a generated dataset's rows were read: written by ``clsd evaluate``, read strictly."""

from __future__ import annotations

import json

import pytest

import clsd_mteb
from clsd_format.errors import DataError
from clsd_mteb.source_record import SOURCES_FILE, RecordedSource, read_sources, record_sources
from tests.helpers.corpora import toy_hub_folder


def test_a_generated_dataset_is_recorded_and_the_release_is_not(tmp_path, small_release):
    folder = toy_hub_folder(tmp_path / "toy")
    record_sources(tmp_path / "out", clsd_mteb.get_tasks(data_dir=small_release))
    assert not (tmp_path / "out" / SOURCES_FILE).exists()  # the release needs no record: it is found by name
    record_sources(tmp_path / "out", clsd_mteb.get_tasks(data_dir=folder))
    assert read_sources(tmp_path / "out") == {"CLSD-TOY-EN-DE": RecordedSource("hub-folder", str(folder.resolve()))}


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        "[]",
        json.dumps({"CLSD-TOY-EN-DE": {"kind": "hub-folder", "location": 3, "revision": None}}),
        json.dumps({"CLSD-TOY-EN-DE": {"kind": "url", "location": "http://example.org", "revision": None}}),
        json.dumps({"CLSD-TOY-EN-DE": {"kind": "hub-folder", "location": "/x", "revision": None, "token": "s"}}),
    ],
)
def test_a_spoiled_record_is_an_error_naming_the_file(tmp_path, text):
    (tmp_path / SOURCES_FILE).write_text(text, encoding="utf-8")
    with pytest.raises(DataError, match=SOURCES_FILE):
        read_sources(tmp_path)
