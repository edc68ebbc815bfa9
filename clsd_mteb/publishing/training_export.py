"""CLSD rows as training data with hard negatives (``clsd export-training``).

sentence-transformers' losses for (anchor, positive, negatives) take columns in that order; this
module writes a CLSD source's rows in that layout: ``anchor`` (S), ``positive`` (T) and
``negative_1`` ... ``negative_k`` (the distractors), one parquet file per split under ``data/``, and
a ``README.md`` card whose YAML front matter says where the negatives come from and the licence
they inherit. ``datasets.load_dataset(<folder>)`` reads it (the card's ``configs`` name the files).

Every row of one split has the same k negatives (a loss needs equal columns): k is the fewest
distractors any exported row has, or the ``negatives`` asked for, in which case rows with fewer are
left out; the card says which. Only the loss columns are written: the trainer passes every column
to the loss, so an ``id`` column would be read as one more text.

**Held-out evaluation.** ``eval_tasks`` go to an ``eval`` split, and no training row shares a group
with it: ``split_by="corpus"`` keeps every row of the evaluation tasks' corpora (WMT19, WMT21; a
generated dataset is one corpus) out of ``train``; ``split_by="id"`` only the rows of the same
sentence pair (the same ``id`` in the same corpus: in the release, one pair in both directions,
direct and pivot).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clsd_format import authors_hub, hub, schema
from clsd_format.data_source import DataSource, resolve_data_source
from clsd_format.errors import DataError
from clsd_format.files import staged_folder
from clsd_format.publishing_settings import DIRECT_RELEASE_TASKS, TrainingExportSettings
from clsd_format.release import COMMIT, REPOSITORY
from clsd_mteb.abstask import AbsTaskCLSD
from clsd_mteb.tasks import PAPER_URL, get_tasks

ANCHOR, POSITIVE = "anchor", "positive"
TRAIN_SPLIT, EVAL_SPLIT = "train", "eval"
RELEASE_LICENSE = "agpl-3.0"


def negative_column(slot: int) -> str:
    """The column of the ``slot``-th negative (from 1)."""
    return f"negative_{slot}"


@dataclass
class TrainingExport:
    """What :func:`export_training` wrote: the folder, rows per split, k, and the rows left out and why."""

    folder: Path
    negatives: int
    rows: dict[str, int]
    held_out: int = 0  # training rows left out because the evaluation side holds their group
    too_few: int = 0  # rows left out for having fewer than ``negatives`` distractors
    tasks: dict[str, list[str]] = field(default_factory=dict)  # split -> task names


def _corpus(task: AbsTaskCLSD) -> str:
    """The corpus a task's rows come from: a released test set (WMT19, WMT21), else the dataset itself."""
    released = getattr(type(task), "released", None)
    return released.dataset.name if released is not None else str(task.metadata.dataset["path"])


def _group(task: AbsTaskCLSD, row: Mapping[str, Any], split_by: str) -> tuple[str, ...]:
    return (_corpus(task),) if split_by == "corpus" else (_corpus(task), str(row[schema.ID]))


def _negatives_origin(task: AbsTaskCLSD, source: DataSource) -> str:
    """Where one task's negatives come from, in words."""
    creation = task.metadata.sample_creation
    translated = " then machine-translated to English (M2M-100 1.2B)" if creation == "machine-translated" else ""
    if source.kind == "authors-hub":
        return f"GPT-4-generated distractors of the CLSD test sets as the authors' Hub dataset {source.location}@{source.revision} holds them, verified"
    if source.holds_release:
        revision = str(task.metadata.dataset["revision"])
        read = "" if revision == COMMIT else f" (read from local files, dataset revision {revision})"
        return f"GPT-4-generated distractors of the CLSD release ({REPOSITORY}@{COMMIT[:12]}), verified{translated}{read}"
    by = {"created": "rule-made distractors (no LLM)", "LM-generated and verified": "LLM-generated distractors, verified"}
    return by.get(str(creation), "distractors of a generated CLSD dataset") + translated


