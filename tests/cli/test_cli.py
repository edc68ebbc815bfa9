"""The `clsd` command as a user runs it: a real process, real model, local data (the fixture files, tests/data/clsd-mini)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from clsd_format import hub
from tests.helpers.corpora import toy_hub_folder

CLSD = [sys.executable, "-m", "clsd_cli"]
MINILM = "sentence-transformers__all-MiniLM-L6-v2/8b3219a92973c328a8e22fadcfa821b5dc75636a"
WITH_MINILM = ["--model", "sentence-transformers/all-MiniLM-L6-v2"]  # the tests' model (the default is multilingual USE)


def run(args, cwd, env=None):
    return subprocess.run([*CLSD, *args], cwd=cwd, capture_output=True, text=True, env={**os.environ, **(env or {})})


@pytest.mark.slow
def test_evaluate_writes_mteb_results_and_prints_table_1(small_release, tmp_path):
    out = tmp_path / "out"
    tasks = "CLSD-WMT19-DE-FR,CLSD-WMT19-DE-FR-PivotEN,CLSD-WMT21-FR-DE"
    done = run(
        [
            "evaluate",
            *WITH_MINILM,
            "--data-dir",
            str(small_release),
            "--output",
            str(out),
            "--tasks",
            tasks,
            "--batch-size",
            "16",
        ],
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "| sentence-transformers/all-MiniLM-L6-v2 |" in done.stdout
    assert "WMT19 DE→FR (direct / pivot EN)" in done.stdout
    folder = out / "results" / MINILM
    scores = {}
    for name in tasks.split(","):
        payload = json.loads((folder / f"{name}.json").read_text())
        assert payload["task_name"] == name
        scores[name] = payload["scores"]["test"][0]["precision_at_1"]
        low, high = payload["scores"]["test"][0]["precision_at_1_ci_low"], payload["scores"]["test"][0]["precision_at_1_ci_high"]
        assert low <= scores[name] <= high
        assert f"{100 * scores[name]:.1f} ±{100 * (high - low) / 2:.1f}" in done.stdout  # Table 1's cell: P@1 and its interval
        predictions = json.loads((out / "predictions" / MINILM / f"{name}_predictions.json").read_text())["default"]["test"]
        hits = sum(row["cosines"][0] > max(row["cosines"][1:]) for row in predictions)  # a tie is a miss
        assert len(predictions) == payload["scores"]["test"][0]["num_rows"] == (20 if "WMT21" in name else 24)  # fixture rows
        assert hits == round(scores[name] * len(predictions))

    before = (folder / "CLSD-WMT19-DE-FR.json").stat().st_mtime_ns
    again = run(
        [
            "evaluate",
            *WITH_MINILM,
            "--data-dir",
            str(small_release),
            "--output",
            str(out),
            "--tasks",
            "CLSD-WMT19-DE-FR",
            "--batch-size",
            "16",
        ],
        tmp_path,
    )
    assert again.returncode == 0, again.stderr
    assert (folder / "CLSD-WMT19-DE-FR.json").stat().st_mtime_ns == before  # finished work is reused, not redone
    first_entry = json.loads((folder / "CLSD-WMT19-DE-FR.json").read_text())["scores"]["test"][0]
    assert (first_entry["clsd_exact"], first_entry["clsd_batch_size"]) == (0, 16)

    exact = run(
        [
            "evaluate",
            *WITH_MINILM,
            "--data-dir",
            str(small_release),
            "--output",
            str(out),
            "--tasks",
            "CLSD-WMT19-DE-FR",
            "--exact",
        ],
        tmp_path,
    )
    assert exact.returncode == 0, exact.stderr
    entry = json.loads((folder / "CLSD-WMT19-DE-FR.json").read_text())["scores"]["test"][0]
    assert entry["clsd_exact"] == 1  # another mode: recomputed, the batched result kept under superseded/
    assert len(list((out / "superseded").rglob("CLSD-WMT19-DE-FR.*.json"))) == 1


@pytest.mark.slow
def test_errors_exit_2_with_one_readable_line(tmp_path, copy_csv):
    missing = run(["evaluate", "--data-dir", str(tmp_path / "nope")], tmp_path)
    assert missing.returncode == 2
    assert missing.stderr.strip().splitlines()[-1] == f"error: --data-dir {tmp_path / 'nope'} does not exist."
    assert "Traceback" not in missing.stderr

    unknown = run(["evaluate", "--tasks", "CLSD-WMT99-DE-FR"], tmp_path)
    assert unknown.returncode == 2 and "unknown task(s) ['CLSD-WMT99-DE-FR']" in unknown.stderr

    path = copy_csv()
    path.write_bytes(path.read_bytes().replace(b"fr_adv2", b"fr_advX", 1))
    broken = run(
        ["evaluate", "--data-dir", str(path.parent), "--tasks", "CLSD-WMT19-DE-FR", "--output", str(tmp_path / "o")], tmp_path
    )
    assert broken.returncode == 2
    assert "CLSD_wmt2019_adversarial_dataset.csv, row 0, column 'fr_adv2': missing column" in broken.stderr
    assert "Traceback" not in broken.stderr
    assert not list((tmp_path / "o").rglob("CLSD-WMT19-DE-FR.json"))  # no result written for bad data

    debug = run(["evaluate", "--data-dir", str(tmp_path / "nope"), "--debug"], tmp_path)
    assert debug.returncode != 0 and "Traceback" in debug.stderr


@pytest.mark.slow
def test_a_generated_style_hub_folder_is_evaluated_without_extra_code(tmp_path):
    folder = toy_hub_folder(tmp_path / "toy")
    done = run(["evaluate", *WITH_MINILM, "--data-dir", str(folder), "--output", str(tmp_path / "out")], tmp_path)
    assert done.returncode == 0, done.stderr
    assert "TOY EN→DE" in done.stdout
    result = json.loads((tmp_path / "out" / "results" / MINILM / "CLSD-TOY-EN-DE.json").read_text())
    assert result["scores"]["test"][0]["num_rows"] == 2


@pytest.mark.slow
def test_analyze_finds_the_generated_dataset_a_result_was_computed_on_or_names_dataset(tmp_path):
    folder = toy_hub_folder(tmp_path / "toy")
    assert run(["evaluate", *WITH_MINILM, "--data-dir", str(folder), "--output", str(tmp_path / "out")], tmp_path).returncode == 0
    found = run(["analyze", str(tmp_path / "out"), "--out", str(tmp_path / "report"), "--no-pos-shift"], tmp_path)
    assert found.returncode == 0, found.stderr
    report = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    # the texts, read from the recorded folder, each in a span naming its language and direction
    assert '| toy-0 | <span lang="de" dir="ltr">Das Wetter ist heute schön.</span> |' in report

    folder.rename(tmp_path / "moved")  # the recorded folder is gone: one line naming --dataset, nothing written
    lost = run(["analyze", str(tmp_path / "out"), "--out", str(tmp_path / "report2"), "--no-pos-shift"], tmp_path)
    assert lost.returncode == 2 and len(lost.stderr.strip().splitlines()) == 1, lost.stderr
    assert "CLSD-TOY-EN-DE" in lost.stderr and "--dataset FOLDER" in lost.stderr and not (tmp_path / "report2").exists()
    given = [
        "analyze",
        str(tmp_path / "out"),
        "--out",
        str(tmp_path / "report3"),
        "--no-pos-shift",
        "--dataset",
        str(tmp_path / "moved"),
    ]
    assert run(given, tmp_path).returncode == 0


@pytest.mark.slow
def test_export_release_then_evaluate_from_the_export(small_release, tmp_path):
    done = run(["export-release", str(tmp_path / "export"), "--data-dir", str(small_release)], tmp_path)
    assert done.returncode == 0, done.stderr
    assert {s.task_name for s in hub.read_manifest(tmp_path / "export")} >= {"CLSD-WMT19-DE-FR"}
    cosines = {}
    for source in ("export", "csv"):
        folder = tmp_path / "export" if source == "export" else small_release
        evaluated = run(
            [
                "evaluate",
                *WITH_MINILM,
                "--data-dir",
                str(folder),
                "--tasks",
                "CLSD-WMT19-DE-FR",
                "--output",
                str(tmp_path / source),
            ],
            tmp_path,
        )
        assert evaluated.returncode == 0, evaluated.stderr
        (predictions,) = (tmp_path / source / "predictions").rglob("CLSD-WMT19-DE-FR_predictions.json")  # the tests' model's
        cosines[source] = {row["id"]: row["cosines"] for row in json.loads(predictions.read_text())["default"]["test"]}
    assert len(cosines["export"]) == 24 and cosines["export"] == cosines["csv"]  # the export scores exactly as the CSVs
    refused = run(["export-release", str(tmp_path / "export"), "--data-dir", str(small_release)], tmp_path)
    assert refused.returncode == 2 and "refusing to overwrite" in refused.stderr


def test_the_console_script_is_installed(tmp_path):
    script = Path(sys.executable).parent / "clsd"  # installed beside the interpreter by `pip install -e .`
    done = subprocess.run([str(script), "--help"], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0 and "evaluate" in done.stdout


@pytest.mark.slow
def test_without_network_the_user_sees_one_line_not_the_downloaders_retries(tmp_path):
    # no local copy chosen, an empty cache, and a release address where nothing listens: the fetch fails
    from clsd_mteb import release_fetch

    env = {k: v for k, v in os.environ.items() if k != release_fetch.DATA_DIR_ENV}
    env.update({release_fetch.CACHE_DIR_ENV: str(tmp_path / "cache"), release_fetch.BASE_URL_ENV: "http://127.0.0.1:9"})
    env["HF_HUB_OFFLINE"] = "0"
    done = run(["evaluate", "--tasks", "CLSD-WMT21-FR-DE", "--limit", "2", "--output", str(tmp_path / "out")], tmp_path, env)
    assert done.returncode == 2, done.stdout + done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: Could not fetch the CLSD release file"), done.stderr
    assert "--data-dir" in lines[0] and "CLSD_DATA_DIR" in lines[0]


def test_make_tests_stop_at_once_when_the_chosen_release_folder_is_not_the_release(tmp_path):
    # `make test` runs this before the suite: a wrong folder is one line and exit 2, not half an hour of errors
    env = {**os.environ, "CLSD_DATA_DIR": str(tmp_path)}
    repo = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-m", "tests.helpers.release_data"], cwd=repo, env=env, capture_output=True, text=True)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.strip().splitlines() == [
        f"error: CLSD_DATA_DIR={tmp_path} is not the CLSD release at ba143c27c3db: it lacks "
        "CLSD_wmt2019_adversarial_dataset.csv, CLSD_wmt2021_adversarial_dataset.csv, MT_M2M_CLSD_wmt2019_adversarial_dataset.csv, "
        "MT_M2M_CLSD_wmt2021_adversarial_dataset.csv, DE_wmt1921_swaps_ner_pos.tsv, FR_wmt1921_swaps_ner_pos.tsv"
    ]
