"""A served reranker (TEI, Infinity, vLLM, llama.cpp's server, Cohere, Jina) as an mteb cross-encoder.

The common rerank API: ``POST {base_url}/rerank`` with the JSON body
``{"model": MODEL, "query": S, "documents": [c1, c2, ...]}``, answered by relevance scores by
index, either ``{"results": [{"index": i, "relevance_score": x}, ...]}`` (vLLM, llama.cpp, Cohere,
Jina, Infinity) or a bare list ``[{"index": i, "score": x}, ...]`` (TEI). Those fields are the
only ones read; results may come in any order (most servers sort them by score) and are put back
by index. Nothing else is sent: no ``top_n`` (every server returns all documents without it), no
truncation on the client.

mteb's ``predict`` hands the pairs in loader batches; within a batch, the pairs of one source
sentence become one request (the evaluator sends pairs sorted, so they are adjacent), and up to
``concurrency`` requests are in flight at once. Requests go through the official ``openai``
client's generic ``post``, so retries with back-off, timeouts, the ``Authorization: Bearer`` key
and error types are those of the embeddings endpoint (:mod:`clsd_mteb.encoders.openai_endpoint`),
and so is the one-line, redacted CLSDError for every failure.
"""

from __future__ import annotations

import hashlib
import math
import os
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from itertools import groupby
from typing import TYPE_CHECKING, Any

import numpy as np
from mteb.models import ModelMeta

from clsd_format import defaults
from clsd_format.errors import CLSDError
from clsd_format.redaction import public_url, register_secret
from clsd_mteb.encoders.openai_endpoint import _one_line

if TYPE_CHECKING:
    from mteb.abstasks.task_metadata import TaskMetadata
    from mteb.types import BatchedInput, PromptType
    from torch.utils.data import DataLoader

SPEC_PREFIX = "rerank:"
PROBE_QUERY = "rerank probe"


@dataclass(frozen=True)
class RerankConfig:
    """Where the rerank server is and how to talk to it (the embeddings endpoint's settings)."""

    base_url: str  # e.g. http://127.0.0.1:8080 (requests go to {base_url}/rerank)
    model: str  # the model name the server serves
    key_env: str = defaults.ENDPOINT_KEY_ENV
    concurrency: int = defaults.ENDPOINT_CONCURRENCY
    max_retries: int = defaults.ENDPOINT_RETRIES
    timeout_s: float = defaults.ENDPOINT_TIMEOUT_S

    @property
    def where(self) -> str:
        return f"rerank endpoint {public_url(self.base_url)} (model {self.model!r})"

    @classmethod
    def from_spec(cls, spec: str) -> RerankConfig:
        """``rerank:MODEL@BASE_URL`` (the form ``--model`` accepts), other settings at their defaults."""
        model, sep, base_url = spec.removeprefix(SPEC_PREFIX).rpartition("@")
        if not sep or not model or not base_url.startswith(("http://", "https://")):
            raise CLSDError(f"expected {SPEC_PREFIX}MODEL@BASE_URL, e.g. rerank:my-reranker@http://127.0.0.1:8080; got {spec!r}")
        return cls(base_url=base_url, model=model)


def rerank_meta(config: RerankConfig) -> ModelMeta:
    """What is known about a served reranker: its name at the server; the revision hashes URL and name."""
    identity = "\n".join([config.base_url.rstrip("/"), config.model])
    return ModelMeta(
        loader=None,
        name=f"rerank/{config.model}",
        revision=f"served-{hashlib.sha256(identity.encode('utf-8')).hexdigest()[:12]}",
        release_date=None,
        languages=None,
        n_parameters=None,
        memory_usage_mb=None,
        max_tokens=None,
        embed_dim=None,
        license=None,
        open_weights=None,
        public_training_code=None,
        public_training_data=None,
        framework=["API"],
        reference=public_url(config.base_url) if config.base_url.startswith("https://") else None,
        similarity_fn_name=None,
        use_instructions=False,
        training_datasets=None,
        modalities=["text"],
        model_type=["cross-encoder"],
    )