def _licence(source: DataSource) -> str:
    if source.kind == "authors-hub":  # its card's; the same data carries three (docs/data-sources.md)
        return authors_hub.CARD_LICENSE
    if source.holds_release:
        return RELEASE_LICENSE
    return str(source.card.get("license") or "unknown")


def _rows(task: AbsTaskCLSD) -> list[dict[str, Any]]:
    return list(task.evaluated_rows())


def export_training(
    data: str | os.PathLike[str] | DataSource | None,
    settings: TrainingExportSettings,
    *,
    hub_dataset: str | None = None,
    described_as: str | None = None,
) -> TrainingExport:
    """Write the rows of ``settings.tasks`` (default: the release's four direct tasks, else every task of the source)
    for training, into ``settings.out``.

    ``data``: the release CSVs, a Hub-format folder (an export of the release or a generated
    dataset), ``None`` for ``$CLSD_DATA_DIR`` or the fetched release, or a source already resolved
    (:func:`clsd_format.data_source.resolve_data_source`); ``hub_dataset``: ``REPO@REVISION``.
    ``settings.eval_tasks`` and ``settings.split_by``: the held-out ``eval`` split (module docstring).
    ``settings.negatives``: k, rows with fewer distractors left out (default: the fewest any row has, no row left out).
    ``described_as``: how the card names the source (default: the data source itself), for a folder that is
    only a step on the way, such as the dataset ``clsd export-training`` builds from a generation run.
    ``settings.out`` must not exist or be empty: finished work is never overwritten.
    """
    out, split_by = Path(settings.out), settings.split_by
    if out.exists() and (not out.is_dir() or any(out.iterdir())):  # before any data is read
        raise DataError("exists and is not empty; refusing to overwrite (choose a new folder).", file=str(out))
    if isinstance(data, DataSource):
        if hub_dataset is not None:
            raise ValueError("give the data as a resolved source or as hub_dataset, not both")
        source = data
    else:
        source = resolve_data_source(data, hub_dataset)
    tasks = settings.train_tasks()
    if tasks is None:
        tasks = list(DIRECT_RELEASE_TASKS) if source.holds_release else None
    train_tasks = get_tasks(tasks, source=source)
    eval_tasks = settings.eval_task_names()
    held_tasks = get_tasks(eval_tasks, source=source) if eval_tasks else []
    held = {task.metadata.name: _rows(task) for task in held_tasks}
    held_groups = {_group(t, row, split_by) for t in held_tasks for row in held[t.metadata.name]}
    splits: dict[str, list[dict[str, Any]]] = {TRAIN_SPLIT: [], EVAL_SPLIT: []}
    export = TrainingExport(folder=out, negatives=0, rows={})
    for task in train_tasks:
        for row in _rows(task):
            if _group(task, row, split_by) in held_groups:
                export.held_out += 1
            else:
                splits[TRAIN_SPLIT].append(row)
    for task in held_tasks:
        splits[EVAL_SPLIT].extend(held[task.metadata.name])
    if not splits[TRAIN_SPLIT]:
        raise DataError(f"no training row is left: the evaluation tasks hold the {split_by} of every training row.")
    _keep_rows_with_k_negatives(splits, settings.negatives, export)
    export.tasks = {TRAIN_SPLIT: [t.metadata.name for t in train_tasks], EVAL_SPLIT: [t.metadata.name for t in held_tasks]}
    export.rows = {name: len(rows) for name, rows in splits.items() if rows}
    origins = {t.metadata.name: _negatives_origin(t, source) for t in [*train_tasks, *held_tasks]}
    described = described_as or source.describe()
    _write(out, {n: rows for n, rows in splits.items() if rows}, export, split_by, origins, source, described)
    return export


