"""Reading release-format data (local, fetched over HTTP, bad files) and the Hub format.

The behaviour is tested on the project's own fixture files (tests/data/clsd-mini); the tests marked
``release`` check the same against the authors' release (row counts, pinned revision, the real fetch).
"""

from __future__ import annotations

import csv
import functools
import http.server
import io
import os
import runpy
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from huggingface_hub import DatasetCard

import clsd_mteb
from clsd_format import hub, schema
from clsd_format.data_source import resolve_data_source
from clsd_format.errors import DataError, DataSourceUnavailable
from clsd_format.publishing_settings import ReleaseExportSettings
from clsd_mteb import release_fetch
from clsd_mteb.publishing.hub_eval import read_eval_config
from clsd_mteb.publishing.release_export import export_release
from tests.conftest import FIXTURE_DATA

FIXTURE_ROWS = {"WMT19": 24, "WMT21": 20}  # data rows of the CSVs in tests/data/clsd-mini


def _load(task_name: str, data_dir: Path):
    task = clsd_mteb.get_tasks([task_name], data_dir=data_dir)[0]
    task.load_data()
    return task


# --- the release as it is -------------------------------------------------------------------


@pytest.mark.release
@pytest.mark.parametrize(
    "task_name, rows",
    [
        ("CLSD-WMT19-DE-FR", 1473),
        ("CLSD-WMT21-FR-DE", 893),
        ("CLSD-WMT19-FR-DE-PivotEN", 1473),
        ("CLSD-WMT21-DE-FR-PivotEN", 893),
    ],
)
def test_the_release_reads_completely(release_dir, task_name, rows):
    task = _load(task_name, release_dir)
    data = task.dataset["test"]
    assert len(data) == rows
    assert all(len(ds) == 4 for ds in data["distractors"])
    assert task.metadata.revision == release_fetch.COMMIT  # pristine files keep the pinned revision


# --- the fixture files: the release's formats and its hard cases ------------------------------


def test_the_fixture_files_are_what_their_script_writes():
    written = runpy.run_path(str(FIXTURE_DATA.parent / "make_fixture_files.py"))["file_contents"]()
    assert sorted(written) == sorted(release_fetch.FILES)  # the six release file names, so the folder is a data folder
    for name, payload in written.items():
        assert (FIXTURE_DATA / name).read_bytes() == payload, f"{name}: run python tests/data/make_fixture_files.py"


@pytest.mark.parametrize("task_name", clsd_mteb.RELEASE_TASK_NAMES)
def test_the_fixture_data_reads_completely_under_a_local_revision(small_release, task_name):
    task = _load(task_name, small_release)
    data = task.dataset["test"]
    assert len(data) == FIXTURE_ROWS[task_name.split("-")[1]] and all(len(ds) == 4 for ds in data["distractors"])
    assert data["id"][0] == f"{task_name.split('-')[1].lower()}-0"
    assert task.metadata.revision.startswith("local-sha256-")  # not the pinned release


def test_the_direct_fixture_sets_keep_the_release_rules(small_release):
    for name in ("CLSD-WMT19-DE-FR", "CLSD-WMT19-FR-DE", "CLSD-WMT21-DE-FR", "CLSD-WMT21-FR-DE"):
        for row in _load(name, small_release).dataset["test"]:
            assert row["target"] not in row["distractors"] and len(set(row["distractors"])) == 4, (name, row["id"])
            assert row["source"] != row["target"]


@pytest.mark.parametrize(
    "dataset, ties, repeats",
    [("WMT19", ["wmt19-2", "wmt19-9"], ["wmt19-6"]), ("WMT21", ["wmt21-5"], ["wmt21-11"])],
)
def test_the_pivot_fixture_sets_hold_ties_and_repeated_distractors(small_release, dataset, ties, repeats):
    for direction in ("DE-FR", "FR-DE"):
        data = _load(f"CLSD-{dataset}-{direction}-PivotEN", small_release).dataset["test"]
        assert [r["id"] for r in data if r["target"] in r["distractors"]] == ties  # translation collapsed onto T
        assert [r["id"] for r in data if len(set(r["distractors"])) < 4] == repeats  # two distractors alike
        assert all(r["source_lang"] == r["target_lang"] == "eng-Latn" for r in data)


