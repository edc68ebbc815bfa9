"""The identity of every request a run writes (Batch API input files, request files), and how an answer is matched to it.

A request's ``custom_id`` names the sentence it asks about (``pair_id``, language), the round, and a digest of this
run folder's own random id (:meth:`clsd_generation.core.checkpoint.Checkpoint.run_id`) together with the exact
request body. Two runs never write the same ``custom_id``, and neither do two different requests of one run, so an
answer is kept only when it answers a request this run wrote, in the file or batch that held it: another run's
output file, a stale file or a line a batch never held is refused before anything is stored.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

DIGEST_CHARS = 16  # 64 bits of SHA-256: no two requests of a run, nor two runs, collide by chance


@dataclass(frozen=True)
class RequestIdentity:
    """What a ``custom_id`` says: the sentence, the round and the digest that binds it to its run and body."""

    pair_id: str
    lang: str
    round_number: int
    digest: str

    @property
    def key(self) -> tuple[str, str]:
        return self.pair_id, self.lang


def request_digest(run_id: str, body: Any) -> str:
    """The digest of a run's id and a request body (canonical JSON: the same body always gives the same digest)."""
    canonical = json.dumps([run_id, body], sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:DIGEST_CHARS]


def custom_id(run_id: str, pair_id: str, lang: str, round_number: int, body: Any) -> str:
    """The ``custom_id`` of one request: readable (the sentence and round first), bound by the digest."""
    return json.dumps([pair_id, lang, round_number, request_digest(run_id, body)], ensure_ascii=False)


def parse_custom_id(value: str) -> RequestIdentity | None:
    """The identity a ``custom_id`` of this package spells, or None for any other string."""
    try:
        parts = json.loads(value)
    except json.JSONDecodeError:
        return None
    if not (isinstance(parts, list) and len(parts) == 4 and all(isinstance(p, str) for p in (parts[0], parts[1], parts[3]))):
        return None
    if not isinstance(parts[2], int) or isinstance(parts[2], bool):
        return None
    return RequestIdentity(parts[0], parts[1], parts[2], parts[3])
