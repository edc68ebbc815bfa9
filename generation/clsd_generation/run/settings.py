"""Everything one ``clsd generate`` run is asked, as one settings object: :class:`GenerationSettings`.

Its parts are the settings classes of the steps (the endpoint, the prompt, the Batch API, the checks), each field
declared once with its option (:mod:`clsd_format.declared_settings`); ``clsd generate`` is made from them
(:mod:`clsd_cli.declared`) and a Python user builds the same object. The checks that tie parts together (the paper
protocol needs the LLM backend and its prompt; request files need the LLM backend) are methods here, said with the
options' names, so that a command line and a script are refused alike, before the input is read or an endpoint asked.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from clsd_format.declared_settings import DeclaredSettings, option_name, same_as, setting
from clsd_format.errors import CLSDError
from clsd_generation.core.inputs import CorpusInput
from clsd_generation.core.run_folder import RunFolder
from clsd_generation.core.settings import (
    BACKEND,
    DEFAULT_MAX_ATTEMPTS,
    LLM_BATCH,
    PAPER,
    RUN,
    BatchSettings,
    LLMSettings,
    RequestFiles,
    ValidationBounds,
)
from clsd_generation.llm.prompts import PAPER_TEMPERATURE, PAPER_TOP_P, PromptChoice, PromptSettings
from clsd_generation.rules.choices import RuleChoices

if TYPE_CHECKING:
    from clsd_format.languages import Language
    from clsd_generation.jobs.backend import DistractorBackend

BACKEND_NAMES = ("rules", "llm")


# Declarations of settings, shaped alike as every declared field is (a default, help, a check); none repeats another's logic.
@dataclass(frozen=True)
class RunChoices(DeclaredSettings):
    """Where the run is kept, which backend makes the distractors, how often a sentence is asked, how it reports."""

    PANEL = BACKEND

    run_dir: Path = same_as(RunFolder, "run_dir", panel=RUN)
    backend: str = setting(
        "rules",
        help="'rules': no LLM, no network; edits checked with offline taggers (de, fr, en). 'llm': any OpenAI-compatible endpoint.",
        choices=BACKEND_NAMES,
    )
    max_attempts: int = setting(
        DEFAULT_MAX_ATTEMPTS,
        help="Answers asked per sentence until four distractors are valid; then it is recorded as failed.",
        minimum=1,
    )
    batch: bool = setting(
        False,
        help="Use the OpenAI Batch API (cheaper, answers within 24 h) instead of live requests.",
        panel=LLM_BATCH,
        flag="--batch",
    )
    quiet: bool = same_as(RunFolder, "quiet", panel=RUN)


@dataclass(frozen=True)
class GenerationSettings(DeclaredSettings):
    """One ``clsd generate`` run: the input, the run folder and backend, the LLM endpoint, prompt, Batch API and
    request files, the checks of every distractor (with the answer checks), and the rules."""

    input: CorpusInput
    run: RunChoices
    llm: LLMSettings = LLMSettings()
    prompt: PromptChoice = PromptChoice()
    batch: BatchSettings = BatchSettings()
    files: RequestFiles = RequestFiles()
    bounds: ValidationBounds = ValidationBounds()
    rules: RuleChoices = RuleChoices()

    def with_check_settings(self, plugins: tuple[object, ...]) -> GenerationSettings:
        """These settings with the settings objects of the answer checks other packages register
        (:mod:`clsd_generation.checks.registry`), as ``clsd generate`` reads them from their options."""
        if not plugins:
            return self
        reading = replace(self.bounds.reading, plugins=plugins)
        return replace(self, bounds=replace(self.bounds, reading=reading))

    def prompts(self) -> PromptSettings:
        """The prompt and sampling of the run: the paper protocol is the paper's LLM request, so settings that would
        make it something else are refused."""
        protocol, backend = option_name(ValidationBounds, "protocol"), option_name(RunChoices, "backend")
        if self.bounds.protocol == PAPER:
            if self.run.backend != "llm":
                raise CLSDError(
                    f"{protocol} paper needs {backend} llm (the paper asked GPT-4; the rules backend has no paper protocol)."
                )
            if not self.prompt.is_paper:
                sampling = "/".join(option_name(PromptChoice, name) for name in ("prompt_file", "temperature", "top_p"))
                raise CLSDError(
                    f"{protocol} paper uses the paper's prompt, temperature {PAPER_TEMPERATURE} and top_p {PAPER_TOP_P}; "
                    f"drop {sampling}, or use {protocol} validated."
                )
        return self.prompt.load()

    def checked_bounds(self, languages: tuple[Language, Language]) -> ValidationBounds:
        """The bounds with each --accept-neighbour as the identifier's codes ("ru:bg"), checked against the run's
        languages (the identifier is loaded only when one is given)."""
        neighbours = self.bounds.reading.accepted_neighbours
        if not neighbours:
            return self.bounds
        from clsd_generation.checks.answers import accepted_neighbour

        codes = [language.code for language in languages]
        accepted = tuple(sorted({accepted_neighbour(spec, codes) for spec in neighbours}))
        return replace(self.bounds, reading=replace(self.bounds.reading, accepted_neighbours=accepted))

    def endpoint(self) -> LLMSettings | None:
        """The endpoint of --backend llm, checked (model named, API key set unless only files are written) before the
        input is read; None for the rules, which refuse the LLM's options."""
        wants_files = self.files.requests_out is not None or self.files.answers is not None
        batch, backend = option_name(RunChoices, "batch"), option_name(RunChoices, "backend")
        requests_out, answers = option_name(RequestFiles, "requests_out"), option_name(RequestFiles, "answers")
        if self.run.backend != "llm":
            if self.run.batch or wants_files or self.llm.accepted_models:
                accept = option_name(LLMSettings, "accepted_models")
                raise CLSDError(f"{batch}, {requests_out}, {answers} and {accept} need {backend} llm.")
            return None
        if self.run.batch and wants_files:
            raise CLSDError(
                f"{batch} sends the requests to the Batch API; {requests_out} and {answers} hand them to another engine."
            )
        if not self.llm.model:
            model = option_name(LLMSettings, "model")
            raise CLSDError(f"{backend} llm needs {model} (e.g. gpt-4-0613, or the name your server gives its model).")
        if not wants_files:
            self.llm.api_key()  # request files send nothing: no key needed
        return self.llm

    def backend(self, prompts: PromptSettings) -> DistractorBackend:
        """The LLM backend (live, Batch API or request files) where --backend llm, else the rules."""
        from clsd_generation.run.backends import LLMBackend, RuleBackend

        llm = self.endpoint()
        if llm is None:
            return RuleBackend(self.rules.seed, self.rules.names(), self.rules.run_anyway)
        if self.rules.run_anyway:
            run_anyway, backend = option_name(RuleChoices, "run_anyway"), option_name(RunChoices, "backend")
            raise CLSDError(f"{run_anyway} is for {backend} rules: the LLM backend makes no estimate to stop at.")
        wants_files = self.files.requests_out is not None or self.files.answers is not None
        return LLMBackend(llm, prompts, self.batch if self.run.batch else None, self.files if wants_files else None)


__all__ = ["BACKEND_NAMES", "GenerationSettings", "RunChoices"]
