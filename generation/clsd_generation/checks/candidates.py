"""Which candidates count as distractors: the one rule set both backends go through.

A candidate is kept when it is non-empty, differs from the original and from the distractors kept
so far (after :func:`normalise`), and its word-level Jaccard to the original and its length ratio
lie inside :class:`clsd_generation.core.settings.ValidationBounds` (where the defaults are justified).
Jaccard reads the words of the target language (:mod:`clsd_format.words`: marks kept, Chinese, Japanese,
Korean and Thai cut by their segmenters); in a language whose words are not found (Lao, Khmer, Burmese:
written without spaces, no segmenter here) the Jaccard bound is off, as
:func:`clsd_generation.checks.coverage.checks_off` says. The length ratio counts characters in every script.

Two protocols decide what happens to an answer (the protocol is part of the checkpoint fingerprint
and recorded in the dataset card):

* ``validated`` (the default): every candidate goes through the checks above; a sentence with fewer
  than four valid distractors is asked again, keeping the valid ones across answers.
* ``paper``: what the paper did. The first four parsed items of one answer are kept as they are, with
  no Jaccard, length or duplicate check; only an answer with fewer than four parsed items (which
  cannot fill a row) is asked again, and that is recorded as a rejection "unparseable answer".

What an LLM answers is text, not markup: under ``validated`` a candidate holding an HTML/XML tag or
comment, a code fence, a template placeholder (``${...}``, ``{{...}}``, ``{language}``: prompt-template
leftovers) or a control character is refused ("markup: <kind>"), unless the original sentence holds
that very markup itself. ``paper`` keeps such items, as the paper did not filter; both count them in
:attr:`Verdict.markup` (refused or kept, by kind), which the run report shows.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

import regex

from clsd_format.invisible import comparable
from clsd_format.text_measures import jaccard
from clsd_generation.checks.answers import AnswerReader
from clsd_generation.checks.coverage import support
from clsd_generation.checks.lexicon import CorpusLexicon
from clsd_generation.core.settings import PAPER, ValidationBounds

# Shapes that are markup, not prose. A tag is <name ...>, </name> or <name/> (not "a < b", nor French <<...>>
# written with ASCII signs); a placeholder is ${...}, {{...}} or {identifier}, what a prompt template leaves.
MARKUP = (
    ("HTML comment", re.compile(r"<!--|-->")),
    ("HTML/XML tag", re.compile(r"(?<!<)</?[A-Za-z][A-Za-z0-9:_-]*(?:\s[^<>]*)?/?>(?!>)|<![A-Za-z\[]|<\?[A-Za-z]")),
    ("code fence", re.compile(r"```|~~~")),
    ("template placeholder", re.compile(r"\$\{[^{}]*\}|\{\{[^{}]*\}\}|\{[A-Za-z_][A-Za-z0-9_]*\}")),
    ("control character", re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")),
)
MARKUP_REFUSED = "refused"
MARKUP_KEPT = "kept"
UNCHECKED_PREFIX = "kept unchecked: "  # a paper-protocol item an answer check would refuse, as the checkpoint stores it


def markup_in(text: str, original: str = "") -> str | None:
    """The kind of the first markup in ``text`` that ``original`` does not hold itself; None for plain text."""
    for kind, pattern in MARKUP:
        if any(found.group(0) not in original for found in pattern.finditer(text)):
            return kind
    return None


_PUNCTUATION = regex.compile(r"\p{P}")  # every character of a punctuation category (Unicode's P*)


def normalise(text: str) -> str:
    """The text as compared (:func:`clsd_format.invisible.comparable`: NFKC, no invisible characters), case-folded,
    punctuation removed, whitespace collapsed: "Der Hund!" equals "der hund", and so does "Der\u200b Hund"."""
    return " ".join(_PUNCTUATION.sub(" ", unicodedata.normalize("NFC", comparable(text).casefold())).split())


def length_ratio(original: str, candidate: str) -> float:
    """Characters of the candidate over characters of the original, as compared: invisible characters count for none."""
    return len(comparable(candidate).strip()) / max(len(comparable(original).strip()), 1)


@dataclass
class Verdict:
    """The distractors kept for one sentence so far, and why the others were dropped."""

    kept: list[str] = field(default_factory=list)
    rejected: list[tuple[str, str]] = field(default_factory=list)  # (candidate, reason)
    markup: Counter[tuple[str, str]] = field(default_factory=Counter)  # (MARKUP_REFUSED or MARKUP_KEPT, kind) -> candidates
    unchecked: Counter[str] = field(default_factory=Counter)  # paper protocol: kept items a reader's check would refuse, by kind

    def complete(self, bounds: ValidationBounds) -> bool:
        return len(self.kept) >= bounds.needed

    def failure_reason(self, bounds: ValidationBounds, attempts: int, deterministic: bool = False) -> str:
        """Why a sentence has too few distractors. ``deterministic``: a backend whose answers are no draw of chance
        (the rules), so the number of times it was asked says nothing."""
        counts = Counter(reason_kind(reason) for _, reason in self.rejected)
        refused = "; ".join(f"{kind}: {n}" for kind, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
        if deterministic:
            found = (
                "no rule applies to this sentence"
                if not self.kept and not counts
                else f"the rules found only {len(self.kept)} of {bounds.needed} distractors"
            )
            return found + (f" (candidates refused by validation, {refused})" if refused else "")
        detail = f"candidates refused, {refused}" if refused else "no candidates in the answers"
        return f"only {len(self.kept)} of {bounds.needed} valid distractors in {attempts} answers ({detail})"


def reason_kind(reason: str) -> str:
    """A rejection reason without its detail: "Jaccard out of bounds (0.05)" -> "Jaccard out of bounds"."""
    return reason.split(" (")[0]


def check_candidates(
    original: str,
    candidates: Iterable[str],
    bounds: ValidationBounds,
    verdict: Verdict | None = None,
    language: str | None = None,
    words_of: str | None = None,
    corpus: CorpusLexicon | None = None,
) -> Verdict:
    """Add the valid candidates to ``verdict`` (kept across re-asks), up to ``bounds.needed``.

    ``language``: the code of the original's language when an LLM wrote the candidates; they are then also read
    as a careful reader would (:mod:`clsd_generation.checks.answers`). The rules' candidates have checks of their own.
    ``words_of``: the original's language for the rules' candidates, whose words Jaccard reads (default: ``language``).
    ``corpus``: the words of the run's input in ``language``, real words to the reader (:class:`AnswerReader`).
    """
    verdict = verdict or Verdict()
    words_of = words_of or language
    reader = AnswerReader(language, bounds.reading, corpus=corpus) if language else None
    if bounds.protocol == PAPER:
        return _take_first_items(original, candidates, bounds, verdict, reader)
    seen = {normalise(original)} | {normalise(k) for k in verdict.kept}
    for candidate in candidates:
        text = reader.strip_decoration(original, candidate) if reader else candidate.strip()
        reason = _surface_refusal(original, text, bounds, seen, words_of) or (reader.refusal(original, text) if reader else None)
        if reason:
            verdict.rejected.append((text or candidate, reason))
            if reason.startswith("markup: "):
                verdict.markup[(MARKUP_REFUSED, reason.removeprefix("markup: "))] += 1
            continue
        if len(verdict.kept) >= bounds.needed:
            continue  # extra valid answers are not needed; not a rejection either
        seen.add(normalise(text))
        verdict.kept.append(text)
    return verdict


def _surface_refusal(
    original: str, text: str, bounds: ValidationBounds, seen: set[str], language: str | None = None
) -> str | None:
    """Why the surface checks refuse ``text`` (markup, empty, the original, a duplicate, the bounds); None if none does.
    Jaccard reads ``language``'s words, and is skipped where they are not found."""
    markup = markup_in(text, original)
    if markup:
        return f"markup: {markup}"
    key = normalise(text)
    if not key:
        return "empty"
    if key == normalise(original):
        return "same as original"
    if key in seen:
        return "duplicate distractor"
    similarity = jaccard(original, text, language) if language is None or support(language).reads_words else None
    if similarity is not None and not bounds.min_jaccard <= similarity <= bounds.max_jaccard:
        return f"Jaccard out of bounds ({similarity:.2f})"
    ratio = length_ratio(original, text)
    if not bounds.min_length_ratio <= ratio <= bounds.max_length_ratio:
        return f"length ratio out of bounds ({ratio:.2f})"
    return None


def _take_first_items(
    original: str, candidates: Iterable[str], bounds: ValidationBounds, verdict: Verdict, reader: AnswerReader | None
) -> Verdict:
    """The paper protocol: the first ``needed`` items of one answer, unchecked; markup and a reader's refusals counted."""
    if verdict.complete(bounds):
        return verdict
    items = [c.strip() for c in candidates]
    if len(items) < bounds.needed:
        verdict.rejected.append(("\n".join(items), f"unparseable answer ({len(items)} of {bounds.needed} items)"))
    else:
        verdict.kept = items[: bounds.needed]
        verdict.markup.update((MARKUP_KEPT, kind) for item in verdict.kept if (kind := markup_in(item, original)))
        if reader:
            verdict.unchecked.update(reason_kind(r) for item in verdict.kept if (r := reader.refusal(original, item)))
    return verdict
