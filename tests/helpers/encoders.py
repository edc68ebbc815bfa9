"""Small mteb encoders with known outputs, for checking the evaluator's arithmetic and plumbing."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import numpy as np
from mteb.models import ModelMeta


class OpaqueVectorEncoder:
    """Returns ``vector_of(text)`` for every text and records every text (and prompt type) it was asked for.

    Exposes no prompt configuration, like a custom encoder written outside mteb.
    """

    def __init__(self, vector_of: Callable[[str], np.ndarray], name: str = "tests/vector-encoder") -> None:
        self.vector_of = vector_of
        self.seen: list[str] = []
        self.prompt_types: list[Any] = []
        self.mteb_model_meta = ModelMeta.create_empty(overwrites={"name": name, "revision": "1"})

    def encode(self, inputs, *, task_metadata, hf_split, hf_subset, prompt_type=None, **kwargs) -> np.ndarray:
        texts = [text for batch in inputs for text in batch["text"]]
        self.seen.extend(texts)
        self.prompt_types.append(prompt_type)
        return np.stack([self.vector_of(text) for text in texts])

    def similarity(self, a, b):
        a, b = np.asarray(a), np.asarray(b)
        return (a / np.linalg.norm(a, axis=1, keepdims=True)) @ (b / np.linalg.norm(b, axis=1, keepdims=True)).T

    def similarity_pairwise(self, a, b):
        a, b = np.asarray(a), np.asarray(b)
        return np.sum(a * b, axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))


def hashed_vector(text: str, dim: int = 16) -> np.ndarray:
    """Deterministic pseudo-random vector per text: identical texts get identical vectors."""
    seed = int(hashlib.sha256(text.encode("utf-8")).hexdigest()[:16], 16)
    return np.random.default_rng(seed).normal(size=dim)


class VectorEncoder(OpaqueVectorEncoder):
    """The same, exposing its (empty) prompt configuration the way mteb's AbsEncoder does."""

    model_prompts: dict[str, str] | None = None

    def get_prompt_name(self, task_metadata, prompt_type) -> str | None:
        return None


class CosineCrossEncoder:
    """A cross-encoder (mteb's ``predict``) whose score for (S, c) is the cosine of a bi-encoder's vectors.

    Each text is encoded alone by the project's encoding path (exact mode), so its vector is the one
    the bi-encoder's own evaluation gets; the identity check compares the two evaluations row by row.
    Records the batch sizes it was handed.
    """

    def __init__(self, encoder: Any, name: str = "tests/cosine-cross-encoder") -> None:
        self.encoder = encoder
        self.batch_sizes: list[int] = []
        self.query_column: list[bool] = []  # whether each batch of sources carried mteb's "query" column too
        self.mteb_model_meta = ModelMeta.create_empty(overwrites={"name": name, "revision": "1"})
        self._unit: dict[str, np.ndarray] = {}  # each text encoded once (alone, so its vector never depends on the call)

    def predict(self, inputs1, inputs2, *, task_metadata, hf_split, hf_subset, prompt_type=None, **kwargs) -> np.ndarray:
        from clsd_mteb.encoding import encode_texts

        queries, documents = [], []
        for first, second in zip(inputs1, inputs2, strict=True):
            self.batch_sizes.append(len(first["text"]))
            self.query_column.append(list(first.get("query", [])) == list(first["text"]))
            queries.extend(first["text"])
            documents.extend(second["text"])
        new = sorted({*queries, *documents} - self._unit.keys())
        if new:
            self._unit.update(zip(new, encode_texts(self.encoder, new, task_metadata=task_metadata, exact=True), strict=True))
        unit = self._unit
        return np.array([np.clip(unit[q] @ unit[d], -1.0, 1.0) for q, d in zip(queries, documents, strict=True)])
