"""Rules that work the same in every language, on tagged sentences: each proposes edits of whole tokens.

An edit replaces tokens [start, end) of the original by a text; :mod:`clsd_generation.rules.checks`
then re-tags the result and keeps it only if it is still the same sentence everywhere else. Variants
come from a seeded ``random.Random``, so a run is reproducible and a re-ask (attempt 2, 3...) draws
different ones.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Callable, Sequence

from clsd_format.tagging import TaggedSentence, Token
from clsd_generation.checks.numerals import DATE, TIME, read_numerals
from clsd_generation.rules.lexicon import Edit, LanguageRules, NumberWords

_DIGITS = re.compile(r"\d+")
# \d: the decimal digits of every script; \u2212: the minus sign; \u066b, \u066c, \u066a: the Arabic decimal and
# thousands separators and percent sign.
_NUMBER_TOKEN = re.compile(r"[-+\u2212]?\d[\d.,\u066b\u066c]*[%\u066a]?")
_VOWEL_START = tuple("aeiouyàâéèêëîïôûœh")  # h: elision before most French h ("n'habite"), an before English "hour"


def match_case(template: str, word: str) -> str:
    if template.isupper() and len(template) > 1:
        return word.upper()
    if template[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


def starts_with_vowel(word: str) -> bool:
    """For elision and a/an: "l'indice" takes only a vowel-initial noun in its place."""
    return word[:1].casefold() in _VOWEL_START


def in_name(sentence: TaggedSentence, index: int) -> bool:
    return any(name.start <= index < name.end for name in sentence.names)


def in_longer_name(sentence: TaggedSentence, index: int) -> bool:
    """Inside a name of two or more tokens ("Black Friday"); a one-token name ("Monday" to HanTa) is a whole unit."""
    return any(name.start <= index < name.end and name.end - name.start > 1 for name in sentence.names)


def tokens_text(sentence: TaggedSentence, start: int, end: int) -> str:
    """The original characters of tokens [start, end), spaces included."""
    return sentence.text[sentence.tokens[start].start : sentence.tokens[end - 1].end] if end > start else ""


def apply_edit(sentence: TaggedSentence, edit: Edit) -> str:
    start, end, text = edit
    return sentence.text[: sentence.tokens[start].start] + text + sentence.text[sentence.tokens[end - 1].end :]


def _new_number(
    digits: str, rng: random.Random, day: bool = False, percent: bool = False, round_to: int = 1, year: bool = True
) -> str:
    """Another value of the same shape: a day stays a day, a year a nearby year, a share of at most 100 stays at most
    100 ("455 Prozent" is nonsense), a number is as round as ``round_to`` ("gut 308", "601 Euro mehr" are not said),
    and a single digit never becomes 1 (it would leave a plural noun behind: "1 millions")."""
    value = int(digits)
    if day and 1 <= value <= 31:  # a day of the month stays a valid one ("24 juillet" -> "12 juillet", not "34")
        return str(rng.choice([d for d in range(2, 29) if d != value]))  # never 1: French writes "1er"
    if year and len(digits) == 4 and 1800 <= value <= 2100:
        return str(value + rng.choice([-5, -3, -2, -1, 1, 2, 3, 5]))
    if len(digits) == 1:
        return str(rng.choice([d for d in range(2, 10) if d != value]))
    low, high = 10 ** (len(digits) - 1), 10 ** len(digits) - 1
    if percent and value <= 100:
        low, high = (10, 99) if value == 100 else (low, min(high, 100))
    while round_to > 1 and high // round_to - -(-low // round_to) < 1:  # "100 Prozent": a share of 10 to 99 instead
        round_to //= 10
    first, last = -(-low // round_to), high // round_to  # the multiples of round_to in [low, high]
    new = value
    while new == value:
        new = rng.randint(first, last) * round_to
    return str(new)


def _glued(sentence: TaggedSentence, token: Token, rules: LanguageRules) -> bool:
    """A number written against a letter is part of a code or name ("5G", "G7"). Written without spaces, a number
    always touches its word: there a Latin letter makes a code, and another letter a counter or unit, after which a
    number of three digits or more may change ("300人", "2019年") and a shorter one stays: a month, a day, a small
    count ("3月", "15日", "5个")."""
    after = sentence.text[token.end : token.end + 1]
    before = sentence.text[token.start - 1 : token.start] if token.start else ""
    letters = [c for c in after + before if c.isalpha()]
    if not rules.unspaced:
        return bool(letters)
    digits = _DIGITS.search(token.text)
    short = digits is None or len(digits.group()) < 3
    return any(c.isascii() for c in letters) or (bool(letters) and short)


def _number_value(digits: str) -> int | None:
    """The value of ``digits`` if the rules can read it and write another value in the same digits, else None.

    Only decimal digits (``str.isdecimal``) of one script's block count: "²", "③" and "½" are digits or numerics
    to ``str.isdigit``/``isnumeric`` that ``int`` cannot read, and an Arabic-Indic digit beside a Latin one ("٣3")
    is two ways of writing, not one number; such characters are left as they are.
    """
    if not digits.isdecimal() or len({_zero(ch) for ch in digits}) != 1:
        return None
    return int(digits)


def _zero(digit: str) -> int:
    """The code point of the zero of ``digit``'s block (a decimal digit's blocks run from 0 to 9)."""
    return ord(digit) - unicodedata.decimal(digit)


def _is_number(text: str) -> bool:
    """A number token whose digits are all of one block ("2,500", "١٥٫٥", "२०१९"), so it can be rewritten in them."""
    return _NUMBER_TOKEN.fullmatch(text) is not None and _number_value("".join(_DIGITS.findall(text))) is not None


def _leading_number(text: str) -> int | None:
    """The number a token starts with ("31", "31." or a "31²" with its footnote mark), if the rules can read it."""
    found = _DIGITS.match(text)
    return _number_value(found.group()) if found else None


def _digit_signs(text: str) -> bool:
    """Only numbers that are no digits of a number (Unicode's "other number"): a footnote mark ("²"), a circled
    number, a fraction. A date's "३१ ² मार्च" has its day before the mark."""
    return bool(text) and all(unicodedata.category(ch) == "No" for ch in text)


def _digits_of(token: Token) -> str:
    group = _DIGITS.search(token.text)
    return group.group() if group else "0"


_PERCENT_SIGN = "%"
_DASHES = frozenset({"-", "\u2013"})  # "2015-2019", "8 \u2013 9": a range in any language
_ABBREVIATION = re.compile(r"[^\W\d_]{2,}")  # "CAC 40", "DAX 30", "США 2": the number is part of the name (all upper-case)
VARIANTS = 2  # values drawn per number or name: a sentence with one unit still gets more than one distractor


def _percent(words: NumberWords) -> frozenset[str]:
    return words.percent | {_PERCENT_SIGN}


def swap_numbers(sentence: TaggedSentence, rng: random.Random, rules: LanguageRules) -> list[Edit]:
    """Change a number token, ``VARIANTS`` ways (a year by a few years, a day before a month within 1-28, else its
    first digit group)."""
    month_words = {m.casefold() for m in rules.months}
    words = rules.numbers
    edits = []
    numbers = {t.text for t in sentence.tokens if _is_number(t.text)}
    clock = _times_and_dates(sentence, rules)
    counted = [i for i, t in enumerate(sentence.tokens) if _is_number(t.text) and not clock(t)]  # in order
    counts = [i for i in counted if not _is_year(sentence.tokens[i].text)]
    years = [i for i in counted if _is_year(sentence.tokens[i].text)]
    # Two amounts (or two years) in one sentence are usually related: a part and its whole, a price per year and per
    # quarter, a change from one to the other, a comparison with an earlier year. Either new value can break the
    # relation ("etwa 20 Milliarden, davon 58 Milliarden"), so such numbers stay.
    related = (counts if len(counts) > 1 else []) + (years if len(years) > 1 else [])
    for index, token in enumerate(sentence.tokens):
        if index not in counted or in_name(sentence, index) or index in related:
            continue
        if _fixed_number(sentence, index, month_words, rules):
            continue
        group = _DIGITS.search(token.text)
        assert group is not None
        following = sentence.tokens[index + 1 : index + 3]  # "24 juillet", "15. September"
        day = token.text.rstrip(".").isdecimal() and (
            any(t.text.casefold() in month_words for t in following)
            or (index > 0 and sentence.tokens[index - 1].text.casefold() in words.day_articles and int(_digits_of(token)) <= 31)
        )
        if _in_range(sentence, index, words):  # "des 8. und 9. Dezember", "entre 8 % et 8,5 %": one end can pass the other
            continue
        digits = in_digits_of(group.group(), "0")  # ASCII: "२०" rounds as "20" does
        percent = token.text.endswith("%") or any(t.text.casefold() in _percent(words) for t in following)
        approximate = index > 0 and sentence.tokens[index - 1].text.casefold() in words.approximate
        # a round number stays as round ("600 Euro" never "601 Euro"), a rounded one too ("gut 100", "environ 1800")
        round_to = 10 ** (len(digits) - len(digits.rstrip("0"))) if len(digits) > 1 else 1
        if round_to >= 10 ** (len(digits) - 1) and round_to > 1:  # "gut 100": the hundreds
            round_to = 10 ** (len(digits) - 1)
        values = dict.fromkeys(_new_number(digits, rng, day, percent, round_to, year=not approximate) for _ in range(VARIANTS))
        new_tokens = (
            token.text[: group.start()] + in_digits_of(value, group.group()) + token.text[group.end() :] for value in values
        )
        # never a number the sentence has already: "Absatz 3 ... und Absatz 3" names one paragraph twice
        edits += [(index, index + 1, text) for text in new_tokens if text not in numbers]
    return edits


def _times_and_dates(sentence: TaggedSentence, rules: LanguageRules) -> Callable[[Token], bool]:
    """Whether a token is part of a time or of a date written in digits, as :mod:`clsd_generation.checks.numerals`
    reads the language ("19:30", "19.30 Uhr", "7 pm", "07.03.2024"): neither is a count, and a new first digit group
    would make no time or date ("47:30", "45.03.2024")."""
    spans = [
        (n.start, n.end)
        for n in read_numerals(sentence.text, rules.locale or rules.code)
        if n.kind == TIME or (n.kind == DATE and n.numeric)
    ]
    return lambda token: any(start <= token.start and token.end <= end for start, end in spans)


def _fixed_number(sentence: TaggedSentence, index: int, month_words: set[str], rules: LanguageRules) -> bool:
    """A number whose value the world fixes or that only labels: a decade ("les années 1980"), a number before a
    singular "million" ("1,2 million": "5,2 million" is not French), a list label ("(3)", "4)"), part of a name or
    code ("S&P 500", "5G", "G7"), a German ordinal that is no day ("des 3. Quartals", "im 21. Jahrhundert"), and
    a year that names an event ("Fußball-WM 2006", "la crise financière de 2008": "WM 2004" never was)."""
    tokens, token, words = sentence.tokens, sentence.tokens[index], rules.numbers
    before = tokens[index - 1].text.casefold() if index else ""
    after = tokens[index + 1].text.casefold() if index + 1 < len(tokens) else ""
    if before in words.decade or after in words.singular_multipliers or after == ")":
        return True
    previous = tokens[index - 1].text if index else ""
    abbreviation = _ABBREVIATION.fullmatch(previous) is not None and previous.isupper()  # capitals of any script
    if _glued(sentence, token, rules) or (index and ("&" in previous or abbreviation)):
        return True
    if after == "." and index + 2 < len(tokens) and tokens[index + 2].text.casefold() not in month_words:
        ordinal_of = tokens[index + 2]  # "3. Quartal", "21. Jahrhundert" (a full stop before "Die" ends a sentence)
        if ordinal_of.upos == "ADJ" or (ordinal_of.upos == "NOUN" and ordinal_of.text[:1].isupper()):
            return True
    if _is_year(token.text) and before not in words.approximate and index > 0:
        head = index - 1
        if head > 0 and before in words.year_links:
            head -= 1
        word = tokens[head].text.casefold()
        return tokens[head].upos in ("NOUN", "PROPN", "ADJ") and word not in month_words and word not in words.time_nouns
    return False


def _is_year(text: str) -> bool:
    value = _number_value(text) if len(text) == 4 else None  # "¹²³⁴" is a digit, but no decimal one; "٢0١9" two scripts
    return value is not None and 1800 <= value <= 2100


def in_digits_of(new: str, old: str) -> str:
    """``new`` (ASCII digits) written in the digits ``old`` is written in: "२०१९" becomes "२०१७", not "2017"."""
    zero = next((_zero(ch) for ch in old if ch.isdecimal()), ord("0"))
    return "".join(chr(zero + unicodedata.decimal(ch)) if ch.isdecimal() else ch for ch in new)


def _in_range(sentence: TaggedSentence, index: int, words: NumberWords) -> bool:
    """A number or weekday paired with another of its kind ("des 8. und 9. Dezember", "la nuit de lundi à mardi",
    "zwischen 2015 und 2019"): changing one end breaks the pair. The full stop of a German ordinal is skipped."""
    tokens = sentence.tokens
    percent, joiners = _percent(words), words.range_joiners | _DASHES
    kept = [k for k in range(len(tokens)) if tokens[k].text != "." and tokens[k].text.casefold() not in percent]
    position = kept.index(index) if index in kept else -1
    token = tokens[index]
    for step in (-1, 1):
        joiner, other = position + step, position + 2 * step
        if position < 0 or not 0 <= other < len(kept) or tokens[kept[joiner]].text.casefold() not in joiners:
            continue
        neighbour = tokens[kept[other]]
        if neighbour.upos == token.upos or (_NUMBER_TOKEN.fullmatch(neighbour.text) and _NUMBER_TOKEN.fullmatch(token.text)):
            return True
    return False


def swap_from_list(sentence: TaggedSentence, words: Sequence[str], rng: random.Random, numbers: NumberWords) -> list[Edit]:
    """Replace a month (or weekday) by others of the same list (three per occurrence, so short sentences get enough)."""
    return swap_calendar(sentence, (tuple(words),), rng, numbers)


def swap_calendar(
    sentence: TaggedSentence, forms: Sequence[Sequence[str]], rng: random.Random, numbers: NumberWords
) -> list[Edit]:
    """Replace a month (or weekday) by others of the list its word is in: a date's "января" by "марта", a stand-alone
    "январь" by "март" (``forms``: one list per CLDR context, each in calendar order; three per occurrence)."""
    where: dict[str, tuple[int, int]] = {}  # case-folded word -> (its list, its place in the calendar)
    for which, words in enumerate(forms):
        for place, word in enumerate(words):
            where.setdefault(word.casefold(), (which, place))
    # never one the sentence names already, in any form: "ab Februar ... bis zur Wahl im Februar"
    present = {where[t.text.casefold()][1] for t in sentence.tokens if t.text.casefold() in where}
    edits = []
    for index, token in enumerate(sentence.tokens):
        found = where.get(token.text.casefold())
        if found is not None and not in_longer_name(sentence, index) and not _in_range(sentence, index, numbers):
            before = reversed(sentence.tokens[max(0, index - 2) : index])
            day = next((t.text for t in before if t.text != "." and not _digit_signs(t.text)), "")
            if (_leading_number(day) or 0) > 28:
                continue  # "31 mars" -> "31 avril" is no date; "③ mars" has no day the rules can read
            others = [word for place, word in enumerate(forms[found[0]]) if place not in present]
            edits += [(index, index + 1, match_case(token.text, new)) for new in rng.sample(others, 3)]
    return edits


def _in_stop_phrase(words: Sequence[str], index: int, stops: Sequence[tuple[str, ...]]) -> bool:
    """Whether the word at ``index`` lies inside an occurrence of one of the fixed phrases."""
    for phrase in stops:
        for begin in range(max(0, index - len(phrase) + 1), index + 1):
            if tuple(words[begin : begin + len(phrase)]) == phrase:
                return True
    return False


def swap_antonyms(
    sentence: TaggedSentence,
    antonyms: Sequence[tuple[str, str]],
    stops: Sequence[tuple[str, ...]] = (),
    blocked: Callable[[TaggedSentence, int, str], bool] | None = None,
) -> list[Edit]:
    """Replace a word by its opposite (before/after, more/less, rose/fell); the check keeps only same-tag swaps.

    A word is left alone inside a fixed phrase of ``stops`` ("vor allem", "de nouveau"), inside a name, in a
    sentence that has its opposite too ("more or less", "exports rose, imports fell": one swap would repeat
    a word where the sentence contrasts two), where its capital differs from the lexicon's mid-sentence (a
    German noun entry is capitalised, "New" mid-sentence is a name), and wherever the language's
    ``blocked`` guard says so.
    """
    opposite = {a.casefold(): b for a, b in antonyms} | {b.casefold(): a for a, b in antonyms}
    entry = {a.casefold(): a for pair in antonyms for a in pair}
    words = [t.text.casefold().replace("\u2019", "'") for t in sentence.tokens]
    edits = []
    for index, token in enumerate(sentence.tokens):
        word = words[index]
        if word not in opposite or in_name(sentence, index) or _in_stop_phrase(words, index, stops):
            continue
        if index > 0 and token.text[:1].isupper() != entry[word][:1].isupper() and not token.text.isupper():
            continue
        if opposite[word].casefold() in words or words.count(word) > 1:  # "wichtig sei ... für wichtig halten"
            continue
        replacement = match_case(token.text, opposite[word])
        if blocked is None or not blocked(sentence, index, replacement):
            edits.append((index, index + 1, replacement))
    return edits


def agreement_context(sentence: TaggedSentence, index: int, rules: LanguageRules, articles_only: bool = False) -> str:
    """What a word at ``index`` must agree with: the nearest article or preposition-article before it in its phrase.

    German names and nouns carry no gender in HanTa's tags (and spaCy's is unreliable on French names),
    so the article stands in for it: "der Nasdaq" takes only names the corpus has after "der". For
    nouns a preposition counts too (German case endings follow it); for names (``articles_only``) only
    an article or a preposition fused with one ("im", "du"). Where adjectives agree too
    (``rules.agreeing_articles``: German), the ending of an adjective right before is added ("geopolitische Spannungen").
    """
    context = ""
    for back in range(index - 1, max(index - 4, -1), -1):
        token = sentence.tokens[back]
        if token.upos == "DET" or (token.upos == "ADP" and not articles_only):
            context = token.text.casefold()
            break
        if token.upos == "ADP":  # a name keeps its form after any preposition; only an article in it binds gender
            context = token.text.casefold() if token.text.casefold() in rules.numbers.contracted_articles else ""
            break
        if token.upos not in ("ADJ", "PROPN", "NUM"):  # a noun before starts another phrase
            break
    if rules.agreeing_articles and index and sentence.tokens[index - 1].upos == "ADJ":
        context += "+ADJ" + sentence.tokens[index - 1].slot
    return context


def onset(word: str) -> str:
    """Vowel, h or consonant: elision (l'/le, d'/de) and a/an depend on it, and French h may or may not elide."""
    first = word[:1].casefold()
    return "h" if first == "h" else "vowel" if first in _VOWEL_START else "consonant"
