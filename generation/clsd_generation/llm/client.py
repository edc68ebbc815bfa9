"""The one client every live LLM request goes through: distractors, the English pivot and the judge.

Two layers, so that a provider is one class and the jobs never see a provider's shapes:

* a provider (:class:`ChatClient`) turns one :class:`ChatRequest` into one :class:`Completion`, or raises an
  :class:`EndpointError` saying what kind of failure it was (:class:`ErrorKind`). :class:`OpenAIChatClient` is the
  one for OpenAI-compatible endpoints (OpenAI, vLLM, Ollama, llama.cpp's server, TEI's chat route); a provider with
  another API implements the same two methods and is handed to the job as its ``client_factory``;
* :class:`Asking` is what every job shares on top: a pool of ``concurrency`` workers, one progress bar, one reading
  of failures (a configuration problem, or a refusal before any answer, stops the run at once; a transient failure
  leaves the item for the next run; a refusal after answers fails that request only), one token count, and one
  reading of the run's first answers: when they all name another model than the one asked for, the run stops before
  sending more (:mod:`clsd_generation.llm.first_answers`).

The OpenAI client keeps the ``openai`` package's own retries (exponential backoff with jitter on 408, 409, 429, 5xx,
timeouts and dropped connections, honouring ``Retry-After``) and adds what it lacks: a shared gate, so that after a
429 with ``Retry-After`` *every* worker waits, not only the request that got it; and structured output asked in the
forms servers take (the JSON schema form, then the older ``json_object`` form, then plain text), moving on once for
the whole run when a server refuses a form.
"""

from __future__ import annotations

import asyncio
import email.utils
import enum
import json
import logging
import math
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from tqdm.auto import tqdm

from clsd_format.declared_settings import option_name
from clsd_format.errors import CLSDError
from clsd_format.redaction import redact
from clsd_generation.core.checkpoint import Usage
from clsd_generation.core.reading import answered_as_asked, named_model
from clsd_generation.core.settings import LLMSettings
from clsd_generation.llm.first_answers import FirstAnswers

logger = logging.getLogger(__name__)

T = TypeVar("T")
MAX_GATE_SECONDS = 120.0  # as the openai client: a longer Retry-After is not waited out


class ErrorKind(enum.Enum):
    """What a request that got no answer means for the run."""

    TRANSIENT = "transient"  # after the provider's retries (rate limit, server error, timeout): asked by the next run
    CONFIGURATION = "configuration"  # bad key, unknown model, wrong URL: no request can succeed, the run stops
    REFUSED = "refused"  # this request only (e.g. a 400 for one text); before any answer, a configuration problem


class EndpointError(Exception):
    """A request the provider did not answer, classified; ``name`` and ``message`` are printed (redacted)."""

    def __init__(self, kind: ErrorKind, name: str, message: str, status: int | None = None) -> None:
        super().__init__(f"{name}: {message}")
        self.kind = kind
        self.name = name
        self.message = message
        self.status = status


@dataclass(frozen=True)
class ChatRequest:
    """One question to a chat model, in no provider's shape. ``schema``: structured output, the answer's JSON schema."""

    prompt: str
    max_tokens: int
    temperature: float = 0.0
    top_p: float | None = None
    schema: Mapping[str, Any] | None = None
    schema_name: str = "answer"


@dataclass(frozen=True)
class Completion:
    """What one answer holds: its text (never a reasoning field), its usage, why it stopped, and the model that served it."""

    text: str
    usage: Usage
    finish_reason: str | None = None
    model: str | None = None

    @property
    def cut(self) -> bool:
        """Stopped by the token limit: the last item is a sentence broken off midway."""
        return self.finish_reason == "length"


class ChatClient(Protocol):
    """A provider: the two calls a job makes. Built inside the job's event loop by a :data:`ClientFactory`."""

    async def complete(self, request: ChatRequest) -> Completion:
        """The answer to ``request``, after the provider's own retries; :class:`EndpointError` if there is none."""
        ...

    async def aclose(self) -> None:
        """Release the connections."""
        ...


ClientFactory = Callable[[LLMSettings], ChatClient]


# --- OpenAI-compatible endpoints ---------------------------------------------------------------------------------


def response_formats(name: str, schema: Mapping[str, Any]) -> tuple[dict[str, Any], ...]:
    """The structured-output forms, in the order they are asked: OpenAI, vLLM and llama.cpp's own server take the JSON
    schema form; llama-cpp-python's server takes the older "json_object" form with a schema."""
    return (
        {"type": "json_schema", "json_schema": {"name": name, "schema": dict(schema)}},
        {"type": "json_object", "schema": dict(schema)},
    )


