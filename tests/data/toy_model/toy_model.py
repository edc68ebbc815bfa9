"""A toy embedded model from a package of its own: a text's vector is how often each letter occurs in it.

It is added the way a third-party package adds a model: this module defines ``MODEL`` (a
:class:`clsd_mteb.encoders.common.ModelSpec`) and the package declares one entry point in the group
``clsd_mteb.models`` (here ``toy_model-0.1.dist-info/entry_points.txt``); no file of clsd-mteb changes.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from mteb.models import ModelMeta
from mteb.models.model_meta import ScoringFunction

from clsd_mteb.encoders.common import ModelSpec, TextBatchEncoder

NAME = "toy-models/letter-counts"
DIM = 64  # code points folded into 64 buckets: every script has letters in them


class LetterCounts(TextBatchEncoder):
    """Counts of each letter's code point modulo :data:`DIM`, plus one for a text without letters."""

    batch_invariant = True

    def __init__(self, **_: Any) -> None:
        self.mteb_model_meta = MODEL.meta()

    def encode_batches(self, batches: list[list[str]], **_: Any) -> np.ndarray:
        texts = [text for batch in batches for text in batch]
        vectors = np.zeros((len(texts), DIM), dtype=np.float32)
        for row, text in enumerate(texts):
            for char in text.casefold():
                vectors[row, ord(char) % DIM] += char.isalpha()
            vectors[row, 0] += 1.0  # never an all-zero vector, which the evaluator refuses
        return vectors


def load(model_name: str = NAME, revision: str | None = None, **kwargs: Any) -> LetterCounts:
    """The loader in its ``ModelMeta`` (mteb's calling convention)."""
    return LetterCounts(**kwargs)


# Written out in full like clsd_mteb.baselines' metas: an outside package declares its model with mteb's ModelMeta alone.
def _meta() -> ModelMeta:
    return ModelMeta(
        loader=load,
        name=NAME,
        revision="1",
        release_date=None,
        languages=None,
        n_parameters=0,
        n_embedding_parameters=0,
        memory_usage_mb=0,
        max_tokens=None,
        embed_dim=DIM,
        license="apache-2.0",
        open_weights=True,
        public_training_code=None,
        public_training_data=None,
        framework=["NumPy"],
        reference=None,
        similarity_fn_name=ScoringFunction("cosine"),
        use_instructions=False,
        training_datasets=set(),
        modalities=["text"],
        citation=None,
        experiment_kwargs=None,
    )


MODEL = ModelSpec(name=NAME, meta=_meta, no_languages="a toy: letter counts are the same function of the text in every language")
