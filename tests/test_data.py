"""Reading the release (local, fetched over HTTP, bad files) and the Hub format."""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import clsd_mteb
from clsd_format import hub, schema
from clsd_format.errors import DataError, DataSourceUnavailable
from clsd_mteb import release
from clsd_mteb.export import export_release


def _load(task_name: str, data_dir: Path):
    task = clsd_mteb.get_tasks([task_name], data_dir=data_dir)[0]
    task.load_data()
    return task


# --- the release as it is -------------------------------------------------------------------


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
    assert task.metadata.revision == release.COMMIT  # pristine files keep the pinned revision


def test_the_environment_variable_selects_the_local_source(release_dir, monkeypatch):
    monkeypatch.setenv(release.DATA_DIR_ENV, str(release_dir))
    task = clsd_mteb.get_tasks(["CLSD-WMT21-DE-FR"])[0]
    task.load_data()
    assert len(task.dataset["test"]) == 893


def test_cells_that_look_like_missing_values_stay_text(copy_csv):
    path = copy_csv()
    text = path.read_text(encoding="utf-8").splitlines()
    fields = text[1].split(",")
    fields[-1] = "NA"  # a French distractor that reads like a missing-value marker
    text[1] = ",".join(fields)
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
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
    # data row 3 is `2,"Kipping, la chef de parti, ...`: the byte lands in the French sentence
    _rewrite(path, lambda lines: [*lines[:3], lines[3].replace(b"Kipping", b"Kipp\xffng", 1), *lines[4:]])
    with pytest.raises(DataError, match=r"row 3, column 'French': undecodable byte 0xff \(not UTF-8\) on line 4"):
        _load("CLSD-WMT19-DE-FR", path.parent)


def test_a_row_with_too_many_fields_does_not_parse(copy_csv):
    path = copy_csv()
    _rewrite(path, lambda lines: [*lines[:7], lines[7] + b",extra", *lines[8:]])
    with pytest.raises(DataError, match=r"row 7: has 12 fields but the header has 11"):
        _load("CLSD-WMT19-DE-FR", path.parent)


def test_an_unterminated_quote_does_not_parse(copy_csv):
    path = copy_csv()
    _rewrite(path, lambda lines: [*lines[:-3], b'9999,"never closed,' + lines[-3], *lines[-2:]])
    # the quote opened on the inserted data row 1472 closes early inside the next line, where parsing stops
    with pytest.raises(DataError, match=r"CLSD_wmt2019_adversarial_dataset.csv, row 1472: does not parse as CSV"):
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


def test_modified_release_files_are_filed_under_a_local_revision(copy_csv):
    path = copy_csv()
    _rewrite(path, lambda lines: [*lines[:-5], b""])
    task = _load("CLSD-WMT19-DE-FR", path.parent)
    assert task.metadata.revision == "local-sha256-" + release.sha256_of(path)[:16]


# --- the default source: fetched once over HTTP, checked, cached -----------------------------


