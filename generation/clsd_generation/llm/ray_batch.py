"""A round's request file answered by Ray Data: a Ray dataset of its lines, sent by ``ray.data.llm``'s HTTP request processor.

``clsd generate --requests-out FILE`` writes the requests of a round in the OpenAI batch format
(:mod:`clsd_generation.llm.request_file`); a user with a Ray cluster answers them where the cluster is, with any
OpenAI-compatible server (vLLM, SGLang, llama.cpp's, a hosted API) behind Ray Data's HTTP request processor, and
hands the output to ``clsd generate --answers``. The output is the batch output format line for line: the answer's
chat-completion body under ``response`` with status 200, or an ``error`` (what the server said instead of an answer),
each with the request's own ``custom_id``, so every answer is bound to its request (sentence, round, digest of the
exact body) and read back exactly as a live answer is.

The request file is read and checked line by line before Ray starts (a line that is not JSON, without ``custom_id``, with a
``custom_id`` seen before, or for another route stops here with the file and line named), and the answers file is
written whole or not at all (``.partial``, then renamed). Ray is imported only when a file is answered: it is the
``ray`` extra, and ``import clsd_generation`` or ``clsd --help`` never load it.

    clsd answer-requests requests-1.jsonl answers-1.jsonl --base-url http://HOST:8000/v1   (clsd_cli.answer_requests)
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from dataclasses import MISSING, dataclass
from pathlib import Path
from typing import Any, Final

from clsd_format.declared_settings import DeclaredSettings, option_name, same_as, setting
from clsd_format.errors import CLSDError
from clsd_format.extras import require_extra
from clsd_generation.core.settings import LLMSettings, RequestFiles

ROUTE: Final = "/v1/chat/completions"  # the one route of every request line clsd writes (request_file.ENDPOINT)


@dataclass(frozen=True)
class RequestPair(DeclaredSettings):
    """The request file a round wrote and the answers file Ray Data writes for it."""

    requests: Path = setting(
        help=f"A request file written by clsd generate {option_name(RequestFiles, 'requests_out')}.", argument=True
    )
    answers: Path = setting(
        help=f"The answers file to write, for clsd generate {option_name(RequestFiles, 'answers')}.", argument=True
    )


@dataclass(frozen=True)
class HttpEndpoint(DeclaredSettings):
    """The OpenAI-compatible server Ray Data's HTTP request processor posts each request to, and how hard."""

    # http://host:port/v1, as --base-url of clsd generate
    base_url: str = same_as(LLMSettings, "base_url", default=MISSING)
    # the variable holding the key; unset: no Authorization header
    api_key_env: str = same_as(LLMSettings, "api_key_env")
    concurrency: int = setting(1, help="Ray workers sending requests at once.", minimum=1)
    batch_size: int = setting(16, help="Requests a worker takes at a time.", minimum=1)
    max_retries: int = setting(  # Ray's own backoff
        3, help="Retries per request on a transport failure or 408/429/5xx.", minimum=0
    )

    def url(self) -> str:
        return self.base_url.rstrip("/") + ROUTE.removeprefix("/v1")

    def headers(self) -> dict[str, str] | None:
        key = os.environ.get(self.api_key_env)
        return {"Authorization": f"Bearer {key}"} if key else None


@dataclass(frozen=True)
class RayAnswers:
    """What one Ray job wrote: the request lines read, the answers (status 200) and error lines written."""

    requests: int
    answers: int
    errors: int
    path: Path

    def lines(self) -> list[str]:
        return [f"{self.requests} requests, {self.answers} answers, {self.errors} errors: {self.path}"]

    def problem(self) -> str | None:
        """None: a job that cannot write every answer raises instead (its answers file is not written)."""
        return None


