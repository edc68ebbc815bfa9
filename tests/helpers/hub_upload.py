"""The Hub's upload routes on 127.0.0.1, for the tests: what a real push sends, received and kept.

``huggingface_hub`` uploads in three requests, which this server answers as the Hub documents them: create the
repository (``POST /api/repos/create``), ask how each file goes (``POST /api/<type>s/<repo>/preupload/<rev>``;
the answer here is "regular": inside the commit) and commit (``POST /api/<type>s/<repo>/commit/<rev>``, an NDJSON
body with each file's content in base64). A README.md is first checked by ``POST /api/validate-yaml``. Every
committed file is kept, by repository type, repository and path, so a test compares what arrived with what
``--dry-run`` wrote. Nothing else of the Hub is served: a request the push should not make fails the test's push.
"""

from __future__ import annotations

import base64
import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

COMMIT_OID = "c" * 40
ROUTE = re.compile(r"^/api/(?P<type>models|datasets|spaces)/(?P<repo>[^/]+/[^/]+)/(?P<action>preupload|commit)/(?P<rev>[^?]+)")


@dataclass
class Received:
    """What the server was sent: files by (repository type, repository, path), commits, created repositories."""

    files: dict[tuple[str, str, str], bytes] = field(default_factory=dict)
    commits: list[dict[str, Any]] = field(default_factory=list)
    created: list[dict[str, Any]] = field(default_factory=list)
    tokens: set[str] = field(default_factory=set)


def _handler(received: Received) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # keep the test output clean
            pass

        def _reply(self, status: int, body: Any) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            received.tokens.add(self.headers.get("Authorization", ""))
            path = self.path.split("?")[0]
            if path == "/api/repos/create":
                request = json.loads(body)  # {"name", "organization", "type", "private"}
                received.created.append(request)
                kind = request.get("type", "model")
                prefix = "" if kind == "model" else f"{kind}s/"
                self._reply(
                    200, {"url": f"http://{self.headers['Host']}/{prefix}{request.get('organization')}/{request['name']}"}
                )
                return
            if path == "/api/validate-yaml":
                self._reply(200, {})
                return
            route = ROUTE.match(path)
            if route is None:
                self._reply(404, {"error": f"not served here: POST {path}"})
                return
            kind, repo = route["type"].rstrip("s"), route["repo"]
            if route["action"] == "preupload":
                files = json.loads(body)["files"]
                self._reply(200, {"files": [{"path": f["path"], "uploadMode": "regular", "shouldIgnore": False} for f in files]})
                return
            lines = [json.loads(line) for line in body.decode().splitlines() if line.strip()]
            header = next(line["value"] for line in lines if line["key"] == "header")
            for line in lines:
                if line["key"] == "file":
                    value = line["value"]
                    received.files[(kind, repo, value["path"])] = base64.b64decode(value["content"])
            received.commits.append({"type": kind, "repo": repo, "revision": route["rev"], "query": self.path, **header})
            self._reply(
                200,
                {
                    "commitUrl": f"http://{self.headers['Host']}/{repo}/commit/{COMMIT_OID}",
                    "commitOid": COMMIT_OID,
                    "pullRequestUrl": None,
                },
            )

    return Handler


@contextmanager
def serve() -> Iterator[tuple[str, Received]]:
    """The server on a free port of 127.0.0.1: its URL (for ``HF_ENDPOINT``) and what it receives."""
    received = Received()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(received))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", received
    finally:
        server.shutdown()
        server.server_close()
