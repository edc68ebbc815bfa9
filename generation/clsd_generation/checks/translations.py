"""Whether an English pivot text translates its source: the checks every stored translation passes, whoever made it.

A translator can answer with English that is no translation: one sentence for every text ("This is the English
translation of the text numbered ff866029."), a note, the translation of another text. Such an answer passes the
reading of every LLM answer and the language check (:mod:`clsd_generation.llm.translate`), and a pivot set built
from it measures nothing, whatever the report then says about pivoting. So every translation of a run, by
M2M-100/NLLB or an LLM, is checked against its source before the ``-pivot-en`` configs are built. The checks use
what can be compared in any script without a model: a filter by an embedding model would favour the very models
the pivot set then ranks. A refused translation is kept in the checkpoint (it is what the translator answered) and
its rows are left out of the pivot configs; when more than half of a language's translations are refused or
empty, the pivot configs are not built at all (:func:`not_built_reason`).

* **A template**: the same text answered for different sources of at least :data:`TEMPLATE_ROWS` rows, once case
  and punctuation are folded and every word holding a digit (a number, an id such as "ff866029") is one
  placeholder; also, for a text that echoes most words of its source, once those are set aside, when at least
  :data:`TEMPLATE_WORDS` words remain ("The text 'Der Hund ...' cannot be translated."). Texts of one row may
  translate alike (a distractor one word from its target can come out as the same English: the paper counts it as
  a tie), so agreement is counted across rows: on the release's 23,659 distinct texts (German and French, the
  authors' M2M-100 pivot) no English is shared by different sources of more than two rows.
* **A number of the source missing**: every number, time and date of the source of ten or more (its digits read as
  one) must be in the translation, compared by what it says as :mod:`clsd_generation.checks.numerals` reads each
  language (CLDR's marks, times, dates and scale words through Babel): digits of any script ("२०१९", "٢٠١٩" and
  "2019" are one number), German "1.000" and "3,5" are English "1,000" and "3.5", "19:30 Uhr" is "7:30 pm",
  "07.03.2024" is "March 7, 2024", "1500万" is "15 million". A number is also there when each of its digit groups
  is a number of the translation (a reading CLDR lacks, a date in the source's order), with the same digits but for
  trailing zeros where a scale word stands on one side only ("15 लाख" -> "15 lakh", a word CLDR's English lacks),
  or as the end of a longer number ("80er Jahre" -> "the 1980s"); trailing zeros alone are no scale word ("1.000"
  -> "100" is refused). Numbers below ten are not required: English writes them as words ("3 hommes" -> "three
  men", "4ème" -> "fourth"). On the release this refuses 91 of the 23,659 (0.38%), each a translation that lost
  part of its source (a second sentence, a date, a page number), the same texts as a reading of digits alone.
* **A name of the source missing**: a name is compared by its letters only where the source writes it in the
  pivot's script (Latin) inside a text mostly in another script ("Google" in a Greek sentence): English writes it
  the same. Across scripts a name cannot be compared by letters (Μέρκελ, Merkel), and in a source written in the
  pivot's own script a name is not told from other capitalised words without a tagger (German capitalises every
  noun) while translators rightly change names (Allemagne -> Germany, UE -> EU): on the release, requiring the
  capitalised words of a source refused 3 to 15% of the genuine translations, so a Latin-script source's names are
  not compared; its numbers are. A translation missing more than half of such words is refused.
* **A length out of bounds**: the ratio of the translation's length to its source's (characters without
  whitespace, so scripts without spaces count alike) against the same ratio's median over the language's other
  translations, which absorbs how densely each script writes; outside [1/3, 3] times that median is refused. On
  the release every genuine ratio lies within 0.41 and 1.77 times its median (the lowest, translations that
  dropped a second sentence). Sources shorter than :data:`LENGTH_FROM` characters are not measured: a word or two
  translates legitimately to many times its length ("EU" -> "European Union").
"""

from __future__ import annotations

import statistics
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import regex

from clsd_format.languages import ENGLISH
from clsd_generation.checks.numerals import DATE, NUMBER, Numeral, comparable_numerals, read_numerals
from clsd_generation.core.checkpoint import Checkpoint
from clsd_generation.core.languages import languages_of

TEMPLATE = "the same text as for other sources (a template)"
NUMBER_MISSING = "a number of the source missing"
NAME_MISSING = "a name of the source missing"
LENGTH = "length out of bounds"
REASONS = (TEMPLATE, NUMBER_MISSING, NAME_MISSING, LENGTH)

TEMPLATE_ROWS = 3  # different rows (each with its own source) sharing one text make it a template; the release: 2 at most
TEMPLATE_WORDS = 4  # a text with its echoed source words set aside is compared only when this many words remain
SMALLEST_NUMBER = 10  # numbers below are often written as words in English
LENGTH_BOUNDS = (1 / 3, 3.0)  # times the language's median ratio of lengths; the release: 0.41 to 1.77
LENGTH_FROM = 20  # characters (without whitespace) of a source below which its length ratio is not measured
MOST = 0.5  # more than this share of a language's translations refused or empty: the pivot configs are not built

