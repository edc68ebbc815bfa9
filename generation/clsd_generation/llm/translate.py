"""The English pivot through any OpenAI-compatible endpoint: for users with an endpoint but no GPU for M2M-100 1.2B.

The same texts as :mod:`clsd_generation.dataset.pivot` (both sides of every pair and every kept distractor, each
distinct text once), each translated by one chat request with a fixed prompt (:data:`TRANSLATION_PROMPT`,
temperature 0) and stored in the checkpoint as it arrives: a run killed at any moment, ``kill -9``
included, resumes without asking a stored text again. The translator (model, endpoint, prompt) is bound
to the run like M2M-100's settings, so a run never mixes two translators, and the card names it.

The answer is read plainly: a reasoning block is dropped, a "Translation:" label and quotes around the
whole answer are stripped, and only its first paragraph is kept (small models add notes after it). An empty
one leaves its row out of the pivot configs, as an empty M2M-100 translation does.

What is not a translation is refused and asked again (:func:`refusal_of`): an answer the reader of every LLM
answer refuses (:mod:`clsd_generation.core.reading`: longer than the token limit allows, not valid text, another
model's answer than the one asked for), one cut by the token limit, the source unchanged, or a text still in the
source language. After the attempt limit the text is recorded as failed (an empty translation: its row is left out of
the pivot configs, never filled with what is not English), and the refusals are counted by reason in the checkpoint (``PIVOT_REFUSALS_KEY``), printed
by ``clsd translate``. English that is no translation of its source (a template answered for every text, one that
drops the source's numbers) passes this reading; the checks of every stored translation, whoever made it, refuse
it before a pivot set is built (:mod:`clsd_generation.checks.translations`), and ``clsd translate`` says the share.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clsd_format.declared_settings import option_name
from clsd_format.errors import CLSDError
from clsd_format.languages import Language
from clsd_format.redaction import public_url
from clsd_generation.checks.parsing import strip_reasoning, trim_quotes
from clsd_generation.checks.translations import check_run, not_built_reason
from clsd_generation.core.checkpoint import PIVOT_REFUSALS_KEY, TRANSLATION_KEY, TRANSLATOR_KEY, Checkpoint
from clsd_generation.core.reading import OTHER_MODEL, read_text
from clsd_generation.core.settings import DEFAULT_MAX_ATTEMPTS, LLMSettings, TranslationSettings
from clsd_generation.llm.client import Asking, ChatRequest, ClientFactory, EndpointError, OpenAIChatClient

TRANSLATION_PROMPT = (
    "Translate this {language} text into English. Answer with the English translation only, nothing else.\n\n{text}"
)
_LABEL = re.compile(r"^\s*(?:english\s+)?translation\s*:\s*", re.IGNORECASE)
CUT = "answer cut by the token limit"
COPY = "the source unchanged"
SOURCE_LANGUAGE = "still in the source language"
NOT_PIVOT = "not in English"
MIN_LETTERS_TO_IDENTIFY = 16  # shorter texts (names, numbers) are not told apart by language reliably; letters, not
# words, so that a text in a script written without spaces is read too


def clean_translation(answer: str) -> str:
    """The translation in an answer: no reasoning, no label, no quotes around it, its first paragraph only."""
    text = strip_reasoning(answer).strip()
    text = _LABEL.sub("", text).strip()
    first = re.split(r"\n\s*\n", text, maxsplit=1)[0].strip() if text else ""
    return trim_quotes(first)


def refusal_of(language: Language, source: str, translation: str) -> str | None:
    """Why ``translation`` of ``source`` (in ``language``) is not an English translation, or None."""
    from clsd_generation.checks.answers import PIVOT_MARGIN, fold, language_gap, language_of
    from clsd_generation.checks.coverage import support

    if not translation:
        return None  # an empty answer: left out, as an empty M2M-100 translation
    if fold(translation) == fold(source):
        return COPY
    if sum(ch.isalpha() for ch in translation) < MIN_LETTERS_TO_IDENTIFY:
        return None
    source_code = support(language.code).identifier  # the identifier's spelling of the language ("zh" for zh-Hant)
    if source_code not in (None, "en") and language_of(translation) == source_code:
        return SOURCE_LANGUAGE
    if language_gap(translation, "en") > PIVOT_MARGIN:
        return NOT_PIVOT  # whatever other language it is in
    return None


def pivot_refusal_lines(run_dir: Path, keep_refused: str) -> list[str]:
    """What ``clsd translate`` says of the pivot so far, whatever translated it.

    Per language: the LLM pivot's answers refused, by reason (none for M2M-100 or a clean run); then the share of the
    stored translations refused as not translating their source, by reason (:mod:`clsd_generation.checks.translations`);
    and, when more than half of a language's translations are refused or empty, one line saying that ``clsd build``
    will not build the pivot configs, and why, and that ``keep_refused`` (the build's option, declared a layer above)
    builds them anyway.
    """
    with Checkpoint.existing(run_dir) as checkpoint:
        counts = checkpoint.get_meta(PIVOT_REFUSALS_KEY) or {}
        checks = check_run(checkpoint)
    lines = [
        f"{code}->en: answers refused (asked again; a text refused {DEFAULT_MAX_ATTEMPTS} times is left out): "
        + ", ".join(f"{reason} {n}" for reason, n in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0])))
        for code, reasons in sorted(counts.items())
        if reasons
    ]
    lines += [check.line() for _, check in sorted(checks.items()) if check.texts]
    why = not_built_reason(checks.values())
    if why:
        lines.append(
            f"the pivot configs will not be built: {why}. `clsd build` builds the direct configs and says so; "
            f"`clsd build {keep_refused}` builds the pivot configs from these translations anyway."
        )
    return lines


def llm_translation_settings(settings: LLMSettings) -> dict[str, Any]:
    """What a run binds as its translator: model, prompt, token limit (a different one is refused on resume)."""
    return {"backend": "llm", "model": settings.model, "prompt": TRANSLATION_PROMPT, "max_tokens": settings.max_tokens}


def describe_translator(settings: LLMSettings) -> str:
    """The card's line on the translator: model, endpoint (without credentials) and the prompt."""
    endpoint = public_url(settings.base_url) if settings.base_url else "OpenAI default"
    prompt = TRANSLATION_PROMPT.replace("\n", " ")
    return f"the LLM `{settings.model}` through an OpenAI-compatible endpoint ({endpoint}), temperature 0, prompt: `{prompt}`"


@dataclass(eq=False)
class LLMTranslator:
    """Translates texts through the endpoint, ``settings.concurrency`` requests at a time, storing each answer."""

    checkpoint: Checkpoint
    settings: LLMSettings
    progress: bool = True
    max_attempts: int = DEFAULT_MAX_ATTEMPTS  # answers asked per text before it is recorded as failed
    client_factory: ClientFactory = OpenAIChatClient
    cut: int = 0  # answers stopped by the token limit (refused, asked again)
    stored: int = 0  # texts whose translation (or failure: empty) was stored this run
    kept: int = 0  # of them, texts with a translation
    refused: dict[str, Counter[str]] = field(default_factory=dict)  # language -> reason -> answers refused this run
    _asking: Asking = field(init=False)

    def run(self, todo: dict[Language, list[str]]) -> None:
        """Translate every text; a run that stores texts but keeps no translation among them (every answer refused or
        empty) fails with its counts, as a run whose first answers all name another model stops
        (:mod:`clsd_generation.llm.first_answers`)."""
        texts = [(language, text) for language, texts in todo.items() for text in texts]
        self._asking = Asking(self.settings, "pivot", "text", self.client_factory, self.progress)
        self._asking.run(texts, self._translate)
        if self.stored and not self.kept:
            refused = "; ".join(
                f"{code}->en: " + ", ".join(f"{reason} {n}" for reason, n in reasons.most_common())
                for code, reasons in sorted(self.refused.items())
            )
            # Shaped as the judge's "no verdict kept" (judge.py), but each job counts and says what it kept.
            raise CLSDError(
                f"no translation kept: all {self.stored} text(s) translated this run came back refused or empty "
                f"({self._asking.requests} request(s) sent; answers refused by reason: {refused or 'none'}). "
                f"Check {option_name(TranslationSettings, 'model')} and {option_name(LLMSettings, 'base_url')}."
            )

    async def _translate(self, task: tuple[Language, str]) -> None:
        language, text = task
        prompt = TRANSLATION_PROMPT.format(language=language.name, text=text)
        request = ChatRequest(prompt, self.settings.max_tokens, temperature=0.0)
        translation = ""
        for _ in range(self.max_attempts):
            try:
                completion = await self._asking.ask(request)
            except EndpointError:
                return  # no answer after the client's retries: left untranslated, the next run asks it again
            reading = read_text(completion.text, self.settings.max_tokens)
            other = not self._asking.as_asked(completion)  # another model's answer, cut or not, is that model's
            self.cut += completion.cut and not other
            refusal = (OTHER_MODEL if other else None) or reading.refusal or (CUT if completion.cut else None)
            translation = clean_translation(reading.text) if refusal is None else ""
            refusal = refusal or refusal_of(language, text, translation)
            if refusal is None:
                break
            self.refused.setdefault(language.code, Counter())[refusal] += 1
            translation = ""  # after the last attempt: recorded as failed, its row left out of the pivot configs
        self.checkpoint.add_translations(language.code, [(text, translation)])
        self.stored += 1
        self.kept += bool(translation)


def translate_with_llm(
    checkpoint: Checkpoint,
    languages: Mapping[str, Language],
    todo: Mapping[str, Sequence[str]],
    settings: LLMSettings,
    progress: bool,
    client_factory: ClientFactory = OpenAIChatClient,
) -> tuple[dict[str, int], int]:
    """Translate ``todo`` (code -> texts); how many texts per language are stored now, and how many answers were cut.

    ``client_factory``: the provider (an OpenAI-compatible endpoint by default; see :mod:`clsd_generation.llm.client`).
    """
    checkpoint.bind(TRANSLATION_KEY, llm_translation_settings(settings))
    checkpoint.set_meta(TRANSLATOR_KEY, describe_translator(settings))
    before = {code: len(checkpoint.translations(code)) for code in todo}
    translator = LLMTranslator(checkpoint, settings, progress, client_factory=client_factory)
    try:
        translator.run({languages[code]: list(texts) for code, texts in todo.items()})
    finally:
        counts = checkpoint.get_meta(PIVOT_REFUSALS_KEY) or {}
        for code, refused in translator.refused.items():
            counts[code] = dict(Counter(counts.get(code, {})) + refused)
        checkpoint.set_meta(PIVOT_REFUSALS_KEY, counts)
    return {code: len(checkpoint.translations(code)) - before[code] for code in todo}, translator.cut
