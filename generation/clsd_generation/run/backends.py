"""The backends a ``clsd generate`` run can use, in the one call shape of :mod:`clsd_generation.jobs.backend`.

* :class:`RuleBackend`: distractors by rule, no LLM and no network (:mod:`clsd_generation.rules`);
* :class:`LLMBackend`: any OpenAI-compatible endpoint, live (:mod:`clsd_generation.llm.live`),
  through the Batch API (:mod:`clsd_generation.llm.batch`), or through request files for any batch
  engine (:mod:`clsd_generation.llm.request_file`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from clsd_format.declared_settings import fingerprint_of
from clsd_format.errors import CLSDError
from clsd_format.languages import Language
from clsd_format.redaction import public_url
from clsd_format.words import SEGMENTER_MODULES, word_reading
from clsd_generation.core.settings import DEFAULT_RULES_SEED, BatchSettings, LLMSettings, RequestFiles
from clsd_generation.core.summary import RunReport
from clsd_generation.jobs.backend import RunContext
from clsd_generation.jobs.state import JobState
from clsd_generation.llm.batch import BatchGenerator
from clsd_generation.llm.client import ClientFactory, OpenAIChatClient
from clsd_generation.llm.live import LiveGenerator
from clsd_generation.llm.prompts import PromptSettings
from clsd_generation.llm.request_file import REQUEST_FILES_ENDPOINT, RequestFileRun
from clsd_generation.rules import DEFAULT_RULES, RULES_VERSION, rules_for
from clsd_generation.rules.backend import run_rules


@dataclass(frozen=True)
class RuleBackend:
    """Distractors by rule: ``rule_names`` from the registry, drawn with ``seed``; ``run_anyway``: on, although the
    estimate finds the rules would settle no sentence of a language (it is no part of the fingerprint)."""

    seed: int = DEFAULT_RULES_SEED
    rule_names: tuple[str, ...] = DEFAULT_RULES
    run_anyway: bool = False
    name: ClassVar[str] = "rules"

    def describe(self) -> str:
        return self.name

    def check(self, languages: tuple[Language, Language]) -> None:
        """A language read through a segmenter that is not installed stops here, before any work; every other
        language runs the rules it can (the run says which first: :func:`clsd_generation.rules.coverage.plan_line`)."""
        for language in languages:
            reading = word_reading(language.code)
            if not rules_for(language.code).tagged and reading.method in SEGMENTER_MODULES and not reading.available:
                raise CLSDError(reading.why_not)

    def fingerprint(self, languages: tuple[Language, Language]) -> dict[str, object]:
        return {"rules_version": RULES_VERSION, "seed": self.seed, "rules": list(self.rule_names)}

    def endpoint(self) -> str | None:
        return None

    def run(self, states: Sequence[JobState], context: RunContext) -> RunReport:
        return run_rules(states, context, seed=self.seed, rule_names=self.rule_names, run_anyway=self.run_anyway)


@dataclass(frozen=True)
class LLMBackend:
    """Distractors from an OpenAI-compatible endpoint, asked live, (``batch``) through the Batch API, or (``files``)
    through request and answer files for any batch engine. ``client_factory``: the provider asked live (an
    OpenAI-compatible endpoint by default; another API is one class, see :mod:`clsd_generation.llm.client`)."""

    llm: LLMSettings
    prompts: PromptSettings = PromptSettings()
    batch: BatchSettings | None = None
    files: RequestFiles | None = None
    client_factory: ClientFactory = field(default=OpenAIChatClient, compare=False)
    name: ClassVar[str] = "llm"

    def describe(self) -> str:
        mode = "batch" if self.batch else "request files" if self.files else "live"
        return f"llm ({mode}, {self.llm.model})"

    def check(self, languages: tuple[Language, Language]) -> None:
        if self.files is None:
            self.llm.api_key()  # a missing key stops the run before any request (request files send none)

    def fingerprint(self, languages: tuple[Language, Language]) -> dict[str, object]:
        prompts = {language.code: self.prompts.template_for(language.code) for language in languages}
        return {**fingerprint_of(self.llm), **fingerprint_of(self.prompts), "prompts": prompts}

    def endpoint(self) -> str | None:
        if self.files is not None:
            return REQUEST_FILES_ENDPOINT
        return public_url(self.llm.base_url) if self.llm.base_url else "OpenAI default"  # no credentials

    def run(self, states: Sequence[JobState], context: RunContext) -> RunReport:
        shared = (context.checkpoint, self.llm, self.prompts, context.bounds, context.report)
        if self.files is not None:
            run = RequestFileRun(*shared, max_attempts=context.max_attempts, progress=context.progress, files=self.files)
            return run.run(states)
        if self.batch is not None:
            return BatchGenerator(*shared, max_attempts=context.max_attempts, progress=context.progress, batch=self.batch).run(
                states
            )
        live = LiveGenerator(
            *shared, max_attempts=context.max_attempts, progress=context.progress, client_factory=self.client_factory
        )
        return live.run(states)