# The word patterns, compiled once (alike in shape only to numerals.py's number patterns: they read other text).
_WORD = regex.compile(r"\w+")
_PIVOT_LETTER = regex.compile(rf"\p{{Script={ENGLISH.script}}}")
_PIVOT_WORD = regex.compile(rf"\p{{Script={ENGLISH.script}}}[\p{{Script={ENGLISH.script}}}\p{{M}}\d]+")
_LETTER = regex.compile(r"\p{L}")
_SPACE = regex.compile(r"\s+")


@dataclass(frozen=True)
class LanguageCheck:
    """The translations of one language into the pivot, checked: how many, which were refused and why."""

    code: str
    texts: int  # translations stored (empty ones included)
    empty: int  # translations recorded as failed (an empty text): left out already
    refused: Mapping[str, str] = field(default_factory=dict)  # source -> reason (one of REASONS)

    @property
    def unusable(self) -> int:
        return self.empty + len(self.refused)

    @property
    def most_unusable(self) -> bool:
        """More than half of the language's translations refused or empty: its pivot set would not be a pivot."""
        return self.texts > 0 and self.unusable > MOST * self.texts

    def reasons(self) -> Counter[str]:
        return Counter(self.refused.values())

    def line(self) -> str:
        """What ``clsd translate`` prints for the language: the share refused, by reason."""
        refused = len(self.refused)
        share = f"{100 * refused / self.texts:.1f}%" if self.texts else "0%"
        why = ", ".join(f"{reason} {n}" for reason, n in sorted(self.reasons().items(), key=lambda kv: (-kv[1], kv[0])))
        empty = f"; {self.empty} empty (failed)" if self.empty else ""
        return (
            f"{self.code}->en: {refused} of {self.texts} translations refused ({share}) as not translating their source"
            + (f": {why}" if why else "")
            + empty
        )


def missing_numbers(source: str, translation: str, language: str | None = None, pivot: str | None = ENGLISH.code) -> list[int]:
    """The numbers, times and dates of ``source`` (written in ``language``; None: unknown, its marks read both ways) that
    ``translation`` (in ``pivot``) lacks, each as its digits (see the module docstring)."""
    found = read_numerals(translation, pivot)
    parts = {group for numeral in found for group in numeral.groups}
    parts |= {int(value) for numeral in found for value in numeral.values if value == value.to_integral_value()}
    return [numeral.whole for numeral in comparable_numerals(source, language) if not _kept(numeral, found, parts)]


def _kept(numeral: Numeral, found: Sequence[Numeral], parts: set[int]) -> bool:
    """Whether the translation holds ``numeral``: by value (a time by its minute, a date by its day, month and year),
    or by its digit groups each among the translation's numbers (the fallback of a reading CLDR lacks), or, with a
    scale word on one side only, by the same digits but for trailing zeros ("15 lakh" for "15 लाख"), or as the end of
    a longer number ("80er" -> "1980s"). Below :data:`SMALLEST_NUMBER` it need not be there."""
    if numeral.whole < SMALLEST_NUMBER or all(group in parts for group in numeral.groups):
        return True
    if any(numeral.same_value(other) and (numeral.kind != DATE or _year_kept(numeral, other, parts)) for other in found):
        return True
    if numeral.kind != NUMBER:
        return False
    significant = _significant(numeral.whole)
    others = [other for other in found if other.kind == NUMBER]
    if any(other.scaled != numeral.scaled and _significant(other.whole) == significant for other in others):
        return True  # "1500万" -> "15 million" where one of the scale words is not CLDR's
    ends = {str(int(value)) for value in numeral.values if value == value.to_integral_value()}
    return any(str(int(value)).endswith(end) for other in others for value in other.values for end in ends)  # "80er"


def _year_kept(date: Numeral, other: Numeral, parts: set[int]) -> bool:
    """A date agrees with one that states no year ("March 7") only where the translation writes the year elsewhere."""
    return all(year is not None for year, _, _ in other.dates) or all(year in parts for year, _, _ in date.dates)


def _significant(value: int) -> str:
    """The digits of ``value`` without its trailing zeros: what a scale word (万, lakh, million) leaves unchanged."""
    return str(value).rstrip("0") or "0"


def pivot_script_names(source: str) -> list[str]:
    """The words ``source`` writes in the pivot's script when most of its letters are in another script; else none."""
    letters = len(_LETTER.findall(source))
    if not letters or 2 * len(_PIVOT_LETTER.findall(source)) >= letters:
        return []
    return list(dict.fromkeys(_PIVOT_WORD.findall(unicodedata.normalize("NFKC", source))))


def names_missing(source: str, translation: str) -> bool:
    """Whether ``translation`` lacks more than half of the names :func:`pivot_script_names` finds in ``source``."""
    names = pivot_script_names(source)
    folded = unicodedata.normalize("NFKC", translation).casefold()
    missing = [name for name in names if name.casefold() not in folded]
    return 2 * len(missing) > len(names)


