"""An in-memory embedding cache shared across tasks, so a multi-task run encodes each text once.

Both directions of a dataset contain the same originals (S of one direction is T of the other),
so the eight tasks share many texts. mteb's own ``CachedEmbeddingWrapper`` keys its cache per
task; this wrapper keys by what actually determines an embedding: the text and the prompt the
model applies to it. It works out that prompt the way mteb's encoders do (prompt name from
``model_prompts``, instruction from ``get_task_instruction``); for a model that exposes neither it
falls back to the task name, so sharing is only ever skipped, never wrong.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from clsd_mteb.encoding import to_numpy

if TYPE_CHECKING:
    from mteb.abstasks.task_metadata import TaskMetadata
    from mteb.models import EncoderProtocol, ModelMeta
    from mteb.types import Array, PromptType


class SharedEmbeddingCache:
    """Wrap an mteb encoder; ``encode`` returns cached vectors and sends only unseen texts to the model."""

    def __init__(self, model: EncoderProtocol) -> None:
        self._model = model
        self._vectors: dict[tuple[Any, str], np.ndarray] = {}
        self.texts_encoded = 0  # how many texts actually reached the model (benchmarks and tests read it)

    @property
    def mteb_model_meta(self) -> ModelMeta:
        return self._model.mteb_model_meta

    @property
    def model(self) -> EncoderProtocol:
        return self._model

    def __getattr__(self, name: str) -> Any:  # similarity(), model_prompts, ... of the wrapped model
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._model, name)

    def _prompt_key(self, task_metadata: TaskMetadata, prompt_type: PromptType | None) -> tuple[Any, ...]:
        model = self._model
        known = False
        key: list[Any] = [getattr(prompt_type, "value", prompt_type)]
        if hasattr(model, "get_prompt_name") and hasattr(model, "model_prompts"):
            name = model.get_prompt_name(task_metadata, prompt_type)
            key.append((model.model_prompts or {}).get(name) if name else None)
            known = True
        if getattr(model, "instruction_template", None) and hasattr(model, "get_task_instruction"):
            key.append(model.get_task_instruction(task_metadata, prompt_type))
        elif not known:
            key.append(task_metadata.name)
        return tuple(key)

    def encode(
        self,
        inputs: Any,
        *,
        task_metadata: TaskMetadata,
        hf_split: str,
        hf_subset: str,
        prompt_type: PromptType | None = None,
        **kwargs: Any,
    ) -> Array:
        from torch.utils.data import DataLoader

        prompt_key = self._prompt_key(task_metadata, prompt_type)
        dataset = inputs.dataset
        texts: list[str] = list(dataset["text"])
        missing = [i for i, text in enumerate(texts) if (prompt_key, text) not in self._vectors]
        if missing:
            # the same batches as the caller built, restricted to the unseen texts
            loader = (
                inputs
                if len(missing) == len(texts)
                else DataLoader(dataset.select(missing), batch_size=inputs.batch_size, collate_fn=inputs.collate_fn)
            )
            fresh = self._model.encode(
                loader,
                task_metadata=task_metadata,
                hf_split=hf_split,
                hf_subset=hf_subset,
                prompt_type=prompt_type,
                **kwargs,
            )
            fresh = to_numpy(fresh)
            if fresh.shape[0] != len(missing):
                raise ValueError(f"model returned {fresh.shape[0]} vectors for {len(missing)} texts")
            self.texts_encoded += len(missing)
            for i, vector in zip(missing, fresh, strict=True):
                self._vectors[(prompt_key, texts[i])] = vector
        return np.stack([self._vectors[(prompt_key, text)] for text in texts])
