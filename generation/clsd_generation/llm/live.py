"""Distractors from any chat endpoint, asked live (the OpenAI-compatible ones by default: OpenAI, vLLM, Ollama,
llama.cpp), and what live mode shares with the Batch API and request files: the request for one sentence and how
its answer is read.

Transport (workers, retries, the 429 gate, failures, tokens) is :mod:`clsd_generation.llm.client`'s, the same for
the pivot and the judge. Added here is what is particular to distractors:

* what happens when a request gets no answer after retries: the sentence stays unfinished (nothing recorded), the
  run goes on with the others and ends telling the user to repeat the command, which resumes; a request the
  endpoint refuses after it has answered others fails that sentence, with the endpoint's reason;
* re-asking when an answer has fewer than four valid distractors (a content problem, not transport; under the
  paper protocol only when it has fewer than four parsed items), counted in the run report;
* the model behind every answer, live, from the Batch API or from a request file: each attempt records the model asked
  for and the one the answer names, and an answer of another model is refused (its attempt spent, the sentence asked
  again) unless the user allowed that model by name (:func:`clsd_generation.core.reading.answered_as_asked`); live,
  when the run's first answers all name another model, the run stops before sending more
  (:mod:`clsd_generation.llm.first_answers`), its report saying why (``stopped``) beside what was paid for.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from clsd_generation.checks.candidates import UNCHECKED_PREFIX
from clsd_generation.checks.parsing import parse_answer, strip_reasoning
from clsd_generation.core.checkpoint import Answer, Checkpoint
from clsd_generation.core.outcomes import AnswerEffect, Outcome
from clsd_generation.core.reading import OTHER_MODEL, Reading, answered_as_asked, looks_structured, read_structured, read_text
from clsd_generation.core.settings import DEFAULT_MAX_ATTEMPTS, LLMSettings, ValidationBounds
from clsd_generation.core.summary import RunReport
from clsd_generation.jobs.state import JobState
from clsd_generation.llm.client import (
    Asking,
    ChatRequest,
    ClientFactory,
    Completion,
    EndpointError,
    ErrorKind,
    OpenAIChatClient,
    openai_body,
    response_formats,
)
from clsd_generation.llm.first_answers import AnotherModelAnswers
from clsd_generation.llm.prompts import PromptSettings

# Structured output: the four distractors as a JSON object (a server that takes no structured form is asked for
# plain text, see OpenAIChatClient).
DISTRACTORS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"distractors": {"type": "array", "items": {"type": "string"}, "minItems": 4, "maxItems": 4}},
    "required": ["distractors"],
    "additionalProperties": False,
}


def distractor_request(settings: LLMSettings, prompts: PromptSettings, state: JobState) -> ChatRequest:
    """The question for one sentence, in no provider's shape."""
    language = state.job.language
    return ChatRequest(
        prompts.render(language.code, language.name, state.job.sentence),
        settings.max_tokens,
        prompts.temperature,
        prompts.top_p,
        DISTRACTORS_SCHEMA if settings.structured else None,
        "distractors",
    )


def chat_request_body(settings: LLMSettings, prompts: PromptSettings, state: JobState) -> dict[str, Any]:
    """The OpenAI body for one sentence, as a Batch API file and a request file hold it (structured: the JSON schema
    form, which the Batch API and vLLM take)."""
    request = distractor_request(settings, prompts, state)
    response_format = response_formats(request.schema_name, request.schema)[0] if request.schema is not None else None
    return openai_body(settings.model, request, response_format)


