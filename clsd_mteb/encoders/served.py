"""What the served-model encoders share, embeddings (``endpoint:``) or rerank (``rerank:``).

Both talk to a server through the official ``openai`` client, so both get its retries with
back-off, timeouts and ``Authorization: Bearer`` key, and both must say every failure in one
redacted line that names the server (``clsd evaluate`` exits with status 2 on it). The settings,
the client, the translation of the client's errors, the ``ModelMeta`` of a served model and the
requests in flight at once are written here once; each encoder adds only its route and how it
reads an answer.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from mteb.models import ModelMeta

from clsd_format import defaults
from clsd_format.errors import CLSDError
from clsd_format.redaction import public_url, redact, register_secret

if TYPE_CHECKING:
    from typing import Self  # Python 3.11; the package supports 3.10, where annotations stay strings

    import openai

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True)
class ServedConfig:
    """Where a served model is and how to talk to it; a subclass names its kind and ``--model`` prefix."""

    base_url: str  # e.g. http://127.0.0.1:8000/v1
    model: str  # the model name the server serves
    key_env: str = defaults.ENDPOINT_KEY_ENV  # environment variable holding the API key
    concurrency: int = defaults.ENDPOINT_CONCURRENCY
    max_retries: int = defaults.ENDPOINT_RETRIES
    timeout_s: float = defaults.ENDPOINT_TIMEOUT_S

    kind: ClassVar[str] = "served model"  # how an error line names the server
    spec_prefix: ClassVar[str] = ""  # the prefix of the ``--model`` form, e.g. "endpoint:"
    spec_example: ClassVar[str] = "my-model@http://127.0.0.1:8000"  # MODEL@BASE_URL, for the error line
    timeout_hint: ClassVar[str] = ""  # what a user can do about a slow server, if anything

    @property
    def where(self) -> str:
        return f"{self.kind} {public_url(self.base_url)} (model {self.model!r})"

    @classmethod
    def from_spec(cls, spec: str) -> Self:
        """``PREFIX MODEL@BASE_URL`` (the form ``--model`` accepts), other settings at their defaults."""
        model, sep, base_url = spec.removeprefix(cls.spec_prefix).rpartition("@")
        if not sep or not model or not base_url.startswith(("http://", "https://")):
            raise CLSDError(f"expected {cls.spec_prefix}MODEL@BASE_URL, e.g. {cls.spec_prefix}{cls.spec_example}; got {spec!r}")
        return cls(base_url=base_url, model=model)


def one_line(text: object) -> str:
    """A server's or client's error text on one line, redacted (a server may echo the API key)."""
    return redact(re.sub(r"\s+", " ", str(text)).strip())


def openai_client(config: ServedConfig) -> openai.OpenAI:
    """The client for ``config``, with the key from its environment variable, registered for redaction first."""
    import openai

    key = os.environ.get(config.key_env, "")
    if not key:
        raise CLSDError(
            f"{config.where}: set the environment variable {config.key_env} to its API key "
            "(any non-empty value for a server that needs none)"
        )
    register_secret(key)  # redacted from every error line and log record from now on
    return openai.OpenAI(base_url=config.base_url, api_key=key, max_retries=config.max_retries, timeout=config.timeout_s)


def finite_number(value: Any) -> float:
    """A JSON number as a finite float64; a string, a boolean, null, NaN, an infinity or a number beyond float64 is refused."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"not a number: {value!r}"[:120])
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if not math.isfinite(number):
        raise ValueError(f"not a finite float64 number: {str(value)[:40]}")
    return number


def _json_float(text: str) -> float:
    """A JSON fraction or exponent as Python's ``json`` reads it, but beyond float64 (``1e400``) refused, not infinity."""
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"number {text[:40]} is beyond float64")
    return number


def _json_int(text: str) -> int:
    """A JSON integer, refused when no float64 holds it (a 400-digit score)."""
    number = int(text)  # Python refuses over 4,300 digits itself, with a ValueError
    try:
        float(number)
    except OverflowError:
        raise ValueError(f"an integer of {len(text.lstrip('-'))} digits is beyond float64") from None
    return number


