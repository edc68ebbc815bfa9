"""Rules that work the same in every language, given its word lists.

Every rule returns variants of a sentence that keep almost all its words but change what it says:
a number, a date, a name, a role, a polarity. Variants come from a seeded ``random.Random``, so a
run is reproducible and a re-ask (attempt 2, 3...) draws different ones.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence

from clsd_generation.rules.lexicon import LanguageRules

_NUMBER = re.compile(r"(?<![\w.,])\d+(?![\w])")
_WORD = re.compile(r"[^\W\d_][\w'’-]*")
_SENTENCE_START = re.compile(r"(^|[.!?:;]\s+|[\"«„“(]\s*)$")


def match_case(template: str, word: str) -> str:
    if template.isupper() and len(template) > 1:
        return word.upper()
    if template[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


def replace_span(sentence: str, start: int, end: int, new: str) -> str:
    return sentence[:start] + new + sentence[end:]


def swap_numbers(sentence: str, rng: random.Random, limit: int) -> list[str]:
    """Change one number: a year by a few years, any other number to another of as many digits."""
    variants = []
    matches = list(_NUMBER.finditer(sentence))
    rng.shuffle(matches)
    for match in matches[:limit]:
        digits = match.group()
        value = int(digits)
        if len(digits) == 4 and 1800 <= value <= 2100:
            new = value + rng.choice([-5, -3, -2, -1, 1, 2, 3, 5])
        elif len(digits) == 1:
            new = rng.choice([d for d in range(1, 10) if d != value])
        else:
            low, high = 10 ** (len(digits) - 1), 10 ** len(digits) - 1
            new = value
            while new == value:
                new = rng.randint(low, high)
        variants.append(replace_span(sentence, match.start(), match.end(), str(new)))
    return variants


def swap_from_list(sentence: str, words: Sequence[str], rng: random.Random, limit: int) -> list[str]:
    """Replace a month (or weekday) by another one of the same list."""
    lookup = {w.casefold(): w for w in words}
    variants = []
    for match in _WORD.finditer(sentence):
        if match.group().casefold() in lookup:
            others = [w for w in words if w.casefold() != match.group().casefold()]
            for new in rng.sample(others, min(limit, len(others))):
                variants.append(replace_span(sentence, match.start(), match.end(), match_case(match.group(), new)))
    rng.shuffle(variants)
    return variants[:limit]


def swap_antonyms(sentence: str, rules: LanguageRules, rng: random.Random, limit: int) -> list[str]:
    """Replace a word by its opposite (before/after, more/less, rose/fell)."""
    opposite = {}
    for a, b in rules.antonyms:
        opposite[a.casefold()] = b
        opposite[b.casefold()] = a
    variants = [
        replace_span(sentence, m.start(), m.end(), match_case(m.group(), opposite[m.group().casefold()]))
        for m in _WORD.finditer(sentence)
        if m.group().casefold() in opposite
    ]
    rng.shuffle(variants)
    return variants[:limit]


def capitalised_words(sentence: str, rules: LanguageRules, known: frozenset[str] = frozenset()) -> list[re.Match[str]]:
    """Capitalised words: names, places, organisations (and German nouns).

    At a sentence start capitals say nothing, so a word there counts only if ``known`` (the corpus
    vocabulary) has seen it capitalised elsewhere.
    """
    skip = rules.calendar_words() | rules.capitalised_stopwords
    found = []
    for match in _WORD.finditer(sentence):
        word = match.group()
        if not word[:1].isupper() or word.casefold() in skip or len(word) < 2:
            continue
        if _SENTENCE_START.search(sentence[: match.start()]) and word not in known:
            continue
        found.append(match)
    return found


def corpus_vocabulary(sentences: Iterable[str], rules: LanguageRules) -> list[str]:
    """Capitalised words of the corpus (same language): the pool names are swapped with.

    A word counts only if it is written capitalised inside sentences more often than in lower case
    anywhere: that keeps "Bonn" and "Kipping" and drops "Die" or "Le", capitalised in titles.
    """
    sentences = list(sentences)
    capitalised: dict[str, int] = {}
    lower: dict[str, int] = {}
    for sentence in sentences:
        for match in _WORD.finditer(sentence):
            if match.group().islower():
                lower[match.group()] = lower.get(match.group(), 0) + 1
        for match in capitalised_words(sentence, rules):
            capitalised[match.group()] = capitalised.get(match.group(), 0) + 1
    return sorted(word for word, n in capitalised.items() if n > lower.get(word.lower(), 0))


def swap_capitalised(sentence: str, rules: LanguageRules, vocabulary: Sequence[str], rng: random.Random, limit: int) -> list[str]:
    """Replace a name (capitalised word) by another name from the same corpus, of similar length."""
    variants = []
    targets = capitalised_words(sentence, rules, frozenset(vocabulary))
    rng.shuffle(targets)
    for match in targets:
        word = match.group()
        similar = [w for w in vocabulary if w != word and abs(len(w) - len(word)) <= 3 and w not in sentence]
        pool = similar or [w for w in vocabulary if w != word and w not in sentence]
        if pool:
            variants.append(replace_span(sentence, match.start(), match.end(), rng.choice(pool)))
        if len(variants) >= limit:
            break
    return variants


def swap_roles(sentence: str, rules: LanguageRules, vocabulary: Sequence[str], rng: random.Random, limit: int) -> list[str]:
    """Exchange two names of the sentence: who did what to whom changes, the words stay."""
    targets = capitalised_words(sentence, rules, frozenset(vocabulary))
    pairs = [(a, b) for i, a in enumerate(targets) for b in targets[i + 1 :] if a.group() != b.group()]
    rng.shuffle(pairs)
    variants = []
    for first, second in pairs[:limit]:
        variants.append(
            sentence[: first.start()] + second.group() + sentence[first.end() : second.start()] + first.group() + sentence[second.end() :]
        )
    return variants


SUFFIX_LENGTH = 3
MIN_CONTENT_WORD = 6


def content_word_index(sentences: Iterable[str]) -> dict[str, list[str]]:
    """Lower-case words of at least six letters in the corpus, by their last three letters.

    Long lower-case words are content words (function words are short) and a shared ending mostly
    means a shared inflection (plural, participle, adverb), so a swap keeps the sentence grammatical.
    """
    index: dict[str, set[str]] = {}
    for sentence in sentences:
        for match in _WORD.finditer(sentence):
            word = match.group()
            if len(word) >= MIN_CONTENT_WORD and word.islower() and word.isalpha():
                index.setdefault(word[-SUFFIX_LENGTH:], set()).add(word)
    return {suffix: sorted(words) for suffix, words in index.items() if len(words) > 1}


def swap_content_words(sentence: str, index: dict[str, list[str]], rng: random.Random, limit: int) -> list[str]:
    """Replace a content word by another corpus word with the same ending ("élections" -> "réformes")."""
    targets = [m for m in _WORD.finditer(sentence) if m.group()[-SUFFIX_LENGTH:] in index and m.group().islower() and len(m.group()) >= MIN_CONTENT_WORD]
    rng.shuffle(targets)
    variants = []
    for match in targets[:limit]:
        pool = [w for w in index[match.group()[-SUFFIX_LENGTH:]] if w != match.group() and w not in sentence]
        if pool:
            variants.append(replace_span(sentence, match.start(), match.end(), rng.choice(pool)))
    return variants


def insert_after_first(sentence: str, anchors: Iterable[str], insertion: str, rng: random.Random) -> str | None:
    """Put ``insertion`` after one of the anchor words (auxiliaries, copulas) of the sentence."""
    wanted = {a.casefold() for a in anchors}
    places = [m for m in _WORD.finditer(sentence) if m.group().casefold() in wanted]
    if not places:
        return None
    place = rng.choice(places)
    return sentence[: place.end()] + " " + insertion + sentence[place.end() :]
