"""Hub datasets as sources: the authors' ``Andrianos/clsd_wmt19_21`` for the four direct tasks, and the project's own
Hub format by repository and commit.

The real Hub cannot be reached from the tests. The mapping is tested on rows in the authors' layout
written from the project's fixture files (tests/data/clsd-mini), and the whole path (``huggingface_hub``
and ``datasets`` finding a revision, downloading, caching, then reading offline from the cache) against
olah, a Hub-compatible server on 127.0.0.1 serving git repositories the test writes (tests/helpers/hub_mirror.py).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from clsd_format import authors_hub
from clsd_format.data_source import resolve_data_source
from clsd_format.errors import DataError
from clsd_format.publishing_settings import ReleaseExportSettings
from clsd_format.release import RELEASED_TASKS, ReleasedTask
from clsd_mteb.compare import compare_rows
from clsd_mteb.publishing.release_export import export_release
from clsd_mteb.release_csv import release_direction_rows
from tests.helpers import hub_mirror

DIRECT = [task for task in RELEASED_TASKS if not task.pivot]
EXPORT_REPO = "clsd-tests/clsd-release-export"
TEXTS = ("source", "target", "distractors")


def _csv_rows(folder: Path, released: ReleasedTask) -> list[dict[str, Any]]:
    return release_direction_rows(
        folder / released.file, dataset=released.dataset.name.lower(), source=released.source, target=released.target
    )


def _authors_records(folder: Path, released: ReleasedTask) -> list[dict[str, Any]]:
    """One direction of the fixture CSVs in the authors' Hub layout (``lang``: the source language, never read)."""
    return [
        {
            authors_hub.SOURCE: row["source"],
            authors_hub.TARGET: row["target"],
            **dict(zip(authors_hub.DISTRACTORS, row["distractors"], strict=True)),
            authors_hub.LANG: released.source.code,
        }
        for row in _csv_rows(folder, released)
    ]


