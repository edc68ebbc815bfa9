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
* :func:`answered_as_asked` reads the model an answer names: a dataset says which model wrote it, so an answer of
  another model than the one asked for is refused unless the user allowed that model by name; an answer naming no
  model (no field, or an empty one) is an unnamed model's, read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from dataclasses import dataclass

from clsd_format.redaction import redact

CHARS_PER_TOKEN = 32  # no tokenizer's token is longer on average; an answer past max_tokens x this is not the model's
STORED_PREFIX = 2000  # characters kept of a refused oversized answer

OVERSIZED = "answer longer than the token limit allows"
UNDECODABLE = "answer not valid Unicode"
JSON_TOO_DEEP = "structured answer nested too deeply"
NOT_JSON = "structured answer not JSON"
WRONG_SHAPE = "structured answer not the schema's shape"
OTHER_MODEL = "answer from another model than the one asked for"
REFUSALS = (OVERSIZED, UNDECODABLE, JSON_TOO_DEEP, NOT_JSON, WRONG_SHAPE, OTHER_MODEL)

_SURROGATE = re.compile("[\ud800-\udfff]")
_FENCE = re.compile(r"^```[a-zA-Z]*\s*\n(.*)\n```\s*$", re.DOTALL)
# What a provider may add to the name asked for to name the snapshot that answered: a date (OpenAI's
# "gpt-4o-2024-08-06", Anthropic's "-20241022") or a four-digit version (OpenAI's "gpt-4-0613", Mistral's "-2407").
_SNAPSHOT_SUFFIX = re.compile(r"-(?:[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{8}|[0-9]{4})")


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


def answered_as_asked(asked: str, answered: str | None, accepted: Collection[str] = ()) -> bool:
    """Whether an answer naming the model ``answered`` counts as the answer of the model ``asked`` for.

    Yes when it is the name asked for, that name followed by a snapshot's date or version (``gpt-4o`` answered as
    ``gpt-4o-2024-08-06``: the provider names the snapshot behind an alias), either of those with a vendor's prefix
    on one side only (:func:`same_name`: ``openai/gpt-4o`` for ``gpt-4o``, as OpenRouter names it, and the reverse), or
    a name in ``accepted`` (allowed by the user, e.g. the file path a llama.cpp server answers with); also when the
    answer names no model, or an empty one (:func:`named_model`), since nothing in it says another one wrote it.
    Anything else (``gpt-4o-mini`` for ``gpt-4o``, an alias to another model, the model behind an Azure deployment's
    name) is another model's answer.
    """
    if answered is None or named_model(answered) is None or answered in accepted:
        return True
    return any(same_name(a, b) for a, b in ((asked, answered), (unprefixed(asked), answered), (asked, unprefixed(answered))))


def same_name(asked: str, answered: str) -> bool:
    """The name asked for, or that name followed by a snapshot's date or version."""
    if answered == asked:
        return True
    return answered.startswith(asked) and _SNAPSHOT_SUFFIX.fullmatch(answered[len(asked) :]) is not None


def unprefixed(name: str) -> str:
    """A model name without its vendor's prefix: its last path segment (``openai/gpt-4o`` -> ``gpt-4o``).

    Stripped on one side of a comparison only: ``openai/gpt-4o`` and ``azure/gpt-4o`` stay two names, as two vendors'
    models of one name may differ (a fine-tune under an organisation's name)."""
    return name.rstrip("/").rsplit("/", 1)[-1]


def named_model(name: str | None) -> str | None:
    """The model an answer names, or None when it names none: a missing ``model`` field, an empty one or blanks are
    an unnamed model's answer (recorded as such and said on the card), never another model's."""
    return name if name is not None and name.strip() else None


def model_shown(name: str | None) -> str:
    """A model name as a server sent it, as printed and published: redacted (a server may echo the key anywhere), every
    character that is not printable escaped (a name is one line of plain text); None: "(no model named)"."""
    if name is None:
        return "(no model named)"
    shown = redact(name)
    return shown if shown.isprintable() else shown.encode("unicode_escape").decode("ascii")
