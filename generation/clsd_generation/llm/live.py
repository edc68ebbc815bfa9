"""Distractors from any OpenAI-compatible chat-completions endpoint (OpenAI, vLLM, Ollama, llama.cpp).

Retries are the ``openai`` client's own: exponential backoff with jitter on 408, 409, 429, 5xx,
timeouts and dropped connections, honouring ``Retry-After``. Added here is only what it lacks:

* a shared gate, so that after a 429 with ``Retry-After`` *every* worker waits, not just the request
  that got it (otherwise the other workers keep sending into the limit);
* what happens when retries run out: the sentence stays unfinished (nothing recorded), the run goes
  on with the others and ends telling the user to repeat the command, which resumes;
* re-asking when an answer has fewer than four valid distractors (a content problem, not transport;
  under the paper protocol only when it has fewer than four parsed items), counted in the run report.

Requests that cannot succeed (bad key, unknown model) stop the run at once with a readable message.
"""

from __future__ import annotations

import asyncio
import email.utils
import logging
import math
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from tqdm.auto import tqdm

from clsd_format.errors import CLSDError
from clsd_format.redaction import redact
from clsd_generation.checks.candidates import UNCHECKED_PREFIX, reason_kind
from clsd_generation.llm.parsing import parse_answer, strip_reasoning
from clsd_generation.llm.prompts import PromptSettings
from clsd_generation.llm.reading import Reading, looks_structured, read_structured, read_text
from clsd_generation.run.checkpoint import Answer, Checkpoint, Usage
from clsd_generation.run.jobs import FinalResult, JobState
from clsd_generation.run.settings import DEFAULT_MAX_ATTEMPTS, LLMSettings, ValidationBounds
from clsd_generation.run.summary import RunReport

logger = logging.getLogger(__name__)

T = TypeVar("T")
MAX_GATE_SECONDS = 120.0  # as the openai client: a longer Retry-After is not waited out


class RateLimitGate:
    """Holds every new request until the latest 429's ``Retry-After`` has passed."""

    def __init__(self) -> None:
        self._until = 0.0

    async def on_request(self, request: Any) -> None:
        delay = self._until - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)

    async def on_response(self, response: Any) -> None:
        if response.status_code == 429:
            delay = retry_after_seconds(response.headers)
            if delay is not None:
                self._until = max(self._until, time.monotonic() + min(delay, MAX_GATE_SECONDS))


def retry_after_seconds(headers: Any) -> float | None:
    """``retry-after-ms``, or ``retry-after`` in seconds or as an HTTP date."""
    for name, divisor in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            seconds = float(value) / divisor
        except ValueError:
            parsed = email.utils.parsedate_to_datetime(value) if name == "retry-after" else None
            if parsed is None:
                continue
            seconds = parsed.timestamp() - time.time()
        if math.isfinite(seconds) and seconds >= 0:
            return seconds
    return None


def make_async_client(settings: LLMSettings, gate: RateLimitGate | None = None) -> Any:
    import openai

    http_client = None
    if gate is not None:
        http_client = openai.DefaultAsyncHttpxClient(event_hooks={"request": [gate.on_request], "response": [gate.on_response]})
    return openai.AsyncOpenAI(
        api_key=settings.api_key(),
        base_url=settings.base_url,
        timeout=settings.timeout,
        max_retries=settings.max_retries,
        http_client=http_client,
    )


# Structured output: the four distractors as a JSON object. OpenAI, vLLM and llama.cpp's own server take the JSON
# schema form; llama-cpp-python's server takes the older "json_object" form with a schema; a server that refuses
# both is asked for plain text (LiveGenerator says so once).
DISTRACTORS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"distractors": {"type": "array", "items": {"type": "string"}, "minItems": 4, "maxItems": 4}},
    "required": ["distractors"],
    "additionalProperties": False,
}
RESPONSE_FORMATS: tuple[dict[str, Any], ...] = (
    {"type": "json_schema", "json_schema": {"name": "distractors", "schema": DISTRACTORS_SCHEMA}},
    {"type": "json_object", "schema": DISTRACTORS_SCHEMA},
)


