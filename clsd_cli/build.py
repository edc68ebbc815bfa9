"""``clsd build``: a generation run to a Hub-format dataset, its card measured by the plugin.

The command lives here rather than with the generator's other commands because the card's difficulty is
scored with the plugin's models (:mod:`clsd_mteb.difficulty_scores`) and the Hub's ``eval.yaml`` is written with the
plugin's tasks (:mod:`clsd_mteb.publishing.hub_eval`), and the generator does not import the plugin.
"""

from __future__ import annotations

import typer

from clsd_cli.declared import declared_command
from clsd_generation.run.options import BuildOptions

app = typer.Typer()


@declared_command(app)
def build(options: BuildOptions) -> None:
    """Write a run's dataset with its card, ready to evaluate.

    Both directions, plus the pivot configs when the run was translated (unless most translations are refused);
    then `clsd evaluate --data-dir OUT`.
    The card reports how hard the set is: P@1 of the character n-gram baseline and of the default model, beside
    their P@1 on the release. Beside it, eval.yaml declares the tasks for the Hub's leaderboards (mteb's format).
    """
    from clsd_generation.dataset.builder import DatasetDescription, build_dataset
    from clsd_mteb.difficulty_scores import difficulty_of
    from clsd_mteb.publishing.hub_eval import write_eval_config

    dates = (options.date_from, options.date_to) if options.date_from and options.date_to else None
    description = DatasetDescription(
        name=options.name,
        license=options.license,
        domains=options.domain,
        date=dates,
        reference=options.reference,
        source_datasets=options.source_dataset,
    )
    summary = build_dataset(
        options.run_dir,
        options.out,
        description,
        allow_incomplete=options.allow_incomplete,
        drop_invalid=options.drop_invalid,
        scorer=None if options.no_score else difficulty_of,
        add_files=write_eval_config,
        keep_refused_translations=options.keep_refused_translations,
    )
    for config, rows in summary.rows.items():
        typer.echo(f"{config}: {rows} rows")
    if summary.pivot_not_built:
        typer.echo(f"pivot configs not built: {summary.pivot_not_built} (--keep-refused-translations builds them)")
    typer.echo(f"written: {summary.folder}\nnext: clsd evaluate --data-dir {summary.folder}")
