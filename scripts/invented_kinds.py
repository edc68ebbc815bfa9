"""Invented words of the kinds real generators write, made for the per-language measurement of the answer checks.

Each is made of words the checks never read (the per-language table's independent word source) and judged bad by a
judge the checks never read (Hunspell, :mod:`spelling_judge`), one candidate per test sentence and kind:

* **glued**: two words of the source written as one, twice, in place of two words of the sentence ("maisonvoiture"), where the language does not write compounds
  (:mod:`clsd_generation.checks.compounding`: there two words glued are often a word) and Hunspell refuses it;
* **derivation**: a word of the source with an ending the source writes after three or more of its own words
  ("loi" + "-ement"), no word of the source, Hunspell refuses it; two, in place of two words of the sentence (one
  invented word in a long sentence stays under the invented-word bounds by design: one name or rare word must pass;
  ``words_per_candidate=1`` puts one instead, to measure how many of those pass);
* **misspelling**: a common word of the sentence (Zipf 4 or more in the word list) one edit away (as
  :func:`spelling_judge.neighbours` makes them) to a form the word list holds and Hunspell refuses ("hopsital"): the
  misspellings a web word list holds, the hard case; one, in place of the word it misspells (a slip of one word is
  what the near-copy check reads).

A kind is not made where it cannot be told (:func:`why_not`): a language without spaces between its words (a glued
word, an ending and a changed character are words there), one without a Hunspell dictionary installed, one without a
word list (misspellings).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence

import regex
import spelling_judge

KINDS = ("glued", "derivation", "misspelling")
COMMON_ZIPF = 4.0  # a common word: the word list holds it once in 100,000 words or more
SHORTEST = 4  # letters (with their marks) of each glued word and of a stem
ENDING = (2, 4)  # letters of an ending, at least and at most
ENDING_STEMS = 3  # words of the source an ending follows
TRIES = 8  # proposals per sentence and kind, judged together
_GRAPHEME = regex.compile(r"\X")


def why_not(kind: str, language: str) -> str | None:
    """Why ``kind`` is not made in ``language``, or None where it is."""
    from clsd_generation.checks.coverage import support

    found = support(language)
    if found.segmented or not found.reads_words:
        return "n/a: no spaces between words"
    if kind == "glued" and found.compounds:
        return "n/a: writes compounds"
    if spelling_judge.dictionary(language) is None:
        return "n/a: no Hunspell dictionary"
    if kind == "misspelling" and found.lexicon is None:
        return "n/a: no word list"
    return None


def _graphemes(word: str) -> int:
    return len(_GRAPHEME.findall(word))


def source_endings(words: Sequence[str]) -> list[str]:
    """The endings the source writes after :data:`ENDING_STEMS` or more of its own words."""
    known = {w.casefold() for w in words}
    stems: defaultdict[str, set[str]] = defaultdict(set)
    for word in known:
        letters = _GRAPHEME.findall(word)
        for cut in range(SHORTEST, len(letters)):
            stem, ending = "".join(letters[:cut]), "".join(letters[cut:])
            if ENDING[0] <= len(letters) - cut <= ENDING[1] and stem in known:
                stems[ending].add(stem)
    return sorted(e for e, found in stems.items() if len(found) >= ENDING_STEMS)


def _proposals(kind: str, text: str, words: list[str], endings: list[str], lexicon: str | None, rng: random.Random) -> list[str]:
    """New words of ``kind`` for ``text``: each proposal is (the word of the text it replaces, the new word)."""
    long = [w for w in words if _graphemes(w) >= SHORTEST]
    if kind == "glued":
        return [rng.choice(long) + rng.choice(long).casefold() for _ in range(TRIES)] if long else []
    if kind == "derivation":
        return [rng.choice(long).casefold() + rng.choice(endings) for _ in range(TRIES)] if long and endings else []
    listed = spelling_judge.word_list(lexicon or "")
    letters = spelling_judge.alphabet(lexicon or "")
    common = [w for w in regex.findall(r"\p{L}[\p{L}\p{M}]{2,}", text) if listed.get(w.casefold(), 0.0) >= COMMON_ZIPF]
    rng.shuffle(common)
    for word in common[:3]:
        found = sorted(n for n in spelling_judge.neighbours(word, letters) if n.casefold() in listed)
        if found:
            return [f"{word}\t{n}" for n in rng.sample(found, min(TRIES, len(found)))]
    return []


def invented(
    language: str,
    texts: Mapping[int, str],
    words: list[str],
    real: frozenset[str],
    rng: random.Random,
    replace: Callable[[str, list[str], random.Random], str | None],
    words_per_candidate: int = 2,
) -> dict[int, dict[str, list[str]]]:
    """Per test sentence (``texts``), per kind, the sentence with invented words in place of its own: ``replace(text,
    new, rng)`` puts ``words_per_candidate`` glued words or derivations in place of as many words (None where it has
    too few), a misspelling takes the place of the word it misspells. ``words``: the source's words; ``real``: its
    words and names, casefolded (never made)."""
    from clsd_generation.checks.coverage import support

    lexicon = support(language).lexicon
    endings = source_endings(words)
    proposed = {
        (number, kind): [
            p for p in _proposals(kind, text, words, endings, lexicon, rng) if p.split("\t")[-1].casefold() not in real
        ]
        for number, text in texts.items()
        for kind in KINDS
        if why_not(kind, language) is None
    }
    wrong = spelling_judge.misspelt({p.split("\t")[-1] for found in proposed.values() for p in found}, language)
    made: dict[int, dict[str, list[str]]] = {number: {kind: [] for kind in KINDS} for number in texts}
    for (number, kind), found in proposed.items():
        bad = list(dict.fromkeys(p for p in found if p.split("\t")[-1] in wrong))
        text = texts[number]
        if kind == "misspelling" and bad:  # in place of its word
            old, new = bad[0].split("\t")
            made[number][kind].append(
                regex.sub(rf"(?<![\p{{L}}\p{{M}}]){regex.escape(old)}(?![\p{{L}}\p{{M}}])", new, text, count=1)
            )
        elif len(bad) >= words_per_candidate and (candidate := replace(text, bad[:words_per_candidate], rng)) is not None:
            made[number][kind].append(candidate)
    return made
