"""The model a run evaluates, resolved once from what the user wrote: :class:`ModelChoice`.

``None`` (the default model, shown beside the character n-gram baseline), a name or folder that runs in this process,
``endpoint:MODEL@URL`` (an OpenAI-compatible embeddings endpoint; also ``--endpoint-url`` with ``--endpoint-model``)
or ``rerank:MODEL@URL`` (a rerank server). The served models' settings are checked against the kind here, before
anything heavy is imported, so that a mistake answers in a second: a timeout given for a local model, a dimension
for a rerank server. :func:`clsd_mteb.evaluation.load_choice` loads what the choice names; nothing else decides the kind.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Literal

from clsd_format import defaults
from clsd_format.declared_settings import DeclaredSettings, option_name, setting
from clsd_format.defaults import ENDPOINT_PREFIX, RERANK_PREFIX
from clsd_format.errors import CLSDError

ModelKind = Literal["local", "endpoint", "rerank"]
LOCAL: ModelKind = "local"
ENDPOINT: ModelKind = "endpoint"
RERANK: ModelKind = "rerank"


def served_setting(flag: str, metavar: str, help: str, minimum: float | None = None) -> Any:
    """A served-model setting: not given (None) unless its option is, so that the encoder's default applies."""
    return setting(None, help=help, metavar=metavar, minimum=minimum, flag=flag)


@dataclass(frozen=True)
class ServedSettings(DeclaredSettings):
    """How to talk to a served model (an embeddings endpoint or a rerank server), as ``clsd evaluate`` offers it: each
    field None when not given, so that the encoder's own default (:mod:`clsd_format.defaults`) applies. The fields
    are named as the encoders' configs name them (:class:`clsd_mteb.encoders.served.ServedConfig`), which take them
    whole (:meth:`given`)."""

    key_env: str | None = served_setting(
        "--endpoint-key-env",
        "VAR",
        f"Environment variable that holds a served model's API key (endpoint or rerank). Default: {defaults.ENDPOINT_KEY_ENV}.",
    )
    dimensions: int | None = served_setting(
        "--endpoint-dim", "N", "Expected embedding size; checked against the embeddings endpoint's first answer.", 1
    )
    concurrency: int | None = served_setting(
        "--endpoint-concurrency",
        "N",
        "Requests in flight at once to a served model (each one {--batch_size} texts or pairs). "
        f"Default: {defaults.ENDPOINT_CONCURRENCY}.",
        1,
    )
    prefix: str | None = served_setting(
        "--endpoint-prefix",
        "TEXT",
        "Text put before every sentence sent to an embeddings endpoint, for a model whose server does not add its "
        "prompt (e.g. 'query: ').",
    )
    max_retries: int | None = served_setting(
        "--endpoint-retries",
        "N",
        f"Retries per failed request to a served model (the openai client's back-off). Default: {defaults.ENDPOINT_RETRIES}.",
        0,
    )
    timeout_s: float | None = served_setting(
        "--endpoint-timeout",
        "SECONDS",
        "Seconds one request attempt to a served model may take before it is abandoned (and retried). "
        f"Default: {defaults.ENDPOINT_TIMEOUT_S:g}.",
        0.001,
    )

    def given(self) -> dict[str, Any]:
        """The settings given (an empty prefix is none), by field: what replaces the encoder config's defaults."""
        return {item.name: value for item in fields(self) if (value := getattr(self, item.name)) not in (None, "")}


# The settings only an embeddings endpoint takes (a rerank server takes the others).
EMBEDDING_ONLY = ("dimensions", "prefix")


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
    ``served``: the settings of a served model (:class:`ServedSettings`); those given are checked against the kind.
    """

    spec: str | None = None
    base_url: str | None = None
    served: ServedSettings = ServedSettings()
    device: str | None = None

    def __post_init__(self) -> None:
        for name in self.served.given():
            option = option_name(ServedSettings, name)
            if self.kind == LOCAL:
                raise CLSDError(
                    f"{option} applies to served models (endpoint:MODEL@URL, rerank:MODEL@URL, or an endpoint by URL and model); "
                    f"{self.spec or 'the default model'} runs in this process"
                )
            if self.kind == RERANK and name in EMBEDDING_ONLY:
                raise CLSDError(f"{option} applies to embeddings endpoints only, not to the rerank endpoint {self.spec}")

    @classmethod
    def parse(
        cls,
        model: str | None,
        *,
        endpoint_url: str | None = None,
        endpoint_model: str | None = None,
        served: ServedSettings | None = None,
        device: str | None = None,
    ) -> ModelChoice:
        """The choice ``clsd evaluate`` reads: ``--model``, or ``--endpoint-url`` with ``--endpoint-model`` (which
        :class:`~clsd_format.evaluation_settings.ModelOptions` checks are given together, and instead of a model)."""
        served = served or ServedSettings()
        if endpoint_url and endpoint_model:
            return cls(f"{ENDPOINT_PREFIX}{endpoint_model}", endpoint_url, served, device)
        return cls(model, None, served, device)

    @property
    def kind(self) -> ModelKind:
        return ENDPOINT if self.base_url is not None else kind_of(self.spec)

    @property
    def with_baseline(self) -> bool:
        """The default model is shown beside the character n-gram baseline: the first table a user sees then says how
        far the model is above surface overlap."""
        return self.spec is None


__all__ = [
    "EMBEDDING_ONLY",
    "ENDPOINT",
    "LOCAL",
    "RERANK",
    "ModelChoice",
    "ModelKind",
    "ServedSettings",
    "kind_of",
    "served_setting",
]
