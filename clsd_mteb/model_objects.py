"""The models a Python user holds, made into the mteb models a run evaluates, each under a name and revision of its own.

:func:`clsd_mteb.evaluate` takes what ``mteb.evaluate`` takes: a name (and the plugin's own names: the embedded
models, the baselines, ``endpoint:MODEL@URL``, ``rerank:MODEL@URL``, a local folder), a ``ModelMeta``, any mteb model
object, or a sentence-transformers ``SentenceTransformer`` or ``CrossEncoder`` in memory, or a list of these.

A model object in memory is the one case where a name says too little. mteb files a ``SentenceTransformer`` under
the name its model card gives (``model_card_data.model_name``, else the base model) and the base model's revision,
or as ``no_model_name/available`` when the card names nothing: a model fine-tuned a minute ago would be filed, and
served from the results folder, as the model it started from, and two unnamed models as each other. So an object's
revision here is a fingerprint of its weights (``weights-sha256-...``: the same weights, the same revision, whatever
the process), and an object whose card names no model is filed as ``in-memory/<class>-<fingerprint>``. The user names
it as sentence-transformers does, ``model.model_card_data.model_name = "my-org/my-model"``, and passes the same name
to the analysis.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeAlias, cast

from clsd_format.defaults import ENDPOINT_PREFIX
from clsd_format.errors import CLSDError
from clsd_format.model_choice import ENDPOINT, LOCAL, ModelChoice

if TYPE_CHECKING:
    from mteb.models import CrossEncoderProtocol, EncoderProtocol, ModelMeta
    from sentence_transformers import CrossEncoder, SentenceTransformer

    Model: TypeAlias = EncoderProtocol | CrossEncoderProtocol

UNNAMED = "no_model_name/available"  # mteb's name for a model whose card names none
IN_MEMORY = "in-memory"  # the organisation an unnamed object is filed under
FINGERPRINT_PREFIX = "weights-sha256-"
# What evaluate takes as a model, as mteb.evaluate takes it (None: the default model beside the n-gram baseline).
ModelInput: TypeAlias = "str | ModelChoice | ModelMeta | Model | SentenceTransformer | CrossEncoder | None"


def weights_fingerprint(module: Any) -> str:
    """A revision that names a torch module's weights: SHA-256 over every parameter's and buffer's name, dtype,
    shape and bytes, in the module's own order. Nothing else of the object (device, training state) changes it."""
    digest = hashlib.sha256()
    for name, tensor in [*module.named_parameters(), *module.named_buffers()]:
        flat = tensor.detach().to("cpu").contiguous().reshape(-1)
        digest.update(f"{name}|{flat.dtype}|{tuple(tensor.shape)}|".encode())
        digest.update(flat.view(-1).view(_byte_dtype()).numpy().tobytes())
    return FINGERPRINT_PREFIX + digest.hexdigest()[:16]


def load_choice(choice: ModelChoice) -> list[Model]:
    """The models a choice names: a served model with its settings, the model asked for, or (no name) the default
    model beside the character n-gram baseline."""
    from clsd_mteb.baselines import CHAR_NGRAM_NAME
    from clsd_mteb.models import load_model, load_served

    if choice.kind == LOCAL:
        return [load_model(choice.spec, device=choice.device)] + ([load_model(CHAR_NGRAM_NAME)] if choice.with_baseline else [])
    from clsd_mteb.encoders.openai_endpoint import EndpointConfig
    from clsd_mteb.encoders.rerank_endpoint import RerankConfig
    from clsd_mteb.encoders.served import ServedConfig

    spec = choice.spec or ""
    config: ServedConfig
    if choice.base_url is not None:
        config = EndpointConfig(base_url=choice.base_url, model=spec.removeprefix(ENDPOINT_PREFIX))
    elif choice.kind == ENDPOINT:
        config = EndpointConfig.from_spec(spec)
    else:
        config = RerankConfig.from_spec(spec)
    return [load_served(replace(config, **choice.served.given()))]


def _byte_dtype() -> Any:
    import torch

    return torch.uint8


def _wrapped(obj: Any) -> Model | None:
    """mteb's wrapper of a sentence-transformers object, filed under its name and the fingerprint of its weights."""
    from sentence_transformers import CrossEncoder, SentenceTransformer

    if isinstance(obj, SentenceTransformer):
        from mteb.models.sentence_transformer_wrapper import SentenceTransformerEncoderWrapper

        wrapper: Any = SentenceTransformerEncoderWrapper(obj)
    elif isinstance(obj, CrossEncoder):
        from mteb.models.sentence_transformer_wrapper import CrossEncoderWrapper

        wrapper = CrossEncoderWrapper(obj)
    else:
        return None
    fingerprint = weights_fingerprint(obj)
    meta = wrapper.mteb_model_meta
    name = meta.name if meta.name and meta.name != UNNAMED else f"{IN_MEMORY}/{type(obj).__name__}-{fingerprint[-8:]}"
    wrapper.mteb_model_meta = meta.model_copy(update={"name": name, "revision": fingerprint})
    return cast("Model", wrapper)


def _from_meta(meta: ModelMeta) -> Model:
    try:
        return cast("Model", meta.load_model())
    except Exception as exc:  # a loader fails in many ways (no network, missing package): one line naming the model
        raise CLSDError(f"could not load model {meta.name!r} from its ModelMeta ({type(exc).__name__}: {exc})") from exc


def one_model(obj: Any) -> list[Model]:
    """The mteb model(s) one input names: a name or :class:`ModelChoice` (None: the default model beside the n-gram
    baseline), a ``ModelMeta``, a sentence-transformers object, or a model object mteb evaluates as it is."""
    from mteb.models import ModelMeta

    if obj is None or isinstance(obj, str | ModelChoice):
        return load_choice(obj if isinstance(obj, ModelChoice) else ModelChoice(obj))
    if isinstance(obj, ModelMeta):
        return [_from_meta(obj)]
    wrapped = _wrapped(obj)
    if wrapped is not None:
        return [wrapped]
    meta = getattr(obj, "mteb_model_meta", None)
    if meta is None or not callable(getattr(obj, "encode", None) or getattr(obj, "predict", None)):
        raise CLSDError(
            f"a {type(obj).__name__} is no model to evaluate: give a name, a ModelMeta, an mteb model, or a "
            "sentence-transformers SentenceTransformer or CrossEncoder"
        )
    if not getattr(meta, "name", None) or meta.name == UNNAMED:
        raise CLSDError(
            f"the {type(obj).__name__} names no model (its mteb_model_meta has no name), so its results could be filed "
            "as another model's: give its ModelMeta a name and revision"
        )
    return [cast("Model", obj)]


def as_models(model: ModelInput | Sequence[ModelInput]) -> list[Model]:
    """Every mteb model a run's ``model`` argument names, in order; two of one name and revision are refused, since
    their results would be filed in one place."""
    inputs = list(model) if isinstance(model, list | tuple) else [model]
    models = [loaded for one in inputs for loaded in one_model(one)]
    seen: dict[tuple[str, str], int] = {}
    for position, loaded in enumerate(models):
        meta = loaded.mteb_model_meta
        key = (str(meta.name), str(meta.revision))
        if key in seen:
            raise CLSDError(
                f"two models of this run are {key[0]} at revision {key[1]} (models {seen[key] + 1} and {position + 1}): "
                "their results would be filed in one place; name one of them differently"
            )
        seen[key] = position
    return models


__all__ = ["FINGERPRINT_PREFIX", "IN_MEMORY", "ModelInput", "as_models", "load_choice", "one_model", "weights_fingerprint"]
