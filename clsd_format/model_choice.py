"""The model a run evaluates, resolved once from what the user wrote: :class:`ModelChoice`.

``None`` (the default model, shown beside the character n-gram baseline), a name or folder that runs in this process,
``endpoint:MODEL@URL`` (an OpenAI-compatible embeddings endpoint; also ``--endpoint-url`` with ``--endpoint-model``)
or ``rerank:MODEL@URL`` (a rerank server). The served models' settings are checked against the kind here, before
anything heavy is imported, so that a mistake answers in a second: a timeout given for a local model, a dimension
for a rerank server. :func:`clsd_mteb.evaluation.load_choice` loads what the choice names; nothing else decides the kind.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from clsd_format.defaults import ENDPOINT_PREFIX, RERANK_PREFIX
from clsd_format.errors import CLSDError

ModelKind = Literal["local", "endpoint", "rerank"]
LOCAL: ModelKind = "local"
ENDPOINT: ModelKind = "endpoint"
RERANK: ModelKind = "rerank"

# The settings every served model takes (an embeddings endpoint or a rerank server): field -> option of `clsd evaluate`.
SERVED_SETTINGS = {
    "key_env": "--endpoint-key-env",
    "concurrency": "--endpoint-concurrency",
    "max_retries": "--endpoint-retries",
    "timeout_s": "--endpoint-timeout",
}
# The settings only an embeddings endpoint takes.
EMBEDDING_SETTINGS = {"dimensions": "--endpoint-dim", "prefix": "--endpoint-prefix"}


def kind_of(spec: str | None) -> ModelKind:
    """The kind a model name says it is: ``endpoint:...``, ``rerank:...``, else one that runs in this process."""
    if spec is not None and spec.startswith(ENDPOINT_PREFIX):
        return ENDPOINT
    if spec is not None and spec.startswith(RERANK_PREFIX):
        return RERANK
    return LOCAL


@dataclass(frozen=True)
class ModelChoice:
    """One model of a run: what the user named, its kind, the served-model settings given, the torch device.

    ``spec``: None for the default model, else the name as written (``endpoint:`` and ``rerank:`` included);
    ``base_url``: an embeddings endpoint given by URL and model name apart (``--endpoint-url``).
    ``served``: settings of a served model by field of its config (:data:`SERVED_SETTINGS`,
    :data:`EMBEDDING_SETTINGS`), only those given.
    """

    spec: str | None = None
    base_url: str | None = None
    served: Mapping[str, Any] = field(default_factory=dict)
    device: str | None = None

    def __post_init__(self) -> None:
        takes = {LOCAL: {}, ENDPOINT: SERVED_SETTINGS | EMBEDDING_SETTINGS, RERANK: SERVED_SETTINGS}[self.kind]
        for name in self.served:
            option = (SERVED_SETTINGS | EMBEDDING_SETTINGS).get(name)
            if option is None:
                raise CLSDError(
                    f"{name!r} is no setting of a served model; the settings are {', '.join(SERVED_SETTINGS | EMBEDDING_SETTINGS)}"
                )
            if self.kind == LOCAL:
                raise CLSDError(
                    f"{option} applies to served models (endpoint:MODEL@URL, rerank:MODEL@URL, --endpoint-url); "
                    f"{self.spec or 'the default model'} runs in this process"
                )
            if name not in takes:
                raise CLSDError(f"{option} applies to embeddings endpoints only, not to the rerank endpoint {self.spec}")

    @classmethod
    def parse(
        cls,
        model: str | None,
        *,
        endpoint_url: str | None = None,
        endpoint_model: str | None = None,
        served: Mapping[str, Any] | None = None,
        device: str | None = None,
    ) -> ModelChoice:
        """The choice ``clsd evaluate`` reads: ``--model``, or ``--endpoint-url`` with ``--endpoint-model``."""
        if (endpoint_url or endpoint_model) and (model or not (endpoint_url and endpoint_model)):
            raise CLSDError("an endpoint needs both --endpoint-url and --endpoint-model, and no --model")
        given = {name: value for name, value in (served or {}).items() if value is not None}
        if endpoint_url and endpoint_model:
            return cls(f"{ENDPOINT_PREFIX}{endpoint_model}", endpoint_url, given, device)
        return cls(model, None, given, device)

    @property
    def kind(self) -> ModelKind:
        return ENDPOINT if self.base_url is not None else kind_of(self.spec)

    @property
    def with_baseline(self) -> bool:
        """The default model is shown beside the character n-gram baseline: the first table a user sees then says how
        far the model is above surface overlap."""
        return self.spec is None


__all__ = ["EMBEDDING_SETTINGS", "ENDPOINT", "LOCAL", "RERANK", "SERVED_SETTINGS", "ModelChoice", "ModelKind", "kind_of"]