@dataclass(eq=False)
class EndpointRun:
    """What live mode, the Batch API and request files share: where answers are recorded and counted, how one is read."""

    checkpoint: Checkpoint
    settings: LLMSettings
    prompts: PromptSettings
    bounds: ValidationBounds
    report: RunReport
    max_attempts: int = DEFAULT_MAX_ATTEMPTS
    progress: bool = True

    def read_answer(self, state: JobState, completion: Completion, origin: str) -> tuple[Answer, AnswerEffect]:
        """One answer as it is stored, and what it did to its sentence (counted in the run report).

        Another model's answer is refused before its text is read, cut or not: it spends its attempt, so a server that
        always answers with another model fails its sentences after ``max_attempts`` answers instead of asking forever.
        """
        self.report.usage = self.report.usage + completion.usage
        self.report.token_limit = self.settings.max_tokens
        candidates, reading = self.candidates(completion)
        cut = completion.cut and reading.refusal != OTHER_MODEL
        effect = state.absorb(candidates, self.bounds, self.max_attempts, cut=cut)
        if effect.settled is not None:
            state.release()
        self.report.count_answer(effect)
        self.report.cut += cut
        self.report.count_model(self.settings.model, completion.model, refused=reading.refusal == OTHER_MODEL)
        rejections = effect.refused + [f"{UNCHECKED_PREFIX}{kind}" for kind in effect.unchecked.elements()]
        if reading.refusal is not None:
            self.report.refused_answers[reading.refusal] += 1
            rejections.append(reading.refusal)
        answer = Answer(
            state.attempts,
            reading.text,
            candidates,
            origin,
            completion.usage,
            (),
            completion.finish_reason,
            rejections,
            self.settings.model,
            completion.model,
        )
        return answer, effect

    def candidates(self, completion: Completion) -> tuple[list[str], Reading]:
        """The answer's candidates (none when cut or refused) and the reading of it that may be stored."""
        reading = read_text(completion.text, self.settings.max_tokens)
        if not answered_as_asked(self.settings.model, completion.model, self.settings.accepted_models):
            return [], Reading(reading.text, OTHER_MODEL)  # the text as read_text bounds it
        if reading.refusal is not None or completion.cut:
            return [], reading
        answer = strip_reasoning(reading.text)
        if self.settings.structured and looks_structured(answer):  # JSON is read as JSON only, never as text
            items = read_structured(answer)
            return ([], Reading(reading.text, items)) if isinstance(items, str) else (items, reading)
        return parse_answer(answer), reading

    def count_limited(self, states: Sequence[JobState]) -> None:
        """Sentences left unfinished because this run's token limit cut every answer (a larger limit continues them)."""
        self.report.limited = sum(state.limited for state in states)


@dataclass(eq=False)
class LiveGenerator(EndpointRun):
    """Asks the endpoint with ``settings.concurrency`` requests in flight and records every answer."""

    client_factory: ClientFactory = OpenAIChatClient
    _asking: Asking = field(init=False)

    def run(self, states: Sequence[JobState]) -> RunReport:
        self._asking = Asking(
            self.settings,
            "distractors",
            "sentence",
            self.client_factory,
            self.progress,
            postfix=lambda: {"failed": self.report.failed, "unfinished": self.report.unfinished},
        )
        before = self.report.ok + self.report.failed + self.report.unfinished
        try:
            self._asking.run(states, self._settle_and_count)
        except AnotherModelAnswers as stop:  # the first answers all named another model: nothing more was sent
            self.report.stopped = str(stop)
            ended = self.report.ok + self.report.failed + self.report.unfinished - before
            self.report.unfinished += len(states) - ended  # asked again by the next run
        finally:
            self.report.errors.update(self._asking.errors)
            self.report.requests += self._asking.requests
            self.count_limited(states)
        return self.report

    async def _settle_and_count(self, state: JobState) -> None:
        self.report.count(await self._settle(state))

    async def _settle(self, state: JobState) -> Outcome:
        """Ask until the sentence is settled, or until it must wait for the next run."""
        request = distractor_request(self.settings, self.prompts, state)
        while True:
            try:
                completion = await self._asking.ask(request)
            except EndpointError as failure:
                return self._unanswered(failure, state)
            answer, effect = self.read_answer(state, completion, f"live:{completion.model or self.settings.model}")
            self.checkpoint.record(state.job.pair_id, state.job.language.code, answer=answer, result=effect.settled)
            if effect.settled is not None:
                return Outcome.of(effect.settled)
            if state.limited:
                return Outcome.UNFINISHED  # the token limit cut every answer: a run with a larger one continues
            self.report.reasked += 1

    def _unanswered(self, failure: EndpointError, state: JobState) -> Outcome:
        """A request that got no answer: the sentence waits for the next run (transient), or fails (refused)."""
        if failure.kind is ErrorKind.TRANSIENT:
            return Outcome.UNFINISHED
        rejected = state.reject(f"request rejected by the endpoint ({failure.name}: {failure.message})")
        self.checkpoint.record(state.job.pair_id, state.job.language.code, result=rejected)
        return Outcome.FAILED
