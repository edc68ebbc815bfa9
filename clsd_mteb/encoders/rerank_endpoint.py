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
client's generic ``post``, so retries with back-off, timeouts, the ``Authorization: Bearer`` key,
the settings and the one-line, redacted CLSDError for every failure are the embeddings endpoint's
(both are written once in :mod:`clsd_mteb.encoders.served`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from mteb.models import ModelMeta

from clsd_format.defaults import RERANK_PREFIX
from clsd_format.errors import CLSDError
from clsd_mteb.encoders.served import ServedConfig, finite_number, in_flight, one_line, openai_client, served_meta, served_post

if TYPE_CHECKING:
    from mteb.abstasks.task_metadata import TaskMetadata
    from mteb.types import BatchedInput, PromptType
    from torch.utils.data import DataLoader

PROBE_QUERY = "rerank probe"


@dataclass(frozen=True)
class RerankConfig(ServedConfig):
    """Where the rerank server is and how to talk to it (requests go to {base_url}/rerank)."""

    kind: ClassVar[str] = "rerank endpoint"
    spec_prefix: ClassVar[str] = RERANK_PREFIX  # written once in clsd_format.defaults, which the CLI reads without mteb
    spec_example: ClassVar[str] = "my-reranker@http://127.0.0.1:8080"


def rerank_meta(config: RerankConfig) -> ModelMeta:
    """What is known about a served reranker: its name at the server."""
    return served_meta(config, f"rerank/{config.model}", [], model_type=["cross-encoder"])


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
            by_index[index] = finite_number(item["relevance_score"] if "relevance_score" in item else item["score"])
    except (KeyError, TypeError, ValueError) as exc:
        raise CLSDError(
            f"{where}: malformed answer, expected results[].index and results[].relevance_score ({one_line(exc)})"
        ) from exc
    if sorted(by_index) != list(range(expected)):
        raise CLSDError(f"{where}: malformed answer, scores for indices {sorted(by_index)[:5]}... of {expected} documents")
    return [by_index[i] for i in range(expected)]


class RerankEncoder:
    """mteb cross-encoder (``predict``) that sends each source's candidates to a ``/rerank`` route."""

    mteb_model_meta: ModelMeta

    def __init__(self, config: RerankConfig) -> None:
        self.config = config
        self.client = openai_client(config)
        self.request(PROBE_QUERY, [PROBE_QUERY])  # fails now, with one line, if nothing answers there
        self.mteb_model_meta = rerank_meta(config)

    def request(self, query: str, documents: Sequence[str]) -> list[float]:
        """One request: the relevance score of each document for ``query``, in input order."""
        body = {"model": self.config.model, "query": query, "documents": list(documents)}
        answer = served_post(self.config, self.client, "/rerank", body)
        return relevance_scores(answer, len(documents), self.config.where)

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
        answers = in_flight(self.config, lambda request: self.request(*request), requests)
        return np.asarray([score for answer in answers for score in answer], dtype=np.float64)
