"""Which candidates count as distractors: the one rule set both backends go through.

A candidate is kept when it is non-empty, differs from the original and from the distractors kept
so far (after :func:`normalise`), and its word-level Jaccard to the original and its length ratio
lie inside :class:`clsd_generation.settings.ValidationBounds` (where the defaults are justified).

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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from clsd_format.text_measures import jaccard
from clsd_generation.settings import PAPER, ValidationBounds

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


def markup_in(text: str, original: str = "") -> str | None:
    """The kind of the first markup in ``text`` that ``original`` does not hold itself; None for plain text."""
    for kind, pattern in MARKUP:
        if any(found.group(0) not in original for found in pattern.finditer(text)):
            return kind
    return None


def normalise(text: str) -> str:
    """Case-folded, punctuation removed, whitespace collapsed: "Der Hund!" equals "der hund"."""
    kept = "".join(" " if unicodedata.category(ch).startswith("P") else ch for ch in text.casefold())
    return " ".join(kept.split())


def length_ratio(original: str, candidate: str) -> float:
    """Characters of the candidate over characters of the original."""
    return len(candidate.strip()) / max(len(original.strip()), 1)


@dataclass
class Verdict:
    """The distractors kept for one sentence so far, and why the others were dropped."""

    kept: list[str] = field(default_factory=list)
    rejected: list[tuple[str, str]] = field(default_factory=list)  # (candidate, reason)
    markup: Counter[tuple[str, str]] = field(default_factory=Counter)  # (MARKUP_REFUSED or MARKUP_KEPT, kind) -> candidates

    def complete(self, bounds: ValidationBounds) -> bool:
        return len(self.kept) >= bounds.needed

    def failure_reason(self, bounds: ValidationBounds, attempts: int, deterministic: bool = False) -> str:
        """Why a sentence has too few distractors. ``deterministic``: a backend whose answers are no draw of chance
        (the rules), so the number of times it was asked says nothing."""
        counts = Counter(reason.split(" (")[0] for _, reason in self.rejected)
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


def check_candidates(
    original: str, candidates: Iterable[str], bounds: ValidationBounds, verdict: Verdict | None = None
) -> Verdict:
    """Add the valid candidates to ``verdict`` (kept across re-asks), up to ``bounds.needed``."""
    verdict = verdict or Verdict()
    if bounds.protocol == PAPER:
        return _take_first_items(original, candidates, bounds, verdict)
    seen = {normalise(original)} | {normalise(k) for k in verdict.kept}
    original_key = normalise(original)
    for candidate in candidates:
        text = candidate.strip()
        markup = markup_in(text, original)
        if markup:
            verdict.rejected.append((text, f"markup: {markup}"))
            verdict.markup[(MARKUP_REFUSED, markup)] += 1
            continue
        key = normalise(text)
        if not key:
            verdict.rejected.append((candidate, "empty"))
            continue
        if key == original_key:
            verdict.rejected.append((text, "same as original"))
            continue
        if key in seen:
            verdict.rejected.append((text, "duplicate distractor"))
            continue
        similarity = jaccard(original, text)
        if not bounds.min_jaccard <= similarity <= bounds.max_jaccard:
            verdict.rejected.append((text, f"Jaccard out of bounds ({similarity:.2f})"))
            continue
        ratio = length_ratio(original, text)
        if not bounds.min_length_ratio <= ratio <= bounds.max_length_ratio:
            verdict.rejected.append((text, f"length ratio out of bounds ({ratio:.2f})"))
            continue
        if len(verdict.kept) >= bounds.needed:
            continue  # extra valid answers are not needed; not a rejection either
        seen.add(key)
        verdict.kept.append(text)
    return verdict


def _take_first_items(original: str, candidates: Iterable[str], bounds: ValidationBounds, verdict: Verdict) -> Verdict:
    """The paper protocol: the first ``needed`` items of one answer, unchecked (markup counted); fewer items: unparseable."""
    if verdict.complete(bounds):
        return verdict
    items = [c.strip() for c in candidates]
    if len(items) < bounds.needed:
        verdict.rejected.append(("\n".join(items), f"unparseable answer ({len(items)} of {bounds.needed} items)"))
    else:
        verdict.kept = items[: bounds.needed]
        verdict.markup.update((MARKUP_KEPT, kind) for item in verdict.kept if (kind := markup_in(item, original)))
    return verdict


def revalidate(original: str, answers: Sequence[Sequence[str]], bounds: ValidationBounds) -> Verdict:
    """The verdict after several answers, in order (used when resuming from stored answers)."""
    verdict = Verdict()
    for candidates in answers:
        check_candidates(original, candidates, bounds, verdict)
    return verdict
