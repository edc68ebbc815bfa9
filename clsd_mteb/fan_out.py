"""Many models evaluated at once on a Ray cluster: one Ray task per model (or per model and task), one results folder.

:func:`clsd_mteb.evaluate` evaluates one model into one folder; on a cluster each model is a job of its own. Here
each job is a Ray task that runs that same call into a folder of its own on whichever node it lands on, and sends the
files back; the driver writes them into the one results folder, which ``clsd analyze`` and ``clsd plan`` read as any
other. Nothing is shared between nodes but what Ray sends, so the cluster needs no shared file system. Two jobs
write different files, except each model's ``run_settings.jsonl`` (one line per task: the lines are gathered), its
``model_meta.json`` (the same for every task of the model) and the record of the data each task read (gathered
task by task); a file two jobs write with other contents stops
the gathering with both named, rather than one silently replacing the other.

Ray is imported only here and only when called: it is the ``ray`` extra.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clsd_format.errors import CLSDError
from clsd_format.extras import require_extra
from clsd_mteb.data_record import RECORD_FILE, TaskData, checked_record, write_record

GATHERED_LINES = ".jsonl"  # files whose lines are gathered from every job (run_settings.jsonl)


@dataclass(frozen=True)
class Job:
    """One Ray task: a model, on the tasks named (None: every task of the data)."""

    model: str
    tasks: tuple[str, ...] | None


@dataclass(frozen=True)
class FanOut:
    """What the Ray tasks came to: the jobs run and the folder every result file was gathered into."""

    jobs: tuple[Job, ...]
    output: Path
    files: int


def jobs_of(models: Sequence[str], tasks: Sequence[str] | None, per_task: bool) -> list[Job]:
    """One job per model, or per model and task (``per_task``, which needs the tasks named)."""
    if per_task and not tasks:
        raise CLSDError("one Ray task per task needs the tasks named (tasks=[...]).")
    if per_task:
        return [Job(model, (task,)) for model in models for task in tasks or ()]
    return [Job(model, tuple(tasks) if tasks else None) for model in models]


def run_job(job: Job, data_dir: str | None, limit: int | None) -> dict[str, bytes]:
    """Evaluate one job into a folder of its own (on the node the task runs on); every file it wrote, by relative path."""
    from clsd_mteb.evaluation import evaluate
    from clsd_mteb.tasks import get_tasks

    with tempfile.TemporaryDirectory(prefix="clsd-job-") as folder:
        tasks = get_tasks(list(job.tasks) if job.tasks else None, data_dir=data_dir, limit=limit)
        evaluate(job.model, tasks, cache=folder, show_progress_bar=False)
        root = Path(folder)
        return {str(path.relative_to(root)): path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()}


def _gather_records(outputs: Sequence[tuple[Job, dict[str, bytes]]], output: Path) -> None:
    """Every job's record of the data its tasks read (:mod:`clsd_mteb.data_record`) into the folder's, by task; two
    jobs that read one task from other data stop the gathering with both named."""
    records: dict[str, TaskData] = {}
    source: dict[str, Job] = {}
    for job, files in outputs:
        if RECORD_FILE not in files:
            continue
        found = checked_record(json.loads(files[RECORD_FILE].decode("utf-8")), f"{RECORD_FILE} of {job}")
        for task, entry in found.items():
            if task in records and records[task] != entry:
                raise CLSDError(
                    f"{task}: read from other data by the Ray tasks of {source[task]} and {job}; nothing was gathered."
                )
            records[task], source[task] = entry, job
    if records:
        write_record(output, records)


def gather(outputs: Sequence[tuple[Job, dict[str, bytes]]], output: Path) -> int:
    """Write every job's files into ``output``; the number of files written."""
    merged: dict[str, bytes] = {}
    source: dict[str, Job] = {}
    for job, files in outputs:
        for relative, content in files.items():
            if relative == RECORD_FILE:  # per task: gathered entry by entry
                continue
            if relative not in merged or merged[relative] == content:
                merged[relative], source[relative] = content, job
            elif relative.endswith(GATHERED_LINES):
                known = merged[relative].splitlines(keepends=True)
                merged[relative] += b"".join(line for line in content.splitlines(keepends=True) if line not in known)
            else:
                raise CLSDError(
                    f"{relative}: written by the Ray tasks of {source[relative]} and {job} with different contents; "
                    "nothing was gathered."
                )
    for relative, content in merged.items():
        target = output / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.exists() and target.read_bytes() != content and not relative.endswith(GATHERED_LINES):
            raise CLSDError(f"{target} already holds another result: evaluate into a new folder. Nothing was gathered.")
    for relative, content in merged.items():
        target = output / relative
        if relative.endswith(GATHERED_LINES) and target.exists():
            known = target.read_bytes().splitlines(keepends=True)
            content = target.read_bytes() + b"".join(line for line in content.splitlines(keepends=True) if line not in known)
        target.write_bytes(content)
    _gather_records(outputs, output)
    return len(merged) + any(RECORD_FILE in files for _, files in outputs)


def evaluate_on_ray(
    models: Sequence[str],
    tasks: Sequence[str] | None = None,
    *,
    output: str | os.PathLike[str] = "clsd-results",
    per_task: bool = False,
    data_dir: str | os.PathLike[str] | None = None,
    limit: int | None = None,
    num_cpus: float = 1,
) -> FanOut:
    """Evaluate ``models`` as Ray tasks (one per model, or per model and task) and gather the results into ``output``.

    ``tasks``: task names (default: every task of the data); ``data_dir``: the data folder each task reads (default:
    ``$CLSD_DATA_DIR`` on the node, else the release); ``limit``: each task's first rows (a trial); ``num_cpus``: what
    each task asks of Ray. Connects to the cluster ``ray.init()`` finds (``RAY_ADDRESS``), or starts a local one.
    """
    require_extra("ray", "evaluating models as Ray tasks")
    import ray

    jobs = jobs_of(models, tasks, per_task)
    remote = ray.remote(num_cpus=num_cpus)(run_job)
    folder = None if data_dir is None else str(Path(data_dir).resolve())
    futures: list[Any] = [remote.remote(job, folder, limit) for job in jobs]
    outputs = list(zip(jobs, ray.get(futures), strict=True))
    files = gather(outputs, Path(output))
    return FanOut(jobs=tuple(jobs), output=Path(output), files=files)
