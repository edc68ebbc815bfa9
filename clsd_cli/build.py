"""``clsd build``: a generation run to a Hub-format dataset, its card measured by the plugin.

The command lives here rather than with the generator's other commands because the card's difficulty is
scored with the plugin's models (:mod:`clsd_mteb.difficulty_scores`) and the Hub's ``eval.yaml`` is written with the
plugin's tasks (:mod:`clsd_mteb.publishing.hub_eval`), and the generator does not import the plugin.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from clsd_cli.generation_options import RunDir
from clsd_format.errors import CLSDError
from clsd_format.folders import folder_callback

app = typer.Typer()


OutOption = Annotated[
    Path,
    typer.Option(
        callback=folder_callback("folder to write into", may_be_missing=True),
        help="New folder for the Hub-format dataset (must not exist or be empty).",
    ),
]
KeepRefusedOption = Annotated[
    bool,
    typer.Option(
        "--keep-refused-translations",
        help="Build the pivot configs from every non-empty translation, also those refused as not translating their "
        "source (the card says so).",
    ),
]


@app.command()
def build(
    run_dir: RunDir,
    out: OutOption,
    name: Annotated[str, typer.Option(help="Dataset name used in task names: CLSD-<NAME>-DE-FR.")],
    license: Annotated[
        str | None, typer.Option(help="Licence of the dataset, a Hub licence id (cc-by-4.0, ...); default: not specified.")
    ] = None,
    domain: Annotated[list[str] | None, typer.Option(help="mteb domain of the texts (News, Legal, ...); repeatable.")] = None,
    date_from: Annotated[str | None, typer.Option(help="Earliest date of the texts (ISO); default: generation dates.")] = None,
    date_to: Annotated[str | None, typer.Option(help="Latest date of the texts (ISO).")] = None,
    reference: Annotated[str | None, typer.Option(help="URL describing the corpus.")] = None,
    source_dataset: Annotated[
        list[str] | None, typer.Option(help="Hub id of the corpus (owner/name), for the card; repeatable.")
    ] = None,
    allow_incomplete: Annotated[
        bool, typer.Option("--allow-incomplete", help="Build although some sentences are unfinished.")
    ] = False,
    drop_invalid: Annotated[
        bool,
        typer.Option(
            "--drop-invalid",
            help="Leave out every sentence with a distractor `clsd judge` found invalid (the card counts them; unjudged ones stay).",
        ),
    ] = False,
    no_score: Annotated[
        bool,
        typer.Option("--no-score", help="Do not score the set for the card (character n-gram baseline and default model)."),
    ] = False,
    keep_refused_translations: KeepRefusedOption = False,
) -> None:
    """Write a run's dataset with its card, ready to evaluate.

    Both directions, plus the pivot configs when the run was translated (unless most translations are refused);
    then `clsd evaluate --data-dir OUT`.
    The card reports how hard the set is: P@1 of the character n-gram baseline and of the default model, beside
    their P@1 on the release. Beside it, eval.yaml declares the tasks for the Hub's leaderboards (mteb's format).
    """
    from clsd_generation.dataset.builder import DatasetDescription, build_dataset
    from clsd_mteb.difficulty_scores import difficulty_of
    from clsd_mteb.publishing.hub_eval import write_eval_config

    if (date_from is None) != (date_to is None):
        raise CLSDError("give both --date-from and --date-to, or neither.")
    dates = (date_from, date_to) if date_from and date_to else None
    description = DatasetDescription(name, license, tuple(domain or ()), dates, reference, tuple(source_dataset or ()))
    summary = build_dataset(
        run_dir,
        out,
        description,
        allow_incomplete=allow_incomplete,
        drop_invalid=drop_invalid,
        scorer=None if no_score else difficulty_of,
        add_files=write_eval_config,
        keep_refused_translations=keep_refused_translations,
    )
    for config, rows in summary.rows.items():
        typer.echo(f"{config}: {rows} rows")
    if summary.pivot_not_built:
        typer.echo(f"pivot configs not built: {summary.pivot_not_built} (--keep-refused-translations builds them)")
    typer.echo(f"written: {summary.folder}\nnext: clsd evaluate --data-dir {summary.folder}")
