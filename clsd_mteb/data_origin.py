"""What the data of a run is, in the line every answer over it opens with: where its distractors came from.

A best model on a set whose distractors are word salad is the best at nothing, so the answer says first who made
them: the authors' release (GPT-4, checked by the authors), or what ``clsd build`` recorded on a generated set's
card (:func:`clsd_format.hub.distractor_origin`: the rules, or the LLM asked and the names its answers gave; the share
a judge model found valid, with its interval, or that nobody judged them), with a plain warning where that generator
checks the plumbing only (:data:`clsd_format.defaults.PLUMBING_ONLY`).
"""

from __future__ import annotations

from clsd_format import hub
from clsd_format.data_source import DataSource
from clsd_format.defaults import PLUMBING_ONLY
from clsd_mteb.confidence import wilson_interval

RELEASE = "distractors written by GPT-4 and checked by the authors (the CLSD release)"


def plumbing_only(model: str | None) -> str | None:
    """Why a generator's distractors are no CLSD set, or None: its name (a vendor's prefix left out) is declared
    plumbing-only."""
    if not model:
        return None
    name = model.rsplit("/", 1)[-1].casefold()
    return next((why for known, why in PLUMBING_ONLY.items() if known.casefold() == name), None)


def origin_line(source: DataSource) -> str:
    """One line: the data read and who made its distractors, with the warning a plumbing-only generator calls for."""
    where = source.describe()
    origin = hub.distractor_origin(source.card, where) if source.card else None  # a card that says it is believed first
    if origin is None and source.holds_release:
        return f"Data: {where}: {RELEASE}."
    if origin is None:
        return f"Data: {where}: its card does not record who made its distractors."
    line = f"Data: {where}: distractors by {origin.describe()}" + _judged(origin) + "."
    why = next(filter(None, map(plumbing_only, (origin.model, *origin.answered_by))), None)
    if why is not None:
        line += f" Warning: these distractors come from {why}; no score on them says which model to use."
    return line


def _judged(origin: hub.DistractorOrigin) -> str:
    """The judged valid share per language with its 95% Wilson interval, or the plain word that nobody judged them."""
    if not origin.judged:
        return "; their validity was not judged (`clsd judge`, `clsd check-sample`)"
    shares = []
    for code, valid, judged in origin.judged:
        if judged:
            interval = wilson_interval(valid, judged).scaled(100)
            shares.append(f"{code} {valid} of {judged} ({100 * valid / judged:.1f}% [{interval.low:.1f}, {interval.high:.1f}])")
    return f"; judged valid by {origin.judged_by}: {', '.join(shares) or 'none judged'}"


__all__ = ["RELEASE", "origin_line", "plumbing_only"]