def _number(value: Any) -> float:
    """A JSON number as a finite float; a string, a boolean, null, NaN or an infinity is refused."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"not a finite number: {value!r}"[:120])
    return float(value)


def relevance_scores(answer: Any, expected: int, where: str) -> list[float]:
    """The scores of ``expected`` documents by index, from either answer shape (module docstring), read strictly:
    exactly one finite numeric score per document index, nothing else is taken as a score."""
    items = answer.get("results") if isinstance(answer, Mapping) else answer
    if not isinstance(items, list):
        raise CLSDError(f"{where}: malformed answer, expected a list of results, got {type(items).__name__}")
    by_index: dict[int, float] = {}
    try:
        for item in items:
            index = item["index"]
            if isinstance(index, bool) or not isinstance(index, int) or index in by_index:
                raise ValueError(f"index {index!r} is not a new integer"[:120])
            by_index[index] = _number(item["relevance_score"] if "relevance_score" in item else item["score"])
    except (KeyError, TypeError, ValueError) as exc:
        raise CLSDError(
            f"{where}: malformed answer, expected results[].index and results[].relevance_score ({_one_line(exc)})"
        ) from exc
    if sorted(by_index) != list(range(expected)):
        raise CLSDError(f"{where}: malformed answer, scores for indices {sorted(by_index)[:5]}... of {expected} documents")
    return [by_index[i] for i in range(expected)]


class RerankEncoder:
    """mteb cross-encoder (``predict``) that sends each source's candidates to a ``/rerank`` route."""

    mteb_model_meta: ModelMeta

    def __init__(self, config: RerankConfig) -> None:
        import openai

        self.config = config
        key = os.environ.get(config.key_env, "")
        if not key:
            raise CLSDError(
                f"{config.where}: set the environment variable {config.key_env} to its API key "
                "(any non-empty value for a server that needs none)"
            )
        register_secret(key)  # redacted from every error line and log record from now on
        self.client = openai.OpenAI(
            base_url=config.base_url, api_key=key, max_retries=config.max_retries, timeout=config.timeout_s
        )
        self.request(PROBE_QUERY, [PROBE_QUERY])  # fails now, with one line, if nothing answers there
        self.mteb_model_meta = rerank_meta(config)

    def request(self, query: str, documents: Sequence[str]) -> list[float]:
        """One request: the relevance score of each document for ``query``, in input order."""
        import openai

        where, config = self.config.where, self.config
        body = {"model": config.model, "query": query, "documents": list(documents)}
        try:
            answer = self.client.post("/rerank", cast_to=object, body=body)
        except openai.AuthenticationError as exc:
            raise CLSDError(f"{where}: rejected the API key in ${config.key_env} (HTTP {exc.status_code})") from exc
        except openai.APIStatusError as exc:
            raise CLSDError(f"{where}: answered HTTP {exc.status_code}: {_one_line(exc.message)}") from exc
        except openai.APITimeoutError as exc:
            raise CLSDError(
                f"{where}: no answer within {config.timeout_s:g} s per request, after {config.max_retries} retries"
            ) from exc
        except openai.APIConnectionError as exc:
            raise CLSDError(f"{where}: cannot connect ({_one_line(exc)}); is the server running?") from exc
        except (openai.OpenAIError, ValueError, TypeError) as exc:
            raise CLSDError(f"{where}: malformed answer ({type(exc).__name__}: {_one_line(exc)})") from exc
        return relevance_scores(answer, len(documents), where)

    def predict(
        self,
        inputs1: DataLoader[BatchedInput],
        inputs2: DataLoader[BatchedInput],
        *,
        task_metadata: TaskMetadata,
        hf_split: str,
        hf_subset: str,
        prompt_type: PromptType | None = None,
        **kwargs: Any,
    ) -> np.ndarray:
        """One score per (inputs1[i], inputs2[i]) pair; a loader batch's pairs of one query are one request."""
        requests: list[tuple[str, list[str]]] = []
        for first, second in zip(inputs1, inputs2, strict=True):
            pairs = list(zip(first["text"], second["text"], strict=True))
            for query, group in groupby(pairs, key=lambda pair: pair[0]):
                requests.append((query, [document for _, document in group]))
        if not requests:
            return np.zeros(0, dtype=np.float64)
        with ThreadPoolExecutor(max_workers=max(1, self.config.concurrency)) as pool:
            answers = list(pool.map(lambda request: self.request(*request), requests))
        return np.asarray([score for answer in answers for score in answer], dtype=np.float64)
