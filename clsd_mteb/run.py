"""One evaluation run the way ``clsd evaluate`` does it (the benchmark times exactly this)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from clsd_mteb.embedding_cache import SharedEmbeddingCache

if TYPE_CHECKING:
    from mteb.abstasks.abstask import AbsTask
    from mteb.models import EncoderProtocol
    from mteb.results import ModelResult

DEFAULT_BATCH_SIZE = 32


def prediction_folder(output: Path, encoder: EncoderProtocol) -> Path:
    """Where a run's per-row predictions go: ``<output>/predictions/<model>/<revision>/``."""
    meta = encoder.mteb_model_meta
    return Path(output) / "predictions" / meta.model_name_as_path() / str(meta.revision)


def evaluate_tasks(
    encoder: EncoderProtocol,
    tasks: list[AbsTask],
    output: Path,
    *,
    batch_size: int = DEFAULT_BATCH_SIZE,
    overwrite: bool = False,
    show_progress_bar: bool = True,
) -> ModelResult:
    """Run ``mteb.evaluate`` over all tasks with one shared embedding cache.

    Results land in mteb's layout under ``output/results`` (existing ones are reused unless
    ``overwrite``), predictions under :func:`prediction_folder`.
    """
    import mteb

    return mteb.evaluate(
        SharedEmbeddingCache(encoder),
        tasks,
        cache=mteb.ResultCache(output),
        overwrite_strategy="always" if overwrite else "only-missing",
        prediction_folder=prediction_folder(output, encoder),
        encode_kwargs={"batch_size": batch_size},
        show_progress_bar=show_progress_bar,
    )
