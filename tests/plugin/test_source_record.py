"""The record of where a generated dataset's rows were read: written by ``clsd evaluate``, read strictly."""

from __future__ import annotations

import json

import pytest

import clsd_mteb
from clsd_format.errors import DataError
from clsd_mteb.source_record import SOURCES_FILE, RecordedSource, read_sources, record_sources
from clsd_mteb.trials import whole_task_revision
from tests.helpers.corpora import toy_hub_folder


def test_a_generated_dataset_is_recorded_and_the_release_is_not(tmp_path, small_release):
    folder = toy_hub_folder(tmp_path / "toy")
    record_sources(tmp_path / "out", clsd_mteb.get_tasks(data_dir=small_release))
    assert not (tmp_path / "out" / SOURCES_FILE).exists()  # the release needs no record: it is found by name
    (task,) = clsd_mteb.get_tasks(data_dir=folder)
    record_sources(tmp_path / "out", [task])
    key = ("CLSD-TOY-EN-DE", task.metadata.revision)
    assert read_sources(tmp_path / "out") == {key: RecordedSource("hub-folder", str(folder.resolve()))}


def test_two_datasets_of_one_name_keep_an_entry_each(tmp_path):
    """Two models evaluated into one folder on two datasets of the same name: the second run adds, never replaces."""
    first = clsd_mteb.get_tasks(data_dir=toy_hub_folder(tmp_path / "toy"))
    second = clsd_mteb.get_tasks(data_dir=toy_hub_folder(tmp_path / "other-toy", other=True), limit=1)  # a trial too
    record_sources(tmp_path / "out", first)
    record_sources(tmp_path / "out", second)
    found = read_sources(tmp_path / "out")
    revisions = [first[0].metadata.revision, whole_task_revision(second[0].metadata.revision)]
    assert revisions[0] != revisions[1] and not revisions[1].endswith("-limit1")  # a trial's source is its whole task's
    assert found == {
        ("CLSD-TOY-EN-DE", revisions[0]): RecordedSource("hub-folder", str((tmp_path / "toy").resolve())),
        ("CLSD-TOY-EN-DE", revisions[1]): RecordedSource("hub-folder", str((tmp_path / "other-toy").resolve())),
    }
    record_sources(tmp_path / "out", first)  # the same dataset again: still one entry per dataset revision
    assert read_sources(tmp_path / "out") == found


def test_a_record_of_the_first_format_is_still_read(tmp_path):
    entry = {"kind": "hub-folder", "location": "/data/toy", "revision": None}
    (tmp_path / SOURCES_FILE).write_text(json.dumps({"CLSD-TOY-EN-DE": entry}), encoding="utf-8")
    assert read_sources(tmp_path) == {("CLSD-TOY-EN-DE", None): RecordedSource("hub-folder", "/data/toy")}


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        "[]",
        json.dumps({"CLSD-TOY-EN-DE": {"kind": "hub-folder", "location": 3, "revision": None}}),
        json.dumps({"CLSD-TOY-EN-DE": {"kind": "url", "location": "http://example.org", "revision": None}}),
        json.dumps({"CLSD-TOY-EN-DE": {"kind": "hub-folder", "location": "/x", "revision": None, "token": "s"}}),
        json.dumps(
            {"format": 2, "sources": [{"task": "CLSD-TOY-EN-DE", "kind": "hub-folder", "location": "/x", "revision": None}]}
        ),
        json.dumps({"format": 3, "sources": []}),
    ],
)
def test_a_spoiled_record_is_an_error_naming_the_file(tmp_path, text):
    (tmp_path / SOURCES_FILE).write_text(text, encoding="utf-8")
    with pytest.raises(DataError, match=SOURCES_FILE):
        read_sources(tmp_path)


def test_a_record_that_is_no_json_says_to_delete_it_and_names_no_option_of_another_command(tmp_path):
    """`clsd evaluate` reads the record too, before adding to it: the analysis's --dataset is no way round it there."""
    (tmp_path / SOURCES_FILE).write_text("{not json", encoding="utf-8")
    with pytest.raises(DataError, match=rf"{SOURCES_FILE}.*; delete it$"):
        read_sources(tmp_path)
