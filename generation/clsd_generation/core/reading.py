"""One reading for every LLM answer, whatever asked for it (distractors, the judge, the pivot), before anything is kept.

A server may answer badly by accident or on purpose: megabytes with ``finish_reason: "stop"`` whatever
``max_tokens`` said, text that is not valid Unicode (a lone surrogate, which JSON's ``\\ud800`` escape allows),
JSON nested thousands deep, JSON of another shape than the schema asked for. Each is refused here with a reason
(:data:`REFUSALS`), counted by the command that asked, and never parsed, kept as text or stored in full:

* :func:`read_text` bounds the size by what the token limit allows (:data:`CHARS_PER_TOKEN` characters a token at
  most, far above any tokenizer's average) and refuses text that cannot be written as UTF-8; what is stored of a
  refused answer is a bounded prefix, with its size, and with any lone surrogate written as an escape.
* :func:`read_structured` takes a structured answer's ``distractors`` (a JSON object with that one key, or a bare
  list), strings only; anything else is refused rather than parsed as text, so fragments of JSON syntax never
  become distractors.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

CHARS_PER_TOKEN = 32  # no tokenizer's token is longer on average; an answer past max_tokens x this is not the model's
STORED_PREFIX = 2000  # characters kept of a refused oversized answer

OVERSIZED = "answer longer than the token limit allows"
UNDECODABLE = "answer not valid Unicode"
JSON_TOO_DEEP = "structured answer nested too deeply"
NOT_JSON = "structured answer not JSON"
WRONG_SHAPE = "structured answer not the schema's shape"
REFUSALS = (OVERSIZED, UNDECODABLE, JSON_TOO_DEEP, NOT_JSON, WRONG_SHAPE)

_SURROGATE = re.compile("[\ud800-\udfff]")
_FENCE = re.compile(r"^```[a-zA-Z]*\s*\n(.*)\n```\s*$", re.DOTALL)


def storable(text: str) -> str:
    """``text`` as it can be written as UTF-8: a lone surrogate becomes its escape (``\\ud800``)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8") if _SURROGATE.search(text) else text


@dataclass(frozen=True)
class Reading:
    """An answer as it may be used (``refusal`` None) or only stored (a bounded, valid text, and why it was refused)."""

    text: str
    refusal: str | None = None


def read_text(text: str, max_tokens: int) -> Reading:
    """The answer, or its bounded prefix and the refusal when it is longer than ``max_tokens`` allow or not valid text."""
    if len(text) > max_tokens * CHARS_PER_TOKEN:
        prefix = storable(text[:STORED_PREFIX])
        return Reading(f"{prefix}[... refused: {len(text)} characters in all]", OVERSIZED)
    if _SURROGATE.search(text):
        return Reading(storable(text), UNDECODABLE)
    return Reading(text)


def looks_structured(text: str) -> bool:
    """Whether an answer is JSON (or a fenced JSON block) rather than plain text: it is then read as JSON only."""
    stripped = text.strip()
    return stripped.startswith(("{", "[", "```"))


def read_structured(text: str) -> list[str] | str:
    """The distractors of a structured answer, or the reason it is refused (one of :data:`REFUSALS`)."""
    stripped = text.strip()
    fenced = _FENCE.match(stripped)
    try:
        loaded = json.loads(fenced.group(1) if fenced else stripped)
    except RecursionError:
        return JSON_TOO_DEEP
    except ValueError:
        return NOT_JSON
    items = loaded.get("distractors") if isinstance(loaded, dict) and set(loaded) == {"distractors"} else loaded
    if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
        return WRONG_SHAPE
    if any(_SURROGATE.search(item) for item in items):
        return UNDECODABLE
    return [item.strip() for item in items if item.strip()]
