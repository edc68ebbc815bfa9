"""``clsd export-training``: CLSD rows as a sentence-transformers training set with hard negatives.

Only typer and the light ``clsd_format`` are imported at module level; ``datasets`` and mteb load
inside the command (see ``tests/test_cli_startup.py``).
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from clsd_format.release import RELEASED_TASKS

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
    typer.Argument(metavar="DATA", help="The release CSVs, a Hub-format export of them, or a generated CLSD dataset folder."),
]
OutArgument = Annotated[Path, typer.Argument(metavar="OUT", help="New (or empty) folder to write the training dataset into.")]
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


@app.command("export-training")
def export_training_command(
    data: DataArgument,
    out: OutArgument,
    tasks: TasksOption = None,
    eval_tasks: EvalTasksOption = None,
    split_by: SplitByOption = SplitBy.corpus,
    negatives: NegativesOption = None,
) -> None:
    """Write CLSD rows as training data with hard negatives.

    Columns anchor, positive, negative_1 ... negative_k, as sentence-transformers' losses take them (e.g.
    MultipleNegativesRankingLoss): the source sentence, its translation and its distractors, in parquet files with a
    dataset card. The card says where the negatives come from and the licence they inherit (the release: AGPL-3.0).
    An existing non-empty OUT is never overwritten.
    """
    from clsd_mteb.training_export import export_training

    export = export_training(
        data,
        out,
        tasks=_names(tasks),
        eval_tasks=_names(eval_tasks) or (),
        split_by=split_by.value,
        negatives=negatives,
    )
    rows = ", ".join(f"{split}: {count} rows" for split, count in export.rows.items())
    typer.echo(f"Wrote {export.folder} ({rows}; {export.negatives} negatives per row)")
    if export.held_out:
        typer.echo(f"  {export.held_out} training rows held out: their {split_by.value} is in the eval split")
    if export.too_few:
        typer.echo(f"  {export.too_few} rows left out with fewer than {export.negatives} distractors")
