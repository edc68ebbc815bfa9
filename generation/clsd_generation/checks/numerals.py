"""Numbers, times and dates as each language writes them, read to what they say: the one reading that the pivot
translation checks (:mod:`clsd_generation.checks.translations`), the near-copy check of an LLM's answers
(:mod:`clsd_generation.checks.answers`) and the number rule (:mod:`clsd_generation.rules.any_language`) share.

Compared by their characters, correct translations lose their numbers ("19:30 Uhr" -> "7:30 pm") and a lost one hides
("1.000" -> "100"). So a text is read in its language's conventions, all of them CLDR's through Babel, none kept here:

* **Numbers**: digit groups joined by marks, the digits of any script (Unicode's decimal digits: "२०१९", "٢٠١٩",
  fullwidth "１５００") read by :func:`unicodedata.decimal`. The decimal and group marks are those of the language's
  numbering systems (:func:`babel.numbers.get_decimal_symbol` and :func:`~babel.numbers.get_group_symbol`: German
  "," and ".", French "," and a narrow no-break space, for which any space may stand, Arabic "٫" and "٬"), grouped
  as the language groups (threes, or Hindi's "12,34,567"): German "1.000" is 1000 and "3,5" is 3.5, English "1,000"
  and "3.5" the same. Groups joined by spaces make one number only where they group as thousands do ("1 000,5";
  "2019 30" is two numbers). A number its language's marks cannot read (an English "3.5" quoted in German) and every
  number of a language Babel does not know are read every way the two marks allow (:data:`EITHER_WAY`: "1.000" is
  then 1000 or 1, "3,5" 3.5 or 35), so an unknown language is never read wrong, only less sharply.
* **Scale words**: a number followed by a scale word of its language, from CLDR's compact number forms ("million",
  "Mio.", "万", "लाख", "milliard", French "billion" = 10^12), is worth its value times the word's: "1500万" =
  15,000,000 = "15 million" = "1.5 crore" where CLDR writes it.
* **Times**: an hour and two digits of minutes joined by ":" or the language's own time separator (Finnish and
  Danish "19.30"), or any of them followed or preceded by a day period (CLDR's "AM"/"PM", "午後", read without dots,
  spaces or case: "p.m."; periods of one letter are left out, they are words and units too) or followed by the
  language's hour word (from CLDR's pattern of a bare hour: German "Uhr", French "h", Japanese "時"). A time is its
  minute of the day: "19:30" = "7:30 pm" = "7.30 p.m." = "19 h 30".
* **Dates**: three numbers joined by one of "." "/" "-", read in the order of the language's short date pattern
  ("dd.MM.yy" German, "M/d/yy" English; every order that makes a date where the language is unknown or its own order
  makes none), and a month written out (the wide month names of the language, as the rules read them) with a day or
  a year beside it: "7. März 2024" = "March 7, 2024" = "07.03.2024" (German) = "3/7/2024" (English). The numbers of
  a date whose month is written out stay numbers of their own too.

Reading is additive: a number also keeps its digit groups as written (:attr:`Numeral.groups`), which the checks fall
back on, so a reading CLDR lacks makes a check no stricter than comparing digits.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

import regex

NUMBER, TIME, DATE = "number", "time", "date"
SPACE = " "  # a group mark written as a space: any space character (Unicode Zs) stands for it
# An unknown language, or a number its language's marks do not read: "." and "," each as decimal or group mark,
# the other marks the old conventions group with (a space, the apostrophe of Swiss German), and Arabic's own pair.
EITHER_WAY: tuple[tuple[str, str], ...] = (
    (".", ","),
    (",", "."),
    (".", SPACE),
    (",", SPACE),
    (".", "'"),
    (",", "'"),
    (".", "\u2019"),
    ("\u066b", "\u066c"),
)
ORDERS = ("dmy", "mdy", "ymd")  # the orders of a date's day, month and year that any CLDR short date pattern uses

# The number patterns, compiled once (alike in shape only to translations.py's word patterns: they read other text).
# A run of digit groups joined by one mark each: a decimal or group mark of some convention, or a space.
_RUN = regex.compile(r"(?<!\d)\d+(?:(?:[.,'\u2019\u066b\u066c]|\p{Zs})\d+)*")
_SPACES = regex.compile(r"\p{Zs}")
_DIGITS = regex.compile(r"\d+")
_SPACED_GROUP = regex.compile(r"\d{3}(?:[.,\u066b]\d+)?")  # "000" or "000,5" after a space: thousands grouped
_SPACED_HEAD = regex.compile(r"\d{1,3}(?:\p{Zs}\d{3})*")
_NUMERIC_DATE = regex.compile(r"(?<![\d.,/-])(\d{1,4})([./-])(\d{1,2})\2(\d{1,4})(?!\d|[./-]\d)")
_DAY_BEFORE = regex.compile(r"(?<!\d)(\d{1,2})(?:\.|[^\W\d_]{1,2}\.?)?[\p{Zs},]*(?:[^\W\d_]{1,3}\p{Zs}+)?$")
_DAY_AFTER = regex.compile(r"[\p{Zs},.]*(\d{1,2})(?!\d)")
_YEAR_AFTER = regex.compile(r"[\p{Zs},.]*(?:[^\W\d_]{1,3}\p{Zs}+)?(\d{4})(?!\d)")
_YEAR_BEFORE = regex.compile(r"(?<!\d)(\d{4})[^\W\d_]?[\p{Zs}.,]*$")


@dataclass(frozen=True)
class Numeral:
    """One number, time or date of a text, with what it may say (more than one value where its marks are ambiguous)."""

    kind: str  # NUMBER, TIME or DATE
    start: int  # its place in the text
    end: int
    digits: str  # its digits in ASCII as written, without marks ("1000" for "1.000", "1930" for "19:30")
    groups: tuple[int, ...]  # the value of each digit group as written (1, 0 for "1.000")
    values: frozenset[Decimal] = frozenset()  # NUMBER: each value it may have, times its scale word
    scaled: bool = False  # NUMBER: a scale word follows ("15 million", "1500万")
    minute: int | None = None  # TIME: its minute of the day
    dates: frozenset[tuple[int | None, int, int | None]] = frozenset()  # DATE: each (year, month, day) it may be
    numeric: bool = True  # DATE: all in digits ("07.03.2024"); False: a month written out ("7. März 2024")

    @property
    def whole(self) -> int:
        """Its digits as one integer (marks left out)."""
        return int(self.digits) if self.digits else 0

    def same_value(self, other: Numeral) -> bool:
        """Whether ``other`` says the same: a number of a common value, a time of the same minute, a date whose month,
        day and year agree where both state them."""
        if self.kind != other.kind:
            return False
        if self.kind == NUMBER:
            return bool(self.values & other.values)
        if self.kind == TIME:
            return self.minute == other.minute
        return any(_dates_agree(mine, theirs) for mine in self.dates for theirs in other.dates)


def _dates_agree(first: tuple[int | None, int, int | None], second: tuple[int | None, int, int | None]) -> bool:
    """Same month; the same day and year where both state one (a year of two digits is its last two)."""
    (year_a, month_a, day_a), (year_b, month_b, day_b) = first, second
    if month_a != month_b or (day_a is not None and day_b is not None and day_a != day_b):
        return False
    if year_a is None or year_b is None:
        return True
    return year_a == year_b or (min(year_a, year_b) < 100 and year_a % 100 == year_b % 100)


@dataclass(frozen=True)
class Conventions:
    """How a language writes numbers, times and dates, as CLDR says (:func:`conventions`)."""

    known: bool  # Babel knows the language; otherwise every mark is read both ways
    marks: tuple[tuple[str, str], ...] = EITHER_WAY  # (decimal, group) of each of its numbering systems
    secondary: int = 3  # the size of groups after the first (2 in Hindi's "12,34,567")
    time_separators: str = ":"
    hour_words: tuple[str, ...] = ()  # "Uhr", "h", "時": a bare hour's word
    periods: Mapping[str, int] = field(default_factory=dict)  # a day period, folded ("pm") -> hours it adds (0, 12)
    periods_first: bool = False  # the day period is written before the hour (Korean "오후 7:30")
    date_order: str = ""  # "dmy", "mdy" or "ymd"; "": any
    months: Mapping[str, int] = field(default_factory=dict)  # a wide month name, case-folded -> its number
    scales: Mapping[str, int] = field(default_factory=dict)  # a scale word as written -> its multiplier

    @functools.cached_property
    def time_pattern(self) -> Any:
        period = _alternatives([_period_pattern(p) for p in self.periods])
        hour = _alternatives([regex.escape(w) for w in self.hour_words])
        joint = rf"[{regex.escape(self.time_separators + '.')}]" + (rf"|\p{{Zs}}?(?:{hour})\p{{Zs}}?" if hour else "")
        after = "|".join(p for p in (hour, "" if self.periods_first else period) if p)
        return regex.compile(
            r"(?<![\d.,:])"
            + (rf"(?:(?P<pre>{period})\p{{Zs}}?)?" if period and self.periods_first else "")
            + rf"(?P<h>\d{{1,2}})(?:(?P<sep>{joint})(?P<m>\d{{2}})(?::\d{{2}})?)?(?!\d|[.,:]\d)"
            + (rf"(?:\p{{Zs}}?(?P<post>{after})(?![\p{{L}}\p{{M}}]))?" if after else ""),
            regex.IGNORECASE,
        )

    @functools.cached_property
    def month_pattern(self) -> Any | None:
        return _longest_first(self.months, _month_name_pattern, "{}", regex.IGNORECASE)

    @functools.cached_property
    def scale_pattern(self) -> Any | None:
        return _longest_first(self.scales, _scale_word_pattern, r"\p{Zs}?({})")

    def scale_of(self, word: str) -> int:
        return self.scales.get(word) or self.scales.get(word.rstrip(".")) or self.scales.get(word + ".") or 1


def _alternatives(patterns: Sequence[str]) -> str:
    return "|".join(sorted(patterns, key=len, reverse=True))


def _period_pattern(folded: str) -> str:
    """A day period as written with or without dots and spaces between its letters: "pm", "PM", "p.m.", "p. m."."""
    return r"[.\p{Zs}]{0,2}".join(regex.escape(ch) for ch in folded) + r"\.?"


def _longest_first(words: Iterable[str], pattern: Callable[[str], str], frame: str, flags: int = 0) -> Any | None:
    """One pattern of ``words`` (each as ``pattern`` writes it, the longest first, so "Mio." is tried before "Mio"),
    in ``frame``; None without words."""
    alternatives = "|".join(pattern(word) for word in sorted(words, key=len, reverse=True))
    return regex.compile(frame.replace("{}", alternatives), flags) if alternatives else None


def _month_name_pattern(name: str) -> str:
    """A month name: one of digits and a counter ("3月") is bounded by digits only; a word by any letter or digit."""
    return (
        (r"(?<!\d)" if name[0].isdecimal() else r"(?<![\p{L}\p{M}\p{N}])")
        + regex.escape(name)
        + ("" if any(ch.isdecimal() for ch in name) else r"(?![\p{L}\p{M}])")
    )


def _scale_word_pattern(word: str) -> str:
    """A scale word, its full stop optional ("Mio." and "Mio"). One written with case ends where its word ends ("5 km"
    holds no "k", "5MB" no "M"); one of a script without case need not ("1500万人")."""
    bare = word.rstrip(".")
    written = regex.escape(bare) + (r"\.?" if bare != word else "")
    cased = any(ch.lower() != ch.upper() for ch in bare)
    return written + (r"(?![\p{L}\p{M}\p{N}])" if cased else "")


def _fold_period(text: str) -> str:
    """A day period as compared: its letters only, case-folded ("p.\u00a0m." -> "pm")."""
    return "".join(ch for ch in text.casefold() if ch.isalpha())


@functools.lru_cache(maxsize=256)
def conventions(language: str | None) -> Conventions:
    """The conventions of ``language`` (a code as the run writes it: ``de``, ``zh-Hant``, ``pt-BR``); where Babel knows
    no such locale (or is not installed), every mark is read both ways and no time word, month or scale is known."""
    try:
        from babel import Locale, UnknownLocaleError
    except ImportError:  # pragma: no cover - Babel comes with the generator's extra
        return Conventions(known=False)
    try:
        locale = Locale.parse(language.replace("-", "_")) if language else None
    except (UnknownLocaleError, ValueError, TypeError):
        locale = None
    return _from_locale(locale) if locale is not None else Conventions(known=False)


def _from_locale(locale: Any) -> Conventions:
    from babel.dates import get_date_format, get_month_names, get_time_format

    marks = []
    for system in locale.number_symbols:
        symbols = locale.number_symbols[system]
        decimal, group = symbols.get("decimal"), symbols.get("group")
        pair = (decimal, SPACE if group and _SPACES.fullmatch(group) else group)
        if decimal and group and pair not in marks:
            marks.append(pair)
    grouping = locale.decimal_formats[None].grouping
    time_short = str(get_time_format("short", locale=locale).pattern)
    separator = regex.search(r"[Hhk K]'?([^A-Za-z']+)'?m", time_short)
    date_short = _fields(str(get_date_format("short", locale=locale).pattern)).lower()
    order = "".join(sorted("dmy", key=lambda part: date_short.find(part) if part in date_short else len(date_short)))
    return Conventions(
        known=True,
        marks=tuple(marks) or EITHER_WAY,
        secondary=grouping[1] if len(grouping) > 1 else 3,
        time_separators=":" + (separator.group(1).strip() if separator else ""),
        hour_words=_hour_words(locale),
        periods=_periods(locale, time_short),
        periods_first=_fields(time_short).find("a") < _fields(time_short).lower().find("h"),
        date_order=order if order in ORDERS else "",
        months=_months(locale, get_month_names),
        scales=_scales(locale),
    )


def _months(locale: Any, get_month_names: Any) -> dict[str, int]:
    """The wide month names in both contexts, case-folded, and the abbreviated ones written with a digit ("3月": no
    word of the language is written so; "Mar" is)."""
    months: dict[str, int] = {}
    for width in ("wide", "abbreviated"):
        for context in ("format", "stand-alone"):
            for number, name in get_month_names(width, context=context, locale=locale).items():
                if width == "wide" or any(ch.isdecimal() for ch in name):
                    months.setdefault(name.casefold(), number)
    return months


def _hour_words(locale: Any) -> tuple[str, ...]:
    """The word of a bare hour in CLDR's patterns for one ("HH 'Uhr'" -> "Uhr", "HH 'h'" -> "h", "H時" -> "時"): what
    the pattern writes literally, its fields (ASCII letters) left out."""
    words = []
    for skeleton in ("H", "h"):
        pattern = str(locale.datetime_skeletons.get(skeleton, ""))
        literal = "".join(quoted or other for quoted, other in regex.findall(r"'([^']*)'|([^A-Za-z'])", pattern))
        word = regex.sub(r"\p{Cf}", "", literal).strip()  # a bidi mark is no word
        if any(ch.isalpha() for ch in word) and word not in words:
            words.append(word)
    return tuple(words)


def _periods(locale: Any, time_short: str) -> dict[str, int]:
    """The day periods "am" and "pm" in every width and context CLDR gives, folded, for a language whose short time is
    written with one (English "h:mm a"; German "HH:mm" is not, and its "am" is a word); one-letter forms left out."""
    found: dict[str, int] = {}
    if "a" not in _fields(time_short):
        return found
    for widths in locale.day_periods.values():
        for names in widths.values():
            for key, offset in (("am", 0), ("pm", 12)):
                folded = _fold_period(names.get(key, ""))
                if len(folded) > 1:
                    found.setdefault(folded, offset)
    return found


def _fields(pattern: str) -> str:
    """The field letters of a CLDR date or time pattern, in order, quoted text left out ("h:mm a" -> "hmma")."""
    return "".join(regex.findall(r"[A-Za-z]", regex.sub(r"'[^']*'", "", pattern)))


def _scales(locale: Any) -> dict[str, int]:
    """Each scale word of CLDR's compact number forms with its multiplier: "0 million" under 1000000 is a million,
    "00万" under 100000 is 万 (10^4). A word that would stand for two multipliers is left out."""
    found: dict[str, set[int]] = {}
    for kinds in locale.compact_decimal_formats.values():
        for forms in kinds.values():
            for key, pattern in forms.items():
                text = str(getattr(pattern, "pattern", pattern)).replace("'", "")
                zeros = regex.match(r"[^0]*?(0+)\p{Zs}?(.+)$", text)
                if zeros and "0" not in zeros.group(2) and zeros.group(2).strip():
                    word = zeros.group(2).strip()
                    found.setdefault(word, set()).add(int(key) // 10 ** (len(zeros.group(1)) - 1))
    return {word: next(iter(values)) for word, values in found.items() if len(values) == 1}


def _ascii(text: str) -> str:
    """``text`` with every decimal digit of any script written in ASCII, other characters as they are."""
    return "".join(str(unicodedata.decimal(ch)) if ch.isdecimal() else ch for ch in text)


def _values(number: str, found: Conventions) -> frozenset[Decimal]:
    own = {value for decimal, group in found.marks if (value := _read(number, decimal, group, found.secondary)) is not None}
    if found.known and own:
        return frozenset(own)
    either = {value for decimal, group in EITHER_WAY if (value := _read(number, decimal, group, 3)) is not None}
    either |= {value for decimal, group in EITHER_WAY if (value := _read(number, decimal, group, 2)) is not None}
    return frozenset(either | {Decimal("".join(_DIGITS.findall(number)))})


def _read(number: str, decimal: str, group: str, secondary: int) -> Decimal | None:
    """``number`` read with one decimal and one group mark, its groups checked (first 1-3 digits, the next ones
    ``secondary`` digits but the last before the decimal mark, three; a space mark stands for any space), else None."""
    groups = _DIGITS.findall(number)
    marks = [SPACE if _SPACES.fullmatch(mark) else mark for mark in _DIGITS.split(number)[1:-1]]
    fraction = ""
    if marks and marks[-1] == decimal:
        fraction, groups, marks = groups[-1], groups[:-1], marks[:-1]
    if any(mark != group for mark in marks):
        return None
    if len(groups) > 1 and not _grouped(groups, secondary):
        return None
    try:
        return Decimal("".join(groups) + ("." + fraction if fraction else ""))
    except InvalidOperation:  # pragma: no cover - digits only
        return None


def _grouped(groups: Sequence[str], secondary: int) -> bool:
    if not 1 <= len(groups[0]) <= max(3, secondary) or len(groups[-1]) != 3:
        return False
    middle = groups[1:-1]
    return all(len(g) == 3 for g in middle) or (all(len(g) == secondary for g in middle) and len(groups[0]) <= secondary)


def read_numerals(text: str, language: str | None) -> list[Numeral]:
    """Every number, time and date of ``text`` as ``language`` writes it, in the order they start (module docstring)."""
    found = conventions(language)
    numerals = _numeric_dates(text, found)
    numerals += _times(text, found, [(n.start, n.end) for n in numerals])
    taken = [(n.start, n.end) for n in numerals] + _digit_months(text, found)  # the 3 of "3月" is its month
    return sorted(numerals + _numbers(text, found, taken) + _written_dates(text, found), key=lambda n: (n.start, n.end))


def _digit_months(text: str, found: Conventions) -> list[tuple[int, int]]:
    if found.month_pattern is None:
        return []
    return [m.span() for m in found.month_pattern.finditer(text) if any(ch.isdecimal() for ch in m[0])]


def _free(start: int, end: int, taken: Sequence[tuple[int, int]]) -> bool:
    return all(end <= low or start >= high for low, high in taken)


def _groups(text: str) -> tuple[int, ...]:
    return tuple(int(_ascii(group)) for group in _DIGITS.findall(text))


def _numeric_dates(text: str, found: Conventions) -> list[Numeral]:
    numerals = []
    for match in _NUMERIC_DATE.finditer(text):
        parts = [_ascii(match.group(i)) for i in (1, 3, 4)]
        readings = [_date(parts, order) for order in ORDERS]
        valid = {order: date for order, date in zip(ORDERS, readings, strict=True) if date is not None}
        if not valid:
            continue
        dates = {valid[found.date_order]} if found.date_order in valid else set(valid.values())
        numerals.append(Numeral(DATE, match.start(), match.end(), "".join(parts), _groups(match[0]), dates=frozenset(dates)))
    return numerals


def _date(parts: Sequence[str], order: str) -> tuple[int | None, int, int | None] | None:
    """(year, month, day) of three digit strings in ``order``, if they make a date (a year of two or four digits)."""
    by = dict(zip(order, parts, strict=True))
    year, month, day = by["y"], int(by["m"]), int(by["d"])
    if len(year) not in (2, 4) or len(by["m"]) > 2 or len(by["d"]) > 2 or not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    return int(year), month, day


def _times(text: str, found: Conventions, taken: Sequence[tuple[int, int]]) -> list[Numeral]:
    numerals = []
    for match in found.time_pattern.finditer(text):
        minute = _minute(match, found)
        if minute is None or not _free(match.start(), match.end(), taken):
            continue
        digits = _ascii(match.group("h") + (match.group("m") or ""))
        numerals.append(Numeral(TIME, match.start(), match.end(), digits, _groups(match[0]), minute=minute))
    return numerals


def _minute(match: Any, found: Conventions) -> int | None:
    """The minute of the day a time match says, or None where it is no time: an hour alone or hour and minutes joined
    by a full stop the language does not join times with ("3.50") need a day period or an hour word."""
    groups = match.groupdict()
    marks = [word for word in (groups.get("pre"), groups.get("post")) if word]
    period = next((found.periods[_fold_period(w)] for w in marks if _fold_period(w) in found.periods), None)
    separator = (groups.get("sep") or "").strip()
    joined = groups.get("m") is not None and (separator in found.time_separators or separator not in ".")
    if not (marks or joined):  # a separator the language joins times with, or an hour word ("19h30")
        return None
    hour, minutes = int(_ascii(groups["h"])), int(_ascii(groups.get("m") or "0"))
    if minutes > 59:
        return None
    if period is not None:
        return (hour % 12 + period) * 60 + minutes if 1 <= hour <= 12 else None
    return hour * 60 + minutes if hour <= 24 else None


def _numbers(text: str, found: Conventions, taken: Sequence[tuple[int, int]]) -> list[Numeral]:
    numerals = []
    for run in _RUN.finditer(text):
        for start, end in _spaced_numbers(run[0], run.start()):
            if not _free(start, end, taken):
                continue
            written = _ascii(text[start:end])
            values, scaled = _values(written, found), False
            scale = found.scale_pattern.match(text, end) if found.scale_pattern is not None else None
            if scale is not None:
                multiplier = found.scale_of(scale.group(1))
                values, scaled, end = frozenset(v * multiplier for v in values), True, scale.end()
            digits = "".join(_DIGITS.findall(written))
            numerals.append(Numeral(NUMBER, start, end, digits, _groups(written), values=values, scaled=scaled))
    return numerals


def _spaced_numbers(run: str, offset: int) -> list[tuple[int, int]]:
    """The numbers of a run of digit groups, cut at each space that does not group thousands ("2019 30": two)."""
    pieces = [(m.start(), m.end()) for m in regex.finditer(r"[^\p{Zs}]+", run)]
    spans: list[tuple[int, int]] = []
    start, end = pieces[0]
    for low, high in pieces[1:]:
        if _SPACED_HEAD.fullmatch(run[start:end]) and _SPACED_GROUP.fullmatch(run[low:high]):
            end = high
        else:
            spans.append((start, end))
            start, end = low, high
    spans.append((start, end))
    return [(offset + low, offset + high) for low, high in spans]


def _written_dates(text: str, found: Conventions) -> list[Numeral]:
    """Dates whose month is written out, with a day or a year beside it ("7. März 2024", "March 7", "2024年3月7日")."""
    if found.month_pattern is None:
        return []
    numerals = []
    for match in found.month_pattern.finditer(text):
        month = found.months[match[0].casefold()]
        start, end, day, year = match.start(), match.end(), None, None
        if (before := _DAY_BEFORE.search(text, 0, start)) is not None and 1 <= int(_ascii(before.group(1))) <= 31:
            day, start = before.group(1), before.start()
        elif (after := _DAY_AFTER.match(text, end)) is not None and 1 <= int(_ascii(after.group(1))) <= 31:
            day, end = after.group(1), after.end()
        if (later := _YEAR_AFTER.match(text, end)) is not None:
            year, end = later.group(1), later.end()
        elif (earlier := _YEAR_BEFORE.search(text, 0, start)) is not None:
            year, start = earlier.group(1), earlier.start()
        if day is None and year is None:
            continue
        parts = [part for part in (day, year) if part is not None]
        date = (int(_ascii(year)) if year else None, month, int(_ascii(day)) if day else None)
        digits = "".join(_ascii(part) for part in parts)
        groups = tuple(int(_ascii(part)) for part in parts)
        numerals.append(Numeral(DATE, start, end, digits, groups, dates=frozenset({date}), numeric=False))
    return numerals


def comparable_numerals(text: str, language: str | None) -> list[Numeral]:
    """The numerals of ``text`` that carry their own value: numbers, times, dates in digits (a date whose month is
    written out is left out, its numbers are numerals of their own)."""
    return [n for n in read_numerals(text, language) if n.kind != DATE or n.numeric]


def same_numerals(first: str, second: str, language: str | None) -> bool:
    """Whether two texts of ``language`` say the same numbers, times and dates in the same order, however written
    ("1.000" and "1000", "19:30" and "19.30 Uhr")."""
    mine, theirs = comparable_numerals(first, language), comparable_numerals(second, language)
    return len(mine) == len(theirs) and all(a.same_value(b) for a, b in zip(mine, theirs, strict=True))