def template_keys(source: str, translation: str) -> list[str]:
    """What a template shares: the text folded with every word holding a digit one placeholder; and, when it echoes
    most words of ``source`` ("I cannot translate «Der Hund schläft.»"), the same without them (when at least
    :data:`TEMPLATE_WORDS` words remain)."""
    source_words = set(_folded(source).split()) - {"#"}
    plain = _folded(translation).split()
    keys = [" ".join(plain)] if plain else []
    if 2 * len(source_words & set(plain)) < len(source_words) or not source_words:
        return keys  # a translation shares names and numbers with its source; an echo holds most of it
    own = [word for word in plain if word not in source_words]
    return keys + ([f"echo: {' '.join(own)}"] if len(own) >= TEMPLATE_WORDS else [])


def templates(translations: Mapping[str, str], rows: Mapping[str, Collection[str]]) -> set[str]:
    """The sources whose translation is a template: a key shared by sources of at least TEMPLATE_ROWS rows that differ in
    more than their numbers ("Nummer 1" and "Nummer 2" may well translate alike, but not "Nummer 1" and "Der Hund")."""
    sources: dict[str, set[str]] = defaultdict(set)
    for source, translation in translations.items():
        for key in template_keys(source, translation):
            sources[key].add(source)
    shared = set()
    for members in sources.values():
        held = {row for source in members for row in rows.get(source, ())}
        distinct = {_folded(source) for source in members}
        if min(len(distinct), len(held)) >= TEMPLATE_ROWS:
            shared |= members
    return shared


def _folded(text: str) -> str:
    """``text`` as a template key sees it: its words, case folded, every word holding a digit one placeholder."""
    words = _WORD.findall(unicodedata.normalize("NFKC", text).casefold())
    return " ".join("#" if any(ch.isdecimal() for ch in word) else word for word in words)


def _length(text: str) -> int:
    return len(_SPACE.sub("", text))


def lengths_out_of_bounds(translations: Mapping[str, str]) -> set[str]:
    """The sources whose translation's length ratio is outside LENGTH_BOUNDS times the median ratio of ``translations``."""
    ratios = {s: _length(t) / _length(s) for s, t in translations.items() if _length(s) >= LENGTH_FROM}
    if not ratios:
        return set()
    median = statistics.median(ratios.values())
    low, high = LENGTH_BOUNDS
    return {source for source, ratio in ratios.items() if not low * median <= ratio <= high * median}


def check_translations(code: str, translations: Mapping[str, str], rows: Mapping[str, Collection[str]]) -> LanguageCheck:
    """Check one language's translations (source -> English; "" a failed one). ``rows``: source -> the ids of the rows
    that hold it (a template is counted across rows)."""
    given = {source: text for source, text in translations.items() if text.strip()}
    refused = dict.fromkeys(templates(given, rows), TEMPLATE)
    for source, text in given.items():
        if source in refused:
            continue
        if missing_numbers(source, text, code):
            refused[source] = NUMBER_MISSING
        elif names_missing(source, text):
            refused[source] = NAME_MISSING
    rest = {source: text for source, text in given.items() if source not in refused}
    refused |= dict.fromkeys(lengths_out_of_bounds(rest), LENGTH)
    return LanguageCheck(code, len(translations), len(translations) - len(given), refused)


def pivot_texts(checkpoint: Checkpoint) -> dict[str, dict[str, set[str]]]:
    """Per language code but English: each text of the pivot (both sides of every pair, every kept distractor) with
    the ids of the rows (pairs) that hold it."""
    languages = languages_of(checkpoint)
    wanted: dict[str, dict[str, set[str]]] = {language.code: {} for language in languages if language.code != ENGLISH.code}
    pairs = checkpoint.pairs()
    for side, language in enumerate(languages):
        if language.code in wanted:
            for pair in pairs:
                wanted[language.code].setdefault(pair.texts[side], set()).add(pair.pair_id)
    for result in checkpoint.results():
        if result.status == "ok" and result.lang in wanted:
            for text in result.distractors:
                wanted[result.lang].setdefault(text, set()).add(result.pair_id)
    return wanted


def check_run(checkpoint: Checkpoint) -> dict[str, LanguageCheck]:
    """Every stored translation of the run's pivot, checked per language (texts not translated yet are not counted)."""
    checks = {}
    for code, rows in pivot_texts(checkpoint).items():
        stored = checkpoint.translations(code)
        checks[code] = check_translations(code, {text: stored[text] for text in rows if text in stored}, rows)
    return checks


def not_built_reason(checks: Iterable[LanguageCheck]) -> str | None:
    """Why the pivot configs are not built (more than half of a language's translations refused or empty), or None."""
    failing = [check for check in checks if check.most_unusable]
    if not failing:
        return None
    parts = []
    for check in failing:
        why = ", ".join(f"{reason} {n}" for reason, n in check.reasons().most_common())
        empty = [f"{check.empty} empty"] if check.empty else []
        parts.append(f"{check.code}->en {check.unusable} of {check.texts} ({'; '.join(([why] if why else []) + empty)})")
    return "more than half of the translations are refused as not translating their source or are empty: " + "; ".join(parts)
