"""A minimal batch engine: reads a request file in the OpenAI batch format, sends each request to a chat-completions
server, writes the output file in the batch output format (what ``vllm run-batch`` and the Batch API write).

Sequential, standard library only: the engine in the middle of the request-file tests, with the local stand-in
server or llama-cpp-python's server behind it.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path


def run_requests(requests: Path, output: Path, base_url: str, timeout: float = 600.0) -> int:
    """Answer every line of ``requests`` through ``base_url`` (``http://host:port/v1``) into ``output``; lines written."""
    root = base_url.rstrip("/").removesuffix("/v1")
    lines = []
    for number, raw in enumerate(requests.read_text(encoding="utf-8").splitlines(), start=1):
        request = json.loads(raw)
        http = urllib.request.Request(
            root + request["url"], json.dumps(request["body"]).encode("utf-8"), {"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(http, timeout=timeout) as answer:
                response, error = {"status_code": answer.status, "request_id": f"req-{number}", "body": json.load(answer)}, None
        except urllib.error.HTTPError as exc:
            response, error = None, {"code": str(exc.code), "message": exc.read().decode("utf-8", "replace")[:200]}
        lines.append({"id": f"batch-req-{number}", "custom_id": request["custom_id"], "response": response, "error": error})
    output.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    return len(lines)
