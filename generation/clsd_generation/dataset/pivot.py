"""English pivot: translate every source, target and distractor to English, as the paper did.

The paper used M2M-100 1.2B (``facebook/m2m100_1.2B``); any M2M-100 or NLLB checkpoint works, by
Hub name or local path; or, without a GPU, any OpenAI-compatible endpoint (:mod:`clsd_generation.llm.translate`).
The only module that imports torch and transformers, and only when called.
Translations are stored in the run's checkpoint after every batch, so a killed run re-translates
at most one batch; each distinct text is translated once. Whatever translated them, the stored translations are
then checked as translations of their sources (:mod:`clsd_generation.checks.translations`) before a pivot set is built.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tqdm.auto import tqdm

from clsd_format.declared_settings import fingerprint_of, option_name
from clsd_format.errors import CLSDError
from clsd_format.languages import ENGLISH, Language
from clsd_generation.checks.translations import pivot_texts
from clsd_generation.core.checkpoint import TRANSLATION_KEY, Checkpoint, checkpoint_writes
from clsd_generation.core.languages import languages_of
from clsd_generation.core.lock import run_folder_lock
from clsd_generation.core.settings import LLMSettings, TranslationSettings

if TYPE_CHECKING:
    from clsd_generation.llm.client import ClientFactory


def texts_to_translate(checkpoint: Checkpoint) -> dict[str, list[str]]:
    """Distinct non-English texts per language code: both sides of every pair and every kept distractor."""
    return {code: list(texts) for code, texts in pivot_texts(checkpoint).items()}


def translate_run(
    run_dir: Path,
    settings: TranslationSettings = TranslationSettings(),
    *,
    progress: bool = True,
    llm: LLMSettings | None = None,
    client_factory: ClientFactory | None = None,
) -> dict[str, int]:
    """Translate what is not translated yet, by M2M-100/NLLB (``settings``) or an LLM endpoint (``llm``; its provider
    ``client_factory``, an OpenAI-compatible endpoint by default).

    Returns how many texts per language were translated now; a text an endpoint did not answer after its
    retries stays untranslated (:func:`untranslated` counts them; the same command asks them again).
    """
    with checkpoint_writes(run_dir), run_folder_lock(run_dir, create=False), Checkpoint.existing(run_dir) as checkpoint:
        languages = {language.code: language for language in languages_of(checkpoint)}
        if llm is not None:
            from clsd_generation.llm.translate import translate_with_llm

            provider = {"client_factory": client_factory} if client_factory is not None else {}
            done, _ = translate_with_llm(checkpoint, languages, untranslated(checkpoint), llm, progress, **provider)
            return done
        checkpoint.bind(TRANSLATION_KEY, fingerprint_of(settings))
        todo = untranslated(checkpoint)
        if not any(todo.values()):
            return {code: 0 for code in todo}
        translator = Translator(settings)
        for code in todo:
            translator.source_code(languages[code])  # a language the model lacks: one line before anything is translated
        done = {}
        for code, texts in todo.items():
            bar = tqdm(total=len(texts), desc=f"pivot {code}->en", unit="text", disable=not progress)
            # Long texts together: less padding per batch.
            ordered = sorted(texts, key=len, reverse=True)
            for start in range(0, len(ordered), settings.batch_size):
                chunk = ordered[start : start + settings.batch_size]
                checkpoint.add_translations(code, zip(chunk, translator.translate(chunk, languages[code]), strict=True))
                bar.update(len(chunk))
            bar.close()
            done[code] = len(texts)
        return done


def untranslated_count(run_dir: Path) -> int:
    """How many texts of a run's pivot have no translation yet."""
    with Checkpoint.existing(run_dir) as checkpoint:
        return sum(len(texts) for texts in untranslated(checkpoint).values())


def untranslated(checkpoint: Checkpoint) -> dict[str, list[str]]:
    """Per language code, the texts of the pivot that have no stored translation yet."""
    todo = {}
    for code, texts in texts_to_translate(checkpoint).items():
        known = checkpoint.translations(code)
        todo[code] = [text for text in texts if text not in known]
    return todo


class Translator:
    """A seq2seq translation model into English; knows M2M-100's and NLLB's language tokens."""

    def __init__(self, settings: TranslationSettings) -> None:
        try:
            import torch
            from transformers import AutoModelForSeq2SeqLM, AutoTokenizer
        except ImportError as exc:  # pragma: no cover - torch and transformers are dependencies
            raise CLSDError(f"the pivot step needs torch and transformers ({exc}).") from exc
        self.settings = settings
        self.torch = torch
        try:
            self.tokenizer = AutoTokenizer.from_pretrained(settings.model)
            self.model = AutoModelForSeq2SeqLM.from_pretrained(settings.model)
        except (OSError, ValueError) as exc:
            raise CLSDError(
                f"cannot load translation model {settings.model!r} ({exc}). A Hub model needs network access or a filled "
                "HF cache; a local folder works offline."
            ) from exc
        self.device = settings.device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.model.to(self.device).eval()
        self.nllb = not hasattr(self.tokenizer, "get_lang_id")
        if self.nllb and not hasattr(self.tokenizer, "src_lang"):
            raise CLSDError(f"{settings.model!r} is neither an M2M-100 nor an NLLB model (its tokenizer has no source language).")

    def _english_token_id(self) -> int:
        if self.nllb:
            token_id = self.tokenizer.convert_tokens_to_ids(ENGLISH.nllb_code)  # one token in, one id out
            assert isinstance(token_id, int)
            return token_id
        return int(self.tokenizer.get_lang_id(ENGLISH.code))

    def source_code(self, language: Language) -> str:
        """The model's code of ``language`` (NLLB's token, M2M-100's code); one line naming both when it has none."""
        code = language.nllb_code if self.nllb else language.m2m_code
        if self.nllb:
            known = self.tokenizer.convert_tokens_to_ids(code) != self.tokenizer.unk_token_id
        else:
            known = code in self.tokenizer.lang_code_to_id
        if not known:
            kind = "NLLB-200" if self.nllb else "M2M-100"
            raise CLSDError(
                f"the translation model {self.settings.model!r} ({kind}) has no language code for {language.name} "
                f"({language.code}; {kind} would write it {code!r}): use another model, or "
                f"`clsd translate {option_name(TranslationSettings, 'backend')} llm`."
            )
        return code

    def translate(self, texts: Sequence[str], language: Language) -> list[str]:
        self.tokenizer.src_lang = self.source_code(language)
        encoded = self.tokenizer(list(texts), return_tensors="pt", padding=True, truncation=True).to(self.device)
        kwargs: dict[str, Any] = {"forced_bos_token_id": self._english_token_id(), "max_new_tokens": self.settings.max_new_tokens}
        if self.settings.num_beams is not None:
            kwargs["num_beams"] = self.settings.num_beams
        with self.torch.inference_mode():
            generated = self.model.generate(**encoded, **kwargs)
        return [text.strip() for text in self.tokenizer.batch_decode(generated, skip_special_tokens=True)]
