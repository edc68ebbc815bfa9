"""The answer checks, one registry: each check a careful reader makes of an LLM candidate is one :class:`AnswerCheck`.

A check is its name, the kind of refusal it counts, its refusal, its settings and what switches it off, whether it
runs for a language (the ``check off:`` lines), and its sentence on the dataset card. Everything that names the
checks reads them from here: the reader (:meth:`clsd_generation.checks.answers.AnswerReader.refusal` asks each in
turn), ``clsd generate``'s options (a check's own settings class), the run summary (refusals by kind), the card,
:func:`checks_off`, and ``scripts/measure_answer_checks.py`` (each check alone, all off).

The checks are the entry points of the group ``clsd_generation.answer_checks``: clsd-mteb's own three (language,
near copy, invented words, whose settings are the fields of :class:`~clsd_generation.core.settings.ReadingChecks`)
in its ``pyproject.toml``, and a package of its own adds one by one line and a module (``tests/data/toy_check``).
A check from a package keeps its settings in its own declared dataclass; the run's values of it travel in
``ReadingChecks.plugins`` and into the checkpoint's fingerprint under the check's name.

The checks are read when a command first asks for them (:func:`answer_checks`), never at import: a check that
cannot be loaded, or takes a built-in's name, stops the commands that use the checks with one line naming its entry
point and distribution (:mod:`clsd_format.plugins`) and leaves every other command alone. The registry hands out a
package's check with its code guarded: its refusal, card sentence or ``check off:`` lines raising on one text is
that line too, never clsd's internal error.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from clsd_format.errors import CLSDError
from clsd_format.plugins import Plugins, guarded, read_group
from clsd_generation.checks.coverage import LanguageSupport, base_language, support
from clsd_generation.core.settings import ReadingChecks

ENTRY_POINT_GROUP = "clsd_generation.answer_checks"


def _runs_everywhere(found: LanguageSupport) -> list[str]:
    return []


@dataclass(frozen=True)
class AnswerCheck:
    """One check of an LLM candidate, declared once.

    ``refuse(reader, original, candidate)``: the refusal (``reason`` and its detail in brackets) or None; the reader
    is the :class:`~clsd_generation.checks.answers.AnswerReader` of the target language (its ``checks``, ``support``,
    ``corpus``, and :meth:`settings_of` for a check's own settings). ``card(settings)``: the card's sentence, read from
    the check's typed settings (its own dataclass, or ``ReadingChecks``), asked only where the check was on. ``off``:
    the values that switch it off. ``on(settings)``: whether these settings have it on (default: a field differs from
    its ``off`` value). ``settings``: the declared dataclass of a check from another package (None: its settings are
    fields of ``ReadingChecks``).
    ``why_off(support)``: the ``check off:`` lines of a language it cannot run for. ``order``: where it is asked
    (the first refusal counts).
    """

    name: str
    reason: str
    refuse: Callable[[Any, str, str], str | None]
    card: Callable[[Any], str]
    off: Mapping[str, Any]
    settings: type | None = None
    why_off: Callable[[LanguageSupport], list[str]] = _runs_everywhere
    order: int = 100
    on: Callable[[Any], bool] | None = None

    def is_on(self, settings: Any) -> bool:
        """Whether ``settings`` (the check's typed settings) have the check on."""
        if self.on is not None:
            return self.on(settings)
        return any(getattr(settings, name) != value for name, value in self.off.items())


def _guarded(check: AnswerCheck, read: Plugins[AnswerCheck]) -> AnswerCheck:
    """``check`` whose code (refusal, card sentence, ``check off:`` lines) names its plug-in when it raises."""
    origin = read.origins[check.name]
    if origin.built_in:
        return check
    return replace(
        check, refuse=guarded(origin, check.refuse), card=guarded(origin, check.card), why_off=guarded(origin, check.why_off)
    )


@functools.cache
def answer_checks() -> tuple[AnswerCheck, ...]:
    """Every registered check, in the order they are asked; a check that cannot be used is one line naming it."""
    read = read_group(ENTRY_POINT_GROUP, AnswerCheck, lambda check: check.name)
    found = [_guarded(check, read) for check in read.strict().values()]
    return tuple(sorted(found, key=lambda check: (check.order, check.name)))


def plugin_settings() -> list[type]:
    """The settings classes of the checks from other packages: their fields are options of ``clsd generate``."""
    return [check.settings for check in answer_checks() if check.settings is not None]


def settings_of(checks: ReadingChecks, check: AnswerCheck) -> Any:
    """A check's settings in ``checks``: ``checks`` itself for a built-in, else its own object (default if not given)."""
    if check.settings is None:
        return checks
    return next((given for given in checks.plugins if isinstance(given, check.settings)), check.settings())


def values_of(reading: Mapping[str, Any], check: AnswerCheck) -> Mapping[str, Any] | None:
    """A check's settings as a run's fingerprint stored them (``reading``), or None where the run did not have it."""
    if check.settings is None:
        return reading
    return reading.get("plugins", {}).get(check.name)


def plugin_values(checks: ReadingChecks) -> dict[str, dict[str, Any]]:
    """The settings of the checks from other packages, by check name, for the fingerprint and the card."""
    return {check.name: asdict(settings_of(checks, check)) for check in answer_checks() if check.settings is not None}


def with_checks(checks: ReadingChecks, on: Collection[str]) -> ReadingChecks:
    """``checks`` with every registered check not named in ``on`` switched off (the measurement's settings)."""
    unknown = set(on) - {check.name for check in answer_checks()}
    if unknown:
        raise CLSDError(f"no answer check {sorted(unknown)}; the checks are {', '.join(c.name for c in answer_checks())}")
    plugins = list(checks.plugins)
    for check in answer_checks():
        if check.name in on:
            continue
        if check.settings is None:
            checks = replace(checks, **check.off)
        else:
            plugins = [given for given in plugins if not isinstance(given, check.settings)]
            plugins.append(replace(check.settings(), **check.off))
    return replace(checks, plugins=tuple(plugins))


def stored_settings(values: Mapping[str, Any], check: AnswerCheck) -> Any:
    """A check's typed settings (its own dataclass, or ``ReadingChecks``) from the values a run's fingerprint stored:
    the fields stored, lists back to tuples; what the run did not store keeps its default."""
    cls = check.settings or ReadingChecks
    kinds = {item.name: item for item in fields(cls) if item.name != "plugins"}
    given = {name: tuple(value) if isinstance(value, list) else value for name, value in values.items() if name in kinds}
    return cls(**given)


def card_sentences(reading: Mapping[str, Any]) -> list[str]:
    """The card's sentence of every check a run had on, read from its typed settings; a check off says nothing."""
    sentences = []
    for check in answer_checks():
        values = values_of(reading, check)
        if values is None:
            continue
        settings = stored_settings(values, check)
        if check.is_on(settings) and (sentence := check.card(settings)):
            sentences.append(sentence)
    return sentences


def checks_off(language: str) -> list[str]:
    """The answer checks that are off for ``language``, one line each saying why; empty when every check runs."""
    found = support(language)
    lines = [line for check in answer_checks() for line in check.why_off(found)]
    if found.identifier is None:
        lines.append(f"decoration: a trailing remark in another language is not told apart from {found.name} text and stays")
    if not found.reads_words:
        lines.append(f"Jaccard bounds: off for {found.name}: {found.reading.why_not}")
    if base_language(language) == "en":
        lines.append("commentary: for English, a remark in English after the answer is not told apart from the answer and stays")
    return lines


__all__ = [
    "ENTRY_POINT_GROUP",
    "AnswerCheck",
    "answer_checks",
    "card_sentences",
    "checks_off",
    "plugin_settings",
    "plugin_values",
    "settings_of",
    "values_of",
    "with_checks",
]