@pytest.fixture
def mirror(release_dir, tmp_path):
    """A real HTTP server on 127.0.0.1 laid out like the GitHub repository at the pinned commit."""
    root = tmp_path / "mirror"
    for name, (folder, _) in release.FILES.items():
        (root / folder).mkdir(parents=True, exist_ok=True)
        shutil.copy(release_dir / name, root / folder / name)

    class QuietHandler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:  # no request lines in the test output
            pass

    handler = functools.partial(QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield root, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_the_release_is_fetched_once_checked_and_cached(mirror, monkeypatch, tmp_path):
    root, url = mirror
    monkeypatch.setenv(release.CACHE_DIR_ENV, str(tmp_path / "cache"))
    monkeypatch.setenv(release.BASE_URL_ENV, url)
    task = clsd_mteb.get_tasks(["CLSD-WMT21-FR-DE"])[0]
    task.load_data()
    assert len(task.dataset["test"]) == 893
    cached = release.cache_dir() / "CLSD_wmt2021_adversarial_dataset.csv"
    assert cached.is_file() and release.is_pristine(cached)
    (root / "evaluation_sets" / "CLSD_wmt2021_adversarial_dataset.csv").unlink()  # server no longer has it
    again = clsd_mteb.get_tasks(["CLSD-WMT21-DE-FR"])[0]
    again.load_data()  # served from the cache
    assert len(again.dataset["test"]) == 893


def test_a_download_with_the_wrong_checksum_is_refused(mirror, monkeypatch, tmp_path):
    root, url = mirror
    monkeypatch.setenv(release.CACHE_DIR_ENV, str(tmp_path / "cache"))
    target = root / "evaluation_sets" / "CLSD_wmt2019_adversarial_dataset.csv"
    target.write_bytes(target.read_bytes() + b"tampered\n")
    with pytest.raises(DataError, match="expected 97452d4b"):
        release.fetch("CLSD_wmt2019_adversarial_dataset.csv", base_url=url)
    assert not (release.cache_dir() / target.name).exists()


def test_no_network_and_no_local_source_explains_how_to_set_one(monkeypatch, tmp_path):
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv(release.CACHE_DIR_ENV, str(tmp_path / "cache"))
    monkeypatch.setenv(release.BASE_URL_ENV, f"http://127.0.0.1:{port}")
    task = clsd_mteb.get_tasks(["CLSD-WMT19-DE-FR"])[0]
    with pytest.raises(DataSourceUnavailable, match="CLSD_DATA_DIR=") as error:
        task.load_data()
    assert "--data-dir" in str(error.value)


# --- the Hub format --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def exported(small_release, tmp_path_factory):
    return export_release(tmp_path_factory.mktemp("export") / "clsd", data_dir=small_release)


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
    assert len(data) == 24


def test_the_export_never_overwrites(exported, small_release):
    with pytest.raises(DataError, match="refusing to overwrite"):
        export_release(exported, data_dir=small_release)


def test_a_bad_hub_row_is_named(exported, tmp_path):
    copy = Path(shutil.copytree(exported, tmp_path / "copy"))
    rows = hub.read_config(copy, "wmt19-de-fr")
    rows[3]["distractors"] = ["fine", ""]
    spec = next(s for s in hub.read_manifest(copy) if s.config == "wmt19-de-fr")
    with pytest.raises(DataError, match=r"row 3, column 'distractors': distractor 2 is empty"):
        hub.write_config(copy, spec, rows, overwrite=True)


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


def test_a_hub_dataset_without_network_says_how_to_use_a_local_copy():
    # HF_HUB_OFFLINE=1 (conftest): the card cannot be fetched, and the error says what to do instead
    with pytest.raises(DataError, match="pass it with --data-dir"):
        clsd_mteb.tasks_from_hub("someone/clsd-legal", "0123456789abcdef0123456789abcdef01234567")


# --- `make quickstart`: the release beside the checkout when present, else the checked fetch ---


@pytest.mark.slow
@pytest.mark.parametrize("beside", [True, False], ids=["local-copy", "fetched"])
def test_make_quickstart_uses_the_local_release_else_the_pinned_fetch(beside, mirror, release_dir, tmp_path):
    _, url = mirror
    cache = tmp_path / "cache"
    env = {k: v for k, v in os.environ.items() if k != release.DATA_DIR_ENV}
    env.update({release.CACHE_DIR_ENV: str(cache), release.BASE_URL_ENV: url})
    chosen = release_dir if beside else tmp_path / "not-cloned-beside-the-release"
    done = subprocess.run(
        [
            "make",
            "--no-print-directory",
            "-o",
            ".venv/.installed",
            "quickstart",
            f"BIN={Path(sys.executable).parent}",
            f"RELEASE={chosen}",
            f"QUICKSTART_ARGS=--tasks CLSD-WMT21-FR-DE --limit 5 --output {tmp_path / 'out'}",
        ],
        cwd=Path(__file__).resolve().parents[1],
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    fetched = cache / "release" / release.COMMIT / "CLSD_wmt2021_adversarial_dataset.csv"
    if beside:
        assert f"Data: {release_dir} (release CSVs)" in done.stdout and not fetched.exists()
    else:
        assert f"Data: the CLSD release at {release.REPOSITORY}@{release.COMMIT[:12]}" in done.stdout
        assert release.is_pristine(fetched)  # downloaded from the mirror and checked against its SHA-256
    assert "Precision@1 (%)" in done.stdout and f"Results: {tmp_path / 'out' / 'results'}" in done.stdout
    assert "Warning" not in done.stdout + done.stderr  # no stray library warnings on the console