def chat_request_body(
    settings: LLMSettings, prompts: PromptSettings, state: JobState, response_format: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The request for one sentence: the same body live and in a Batch API file.

    ``response_format``: the structured-output form to ask for (live mode: the one the server accepts; the Batch
    API: the JSON schema form), or None for plain text.
    """
    language = state.job.language
    body: dict[str, Any] = {
        "model": settings.model,
        "messages": [{"role": "user", "content": prompts.render(language.code, language.name, state.job.sentence)}],
        "temperature": prompts.temperature,
        "top_p": prompts.top_p,
        "max_tokens": settings.max_tokens,
    }
    if response_format:
        body["response_format"] = response_format
    return body


@dataclass(frozen=True)
class Completion:
    """What one chat-completion body holds: the answer (never a reasoning field), its usage and why it stopped."""

    text: str
    usage: Usage
    finish_reason: str | None = None

    @property
    def cut(self) -> bool:
        """Stopped by the token limit: the last item is a sentence broken off midway."""
        return self.finish_reason == "length"


def read_completion(body: Any) -> Completion:
    """The answer text, token usage and finish reason of a chat-completion JSON body (live or Batch API).

    Only ``message.content`` is the answer: a ``reasoning_content`` (or ``reasoning``) field is the model's
    thinking, never parsed. Lenient on purpose: a body without an answer gives "", which parses to no candidates
    and is asked again like any answer with too few distractors.
    """
    if not isinstance(body, dict):
        return Completion("", Usage())
    choices = body.get("choices") or [{}]
    choice = choices[0] if isinstance(choices[0], dict) else {}
    text = (choice.get("message") or {}).get("content") or ""
    usage = body.get("usage") or {}
    finish = choice.get("finish_reason")
    return Completion(
        text if isinstance(text, str) else "",
        Usage(usage.get("prompt_tokens") or 0, usage.get("completion_tokens") or 0),
        finish if isinstance(finish, str) else None,
    )


async def run_queue(items: Sequence[T], concurrency: int, handle: Callable[[T], Awaitable[None]]) -> None:
    """``handle`` every item, ``concurrency`` at a time; the first error cancels the rest and is raised."""
    queue: asyncio.Queue[T] = asyncio.Queue()
    for item in items:
        queue.put_nowait(item)

    async def worker() -> None:
        while True:
            try:
                item = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            await handle(item)

    workers = [asyncio.create_task(worker()) for _ in range(max(1, concurrency))]
    try:
        await asyncio.gather(*workers)
    except BaseException:
        for task in workers:
            task.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
        raise


def classify_api_error(exc: Exception) -> str:
    """'retry' (transient; leave unfinished), 'abort' (configuration) or 'reject' (this request only)."""
    import openai

    if isinstance(exc, openai.APIConnectionError):  # includes APITimeoutError
        return "retry"
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        if status in (408, 409, 429) or status >= 500:
            return "retry"
        if status in (401, 403, 404):
            return "abort"
        return "reject"
    return "abort"


@dataclass(eq=False)
class EndpointRun:
    """What live and Batch API mode share: where answers are recorded and counted, and how one is judged."""

    checkpoint: Checkpoint
    settings: LLMSettings
    prompts: PromptSettings
    bounds: ValidationBounds
    report: RunReport
    max_attempts: int = DEFAULT_MAX_ATTEMPTS
    progress: bool = True

    def judge(self, state: JobState, body: Any, origin: str) -> tuple[Answer, FinalResult | None]:
        """One chat-completion body as the answer to store, and the sentence's result once settled."""
        completion = read_completion(body)
        self.report.usage = self.report.usage + completion.usage
        candidates, reading = self.candidates(completion)
        verdict = state.verdict
        markup_before, unchecked_before, rejected_before = (
            Counter(verdict.markup),
            Counter(verdict.unchecked),
            len(verdict.rejected),
        )
        was_limited = state.limited
        result = state.absorb(candidates, self.bounds, self.max_attempts, cut=completion.cut)
        self.report.token_limit = self.settings.max_tokens
        # counted once; a Batch API round may still settle a limited sentence (it asks every unfinished one)
        self.report.limited += (state.limited and not was_limited) - (was_limited and result is not None)
        if result is not None:
            state.release()  # ``verdict`` below is the settled one, still read here
        self.report.markup.update(verdict.markup - markup_before)  # this answer's markup, refused or kept
        refused = [reason_kind(reason) for _, reason in verdict.rejected[rejected_before:]]
        flagged = verdict.unchecked - unchecked_before
        self.report.rejections.update(refused)
        self.report.unchecked.update(flagged)
        self.report.cut += completion.cut
        rejections = refused + [f"{UNCHECKED_PREFIX}{kind}" for kind in flagged.elements()]
        if reading.refusal is not None:
            self.report.refused_answers[reading.refusal] += 1
            rejections.append(reading.refusal)
        answer = Answer(
            state.attempts, reading.text, candidates, origin, completion.usage, (), completion.finish_reason, rejections
        )
        return answer, result

    def candidates(self, completion: Completion) -> tuple[list[str], Reading]:
        """The answer's candidates (none when cut or refused) and the reading of it that may be stored."""
        reading = read_text(completion.text, self.settings.max_tokens)
        if reading.refusal is not None or completion.cut:
            return [], reading
        answer = strip_reasoning(reading.text)
        if self.settings.structured and looks_structured(answer):  # JSON is read as JSON only, never as text
            items = read_structured(answer)
            return ([], Reading(reading.text, items)) if isinstance(items, str) else (items, reading)
        return parse_answer(answer), reading


@dataclass(eq=False)
class LiveGenerator(EndpointRun):
    """Asks the endpoint with ``settings.concurrency`` requests in flight and records every answer."""

    _answered: int = field(default=0, init=False)  # successful responses this run: a 4xx before any means a configuration problem
    _format_index: int = field(default=0, init=False)  # the structured-output form of RESPONSE_FORMATS asked for now

    def run(self, states: Sequence[JobState]) -> RunReport:
        if states:
            asyncio.run(self._run(states))
        return self.report

    async def _run(self, states: Sequence[JobState]) -> None:
        gate = RateLimitGate()
        client = make_async_client(self.settings, gate)
        queue: asyncio.Queue[JobState] = asyncio.Queue()
        for state in states:
            queue.put_nowait(state)
        bar = tqdm(total=len(states), desc=f"distractors ({self.settings.model})", unit="sentence", disable=not self.progress)
        try:
            async with client:
                workers = [
                    asyncio.create_task(self._worker(client, queue, bar)) for _ in range(max(1, self.settings.concurrency))
                ]
                try:
                    await asyncio.gather(*workers)
                except BaseException:
                    for worker in workers:
                        worker.cancel()
                    await asyncio.gather(*workers, return_exceptions=True)
                    raise
        finally:
            bar.close()

    async def _worker(self, client: Any, queue: asyncio.Queue[JobState], bar: Any) -> None:
        while True:
            try:
                state = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            outcome = await self._settle(client, state)
            if outcome == "ok":
                self.report.ok += 1
            elif outcome == "failed":
                self.report.failed += 1
            else:
                self.report.unfinished += 1
            bar.update(1)
            bar.set_postfix(
                tokens=self.report.usage.total, failed=self.report.failed, unfinished=self.report.unfinished, refresh=False
            )

    async def _settle(self, client: Any, state: JobState) -> str:
        """Ask until the sentence is settled; 'ok', 'failed' or 'unfinished'."""
        while True:
            response_format = self._response_format()
            body = chat_request_body(self.settings, self.prompts, state, response_format)
            try:
                # client.post is the client's documented route for raw requests: same retries and errors
                # as chat.completions.create, without re-validating a body built here from plain types,
                # and cast_to=object returns the JSON as is instead of building response models (those
                # two steps cost more CPU per request than everything else at high concurrency).
                response = await client.post("/chat/completions", body=body, cast_to=object)
            except Exception as exc:
                if response_format and self._structured_refused(exc, response_format):
                    continue  # asked again in the next form the server may take
                return self._failed_request(exc, state)
            self._answered += 1
            served_model = response.get("model") if isinstance(response, dict) else None
            answer, result = self.judge(state, response, f"live:{served_model or self.settings.model}")
            self.checkpoint.record(state.job.pair_id, state.job.language.code, answer=answer, result=result)
            if result is not None:
                return result[0]
            if state.limited:
                return "unfinished"  # the token limit cut every answer: a run with a larger one continues
            self.report.reasked += 1

    def _response_format(self) -> dict[str, Any] | None:
        """The structured-output form to ask for now; None for plain text."""
        if not self.settings.structured or self._format_index >= len(RESPONSE_FORMATS):
            return None
        return RESPONSE_FORMATS[self._format_index]

    def _structured_refused(self, exc: Exception, response_format: dict[str, Any]) -> bool:
        """A refused structured request: move on to the next form (once, however many requests saw it).

        Refused: status 400 or 422, or a 500 whose message names response_format (llama-cpp-python's server
        answers a request it cannot validate with 500, after the client's retries).
        """
        status = getattr(exc, "status_code", None)
        if status not in (400, 422) and not (status == 500 and "response_format" in error_message(exc)):
            return False
        if self._response_format() is response_format:
            self._format_index += 1
            following = self._response_format()
            logger.warning(
                "the endpoint refused response_format %s (%s); asking %s instead.",
                response_format["type"],
                error_message(exc)[:120],
                f"with response_format {following['type']}" if following else "for plain text",
            )
        return True

    def _failed_request(self, exc: Exception, state: JobState) -> str:
        """A request that got no answer: stop the run (configuration), leave the sentence unfinished, or fail it."""
        kind = classify_api_error(exc)
        name = f"{type(exc).__name__}" + (f" {exc.status_code}" if hasattr(exc, "status_code") else "")
        if kind == "abort" or (kind == "reject" and self._answered == 0):
            raise CLSDError(
                f"the endpoint refused the request ({name}: {error_message(exc)}). Check --base-url, --model and the API key."
            ) from exc
        self.report.errors[name] += 1
        if kind == "retry":
            return "unfinished"
        rejected = state.reject(f"request rejected by the endpoint ({name}: {error_message(exc)})")
        self.checkpoint.record(state.job.pair_id, state.job.language.code, result=rejected)
        return "failed"


def error_message(exc: Exception) -> str:
    """The server's error text, redacted (it is printed, and stored as a failure reason that reaches the card)."""
    text = redact(str(getattr(exc, "message", None) or exc))
    return text if len(text) <= 300 else text[:297] + "..."
