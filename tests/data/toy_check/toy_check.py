"""A toy answer check from a package of its own: a candidate that shouts (new words in capitals only) is refused.

It is added the way a third-party package adds a check: this module defines ``CHECK`` (a
:class:`clsd_generation.checks.registry.AnswerCheck`) with its own declared settings, and the package declares one
entry point in the group ``clsd_generation.answer_checks`` (here ``toy_check-0.1.dist-info/entry_points.txt``); no
file of clsd-mteb changes. Its option appears in ``clsd generate --help``, its refusals in the run summary, its
sentence on the dataset card and its line in ``scripts/measure_answer_checks.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import regex

from clsd_format.declared_settings import setting
from clsd_generation.checks.registry import AnswerCheck
from clsd_generation.core.settings import ANSWER_CHECKS

REASON = "shouting"
_WORD = regex.compile(r"\p{L}[\p{L}\p{M}]+")


@dataclass(frozen=True)
class ShoutingSettings:
    max_shouted_words: int = setting(
        0,
        help="Refuse an LLM candidate with more than this many new words in capitals only (-1: off).",
        panel=ANSWER_CHECKS,
    )


def refuse(reader: Any, original: str, candidate: str) -> str | None:
    limit = reader.settings_of(CHECK).max_shouted_words
    if limit < 0:
        return None
    before = set(_WORD.findall(original))
    shouted = [word for word in _WORD.findall(candidate) if word.isupper() and word not in before]
    return f"{REASON} ({', '.join(shouted[:3])})" if len(shouted) > limit else None


def card(settings: ShoutingSettings) -> str:
    return f"no more than {settings.max_shouted_words} new words in capitals only"


CHECK = AnswerCheck(
    name="toy-shouting",
    reason=REASON,
    refuse=refuse,
    card=card,
    off={"max_shouted_words": -1},
    settings=ShoutingSettings,
    on=lambda settings: settings.max_shouted_words >= 0,
)
