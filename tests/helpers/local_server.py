"""What every test server on 127.0.0.1 shares: a free port, a thread serving it, a ``with`` block around its life."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TypeVar

_Server = TypeVar("_Server", bound="LocalServer")


class LocalServer:
    """Serves ``handler`` on 127.0.0.1 at a free port (or ``port``) from ``with`` to its end; ``base_url`` ends in ``path``."""

    def __init__(self, handler: type[BaseHTTPRequestHandler], path: str = "", port: int = 0) -> None:
        self.server = ThreadingHTTPServer(("127.0.0.1", port), handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._path = path

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}{self._path}"

    def __enter__(self: _Server) -> _Server:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