def test_quoted_cells_and_the_empty_pivot_line_are_read_exactly(small_release):
    german = _load("CLSD-WMT19-DE-FR", small_release).dataset["test"]
    assert german[8]["source"].endswith('von einem "schwierigen, aber notwendigen" Schritt für das Gesundheitswesen.')
    assert german[9]["source"] == '"Wir sind bereit", sagte die Kapitänin vor dem Finale in Lyon.'  # starts with a quote
    assert german[9]["target"] == "« Nous sommes prêtes », a déclaré la capitaine avant la finale à Lyon."
    wmt21 = _load("CLSD-WMT21-FR-DE", small_release).dataset["test"]
    assert wmt21[8]["target"] == "Der Konzern bezeichnete die Vorwürfe als „völlig haltlos“ und kündigte rechtliche Schritte an."
    pivot = small_release / "MT_M2M_CLSD_wmt2019_adversarial_dataset.csv"
    assert pivot.read_bytes().startswith(b",Index,French,") and b"\r\n\r\n" in pivot.read_bytes()  # as published
    english = _load("CLSD-WMT19-DE-FR-PivotEN", small_release).dataset["test"]
    assert english[8]["target"] == 'The minister spoke about a "difficult, but necessary" step for the health system.'
    assert english[-1]["id"] == "wmt19-23"  # the row after the empty line is read, the empty line is no row


def test_the_environment_variable_selects_the_local_source(small_release, monkeypatch):
    monkeypatch.setenv(release_fetch.DATA_DIR_ENV, str(small_release))
    task = clsd_mteb.get_tasks(["CLSD-WMT21-DE-FR"])[0]
    task.load_data()
    assert len(task.dataset["test"]) == FIXTURE_ROWS["WMT21"]


def test_cells_that_look_like_missing_values_stay_text(copy_csv):
    path = copy_csv()
    records = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"), newline="")))
    records[1][-1] = "NA"  # a French distractor that reads like a missing-value marker
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(records)
    path.write_text(out.getvalue(), encoding="utf-8")
    data = _load("CLSD-WMT19-DE-FR", path.parent).dataset["test"]
    assert data[0]["distractors"][3] == "NA"


# --- bad CSV files: stop, name file, row and column -----------------------------------------


def _rewrite(path: Path, transform) -> None:
    lines = path.read_bytes().split(b"\n")
    path.write_bytes(b"\n".join(transform(lines)))


def test_a_missing_column_is_named(copy_csv):
    path = copy_csv()
    _rewrite(path, lambda lines: [lines[0].replace(b"fr_adv3", b"fr_adv_3"), *lines[1:]])
    with pytest.raises(DataError, match=r"CLSD_wmt2019_adversarial_dataset.csv, row 0, column 'fr_adv3': missing column"):
        _load("CLSD-WMT19-DE-FR", path.parent)


def test_an_empty_cell_is_named_and_never_filled(copy_csv):
    path = copy_csv()

    def blank_german(lines):
        # row 5 (Index 4): make the German original empty
        import csv
        import io

        fields = next(csv.reader([lines[5].decode()]))
        fields[2] = ""
        out = io.StringIO()
        csv.writer(out, lineterminator="").writerow(fields)
        lines[5] = out.getvalue().encode()
        return lines

    _rewrite(path, blank_german)
    with pytest.raises(DataError, match=r"row 5, column 'German': empty cell"):
        _load("CLSD-WMT19-DE-FR", path.parent)


def test_an_undecodable_byte_is_located(copy_csv):
    path = copy_csv()
    # data row 4 is `3,"Selon le ministère, ...`: the byte lands in the French sentence
    _rewrite(path, lambda lines: [*lines[:4], lines[4].replace("ministère".encode(), b"minist\xffre", 1), *lines[5:]])
    with pytest.raises(DataError, match=r"row 4, column 'French': undecodable byte 0xff \(not UTF-8\) on line 5"):
        _load("CLSD-WMT19-DE-FR", path.parent)


def test_a_row_with_too_many_fields_does_not_parse(copy_csv):
    path = copy_csv()
    _rewrite(path, lambda lines: [*lines[:7], lines[7] + b",extra", *lines[8:]])
    with pytest.raises(DataError, match=r"row 7: has 12 fields but the header has 11"):
        _load("CLSD-WMT19-DE-FR", path.parent)