def _texts(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [tuple(row[column] for column in TEXTS) for row in rows]


# --- the mapping, without a server ----------------------------------------------------------------


def test_each_config_is_a_direct_task_source_language_first() -> None:
    assert authors_hub.CONFIGS == {
        "CLSD-WMT19-DE-FR": "wmt19.de.fr",
        "CLSD-WMT19-FR-DE": "wmt19.fr.de",
        "CLSD-WMT21-DE-FR": "wmt21.de.fr",
        "CLSD-WMT21-FR-DE": "wmt21.fr.de",
    }
    pivot = next(task for task in RELEASED_TASKS if task.pivot)
    with pytest.raises(DataError, match="direct test sets only"):
        authors_hub.config_name(pivot)


def test_the_authors_dataset_is_named_with_or_without_a_revision() -> None:
    by_default = resolve_data_source(hub_dataset="Andrianos/clsd_wmt19_21")
    assert (by_default.kind, by_default.location, by_default.revision) == (
        "authors-hub",
        authors_hub.REPO_ID,
        authors_hub.DEFAULT_REVISION,
    )
    assert by_default.task_names() == tuple(authors_hub.CONFIGS)
    chosen = resolve_data_source(hub_dataset="andrianos/CLSD_WMT19_21@0123abc")  # the Hub ignores case in names
    assert (chosen.location, chosen.revision) == (authors_hub.REPO_ID, "0123abc")


def test_rows_map_onto_the_task_and_a_config_in_the_other_direction_is_refused(small_release: Path) -> None:
    de_fr, fr_de = (next(t for t in DIRECT if t.name == name) for name in ("CLSD-WMT21-DE-FR", "CLSD-WMT21-FR-DE"))
    rows = authors_hub.task_rows(_authors_records(small_release, de_fr), de_fr, "wmt21.de.fr")
    assert _texts(rows) == _texts(_csv_rows(small_release, de_fr))
    assert rows[0]["id"] == "wmt21.de.fr-0" and (rows[0]["source_lang"], rows[0]["target_lang"]) == ("deu-Latn", "fra-Latn")
    with pytest.raises(DataError, match=r"column 'Source': reads as French, but config wmt21\.de\.fr should hold German"):
        authors_hub.task_rows(_authors_records(small_release, fr_de), de_fr, "wmt21.de.fr")


def test_a_config_with_more_distractors_or_unknown_columns_is_refused_not_read_in_part(small_release: Path) -> None:
    de_fr = next(t for t in DIRECT if t.name == "CLSD-WMT21-DE-FR")
    records = _authors_records(small_release, de_fr)
    six = [{**record, "TargetAdv5": record["TargetAdv1"] + " x", "TargetAdv6": record["TargetAdv2"] + " y"} for record in records]
    with pytest.raises(DataError, match=r"column 'TargetAdv5': the config has 6 distractor columns, the task scores 4"):
        authors_hub.task_rows(six, de_fr, "wmt21.de.fr")
    with pytest.raises(DataError, match=r"column 'notes': a column this layout does not have"):
        authors_hub.task_rows([{**record, "notes": ""} for record in records], de_fr, "wmt21.de.fr")


def test_rows_are_compared_in_order_on_the_texts() -> None:
    row = {"id": "a", "source": "s", "target": "t", "distractors": ["d"]}
    other = [dict(row, id="b"), dict(row, target="T"), dict(row)]
    comparison = compare_rows("X", [row, row, row, row], other)
    assert comparison.rows == (4, 3) and comparison.differences == [(1, "target")] and not comparison.equal
    assert "4 / 3 rows (the counts differ); 1 of the first 3 rows differ, first row 1 (target)" in comparison.summary()


def test_results_not_computed_on_the_hub_dataset_cannot_go_to_its_leaderboard(small_release: Path, tmp_path: Path) -> None:
    import clsd_mteb
    from clsd_format.publishing_settings import ResultsPushSettings
    from clsd_mteb.baselines import CHAR_NGRAM_NAME
    from clsd_mteb.models import load_model
    from clsd_mteb.publishing.hub_results import plan_results_push
    from clsd_mteb.run import evaluate_tasks

    tasks = clsd_mteb.get_tasks(["CLSD-WMT21-FR-DE"], data_dir=small_release)  # the fixture CSVs: a local revision
    evaluate_tasks(load_model(CHAR_NGRAM_NAME), tasks, tmp_path / "run", show_progress_bar=False)
    with pytest.raises(DataError) as raised:
        plan_results_push(ResultsPushSettings(tmp_path / "run", authors_hub.REPO_ID))
    message = str(raised.value)
    assert "no result can go to the Hub as computed on Andrianos/clsd_wmt19_21" in message
    assert "CLSD-WMT21-FR-DE.json: computed on other data (dataset revision local-sha256-" in message
    assert f"not on {authors_hub.REPO_ID}@{authors_hub.DEFAULT_REVISION}" in message


# --- through a Hub-compatible server ---------------------------------------------------------------


@pytest.fixture(scope="module")
def hub(small_release: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """olah serving the authors' layout (two commits: the fixture rows, then one row changed) and an export of them."""
    root = tmp_path_factory.mktemp("hub")
    authors = root / "mirrors" / "datasets" / authors_hub.REPO_ID
    configs = {authors_hub.config_name(t): _authors_records(small_release, t) for t in DIRECT}
    hub_mirror.write_pushed_layout(authors, configs, license=authors_hub.CARD_LICENSE)
    commits = {"authors": hub_mirror.commit(authors)}
    configs["wmt19.fr.de"][5][authors_hub.TARGET] += " (changed)"
    hub_mirror.write_pushed_layout(authors, configs, license=authors_hub.CARD_LICENSE)
    commits["authors-changed"] = hub_mirror.commit(authors, "one row changed")
    (authors / "wmt19.fr.de" / "test-00000-of-00001.parquet").write_text("<!DOCTYPE html><html>Bad gateway</html>\n")
    commits["authors-html"] = hub_mirror.commit(authors, "an error page where a parquet file should be")
    export = root / "mirrors" / "datasets" / EXPORT_REPO
    shutil.copytree(export_release(ReleaseExportSettings(root / "export", data_dir=small_release)), export)
    commits["export"] = hub_mirror.commit(export)
    with hub_mirror.serve(root / "mirrors", root, ready_repository=authors_hub.REPO_ID) as url:
        yield {"url": url, "home": str(root / "hf-home"), **commits}


READ_TASKS = """
import json, sys
import clsd_mteb
out = {}
for task in clsd_mteb.get_tasks(hub_dataset=sys.argv[1]):
    task.load_data()
    rows = [[r["source"], r["target"], r["distractors"]] for r in task.dataset["test"]]
    out[task.metadata.name] = {"dataset": dict(task.metadata.dataset), "license": task.metadata.license, "texts": rows}
print(json.dumps(out))
"""


def _read_tasks(hub: dict[str, str], hub_dataset: str, *, offline: bool = False) -> dict[str, Any]:
    env = hub_mirror.client_env(hub["url"], Path(hub["home"]), offline=offline)
    done = subprocess.run([sys.executable, "-c", READ_TASKS, hub_dataset], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


def _clsd(hub: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    env = hub_mirror.client_env(hub["url"], Path(hub["home"]))
    return subprocess.run([sys.executable, "-m", "clsd_cli", *args], capture_output=True, text=True, env=env, timeout=600)


@pytest.mark.slow
def test_the_authors_dataset_by_name_and_revision_gives_the_release_rows_then_from_the_cache(hub, small_release) -> None:
    hub_dataset = f"{authors_hub.REPO_ID}@{hub['authors']}"
    for offline in (False, True):  # the second time HF_HUB_OFFLINE=1: from the Hub cache the first run filled
        tasks = _read_tasks(hub, hub_dataset, offline=offline)
        assert list(tasks) == list(authors_hub.CONFIGS)
        for released in DIRECT:
            read = tasks[released.name]
            assert read["dataset"] == {"path": authors_hub.REPO_ID, "revision": hub["authors"]}  # never the release's
            assert read["license"] == authors_hub.CARD_LICENSE
            assert [tuple(t) for t in read["texts"]] == _texts(_csv_rows(small_release, released))


@pytest.mark.slow
def test_the_project_s_hub_format_by_repository_and_commit(hub, small_release) -> None:
    tasks = _read_tasks(hub, f"{EXPORT_REPO}@{hub['export']}")
    assert len(tasks) == 8 and tasks["CLSD-WMT19-FR-DE"]["dataset"] == {"path": EXPORT_REPO, "revision": hub["export"]}
    for released in DIRECT:
        assert [tuple(t) for t in tasks[released.name]["texts"]] == _texts(_csv_rows(small_release, released))


@pytest.mark.slow
def test_a_parquet_file_that_is_an_error_page_is_an_error_naming_the_repository(hub, small_release, tmp_path) -> None:
    source = f"{authors_hub.REPO_ID}@{hub['authors-html']}"
    done = _clsd(hub, "evaluate", "--model", "clsd-baselines/char-ngram-tf", "--tasks", "CLSD-WMT19-FR-DE",
                 "--hub-dataset", source, "--output", str(tmp_path / "out"))  # fmt: skip
    assert done.returncode == 2, done.stderr[-3000:]
    error = done.stderr.strip().splitlines()[-1]
    assert error.startswith(f"error: file {source}/wmt19.fr.de (repository {authors_hub.REPO_ID}): a data file is not a")
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_compare_sources_says_where_the_release_and_the_hub_dataset_differ(hub, small_release) -> None:
    same = _clsd(
        hub, "compare-sources", "--data-dir", str(small_release), "--hub-dataset", f"{authors_hub.REPO_ID}@{hub['authors']}"
    )
    assert same.returncode == 0, same.stderr
    assert same.stdout.count("the same texts in the same order") == 4
    changed = _clsd(
        hub,
        "compare-sources",
        "--data-dir",
        str(small_release),
        "--hub-dataset",
        f"{authors_hub.REPO_ID}@{hub['authors-changed']}",
    )
    assert changed.returncode == 3, changed.stderr
    assert "CLSD-WMT19-FR-DE: 24 / 24 rows; 1 of the first 24 rows differ, first row 5 (target)" in changed.stdout


@pytest.mark.slow
def test_evaluate_on_the_hub_dataset_scores_as_on_the_release_and_files_its_own_revision(hub, small_release, tmp_path) -> None:
    common = ["evaluate", "--model", "clsd-baselines/char-ngram-tf", "--tasks", "CLSD-WMT21-FR-DE", "--format", "csv"]
    from_hub = _clsd(hub, *common, "--hub-dataset", f"{authors_hub.REPO_ID}@{hub['authors']}", "--output", str(tmp_path / "hub"))
    from_csv = _clsd(hub, *common, "--data-dir", str(small_release), "--output", str(tmp_path / "csv"))
    assert from_hub.returncode == 0 and from_csv.returncode == 0, from_hub.stderr + from_csv.stderr
    assert from_hub.stdout == from_csv.stdout  # the same rows, the same scores
    (result,) = (tmp_path / "hub" / "results").rglob("CLSD-WMT21-FR-DE.json")
    assert json.loads(result.read_text())["dataset_revision"] == hub["authors"]
    assert f"Data: the authors' Hub dataset {authors_hub.REPO_ID}@{hub['authors']}" in from_hub.stderr


# --- leaderboards on the Hub: eval.yaml and a model's .eval_results ---------------------------------


def _eval_results(folder: Path) -> dict[str, Any]:
    """Every ``.eval_results/*.yaml`` under ``folder``, read back with mteb's own model of the file."""
    import yaml
    from mteb._hf_integration.eval_result_model import HFEvalResults

    return {
        path.name: HFEvalResults.model_validate(yaml.safe_load(path.read_text()))
        for path in sorted((folder / ".eval_results").glob("*.yaml"))
    }


@pytest.fixture(scope="module")
def hub_results(hub, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The n-gram baseline's results on two tasks of the authors' Hub dataset, one of the export, and one of the release CSVs."""
    out = tmp_path_factory.mktemp("hub-results")
    ngram = ["evaluate", "--model", "clsd-baselines/char-ngram-tf", "--output", str(out / "results")]
    for source, tasks in (
        (f"{authors_hub.REPO_ID}@{hub['authors']}", "CLSD-WMT21-FR-DE,CLSD-WMT21-DE-FR"),
        (f"{EXPORT_REPO}@{hub['export']}", "CLSD-WMT19-DE-FR-PivotEN"),
    ):
        done = _clsd(hub, *ngram, "--hub-dataset", source, "--tasks", tasks)
        assert done.returncode == 0, done.stderr[-3000:]
    return out / "results"


@pytest.mark.slow
def test_push_results_writes_mteb_s_files_for_the_hub_dataset_only(hub, hub_results, small_release, tmp_path) -> None:
    done = _clsd(
        hub,
        "push-results",
        str(hub_results),
        "--hub-dataset",
        f"{authors_hub.REPO_ID}@{hub['authors']}",
        "--user",
        "someone",
        "--dry-run",
        str(tmp_path / "repo"),
    )
    assert done.returncode == 0, done.stderr[-3000:]
    files = _eval_results(tmp_path / "repo")
    assert list(files) == ["CLSD-WMT21-DE-FR.yaml", "CLSD-WMT21-FR-DE.yaml"]  # nothing else is written
    assert sorted(p.name for p in (tmp_path / "repo").rglob("*") if p.is_file()) == list(files)
    for name, results in files.items():
        task = name.removesuffix(".yaml")
        stored = json.loads(next(hub_results.rglob(f"{task}.json")).read_text())
        ids = {r.dataset.task_id: r for r in results.root}
        assert set(ids) == {task, f"{task}_default_test"}  # mteb's ids, as eval.yaml declares them
        for result in results.root:
            assert (result.dataset.id, result.dataset.revision) == (authors_hub.REPO_ID, hub["authors"])  # never GitHub
            assert result.value == round(stored["scores"]["test"][0]["main_score"] * 100, 5)
            assert result.source is not None and result.source.user == "someone"
    # the release task read from the export (another repository) is left out, and so said
    assert "CLSD-WMT19-DE-FR-PivotEN.json: CLSD-WMT19-DE-FR-PivotEN is not a task of Andrianos/clsd_wmt19_21" in done.stdout


@pytest.mark.slow
def test_push_results_for_the_export_name_the_tasks_its_eval_yaml_declares(hub, hub_results, tmp_path) -> None:
    from clsd_mteb.publishing.hub_eval import read_eval_config

    done = _clsd(
        hub,
        "push-results",
        str(hub_results),
        "--hub-dataset",
        f"{EXPORT_REPO}@{hub['export']}",
        "--dry-run",
        str(tmp_path / "repo"),
    )
    assert done.returncode == 0, done.stderr[-3000:]
    (results,) = _eval_results(tmp_path / "repo").values()
    env = hub_mirror.client_env(hub["url"], Path(hub["home"]))
    fetch = f"from huggingface_hub import hf_hub_download; print(hf_hub_download({EXPORT_REPO!r}, 'eval.yaml', repo_type='dataset', revision={hub['export']!r}))"
    path = subprocess.run([sys.executable, "-c", fetch], capture_output=True, text=True, env=env, check=True).stdout.split()[-1]
    declared = {task.id for task in read_eval_config(Path(path)).tasks}
    assert {r.dataset.task_id for r in results.root} == {"CLSD-WMT19-DE-FR-PivotEN", "CLSD-WMT19-DE-FR-PivotEN_default_test"}
    assert {r.dataset.task_id for r in results.root} <= declared
    assert {(r.dataset.id, r.dataset.revision) for r in results.root} == {(EXPORT_REPO, hub["export"])}
    assert "computed on other data (dataset revision " in done.stdout  # the authors' results, left out


@pytest.mark.slow
def test_push_results_uploads_through_mteb_exactly_what_the_dry_run_wrote(hub, hub_results, tmp_path) -> None:
    from tests.helpers import hub_upload

    source = f"{authors_hub.REPO_ID}@{hub['authors']}"
    preview = _clsd(hub, "push-results", str(hub_results), "--hub-dataset", source, "--dry-run", str(tmp_path / "repo"))
    assert preview.returncode == 0, preview.stderr[-3000:]
    with hub_upload.serve() as (url, received):
        env = {**hub_mirror.client_env(url, Path(hub["home"])), "HF_TOKEN": "hf_test_token"}
        command = [sys.executable, "-m", "clsd_cli", "push-results", str(hub_results), "--hub-dataset", source]
        pushed = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)
        without_token = subprocess.run(command, capture_output=True, text=True, env={**env, "HF_TOKEN": ""}, timeout=600)
    assert pushed.returncode == 0, pushed.stderr[-3000:]
    meta = json.loads(next(hub_results.rglob("model_meta.json")).read_text())
    expected = {
        ("model", meta["name"], str(path.relative_to(tmp_path / "repo"))): path.read_bytes()
        for path in (tmp_path / "repo").rglob("*.yaml")
    }
    assert received.files == expected and len(received.commits) == 1
    assert received.tokens == {"Bearer hf_test_token"}
    assert without_token.returncode == 2 and "set HF_TOKEN" in without_token.stderr
