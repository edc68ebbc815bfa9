"""A provider that is not OpenAI-shaped, end to end: a real server on 127.0.0.1 and the one class the generator needs.

The server speaks a messages API of the kind several providers use (``POST /v1/messages`` with an ``x-api-key``
header; the answer's text in ``content`` blocks, ``stop_reason`` ``end_turn`` or ``max_tokens``, usage as
``input_tokens`` and ``output_tokens``; errors as ``{"type": "error", "error": {...}}``). Its answers are the fake
OpenAI server's (:func:`tests.helpers.fake_openai.completion`), so distractors, translations and verdicts come
out the same. :class:`MessagesAPIClient` is the provider: the one class a user writes for such an API
(:class:`clsd_generation.llm.client.ChatClient`).
"""

from __future__ import annotations

import json
import socket
import threading
from collections import Counter
from collections.abc import Iterable, Mapping
from http.server import BaseHTTPRequestHandler
from typing import Any

import httpx

from clsd_generation.core.checkpoint import Usage
from clsd_generation.core.settings import LLMSettings
from clsd_generation.llm.client import ChatRequest, Completion, EndpointError, ErrorKind
from tests.helpers.fake_openai import completion
from tests.helpers.local_server import LocalServer

ERROR_KINDS = {401: ErrorKind.CONFIGURATION, 403: ErrorKind.CONFIGURATION, 404: ErrorKind.CONFIGURATION}


class MessagesAPIClient:
    """A :class:`~clsd_generation.llm.client.ChatClient` for the messages API: its shapes in, a Completion out."""

    def __init__(self, settings: LLMSettings) -> None:
        self.settings = settings
        self._http = httpx.AsyncClient(
            base_url=settings.base_url or "", headers={"x-api-key": settings.api_key()}, timeout=settings.timeout
        )

    async def complete(self, request: ChatRequest) -> Completion:
        body = {
            "model": self.settings.model,
            "max_tokens": request.max_tokens,
            "temperature": request.temperature,
            "messages": [{"role": "user", "content": request.prompt}],  # no structured output: plain text is asked
        }
        failure = EndpointError(ErrorKind.TRANSIENT, "no attempt", "")
        for _ in range(self.settings.max_retries + 1):
            try:
                response = await self._http.post("/messages", json=body)
            except httpx.TransportError as exc:
                failure = EndpointError(ErrorKind.TRANSIENT, type(exc).__name__, str(exc))
                continue
            if response.status_code == 200:
                return self._completion(response.json())
            error = response.json().get("error", {})
            kind = ERROR_KINDS.get(response.status_code)
            if kind is None:
                kind = (
                    ErrorKind.TRANSIENT
                    if response.status_code in (429, 529) or response.status_code >= 500
                    else ErrorKind.REFUSED
                )
            failure = EndpointError(
                kind, f"{error.get('type')} {response.status_code}", error.get("message", ""), response.status_code
            )
            if kind is not ErrorKind.TRANSIENT:
                break
        raise failure

    def _completion(self, answer: dict[str, Any]) -> Completion:
        text = "".join(block["text"] for block in answer["content"] if block.get("type") == "text")
        usage = answer.get("usage", {})
        finish = {"max_tokens": "length", "end_turn": "stop"}.get(answer.get("stop_reason", ""))
        return Completion(text, Usage(usage.get("input_tokens", 0), usage.get("output_tokens", 0)), finish, answer.get("model"))

    async def aclose(self) -> None:
        await self._http.aclose()


class MessagesServer(LocalServer):
    """The messages API on 127.0.0.1; ``scripts`` maps a text in the prompt to statuses to answer first (401, 529)."""

    def __init__(self, scripts: Mapping[str, Iterable[int]] | None = None) -> None:
        self.scripts = {key: list(statuses) for key, statuses in (scripts or {}).items()}
        self.paths: Counter[str] = Counter()
        self.keys: set[str] = set()
        self.usage = Usage()
        self.lock = threading.Lock()
        super().__init__(_handler(self), "/v1")

    def answer(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        prompt = body["messages"][-1]["content"]
        sentence = prompt.split("\n")[-1]
        with self.lock:
            script = next((statuses for key, statuses in self.scripts.items() if key in prompt), [])
            status = script.pop(0) if script else 200
        if status != 200:
            kind = {401: "authentication_error", 529: "overloaded_error"}.get(status, "api_error")
            return status, {"type": "error", "error": {"type": kind, "message": f"scripted {status}"}}
        chat = completion(body["model"], sentence, "good", prompt)
        usage = chat["usage"]
        with self.lock:
            self.usage = self.usage + Usage(usage["prompt_tokens"], usage["completion_tokens"])
        return 200, {
            "type": "message",
            "role": "assistant",
            "model": body["model"],
            "content": [{"type": "text", "text": chat["choices"][0]["message"]["content"]}],
            "stop_reason": "end_turn",
            "usage": {"input_tokens": usage["prompt_tokens"], "output_tokens": usage["completion_tokens"]},
        }


def _handler(server: MessagesServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def setup(self) -> None:
            super().setup()
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # no 40 ms wait per answer (Nagle)

        def log_message(self, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
            with server.lock:
                server.paths[self.path] += 1
                server.keys.add(self.headers.get("x-api-key") or "")
            status, answer = server.answer(body) if self.path == "/v1/messages" else (404, {"type": "error", "error": {}})
            payload = json.dumps(answer).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

    return Handler