def _json_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def read_body(config: ServedConfig, content: bytes) -> Any:
    """A server's answer as JSON, read as its format defines: UTF-8 (a leading BOM allowed), every number a finite
    float64 (``NaN``, ``Infinity``, ``1e400`` and 400-digit integers are refused); one CLSDError line otherwise."""
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CLSDError(
            f"{config.where}: refused answer: its body is not valid UTF-8 (byte {content[exc.start]:#04x} at offset {exc.start})"
        ) from exc
    try:
        return json.loads(text, parse_float=_json_float, parse_int=_json_int, parse_constant=_json_constant)
    except (ValueError, RecursionError) as exc:
        raise CLSDError(f"{config.where}: malformed answer, not JSON of finite numbers ({one_line(exc)})") from exc


def served_post(config: ServedConfig, client: openai.OpenAI, route: str, body: dict[str, Any]) -> Any:
    """``POST {base_url}{route}`` with ``body`` through the client (its retries, timeout and key), the answer read by
    :func:`read_body`: the bytes as the server sent them, never a text the client decoded with replacements."""
    import httpx

    response = served_call(config, lambda: client.post(route, cast_to=httpx.Response, body=body))
    return read_body(config, response.content)


def _status_text(exc: openai.APIStatusError) -> str:
    """What a refused request's body says, on one line; a body that is not UTF-8 is said to be so, not shown mangled."""
    try:
        exc.response.content.decode("utf-8")  # read already: no request here streams
    except UnicodeDecodeError:
        return "refused answer: its body is not valid UTF-8"
    return one_line(exc.message)


def served_call(config: ServedConfig, call: Callable[[], T]) -> T:
    """``call()`` (one request through the client), its failures turned into one-line CLSDErrors naming the server."""
    import openai

    where = config.where
    try:
        return call()
    except openai.AuthenticationError as exc:
        raise CLSDError(f"{where}: rejected the API key in ${config.key_env} (HTTP {exc.status_code})") from exc
    except openai.APIStatusError as exc:
        raise CLSDError(f"{where}: answered HTTP {exc.status_code}: {_status_text(exc)}") from exc
    except openai.APITimeoutError as exc:  # a subclass of APIConnectionError: the server is there, but slow
        raise CLSDError(
            f"{where}: no answer within {config.timeout_s:g} s per request, after "
            f"{config.max_retries} retries{config.timeout_hint}"
        ) from exc
    except openai.APIConnectionError as exc:
        raise CLSDError(f"{where}: cannot connect ({one_line(exc)}); is the server running?") from exc
    except (openai.OpenAIError, ValueError, TypeError) as exc:
        raise CLSDError(f"{where}: malformed answer ({type(exc).__name__}: {one_line(exc)})") from exc


def in_flight(config: ServedConfig, request: Callable[[R], T], items: Iterable[R]) -> list[T]:
    """``request`` over ``items``, up to ``config.concurrency`` at once, answers in the order of ``items``."""
    with ThreadPoolExecutor(max_workers=max(1, config.concurrency)) as pool:
        return list(pool.map(request, items))


def served_meta(config: ServedConfig, name: str, identity: Sequence[str], **known: Any) -> ModelMeta:
    """A served model's ``ModelMeta``: a server cannot say which weights it serves, so the revision
    hashes URL, model name and ``identity`` (the same server always files its results under the same
    revision, two different ones never share one); ``known``: what the caller knows (dimension, kind)."""
    hashed = "\n".join([config.base_url.rstrip("/"), config.model, *identity])
    fields: dict[str, Any] = {
        "release_date": None,
        "languages": None,
        "n_parameters": None,
        "memory_usage_mb": None,
        "max_tokens": None,
        "embed_dim": None,
        "license": None,
        "open_weights": None,
        "public_training_code": None,
        "public_training_data": None,
        "similarity_fn_name": None,
        "training_datasets": None,
    }
    return ModelMeta(
        loader=None,
        name=name,
        revision=f"served-{hashlib.sha256(hashed.encode('utf-8')).hexdigest()[:12]}",
        framework=["API"],
        reference=public_url(config.base_url) if config.base_url.startswith("https://") else None,
        use_instructions=False,
        modalities=["text"],
        **{**fields, **known},
    )
