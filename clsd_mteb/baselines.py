"""Two zero-download reference encoders: what chance and surface overlap achieve on a CLSD dataset.

Both implement mteb's encoder protocol (``mteb.models.AbsEncoder``), so ``mteb.evaluate`` files
their results under their own ``ModelMeta`` name like any other model, and every table of the
report can show them beside real models.

* ``clsd-baselines/random``: a Gaussian vector seeded by the SHA-256 of the text. Deterministic
  *per text*: identical strings get identical vectors, so the ties the release holds (the
  English-pivot files collapse some distractors onto the translated original) stay ties and count
  as misses, exactly as for a real model. Expected P@1 with four distinct distractors is 1/5.
* ``clsd-baselines/char-ngram-tf``: a bag of character 2-4-grams (inside word boundaries),
  hashed into a fixed number of buckets with log-scaled counts. Hashing needs no vocabulary, so
  the encoder is never fitted and never sees data other than the text it encodes: each vector
  depends on its own text only (which also keeps it safe behind a per-text embedding cache). It
  carries no IDF weighting for the same reason. Across languages it only matches shared strings
  (names, numbers, cognates), so it is a lower bound for surface overlap, not a translation model.

Why not mteb's own ``mteb/baseline-random-encoder``: it is a multi-modal mock for pipeline tests
(32 dimensions of uniform, all-positive noise, so every cosine sits near 0.75, and a progress bar
per call). Its P@1 would also be chance, but a centred 256-dimensional Gaussian keeps cosines
spread around 0 like a real model's, and the results keep the name every earlier run was filed under.
They live here, with the models, because ``clsd evaluate`` loads them by name like any other model,
and ``import clsd_mteb`` registers both with mteb (``mteb.get_model("clsd-baselines/random")``).
Their ``ModelMeta`` has no release date (they were never released apart from this package), points to
this package for its code, and takes its revision from this file's content, so that a change to the
code files new results under a new revision instead of mixing them with old ones.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from mteb.models import ModelMeta
from mteb.models.model_meta import ScoringFunction

from clsd_format import defaults
from clsd_mteb.encoders.common import ModelSpec, TextBatchEncoder

if TYPE_CHECKING:
    from mteb.abstasks.task_metadata import TaskMetadata
    from mteb.types import PromptType

RANDOM_NAME = defaults.RANDOM_BASELINE
CHAR_NGRAM_NAME = defaults.CHAR_NGRAM_BASELINE
# This module's source, hashed: any change to the code (and so possibly to the vectors) is a new revision.
BASELINE_REVISION = f"sha256-{hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:12]}"
CODE_REFERENCE = "https://pypi.org/project/clsd-mteb/"  # the package that holds this module, clsd_mteb/baselines.py

RANDOM_DIM = 256
CHAR_NGRAM_DIM = 2**12  # dense output: enough buckets to keep collisions rare at sentence length
CHAR_NGRAM_RANGE = (2, 4)


# A weightless model's ModelMeta; the toy model under tests/data writes its own in full, as a package of its own would.
def _meta(name: str, *, embed_dim: int, loader: Any) -> ModelMeta:
    return ModelMeta(
        loader=loader,
        name=name,
        revision=BASELINE_REVISION,
        release_date=None,
        languages=None,  # trained on no language (UNTRAINED, below)
        n_parameters=0,
        n_embedding_parameters=0,
        memory_usage_mb=0,
        max_tokens=None,
        embed_dim=embed_dim,
        license="apache-2.0",
        open_weights=True,
        public_training_code=None,
        public_training_data=None,
        framework=["NumPy"],
        reference=CODE_REFERENCE,
        similarity_fn_name=ScoringFunction("cosine"),
        use_instructions=False,
        training_datasets=set(),
        modalities=["text"],
        citation=None,
        experiment_kwargs=None,
    )


class RandomEncoder(TextBatchEncoder):
    """Chance level: one reproducible Gaussian vector per distinct text."""

    mteb_model_meta: ModelMeta
    batch_invariant = True  # each vector is a function of its own text only

    def __init__(self, dim: int = RANDOM_DIM, **_: Any) -> None:
        self.dim = dim
        self.model = None
        self.mteb_model_meta = RANDOM_META

    def vector(self, text: str) -> np.ndarray:
        seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "little")
        return np.random.default_rng(seed).standard_normal(self.dim).astype(np.float32)

    def encode_batches(
        self, batches: list[list[str]], *, task_metadata: TaskMetadata, prompt_type: PromptType | None
    ) -> np.ndarray:
        return np.stack([self.vector(text) for batch in batches for text in batch])


class CharNgramEncoder(TextBatchEncoder):
    """Surface overlap: hashed, log-scaled character n-gram counts (no fitting, no IDF)."""

    mteb_model_meta: ModelMeta
    batch_invariant = True  # each vector is a function of its own text only

    def __init__(self, dim: int = CHAR_NGRAM_DIM, ngram_range: tuple[int, int] = CHAR_NGRAM_RANGE, **_: Any) -> None:
        from sklearn.feature_extraction.text import HashingVectorizer

        self.dim = dim
        self.model = HashingVectorizer(
            analyzer="char_wb",
            ngram_range=ngram_range,
            n_features=dim,
            lowercase=True,
            alternate_sign=False,
            norm=None,
            dtype=np.float32,
        )
        self.mteb_model_meta = CHAR_NGRAM_META

    def encode_batches(
        self, batches: list[list[str]], *, task_metadata: TaskMetadata, prompt_type: PromptType | None
    ) -> np.ndarray:
        counts = self.model.transform([text for batch in batches for text in batch])
        counts.data = np.log1p(counts.data)  # sublinear tf: a repeated n-gram should not dominate
        dense = counts.toarray()
        # A text without any n-gram (empty after stripping) would be an all-zero vector, which the
        # evaluator rightly refuses; give it one reserved bucket so it is merely dissimilar to all.
        empty = ~dense.any(axis=1)
        dense[empty, 0] = 1.0
        return dense


def load_random(
    model_name: str = RANDOM_NAME, revision: str | None = None, device: str | None = None, **kwargs: Any
) -> RandomEncoder:
    """The loader in its ``ModelMeta`` (mteb's calling convention); ``device`` is ignored."""
    return RandomEncoder(**kwargs)


def load_char_ngram(
    model_name: str = CHAR_NGRAM_NAME, revision: str | None = None, device: str | None = None, **kwargs: Any
) -> CharNgramEncoder:
    """The loader in its ``ModelMeta`` (mteb's calling convention); ``device`` is ignored."""
    return CharNgramEncoder(**kwargs)


RANDOM_META = _meta(RANDOM_NAME, embed_dim=RANDOM_DIM, loader=load_random)
CHAR_NGRAM_META = _meta(CHAR_NGRAM_NAME, embed_dim=CHAR_NGRAM_DIM, loader=load_char_ngram)
# Neither is trained on anything: no language is one they know or lack, so their ModelMeta declares none and no
# task is warned about (a random vector is chance in every language; n-grams match shared strings in any script).
UNTRAINED = "a baseline learns no language: its vectors are the same function of the text in every language"
RANDOM = ModelSpec(name=RANDOM_NAME, meta=lambda: RANDOM_META, no_languages=UNTRAINED)
CHAR_NGRAM = ModelSpec(name=CHAR_NGRAM_NAME, meta=lambda: CHAR_NGRAM_META, no_languages=UNTRAINED)