def _keep_rows_with_k_negatives(splits: dict[str, list[dict[str, Any]]], negatives: int | None, export: TrainingExport) -> None:
    """Set ``export.negatives`` (k) and drop the rows with fewer than k distractors, counting them in ``export``."""
    k = negatives or min(len(row[schema.DISTRACTORS]) for rows in splits.values() for row in rows)
    for name, rows in splits.items():
        kept = [row for row in rows if len(row[schema.DISTRACTORS]) >= k]
        export.too_few += len(rows) - len(kept)
        splits[name] = kept
    if not splits[TRAIN_SPLIT]:
        raise DataError(f"no training row has {k} distractors.")
    export.negatives = k


def _columns(rows: Sequence[Mapping[str, Any]], k: int) -> dict[str, list[str]]:
    columns: dict[str, list[str]] = {
        ANCHOR: [row[schema.SOURCE] for row in rows],
        POSITIVE: [row[schema.TARGET] for row in rows],
    }
    for slot in range(k):
        columns[negative_column(slot + 1)] = [row[schema.DISTRACTORS][slot] for row in rows]
    return columns


def _write(
    out: Path,
    splits: Mapping[str, Sequence[Mapping[str, Any]]],
    export: TrainingExport,
    split_by: str,
    origins: Mapping[str, str],
    source: DataSource,
    described: str,
) -> None:
    """Write into a new folder beside ``out``, then move it into place: a failure leaves no half-written ``out``."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    with staged_folder(out) as partial:  # out is missing or empty, checked before
        (partial / "data").mkdir()
        for name, rows in splits.items():
            pq.write_table(pa.table(_columns(rows, export.negatives)), partial / "data" / f"{name}.parquet")
        (partial / hub.CARD_FILE).write_text(_card(export, split_by, origins, source, described), encoding="utf-8")


def _card(export: TrainingExport, split_by: str, origins: Mapping[str, str], source: DataSource, described: str) -> str:
    k = export.negatives
    columns = [ANCHOR, POSITIVE, *(negative_column(slot + 1) for slot in range(k))]
    licence = _licence(source)
    header: dict[str, Any] = {
        "pretty_name": "CLSD hard negatives for training",
        "license": licence,
        "task_categories": ["sentence-similarity"],
        "tags": ["clsd", "sentence-transformers", "hard-negatives"],
        "configs": [
            {
                "config_name": "default",
                "data_files": [{"split": name, "path": f"data/{name}.parquet"} for name in export.rows],
            }
        ],
        "clsd_training": {
            "source": described,
            "columns": columns,
            "negatives_per_row": k,
            "rows": export.rows,
            "tasks": export.tasks,
            "negatives_from": dict(origins),
            "split_by": split_by,
            "held_out_training_rows": export.held_out,
            "rows_with_too_few_distractors_left_out": export.too_few,
            "reference": PAPER_URL,
        },
    }
    tasks_lines = "\n".join(f"- `{name}`: {origin}" for name, origin in origins.items())
    held = (
        f"The `{EVAL_SPLIT}` split holds the rows of {', '.join(export.tasks[EVAL_SPLIT])}; {export.held_out} rows "
        f"sharing their {split_by} were left out of `{TRAIN_SPLIT}`."
        if export.tasks[EVAL_SPLIT]
        else "There is no evaluation split."
    )
    body = f"""# CLSD hard negatives for training

Rows of CLSD (Cross-Lingual Semantic Discrimination) tasks in the column layout of sentence-transformers'
losses (e.g. `MultipleNegativesRankingLoss`): `anchor` is the source sentence, `positive` its true translation,
`negative_1` ... `negative_{k}` the distractors: sentences that look like the translation but mean something else.
Written by `clsd export-training` (clsd-mteb) from {described}.

## Where the negatives come from

{tasks_lines}

## Rows

{", ".join(f"`{name}`: {count} rows" for name, count in export.rows.items())}; {k} negatives per row, the first {k}
distractors of each row. {export.too_few} rows with fewer than {k} distractors were left out. {held}

## Licence

`{licence}`, inherited from the source data{" (the CLSD release is AGPL-3.0)" if licence == RELEASE_LICENSE else ""}.
Cite Michail, Clematide and Sennrich, Findings of EMNLP 2025 ({PAPER_URL}).
"""
    return hub.render_card(header, body)
