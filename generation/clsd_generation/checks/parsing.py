"""Turn an LLM's free-text answer into candidate sentences.

Answers come as numbered or bulleted lists, often wrapped in chatter ("Sure! Here are four..."),
with quotes around each sentence, bold markers, or an English translation in brackets after it.
The parser keeps list items only when there are any, and strips that decoration; deciding what is a
good distractor is :mod:`clsd_generation.checks.candidates`'s job. A reasoning block (``<think>...</think>``,
as reasoning models write before answering) is never an answer: it is removed first, and an unclosed
one takes the rest of the text with it. A structured answer (``--structured``) is a JSON object whose
``distractors`` list is taken as it is; one that is not JSON is parsed as text.
"""

from __future__ import annotations

import json
import re

_ITEM = re.compile(
    r"""^\s*(?:
        \(?\d{1,2}\s*[.):\]]      # 1.  1)  (1)  1:
      | [-*•·–—]                  # - * • bullets
      | \#\d{1,2}[.:)]?           # #1
      | (?:sentence|satz|phrase)\s*\d{1,2}\s*[.:)]   # Sentence 1:
    )\s*(?P<text>.+?)\s*$""",
    re.IGNORECASE | re.VERBOSE,
)
# "1. Foo. 2. Bar." on a single line: split before each inline number.
_INLINE_SPLIT = re.compile(r"\s+(?=\(?\d{1,2}[.)]\s)")
_INLINE_NUMBER = re.compile(r"\(?\d{1,2}[.)]\s+")
_NOTE_KEYWORDS = re.compile(r"^\s*(?:translation|übersetzung|traduction|english|englisch|anglais|en|i\.e\.|=)\b", re.IGNORECASE)
_DASH_NOTE = re.compile(r"\s[-–—]\s+\(?(?:translation|übersetzung|traduction|english|englisch|anglais)\b.*$", re.IGNORECASE)
_SENTENCE_END = tuple(".!?…\"'“”«»’")


def _drop_trailing_note(text: str) -> str:
    """Remove "(Translation: ...)" or a bracketed remark after a finished sentence; keep other brackets."""
    text = _DASH_NOTE.sub("", text).rstrip()
    if not text.endswith((")", "]")):
        return text
    closing = text[-1]
    opening = "(" if closing == ")" else "["
    depth = 0
    for index in range(len(text) - 1, -1, -1):
        depth += {closing: 1, opening: -1}.get(text[index], 0)
        if depth == 0:
            break
    else:
        return text
    before, inside = text[:index].rstrip(), text[index + 1 : -1]
    if before and (_NOTE_KEYWORDS.match(inside) or before.endswith(_SENTENCE_END)):
        return before
    return text


_QUOTES = "\"'“”„‟«»‹›‚‘’`"


_REASONING = re.compile(r"<(think|thinking|reasoning)>.*?(?:</\1>|\Z)", re.IGNORECASE | re.DOTALL)


def strip_reasoning(answer: str) -> str:
    """The answer without its reasoning blocks; an unclosed block runs to the end (the answer never came)."""
    return _REASONING.sub("", answer)


def parse_structured(answer: str) -> list[str] | None:
    """The ``distractors`` of a JSON answer (or a bare JSON list of strings); None when the answer is not such JSON."""
    try:
        loaded = json.loads(answer)
    except ValueError:
        return None
    items = loaded.get("distractors") if isinstance(loaded, dict) else loaded
    if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
        return None
    return [item.strip() for item in items if item.strip()]


def _strip_decoration(text: str) -> str:
    text = text.strip()
    text = re.sub(r"^\*\*(.+?)\*\*", r"\1", text)  # **bold sentence**
    text = text.replace("**", "").strip()
    previous = None
    while previous != text:
        previous = text
        text = _drop_trailing_note(text).strip()
        text = trim_quotes(text)
    return text


def trim_quotes(text: str) -> str:
    """The text without quotes around it ("Foo." and „Foo“. -> Foo.); quotes inside or only at one end stay."""
    if len(text) >= 2 and text[0] in _QUOTES:
        closing = max(text.rfind(q) for q in _QUOTES)
        if closing > 0:
            inner, tail = text[1:closing], text[closing + 1 :].strip()
            # Keep sentence-final punctuation written after the closing quote: "Foo". -> Foo.
            if not tail or re.fullmatch(r"[.!?…]+", tail):
                return (inner.strip() + (tail if tail and not inner.rstrip().endswith(tuple(".!?…")) else "")).strip()
    return text


def _number(line: str) -> int:
    found = re.match(r"\s*\(?(\d+)", line)
    return int(found.group(1)) if found else -10


def parse_answer(answer: str, structured: bool = False) -> list[str]:
    """Candidate sentences in answer order; list items if the answer has any, else its plain lines.

    ``structured``: the answer was asked for as JSON; its ``distractors`` are taken when it is such JSON.
    """
    answer = strip_reasoning(answer)
    if structured and (json_items := parse_structured(answer.strip())) is not None:
        return json_items
    lines = [line for line in answer.replace("\r\n", "\n").split("\n") if line.strip()]
    items: list[str] = []
    for line in lines:
        match = _ITEM.match(line)
        if match:
            pieces = _INLINE_SPLIT.split(match.group("text"))
            numbers = [int(m.group(1)) if (m := re.match(r"\(?(\d+)", piece)) else -1 for piece in pieces[1:]]
            if numbers != list(range(2, 2 + len(numbers))) and numbers != list(
                range(_number(line) + 1, _number(line) + 1 + len(numbers))
            ):
                pieces = [match.group("text")]  # "1. Am 3. Oktober ..." is one item, not two
            if len(pieces) == 1:
                items.append(pieces[0])
                continue
            for piece in pieces:
                inner = _INLINE_NUMBER.match(piece)
                items.append(piece[inner.end() :] if inner else piece)
    if not items:
        # No list markers: every line that does not introduce something ("Here are...:") is a candidate.
        items = [line for line in lines if not line.rstrip().endswith(":")]
    cleaned = (_strip_decoration(item) for item in items)
    return [text for text in cleaned if text]
