"""An embeddings and rerank server on 127.0.0.1 whose answers a test writes byte for byte, or that hangs.

``POST .../embeddings`` answers ``{"data": [{"index", "embedding"}]}`` with ``vector(text)`` per input, and
``POST .../rerank`` answers ``{"results": [{"index", "relevance_score"}]}`` with ``score(query, document)``
per document. A number may be given as the JSON text to send (``"1" * 400``, ``"1e400"``), which Python's
``json`` would never write. ``raw`` replaces every answer with ``(status, content type, bytes)``.
``hang_first`` requests get no answer for ``hang_seconds`` (then the normal one): a hung server, which
a client must give up on by its own timeout. The arrival time of every request is kept in ``arrivals``.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.helpers.local_server import LocalServer

Number = float | str  # a str is sent as it is: the JSON text of a number


def _number(value: Number) -> str:
    return value if isinstance(value, str) else repr(float(value))


class ScriptedServer(LocalServer):
    def __init__(
        self,
        *,
        vector: Callable[[str], list[Number]] | None = None,
        score: Callable[[str, str], Number] | None = None,
        raw: tuple[int, str, bytes] | None = None,
        hang_first: int = 0,
        hang_seconds: float = 30.0,
    ) -> None:
        super().__init__(_handler(self), path="")
        self.vector, self.score, self.raw = vector, score, raw
        self.hang_first, self.hang_seconds = hang_first, hang_seconds
        self.arrivals: list[float] = []
        self.released = threading.Event()
        self.lock = threading.Lock()

    def __exit__(self, *exc: object) -> None:
        self.released.set()
        super().__exit__(*exc)

    def answer(self, path: str, request: dict[str, Any]) -> tuple[int, str, bytes]:
        with self.lock:
            self.arrivals.append(time.monotonic())
            hang = self.hang_first > 0
            self.hang_first -= 1
        if hang:
            self.released.wait(self.hang_seconds)
        if self.raw is not None:
            return self.raw
        if path.endswith("/embeddings") and self.vector is not None:
            items = [
                f'{{"index": {i}, "embedding": [{", ".join(_number(x) for x in self.vector(text))}]}}'
                for i, text in enumerate(request["input"])
            ]
            return 200, "application/json", f'{{"object": "list", "data": [{", ".join(items)}]}}'.encode()
        if path.endswith("/rerank") and self.score is not None:
            items = [
                f'{{"index": {i}, "relevance_score": {_number(self.score(request["query"], d))}}}'
                for i, d in enumerate(request["documents"])
            ]
            return 200, "application/json", f'{{"results": [{", ".join(items)}]}}'.encode()
        return 404, "application/json", b'{"error": "no such route"}'


def _handler(server: ScriptedServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            request = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
            status, content_type, body = server.answer(self.path, request)
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    return Handler