def check_request_file(path: Path) -> list[str]:
    """Read every line of a request file before Ray starts; its request lines.

    They go to Ray from this process (the object store carries them to the workers), so a worker on another node needs
    no shared file system to read the file ``clsd generate`` wrote here.
    """
    if not path.is_file():
        raise CLSDError(f"request file {path} does not exist.")
    seen: dict[str, int] = {}
    lines: list[str] = []
    with path.open(encoding="utf-8") as handle:
        for number, raw in enumerate(handle, start=1):
            if not raw.strip():
                continue
            try:
                line = json.loads(raw)
            except json.JSONDecodeError as exc:
                raise CLSDError(f"request file {path}, line {number}: not JSON ({exc.msg}).") from exc
            line_id = line.get("custom_id") if isinstance(line, dict) else None
            if not isinstance(line_id, str) or not isinstance(line.get("body"), dict):
                raise CLSDError(f"request file {path}, line {number}: not a batch request line (custom_id and body).")
            if line.get("url") != ROUTE:
                raise CLSDError(f"request file {path}, line {number}: url {line.get('url')!r}; only {ROUTE} is answered.")
            if line_id in seen:
                raise CLSDError(f"request file {path}, line {number}: custom_id {line_id} again (first on line {seen[line_id]}).")
            seen[line_id] = number
            lines.append(raw)
    return lines


def to_payload(row: dict[str, Any]) -> dict[str, Any]:
    """A line of the request file (Ray's ``text`` column) as the HTTP processor's ``payload``, its ``custom_id`` kept."""
    line = json.loads(row["text"])
    return {"custom_id": line["custom_id"], "payload": line["body"]}


def to_output_line(row: dict[str, Any]) -> dict[str, Any]:
    """The server's answer to one request as a line of the batch output format, held as JSON text."""
    body = _plain(row["http_response"])
    if isinstance(body, dict) and body.get("choices"):
        response, error = {"status_code": 200, "request_id": body.get("id"), "body": body}, None
    else:  # an error body (a 4xx the processor does not retry): no answer, asked again in the next request file
        detail = body.get("error") if isinstance(body, dict) else None
        code = (detail.get("code") or detail.get("type")) if isinstance(detail, dict) else None
        response, error = None, {"code": str(code or "no_answer"), "message": json.dumps(body, ensure_ascii=False)[:500]}
    line = {
        "id": "ray-" + hashlib.sha256(row["custom_id"].encode()).hexdigest()[:16],
        "custom_id": row["custom_id"],
        "response": response,
        "error": error,
    }
    return {"line": json.dumps(line, ensure_ascii=False), "answered": error is None}


def _plain(value: Any) -> Any:
    """A value from a Ray Data row as plain JSON values: Arrow lists come back as NumPy arrays, numbers as NumPy scalars."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if hasattr(value, "tolist"):  # numpy.ndarray and numpy scalars
        return _plain(value.tolist())
    return value


def answer_requests(requests: Path, answers: Path, endpoint: HttpEndpoint) -> RayAnswers:
    """Answer every request of ``requests`` through ``endpoint`` with Ray Data; ``answers`` is written whole at the end."""
    lines = check_request_file(requests)
    require_extra("ray", "answering request files with Ray Data")
    import ray.data
    from ray.data.llm import HttpRequestProcessorConfig, build_processor

    config = HttpRequestProcessorConfig(
        url=endpoint.url(),
        headers=endpoint.headers(),
        concurrency=endpoint.concurrency,
        batch_size=endpoint.batch_size,
        max_retries=endpoint.max_retries,
    )
    processor = build_processor(config, preprocess=to_payload, postprocess=to_output_line)
    rows = processor(ray.data.from_items([{"text": line} for line in lines])).iter_rows()
    written, answered = _write_atomically(answers, rows)
    if written != len(lines):
        raise CLSDError(f"{requests}: {len(lines)} requests, but Ray Data returned {written} answers; {answers} was not written.")
    return RayAnswers(requests=len(lines), answers=answered, errors=written - answered, path=answers)


def _write_atomically(path: Path, rows: Iterable[dict[str, Any]]) -> tuple[int, int]:
    """Write each row's line to ``path`` (``.partial`` first, renamed at the end); lines written, answers among them."""
    partial = path.with_name(path.name + ".partial")
    written = answered = 0
    try:
        with open(partial, "w", encoding="utf-8") as handle:
            for row in rows:
                handle.write(row["line"] + "\n")
                written, answered = written + 1, answered + bool(row["answered"])
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    if written:
        os.replace(partial, path)
    else:
        partial.unlink()
    return written, answered
