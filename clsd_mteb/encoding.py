"""How texts reach the model: the one encoding path of the evaluator and the analyses.

**Batches as the user asks, exactness on request.** By default texts are encoded in the batches the
caller asks for (mteb's ``encode_kwargs={"batch_size": ...}``, ``clsd evaluate --batch-size``), on
whatever threads and device the caller's torch uses: nothing here changes them. Texts go longest
first, so each batch pads to similar lengths. An encoder's output for a text can depend, in the last
bits, on the other texts of its batch (padding, and matrix kernels chosen by batch shape), so two batch
sizes can disagree on a row whose distractor and T are that close. ``exact=True`` (``clsd evaluate
--exact``) encodes each text in a batch of its own, which makes every vector a function of its text
alone and every score independent of the batch size, at the price of speed. An encoder whose vectors
never depend on the batch declares ``batch_invariant = True`` and gets the requested batches in both
modes. Every score records the mode and the batch size (:func:`encoding_record`).

Every text gets the ``query`` prompt type: source, target and distractors play symmetric roles, so a
model with asymmetric prompts (e5's ``query: `` / ``passage: ``) sees the same prompt on every
sentence, as in the paper.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from clsd_format import defaults, schema
from clsd_format.errors import EmbeddingError
from clsd_mteb.metrics import unit_rows

if TYPE_CHECKING:
    from mteb.abstasks.task_metadata import TaskMetadata
    from mteb.models import EncoderProtocol
    from mteb.types import EncodeKwargs

# How the vectors were made, stored beside every score (numbers, as mteb's score entries hold):
EXACT_KEY = "clsd_exact"  # 1: one text per batch (exact mode), 0: the requested batches
BATCH_SIZE_KEY = "clsd_batch_size"  # the batch size asked for


def encodes_one_by_one(model: Any, exact: bool) -> bool:
    """Whether texts go to the model one per batch: exact mode, for a model that does not declare itself batch-invariant."""
    return exact and not getattr(model, "batch_invariant", False)


def requested_batch_size(encode_kwargs: EncodeKwargs | dict[str, Any] | None) -> int:
    """The batch size the caller asked for in mteb's ``encode_kwargs``, else mteb's default."""
    return int((encode_kwargs or {}).get("batch_size") or defaults.BATCH_SIZE)


def encoding_record(exact: bool, encode_kwargs: EncodeKwargs | dict[str, Any] | None) -> dict[str, int]:
    """What a stored score says about how its vectors were made; a stored result is reused only when it matches."""
    return {EXACT_KEY: int(exact), BATCH_SIZE_KEY: requested_batch_size(encode_kwargs)}


def raw_embeddings(
    model: EncoderProtocol,
    texts: Sequence[str],
    *,
    task_metadata: TaskMetadata,
    hf_split: str,
    hf_subset: str,
    encode_kwargs: EncodeKwargs | None,
    num_proc: int | None,
    exact: bool,
) -> np.ndarray:
    """(len(texts), dim) float64 vectors as the model returns them, in the order of ``texts``."""
    from datasets import Dataset
    from mteb.types import PromptType
    from torch.utils.data import DataLoader

    kwargs: dict[str, Any] = {**(encode_kwargs or {}), "batch_size": requested_batch_size(encode_kwargs)}
    if encodes_one_by_one(model, exact):
        # one text per batch: what a text's vector is must not depend on the other texts of its batch
        kwargs["batch_size"] = 1
    # Longest first (ties by text, so the order depends on nothing but the texts): an encoder that
    # takes the loader batch by batch then pads each batch to similar lengths.
    order = sorted(range(len(texts)), key=lambda i: (-len(texts[i]), texts[i]))
    # Plain text batches ({"text": [...]}), the loader mteb's create_dataloader builds for a text
    # column; the prompt type reaches the model through encode(), where encoders apply prompts.
    loader = DataLoader(
        Dataset.from_dict({"text": [texts[i] for i in order]}),
        batch_size=kwargs["batch_size"],
        num_workers=num_proc if num_proc is not None and num_proc > 1 else 0,
    )
    embeddings = model.encode(
        loader,
        task_metadata=task_metadata,
        hf_split=hf_split,
        hf_subset=hf_subset,
        prompt_type=PromptType.query,
        **kwargs,
    )
    sorted_embeddings = np.asarray(to_numpy(embeddings), dtype=np.float64)
    if sorted_embeddings.ndim != 2 or sorted_embeddings.shape[0] != len(texts):
        raise EmbeddingError(f"{task_metadata.name}: model returned shape {sorted_embeddings.shape} for {len(texts)} texts")
    result = np.empty_like(sorted_embeddings)
    result[order] = sorted_embeddings
    return result


def encode_texts(
    model: EncoderProtocol,
    texts: Sequence[str],
    *,
    task_metadata: TaskMetadata,
    hf_split: str = schema.HUB_SPLIT,
    hf_subset: str = "default",
    encode_kwargs: EncodeKwargs | None = None,
    num_proc: int | None = None,
    exact: bool = False,
) -> np.ndarray:
    """Unit-length embeddings of ``texts`` (distinct), all encoded with the ``query`` prompt type.

    The one encoding path of the project: the evaluator and the analyses both use it, so a model
    sees exactly the same input in both. ``exact``: one text per batch (module docstring).
    Raises :class:`EmbeddingError` on NaN, inf or zero vectors.
    """
    raw = raw_embeddings(
        model,
        texts,
        task_metadata=task_metadata,
        hf_split=hf_split,
        hf_subset=hf_subset,
        encode_kwargs=encode_kwargs,
        num_proc=num_proc,
        exact=exact,
    )
    return unit_rows(raw, texts, f"{task_metadata.name} ({hf_subset}/{hf_split})")


def to_numpy(embeddings: Any) -> np.ndarray:
    """An encoder's output as a numpy array: a torch tensor (any device or dtype) becomes float32 on the CPU."""
    if hasattr(embeddings, "detach"):  # torch tensor, without importing torch here
        embeddings = embeddings.detach().float().cpu().numpy()
    return np.asarray(embeddings)
