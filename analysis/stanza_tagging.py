"""Part-of-speech tags from Stanza for datasets without annotation files.

Sentences are passed already tokenised (with :func:`clsd_analysis.text_measures.tokens`), so the
tag of the changed token is read at the very position where the one-word change was found. Models
come from a local directory (``--stanza-dir``, else Stanza's own default); nothing is downloaded
unless the user asks for it (``download=True``), and a missing model stops with the command that
fetches it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from clsd_format.errors import CLSDError

PROCESSORS = "tokenize,pos"


class StanzaModelMissing(CLSDError):
    """No Stanza model for a language in the chosen directory."""


def how_to_get(language: str, model_dir: Path | None) -> str:
    target = f", model_dir='{model_dir}'" if model_dir else ""
    flag = f" --stanza-dir {model_dir}" if model_dir else ""
    return (
        f"Fetch it once (needs network): python -c \"import stanza; stanza.download('{language}'{target}, "
        f"processors='{PROCESSORS}')\", then rerun `clsd analyze`{flag}; or rerun with --stanza-download. "
        "Or leave the part-of-speech analysis out for this dataset with --no-pos-shift."
    )


class StanzaTagger:
    """Universal POS tags for pre-tokenised sentences, one Stanza pipeline per language, built lazily."""

    def __init__(self, model_dir: str | Path | None = None, download: bool = False) -> None:
        self.model_dir = Path(model_dir).expanduser() if model_dir else None
        self.download = download
        self._pipelines: dict[str, Any] = {}

    def _pipeline(self, language: str) -> Any:
        if language in self._pipelines:
            return self._pipelines[language]
        try:
            import stanza
            from stanza.pipeline.core import DownloadMethod
        except ImportError as exc:
            raise CLSDError(f"Stanza is not installed ({exc}); install it with `pip install stanza`.") from exc
        kwargs: dict[str, Any] = {
            "lang": language,
            "processors": PROCESSORS,
            "tokenize_pretokenized": True,
            "download_method": DownloadMethod.REUSE_RESOURCES if self.download else None,
            "logging_level": "WARN",
        }
        if self.model_dir is not None:
            kwargs["dir"] = str(self.model_dir)
        try:
            pipeline = stanza.Pipeline(**kwargs)
        except Exception as exc:  # Stanza signals a missing model with several exception types
            where = self.model_dir or "Stanza's default directory"
            raise StanzaModelMissing(
                f"cannot load a Stanza part-of-speech model for language '{language}' from {where} "
                f"({type(exc).__name__}: {exc}). {how_to_get(language, self.model_dir)}"
            ) from exc
        self._pipelines[language] = pipeline
        return pipeline

    def tag(self, language: str, sentences: Sequence[Sequence[str]]) -> list[list[str]]:
        """UPOS per token of each sentence."""
        if not sentences:
            return []
        document = self._pipeline(language)([list(s) for s in sentences])
        tags = [[word.upos for word in sentence.words] for sentence in document.sentences]
        if len(tags) != len(sentences) or any(len(t) != len(s) for t, s in zip(tags, sentences, strict=False)):
            raise CLSDError(f"Stanza returned a different segmentation than the tokens given for language '{language}'.")
        return tags