def test_an_unterminated_quote_does_not_parse(copy_csv):
    path = copy_csv()
    _rewrite(path, lambda lines: [*lines[:-3], b'9999,"never closed,' + lines[-3], *lines[-2:]])
    # the quote opened on the inserted data row 23 closes early inside the next line, where parsing stops
    with pytest.raises(DataError, match=r"CLSD_wmt2019_adversarial_dataset.csv, row 23: does not parse as CSV"):
        _load("CLSD-WMT19-DE-FR", path.parent)


def test_a_repeated_index_is_refused(copy_csv):
    path = copy_csv()
    _rewrite(path, lambda lines: [*lines[:3], lines[2], *lines[3:]])
    with pytest.raises(DataError, match=r"row 3, column 'Index': duplicate Index '1'"):
        _load("CLSD-WMT19-DE-FR", path.parent)


def test_a_folder_without_data_says_what_it_expected(tmp_path):
    with pytest.raises(
        DataError, match=r"holds neither release CSVs \(e.g. CLSD_wmt2019_adversarial_dataset.csv\) nor a Hub-format export"
    ):
        _load("CLSD-WMT19-DE-FR", tmp_path)


def test_a_card_without_a_manifest_is_named(tmp_path):
    (tmp_path / "README.md").write_text("---\nlicense: mit\n---\n# Some other dataset\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"README.md.*no 'clsd: tasks:' list"):
        _load("CLSD-WMT19-DE-FR", tmp_path)


def test_modified_release_files_are_filed_under_a_local_revision(copy_csv):
    path = copy_csv()
    _rewrite(path, lambda lines: [*lines[:-5], b""])
    task = _load("CLSD-WMT19-DE-FR", path.parent)
    assert task.metadata.revision == "local-sha256-" + release_fetch.sha256_of(path)[:16]


# --- the default source: fetched once over HTTP, checked, cached -----------------------------


@contextmanager
def _http_mirror(files: Path, root: Path) -> Iterator[str]:
    """A real HTTP server on 127.0.0.1 laid out like the GitHub repository at the pinned commit; yields its URL."""
    for name, (folder, _) in release_fetch.FILES.items():
        (root / folder).mkdir(parents=True, exist_ok=True)
        shutil.copy(files / name, root / folder / name)

    class QuietHandler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:  # no request lines in the test output
            pass

    handler = functools.partial(QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


@pytest.fixture
def mirror(small_release, tmp_path, monkeypatch):
    """The fixture files served as the release, their SHA-256 pinned in place of the release's (in this process)."""
    for name, (folder, _) in list(release_fetch.FILES.items()):  # the one table every module reads, patched in place
        monkeypatch.setitem(release_fetch.FILES, name, (folder, release_fetch.sha256_of(small_release / name)))
    root = tmp_path / "mirror"
    with _http_mirror(small_release, root) as url:
        yield root, url


@pytest.fixture
def release_mirror(release_dir, tmp_path):
    """The release itself served as on GitHub, under its own pinned checksums (for a subprocess)."""
    with _http_mirror(release_dir, tmp_path / "mirror") as url:
        yield url


def test_the_release_is_fetched_once_checked_and_cached(mirror, hub_online, monkeypatch, tmp_path):
    root, url = mirror
    monkeypatch.setenv(release_fetch.CACHE_DIR_ENV, str(tmp_path / "cache"))
    monkeypatch.setenv(release_fetch.BASE_URL_ENV, url)
    task = clsd_mteb.get_tasks(["CLSD-WMT21-FR-DE"])[0]
    task.load_data()
    assert len(task.dataset["test"]) == FIXTURE_ROWS["WMT21"]
    assert task.metadata.revision == release_fetch.COMMIT  # the fetched files are the pinned ones
    cached = release_fetch.cache_dir() / "CLSD_wmt2021_adversarial_dataset.csv"
    assert cached.is_file() and release_fetch.is_pristine(cached)
    (root / "evaluation_sets" / "CLSD_wmt2021_adversarial_dataset.csv").unlink()  # server no longer has it
    again = clsd_mteb.get_tasks(["CLSD-WMT21-DE-FR"])[0]
    again.load_data()  # served from the cache
    assert len(again.dataset["test"]) == FIXTURE_ROWS["WMT21"]


def test_a_download_with_the_wrong_checksum_is_refused(mirror, hub_online, monkeypatch, tmp_path):
    root, url = mirror
    monkeypatch.setenv(release_fetch.CACHE_DIR_ENV, str(tmp_path / "cache"))
    target = root / "evaluation_sets" / "CLSD_wmt2019_adversarial_dataset.csv"
    expected = release_fetch.FILES[target.name][1]
    target.write_bytes(target.read_bytes() + b"tampered\n")
    with pytest.raises(DataError, match=f"expected {expected[:8]}"):
        release_fetch.fetch("CLSD_wmt2019_adversarial_dataset.csv", base_url=url)
    assert not (release_fetch.cache_dir() / target.name).exists()
    assert list(release_fetch.cache_dir().iterdir()) == []  # no partial download left behind


def test_offline_mode_fetches_nothing_and_says_so(mirror, monkeypatch, tmp_path):
    root, url = mirror  # HF_HUB_OFFLINE=1 (conftest), as for every Hub download
    monkeypatch.setenv(release_fetch.CACHE_DIR_ENV, str(tmp_path / "cache"))
    (root / "evaluation_sets").rename(root / "moved")  # a request would now fail another way
    with pytest.raises(DataSourceUnavailable, match=r"offline mode is on \(HF_HUB_OFFLINE\)\. Point at a local copy"):
        release_fetch.fetch("CLSD_wmt2019_adversarial_dataset.csv", base_url=url)


@pytest.mark.slow
def test_no_network_and_no_local_source_explains_how_to_set_one(hub_online, monkeypatch, tmp_path):
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv(release_fetch.CACHE_DIR_ENV, str(tmp_path / "cache"))
    monkeypatch.setenv(release_fetch.BASE_URL_ENV, f"http://127.0.0.1:{port}")
    task = clsd_mteb.get_tasks(["CLSD-WMT19-DE-FR"])[0]
    with pytest.raises(DataSourceUnavailable, match="CLSD_DATA_DIR=") as error:
        task.load_data()
    assert "--data-dir" in str(error.value)


# --- the Hub format --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def exported(small_release, tmp_path_factory):
    return export_release(ReleaseExportSettings(tmp_path_factory.mktemp("export") / "clsd", data_dir=small_release))


def test_the_export_holds_eight_configs_with_the_same_rows(exported, small_release):
    specs = hub.read_manifest(exported)
    assert [s.task_name for s in specs] == list(clsd_mteb.RELEASE_TASK_NAMES)
    header = hub.read_front_matter(exported)
    assert {c["config_name"] for c in header["configs"]} == {s.config for s in specs}
    for name in ("CLSD-WMT19-DE-FR", "CLSD-WMT21-FR-DE-PivotEN"):
        from_csv = _load(name, small_release).dataset["test"].to_list()
        from_hub = _load(name, exported).dataset["test"].to_list()
        assert from_hub == from_csv


def test_the_export_loads_with_datasets_as_the_hub_would(exported):
    from datasets import load_dataset

    data = load_dataset(str(exported), "wmt19-fr-de", split="test")
    assert data.column_names == list(schema.HUB_COLUMNS)
    assert len(data) == FIXTURE_ROWS["WMT19"]


def test_the_export_declares_its_tasks_for_the_hub_with_mteb_s_ids(exported):
    configs = {spec.task_name: spec.config for spec in hub.read_manifest(exported)}
    declared = read_eval_config(exported / hub.EVAL_FILE)  # mteb's pydantic model of the file
    assert declared.evaluation_framework == "mteb"
    expected = set()
    for task in clsd_mteb.get_tasks(data_dir=exported):
        for entry in task._create_task_hf_config().tasks:  # the ids mteb's own push_eval_to_hub writes
            expected.add((entry.id, configs[task.metadata.name], "test"))
    assert {(t.id, t.config, t.split) for t in declared.tasks} == expected and len(expected) == 16


def test_the_export_never_overwrites(exported, small_release):
    with pytest.raises(DataError, match="refusing to overwrite"):
        export_release(ReleaseExportSettings(exported, data_dir=small_release))


def test_a_bad_hub_row_is_named(exported, tmp_path):
    copy = Path(shutil.copytree(exported, tmp_path / "copy"))
    rows = hub.read_config(copy, "wmt19-de-fr")
    rows[3]["distractors"] = ["fine", ""]
    spec = next(s for s in hub.read_manifest(copy) if s.config == "wmt19-de-fr")
    with pytest.raises(DataError, match=r"row 3, column 'distractors': distractor 2 is empty"):
        hub.write_config(copy, spec, rows, overwrite=True)


def test_a_hub_file_with_a_column_the_format_does_not_have_is_refused_and_more_distractors_are_read_whole(exported, tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    copy = Path(shutil.copytree(exported, tmp_path / "copy"))
    path = hub.parquet_path(copy, "wmt19-de-fr")
    table = pq.read_table(path)
    six = [row["distractors"] + [row["target"] + " x", row["target"] + " y"] for row in table.to_pylist()]
    pq.write_table(table.set_column(table.column_names.index("distractors"), "distractors", pa.array(six)), path)
    assert all(len(row["distractors"]) == 6 for row in hub.read_config(copy, "wmt19-de-fr"))  # k distractors, whole
    pq.write_table(table.append_column("notes", pa.array([""] * table.num_rows)), path)
    with pytest.raises(DataError, match=r"column 'notes': a column the CLSD Hub format does not have"):
        hub.read_config(copy, "wmt19-de-fr")


TOY_ROW = {
    "id": "toy",
    "source": "The cat sat on the mat.",
    "target": "Die Katze saß auf der Matte.",
    "distractors": ["Der Hund saß auf der Matte."],
    "source_lang": "eng-Latn",
    "target_lang": "deu-Latn",
}


def test_any_hub_folder_becomes_tasks(tmp_path):
    spec = hub.DirectionSpec("en-de", "CLSD-TOY-EN-DE", "eng-Latn", "deu-Latn")
    rows = [
        {
            "id": f"toy-{i}",
            "source": f"The cat sat on mat {i}.",
            "target": f"Die Katze saß auf Matte {i}.",
            "distractors": [f"Der Hund saß auf Matte {i}."],
            "source_lang": "eng-Latn",
            "target_lang": "deu-Latn",
        }
        for i in range(3)
    ]
    hub.write_config(tmp_path, spec, rows)
    header = hub.front_matter([spec], pretty_name="toy")
    (tmp_path / hub.CARD_FILE).write_text(hub.render_card(header, "toy\n"), encoding="utf-8")
    (task_class,) = clsd_mteb.tasks_from_folder(tmp_path)
    task = task_class()
    assert task.metadata.is_filled() and task.metadata.eval_langs == ["eng-Latn", "deu-Latn"]
    task.load_data()
    assert task.dataset["test"]["distractors"][2] == ["Der Hund saß auf Matte 2."]


def test_the_source_is_resolved_once_and_every_task_gets_it(exported, tmp_path):
    folder = Path(shutil.copytree(exported, tmp_path / "export"))
    source = resolve_data_source(folder)
    (folder / hub.CARD_FILE).unlink()  # the card was read when the source was resolved, and is not read again
    tasks = clsd_mteb.get_tasks(source=source)
    assert [t.metadata.name for t in tasks] == list(clsd_mteb.RELEASE_TASK_NAMES)
    assert all(task.data_source is source for task in tasks)
    tasks[0].load_data()
    assert len(tasks[0].dataset["test"]) == FIXTURE_ROWS["WMT19"]
    with pytest.raises(ValueError, match="not both"):
        clsd_mteb.get_tasks(source=source, data_dir=folder)


def test_a_generated_folder_s_tasks_come_from_the_card_read_at_resolution(tmp_path):
    spec = hub.DirectionSpec("en-de", "CLSD-TOY-EN-DE", "eng-Latn", "deu-Latn")
    hub.write_config(tmp_path, spec, [{**TOY_ROW, "id": f"toy-{i}"} for i in range(3)])
    (tmp_path / hub.CARD_FILE).write_text(hub.render_card(hub.front_matter([spec], pretty_name="toy"), "toy\n"), encoding="utf-8")
    source = resolve_data_source(tmp_path)
    assert source.kind == "hub-folder" and source.task_names() == ("CLSD-TOY-EN-DE",)
    (tmp_path / hub.CARD_FILE).write_text("no header any more\n", encoding="utf-8")
    (task,) = clsd_mteb.get_tasks(source=source)
    assert task.metadata.name == "CLSD-TOY-EN-DE"


def test_a_card_value_holding_three_dashes_ends_no_header(tmp_path):
    """The header ends at a line of its own, as the Hub reads it: a ``---`` inside a value keeps the keys after it."""
    spec = hub.DirectionSpec("en-de", "CLSD-TOY-EN-DE", "eng-Latn", "deu-Latn")
    header = hub.front_matter([spec], pretty_name="CLSD --- news", license="cc-by-4.0", language=["en", "de"])
    (tmp_path / hub.CARD_FILE).write_text(hub.render_card(header, "# CLSD --- news\n\n---\n\nZürich\n"), encoding="utf-8")
    assert hub.read_front_matter(tmp_path) == header
    assert hub.read_manifest(tmp_path) == [spec]
    card = DatasetCard.load(tmp_path / hub.CARD_FILE)  # the Hub's own reader agrees, body included
    assert card.data.to_dict() == header and card.text == "# CLSD --- news\n\n---\n\nZürich\n"


def test_a_card_without_a_header_or_with_a_list_for_one_is_named(tmp_path):
    card = tmp_path / hub.CARD_FILE
    card.write_text("# no header\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"README.md: dataset card has no YAML front matter"):
        hub.read_front_matter(tmp_path)
    card.write_text("---\n- a\n- b\n---\nbody\n", encoding="utf-8")
    with pytest.raises(DataError, match="cannot parse the YAML front matter"):
        hub.read_front_matter(tmp_path)


def test_a_hub_dataset_without_network_says_how_to_use_a_local_copy():
    # HF_HUB_OFFLINE=1 (conftest): the card cannot be fetched, and the error says what to do instead
    with pytest.raises(DataError, match="pass it with --data-dir"):
        clsd_mteb.tasks_from_hub("someone/clsd-legal", "0123456789abcdef0123456789abcdef01234567")


# --- `make quickstart`: the release beside the checkout when present, else the checked fetch ---


def _quickstart(release_folder: Path, url: str, tmp_path: Path) -> tuple[subprocess.CompletedProcess[str], Path]:
    cache = tmp_path / "cache"
    env = {k: v for k, v in os.environ.items() if k != release_fetch.DATA_DIR_ENV}
    env.update({release_fetch.CACHE_DIR_ENV: str(cache), release_fetch.BASE_URL_ENV: url, "HF_HUB_OFFLINE": "0"})
    done = subprocess.run(
        [
            "make",
            "--no-print-directory",
            "-o",
            ".venv/.quickstart",
            "quickstart",
            f"BIN={Path(sys.executable).parent}",
            f"RELEASE_BESIDE={release_folder}",
            f"QUICKSTART_ARGS=--tasks CLSD-WMT21-FR-DE --limit 5 --output {tmp_path / 'out'}",
        ],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Precision@1 (%)" in done.stdout and f"Results: {tmp_path / 'out' / 'results'}" in done.stdout
    return done, cache / "release" / release_fetch.COMMIT / "CLSD_wmt2021_adversarial_dataset.csv"


@pytest.mark.slow
def test_make_quickstart_reads_the_release_folder_beside_the_checkout(small_release, tmp_path):
    unused = "http://127.0.0.1:9"  # nothing listens there: a fetch would fail
    done, fetched = _quickstart(small_release, unused, tmp_path)
    assert f"Data: {small_release} (release CSVs)" in done.stdout and not fetched.exists()
    assert "Warning" not in done.stdout + done.stderr  # no stray library warnings on the console


@pytest.mark.slow
@pytest.mark.release
def test_make_quickstart_fetches_the_pinned_release_without_one_beside(release_mirror, tmp_path):
    done, fetched = _quickstart(tmp_path / "not-cloned-beside-the-release", release_mirror, tmp_path)
    assert f"Data: the CLSD release at {release_fetch.REPOSITORY}@{release_fetch.COMMIT[:12]}" in done.stdout
    assert release_fetch.is_pristine(fetched)  # downloaded from the mirror and checked against its SHA-256
    assert "Warning" not in done.stdout + done.stderr
