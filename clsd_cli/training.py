"""``clsd export-training``: CLSD rows as a sentence-transformers training set with hard negatives.

Only typer and the light ``clsd_format`` are imported at module level; ``datasets`` and mteb load
inside the command (see ``tests/cli/test_cli_startup.py``).
"""

from __future__ import annotations

import functools
import tempfile
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from clsd_cli.folder_arguments import out_argument
from clsd_format.declared_settings import option_name
from clsd_format.extras import require_extra
from clsd_format.folders import folder_callback
from clsd_format.release import RELEASED_TASKS
from clsd_generation.run.settings import RunChoices

if TYPE_CHECKING:
    from clsd_mteb.publishing.training_export import TrainingExport

app = typer.Typer(add_completion=False)

_DIRECT = ", ".join(task.name for task in RELEASED_TASKS if not task.pivot)


class SplitBy(str, Enum):
    """What the evaluation side keeps out of training."""

    corpus = "corpus"
    id = "id"


def _names(values: list[str] | None) -> list[str] | None:
    if not values:
        return None
    return [name.strip() for value in values for name in value.split(",") if name.strip()]


DataArgument = Annotated[
    Path,
    typer.Argument(
        metavar="DATA",
        callback=folder_callback("data folder"),
        help="The release CSVs, a Hub-format export of them, a generated CLSD dataset folder, or a clsd generate "
        f"run folder ({option_name(RunChoices, 'run_dir')}; built as clsd build would, then exported).",
    ),
]
OutArgument = Annotated[Path, out_argument("New (or empty) folder to write the training dataset into.")]
TasksOption = Annotated[
    list[str] | None,
    typer.Option(
        "--tasks",
        "-t",
        metavar="NAME[,NAME...]",
        help=f"Tasks whose rows go into the train split. Default: the release's direct tasks ({_DIRECT}), "
        "or every task of a generated dataset.",
    ),
]
EvalTasksOption = Annotated[
    list[str] | None,
    typer.Option(
        "--eval-tasks",
        metavar="NAME[,NAME...]",
        help="Tasks whose rows form an eval split, held out of training (see --split-by). Default: none.",
    ),
]
SplitByOption = Annotated[
    SplitBy,
    typer.Option(
        "--split-by",
        help="corpus: no training row from a corpus the eval split draws on (WMT19, WMT21; a generated dataset is one "
        "corpus); id: no training row of a sentence pair the eval split holds.",
    ),
]
NegativesOption = Annotated[
    int | None,
    typer.Option(
        "--negatives",
        "-k",
        min=1,
        metavar="K",
        help="Negatives per row; rows with fewer distractors are left out. Default: the fewest any row has.",
    ),
]
NameOption = Annotated[
    str,
    typer.Option(
        "--name",
        metavar="NAME",
        help="For a generation run: the dataset name its tasks get, as in clsd build (CLSD-<NAME>-DE-FR, ...).",
    ),
]
RUN_NAME = "RUN"


def _is_generation_run(folder: Path) -> bool:
    from clsd_generation.core.checkpoint import CHECKPOINT_FILE

    return (folder / CHECKPOINT_FILE).is_file()


def _export_generation_run(run_dir: Path, name: str, export: Callable[..., TrainingExport]) -> TrainingExport:
    """Build the run's dataset as ``clsd build`` would, into a temporary folder, and ``export`` that."""
    require_extra("generate", "`clsd export-training` from a generation run")
    from clsd_generation.dataset.builder import DatasetDescription, build_dataset

    with tempfile.TemporaryDirectory(prefix="clsd-export-training-") as tmp:
        built = build_dataset(run_dir, Path(tmp) / "dataset", DatasetDescription(name)).folder
        return export(built, described_as=f"the generation run {run_dir}")


@app.command("export-training")
def export_training_command(
    data: DataArgument,
    out: OutArgument,
    tasks: TasksOption = None,
    eval_tasks: EvalTasksOption = None,
    split_by: SplitByOption = SplitBy.corpus,
    negatives: NegativesOption = None,
    name: NameOption = RUN_NAME,
) -> None:
    """Write CLSD rows as training data with hard negatives.

    Columns anchor, positive, negative_1 ... negative_k, as sentence-transformers' losses take them (e.g.
    MultipleNegativesRankingLoss): the source sentence, its translation and its distractors, in parquet files with a
    dataset card. The card says where the negatives come from and the licence they inherit (the release: AGPL-3.0).
    A generation run folder is read as clsd build would read it (every sentence finished). An existing non-empty
    OUT is never overwritten.
    """
    from clsd_mteb.publishing.training_export import export_training

    to_out = functools.partial(
        export_training,
        out=out,
        tasks=_names(tasks),
        eval_tasks=_names(eval_tasks) or (),
        split_by=split_by.value,
        negatives=negatives,
    )
    export = _export_generation_run(data, name, to_out) if _is_generation_run(data) else to_out(data)
    rows = ", ".join(f"{split}: {count} rows" for split, count in export.rows.items())
    typer.echo(f"Wrote {export.folder} ({rows}; {export.negatives} negatives per row)")
    if export.held_out:
        typer.echo(f"  {export.held_out} training rows held out: their {split_by.value} is in the eval split")
    if export.too_few:
        typer.echo(f"  {export.too_few} rows left out with fewer than {export.negatives} distractors")
