"""Embeddings for the analyses that need more than the saved cosines, through the evaluator's own path.

Vectors come from :func:`clsd_mteb.encode_texts` (the function the evaluator encodes with), so a
model sees exactly the input it saw when it was scored. They are cached as ``.npy`` files named by
a hash of model name, revision, task and the texts, so rerunning a report (or reporting on more
models) never encodes the same texts twice.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from clsd_analysis.results import ModelRun
from clsd_format.errors import CLSDError

if TYPE_CHECKING:
    from mteb.abstasks.task_metadata import TaskMetadata
    from mteb.models import EncoderProtocol
    from mteb.types import EncodeKwargs

logger = logging.getLogger(__name__)


class ModelUnavailable(CLSDError):
    """A model in the results cannot be loaded here, so its embeddings cannot be computed; ``model``, its name, for
    the caller that says which of its options map it to a local copy."""

    def __init__(self, message: str, model: str) -> None:
        super().__init__(message)
        self.model = model


def load_encoder(run: ModelRun, model_paths: Mapping[str, str] | None = None) -> tuple[EncoderProtocol, str | None]:
    """The encoder for a model of the results, and a warning when it may not be the revision scored.

    Order: a local path the user maps to the name (``--model NAME=PATH``), then whatever
    ``clsd_mteb.models.load_model`` can load by name: the models this package declares (the embedded
    ones and the baselines, offline), then the Hugging Face cache, or the network where there is one.
    """
    from clsd_mteb import models

    paths = dict(model_paths or {})
    warning = None
    if run.name in paths:
        encoder = models.load_embedding_model(paths[run.name])
        warning = (
            f"{run.name}: embeddings from the local folder {paths[run.name]}; results were filed under revision {run.revision}."
        )
        return encoder, warning
    try:
        encoder = models.load_embedding_model(run.name)
    except CLSDError as exc:
        raise ModelUnavailable(f"cannot load {run.name} to compute its embeddings ({exc}).", run.name) from exc
    revision = getattr(getattr(encoder, "mteb_model_meta", None), "revision", None)
    if revision is not None and revision != run.revision:
        warning = f"{run.name}: loaded revision {revision} but results are filed under revision {run.revision}."
    return encoder, warning


class EmbeddingStore:
    """Unit-length embeddings per (model run, task, texts), cached on disk; models loaded once, on demand."""

    def __init__(self, cache_dir: Path | None, model_paths: Mapping[str, str] | None = None, batch_size: int = 32) -> None:
        self.cache_dir = cache_dir
        self.model_paths = dict(model_paths or {})
        self.batch_size = batch_size
        self._encoders: dict[ModelRun, Any] = {}
        self.warnings: list[str] = []
        self.texts_encoded = 0

    def _encoder(self, run: ModelRun) -> Any:
        if run not in self._encoders:
            encoder, warning = load_encoder(run, self.model_paths)
            if warning:
                self.warnings.append(warning)
            self._encoders[run] = encoder
        return self._encoders[run]

    @staticmethod
    def key(run: ModelRun, task_name: str, texts: Sequence[str]) -> str:
        digest = hashlib.sha256()
        for part in (run.name, run.revision, task_name, *texts):
            digest.update(part.encode("utf-8"))
            digest.update(b"\x00")
        return digest.hexdigest()[:32]

    def embed(self, run: ModelRun, task_metadata: TaskMetadata, texts: Sequence[str]) -> np.ndarray:
        """(len(texts), dim) unit vectors, in the order of ``texts`` (duplicates allowed)."""
        from clsd_mteb import encode_texts

        unique = list(dict.fromkeys(texts))
        position = {text: i for i, text in enumerate(unique)}
        path = None
        if self.cache_dir is not None:
            path = self.cache_dir / f"{run.name.replace('/', '__')}-{self.key(run, task_metadata.name, unique)}.npy"
            if path.is_file():
                vectors = np.load(path)
                if vectors.shape[0] == len(unique):
                    return vectors[[position[t] for t in texts]]
        encode_kwargs: EncodeKwargs = {"batch_size": self.batch_size}
        vectors = encode_texts(self._encoder(run), unique, task_metadata=task_metadata, encode_kwargs=encode_kwargs)
        self.texts_encoded += len(unique)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(path.stem + ".partial.npy")
            np.save(tmp, vectors)
            tmp.replace(path)
        return vectors[[position[t] for t in texts]]