def openai_body(model: str, request: ChatRequest, response_format: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``request`` as an OpenAI chat-completions body: the same live, in a Batch API file and in a request file."""
    body: dict[str, Any] = {
        "model": model,
        "messages": [{"role": "user", "content": request.prompt}],
        "temperature": request.temperature,
        "max_tokens": request.max_tokens,
    }
    if request.top_p is not None:
        body["top_p"] = request.top_p
    if response_format:
        body["response_format"] = dict(response_format)
    return body


def read_completion(body: Any) -> Completion:
    """The answer text, token usage, finish reason and serving model of a chat-completion JSON body (live, Batch API,
    request files).

    Only ``message.content`` is the answer: a ``reasoning_content`` (or ``reasoning``) field is the model's
    thinking, never parsed. Lenient on purpose: a body without an answer gives "", which parses to no candidates
    and is asked again like any answer with too few distractors; the text itself is read strictly afterwards
    (:mod:`clsd_generation.core.reading`).
    """
    if not isinstance(body, dict):
        return Completion("", Usage())
    choices = body.get("choices")
    choice = choices[0] if isinstance(choices, list) and choices and isinstance(choices[0], dict) else {}
    message = choice.get("message")
    text = message.get("content") if isinstance(message, dict) else None
    usage = body.get("usage")
    usage = usage if isinstance(usage, dict) else {}
    finish = choice.get("finish_reason")
    model = body.get("model")
    return Completion(
        text if isinstance(text, str) else "",
        Usage(_count(usage.get("prompt_tokens")), _count(usage.get("completion_tokens"))),
        finish if isinstance(finish, str) else None,
        named_model(model) if isinstance(model, str) else None,  # "" or blanks: an unnamed model, as no field
    )


def json_body(raw: bytes) -> Any:
    """A server's JSON body as sent: bytes that are not UTF-8 are kept as lone surrogates (``surrogateescape``), so the
    answer they carry is refused by the one reading as not valid Unicode (:mod:`clsd_generation.core.reading`) and asked
    again, never an internal error; a body that is not JSON is an answer without text (asked again)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("utf-8", "surrogateescape")
    try:
        return json.loads(text)
    except ValueError:
        return None


def _count(value: Any) -> int:
    """A token count as a server sent it: a non-negative whole number, else 0 (never a string or a float summed)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


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


def classify_openai_error(exc: Exception) -> EndpointError:
    """An ``openai`` exception as the kind of failure it is (the caller catches ``openai.OpenAIError`` only)."""
    import openai

    status = getattr(exc, "status_code", None)
    name = type(exc).__name__ + (f" {status}" if status is not None else "")
    if isinstance(exc, openai.APIConnectionError):  # includes APITimeoutError
        kind = ErrorKind.TRANSIENT
    elif isinstance(exc, openai.APIStatusError) and (exc.status_code in (408, 409, 429) or exc.status_code >= 500):
        kind = ErrorKind.TRANSIENT
    elif isinstance(exc, openai.APIStatusError) and exc.status_code not in (401, 403, 404):
        kind = ErrorKind.REFUSED
    else:
        kind = ErrorKind.CONFIGURATION
    return EndpointError(kind, name, error_message(exc), status)


def error_message(exc: Exception) -> str:
    """The server's error text, redacted (it is printed, and stored as a failure reason that reaches the card)."""
    text = redact(str(getattr(exc, "message", None) or exc))
    return text if len(text) <= 300 else text[:297] + "..."


def batch_api_client(settings: LLMSettings) -> Any:
    """The ``openai`` client for the Batch API (files and batches: OpenAI's own protocol, not a chat request)."""
    import openai

    return openai.OpenAI(
        api_key=settings.api_key(), base_url=settings.base_url, timeout=settings.timeout, max_retries=settings.max_retries
    )


class OpenAIChatClient:
    """A :class:`ChatClient` for any OpenAI-compatible chat-completions endpoint, with the shared 429 gate."""

    def __init__(self, settings: LLMSettings) -> None:
        import openai

        self.settings = settings
        self._gate = RateLimitGate()
        hooks: dict[str, list[Callable[..., Any]]] = {"request": [self._gate.on_request], "response": [self._gate.on_response]}
        self._client = openai.AsyncOpenAI(
            api_key=settings.api_key(),
            base_url=settings.base_url,
            timeout=settings.timeout,
            max_retries=settings.max_retries,
            http_client=openai.DefaultAsyncHttpxClient(event_hooks=hooks),
        )
        self._format_index = 0  # the structured-output form asked for now, for every request of the run

    async def complete(self, request: ChatRequest) -> Completion:
        import openai

        while True:
            response_format = self._response_format(request)
            body = openai_body(self.settings.model, request, response_format)
            try:
                # client.post is the client's documented route for raw requests: same retries and errors as
                # chat.completions.create, without re-validating a body built here from plain types, and cast_to=object
                # returns the JSON as is instead of building response models (those two steps cost more CPU per
                # request than everything else at high concurrency).
                raw = await self._client.post("/chat/completions", body=body, cast_to=bytes)
            except openai.OpenAIError as exc:  # only the provider's answers are the provider's: a bug propagates
                if response_format is not None and self._structured_refused(exc, request, response_format):
                    continue  # asked again in the next form the server may take
                raise classify_openai_error(exc) from exc
            return read_completion(json_body(raw))

    async def aclose(self) -> None:
        await self._client.close()

    def _response_format(self, request: ChatRequest) -> dict[str, Any] | None:
        forms = response_formats(request.schema_name, request.schema) if request.schema is not None else ()
        return forms[self._format_index] if self._format_index < len(forms) else None

    def _structured_refused(self, exc: Exception, request: ChatRequest, response_format: dict[str, Any]) -> bool:
        """A refused structured request: move on to the next form (once, however many requests saw it).

        Refused: status 400 or 422, or a 500 whose message names response_format (llama-cpp-python's server
        answers a request it cannot validate with 500, after the client's retries).
        """
        status = getattr(exc, "status_code", None)
        if status not in (400, 422) and not (status == 500 and "response_format" in error_message(exc)):
            return False
        if self._response_format(request) == response_format:  # not moved on yet by another request that saw it
            self._format_index += 1
            following = self._response_format(request)
            logger.warning(
                "the endpoint refused response_format %s (%s); asking %s instead.",
                response_format["type"],
                error_message(exc)[:120],
                f"with response_format {following['type']}" if following else "for plain text",
            )
        return True


# --- what every job shares ----------------------------------------------------------------------------------------


@dataclass(eq=False)
class Asking:
    """One job's requests to one endpoint: ``settings.concurrency`` workers, a progress bar, failures read one way,
    tokens and requests counted, and the run's first answers read for their model before more requests are sent
    (:mod:`clsd_generation.llm.first_answers`). ``what`` names the job on the bar ("distractors", "pivot", "judge")."""

    settings: LLMSettings
    what: str
    unit: str
    client_factory: ClientFactory = OpenAIChatClient
    progress: bool = True
    usage: Usage = field(default_factory=Usage)
    errors: Counter[str] = field(default_factory=Counter)  # requests that got no answer, by error (after retries)
    answered: int = 0
    requests: int = 0  # requests sent this run (each one paid for, answered or not)
    postfix: Callable[[], dict[str, Any]] | None = None  # the job's own counts on the bar, beside tokens and errors
    _client: ChatClient | None = field(default=None, init=False)
    _first: FirstAnswers | None = field(default=None, init=False)

    def run(self, items: Sequence[T], handle: Callable[[T], Awaitable[None]]) -> None:
        """``handle`` every item (which asks through :meth:`ask`); the first error stops the rest and is raised, as is
        :class:`~clsd_generation.llm.first_answers.AnotherModelAnswers` when the run's first answers all named another model."""
        if items:
            asyncio.run(self._run(items, handle))

    def as_asked(self, completion: Completion) -> bool:
        """Whether ``completion`` is the answer of the model asked for (or of one the user accepted by name)."""
        return answered_as_asked(self.settings.model, completion.model, self.settings.accepted_models)

    async def _run(self, items: Sequence[T], handle: Callable[[T], Awaitable[None]]) -> None:
        bar = tqdm(total=len(items), desc=f"{self.what} ({self.settings.model})", unit=self.unit, disable=not self.progress)

        async def one(item: T) -> None:
            await handle(item)
            bar.update(1)
            extra = self.postfix() if self.postfix else {}
            bar.set_postfix(tokens=self.usage.total, errors=sum(self.errors.values()), **extra, refresh=False)

        settings = self.settings
        self._first = FirstAnswers.of_run(settings.model, settings.accepted_models, settings.concurrency, len(items))
        self._client = self.client_factory(settings)
        try:
            await run_queue(items, settings.concurrency, one)
            if self._first.stop is not None:  # decided by the last answers: nothing was left to send
                raise self._first.stop
        finally:
            await self._client.aclose()
            self._client = None
            bar.close()

    async def ask(self, request: ChatRequest) -> Completion:
        """The answer to ``request``. A configuration problem, or a refusal before any answer of this run, raises
        :class:`CLSDError` (the run stops), as does a request asked after the run's first answers all named another
        model (``AnotherModelAnswers``, nothing sent); any other failure raises the :class:`EndpointError`,
        counted, for the job to decide (leave the item for the next run, or fail it)."""
        if self._client is None or self._first is None:
            raise RuntimeError("Asking.ask is called from the handler that Asking.run runs")
        await self._first.before_request()
        self.requests += 1
        try:
            completion = await self._client.complete(request)
        except EndpointError as failure:
            self._first.unanswered()
            if failure.kind is ErrorKind.CONFIGURATION or (failure.kind is ErrorKind.REFUSED and self.answered == 0):
                raise CLSDError(
                    f"the endpoint refused the request ({failure.name}: {failure.message}). "
                    f"Check {option_name(LLMSettings, 'base_url')}, {option_name(LLMSettings, 'model')} and the API key."
                ) from failure
            self.errors[failure.name] += 1
            raise
        self._first.answered(completion.model)
        self.answered += 1
        self.usage = self.usage + completion.usage
        return completion


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
