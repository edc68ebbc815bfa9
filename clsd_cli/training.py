"""``clsd export-training``: CLSD rows as a sentence-transformers training set with hard negatives.

Its options are the declared fields of where the rows come from
(:class:`clsd_generation.dataset.training_source.TrainingSource`) and of what the export is asked
(:class:`clsd_format.publishing_settings.TrainingExportSettings`, the object
:func:`clsd_mteb.publishing.training_export.export_training` takes). Only typer and those light declarations are
imported at module level; ``datasets`` and mteb load inside the command (see ``tests/cli/test_cli_startup.py``).
"""

from __future__ import annotations

import typer

from clsd_cli.declared import declared_command
from clsd_format.extras import require_extra
from clsd_format.publishing_settings import TrainingExportSettings
from clsd_generation.dataset.training_source import TrainingSource

app = typer.Typer(add_completion=False)


@declared_command(app, name="export-training")
def export_training_command(source: TrainingSource, settings: TrainingExportSettings) -> None:
    """Write CLSD rows as training data with hard negatives.

    Columns anchor, positive, negative_1 ... negative_k, as sentence-transformers' losses take them (e.g.
    MultipleNegativesRankingLoss): the source sentence, its translation and its distractors, in parquet files with a
    dataset card. The card says where the negatives come from and the licence they inherit (the release: AGPL-3.0).
    A generation run folder is read as clsd build would read it (every sentence finished). An existing non-empty
    OUT is never overwritten.
    """
    if source.is_generation_run():
        require_extra("generate", "`clsd export-training` from a generation run")
    from clsd_mteb.publishing.training_export import export_training

    with source.dataset() as (folder, described_as):
        export = export_training(folder, settings, described_as=described_as)
    rows = ", ".join(f"{split}: {count} rows" for split, count in export.rows.items())
    typer.echo(f"Wrote {export.folder} ({rows}; {export.negatives} negatives per row)")
    if export.held_out:
        typer.echo(f"  {export.held_out} training rows held out: their {settings.split_by} is in the eval split")
    if export.too_few:
        typer.echo(f"  {export.too_few} rows left out with fewer than {export.negatives} distractors")
