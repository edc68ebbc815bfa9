"""The Hunspell dictionaries installed on the machine, read as an independent judge of spelling by the measurements.

The answer checks never read Hunspell: its dictionaries (LibreOffice's, packaged by Linux distributions as
``hunspell-LL``) say which words are spelt right, so a measurement can tell a misspelling that a web word list holds
("hopsital") from a real word ("horse") without asking the sources the checks read. A language whose dictionary is not
installed is not judged (the measurement says so); ``hunspell -D`` lists the dictionaries it finds.
"""

from __future__ import annotations

import functools
import math
import shutil
import subprocess
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

import regex

_GRAPHEME = regex.compile(r"\X")
ALPHABET_WORDS = 30_000  # the word list's commonest words whose letters make the neighbours


@functools.cache
def dictionaries() -> dict[str, str]:
    """The installed dictionaries, by their BCP 47 tag ("de-DE"), as ``hunspell -D`` lists them (name: its path)."""
    if shutil.which("hunspell") is None:
        return {}
    listed = subprocess.run(["hunspell", "-D"], input="", capture_output=True, text=True, check=False).stderr
    found: dict[str, str] = {}
    reading = False
    for line in listed.splitlines():
        if line.startswith("AVAILABLE DICTIONARIES"):
            reading = True
        elif line.startswith("LOADED DICTIONARY"):
            break
        elif reading and line.strip():
            name = Path(line.strip()).name
            found.setdefault(name.replace("_", "-"), line.strip())
    return found


@functools.cache
def dictionary(language: str) -> str | None:
    """The installed dictionary closest to ``language`` (langcodes: "fr" -> fr_FR, "pt" -> pt_PT), or None."""
    import langcodes

    tags = sorted(dictionaries())
    if not tags:
        return None
    try:
        match, _ = langcodes.closest_match(language, tags, max_distance=5)
    except (ValueError, LookupError):
        return None
    return dictionaries()[match] if match != "und" else None


def misspelt(words: Iterable[str], language: str) -> set[str]:
    """The ``words`` the language's dictionary does not accept (``hunspell -l``); raises where none is installed."""
    unique = sorted({w for w in words if w and "\n" not in w})
    if not unique:
        return set()
    path = dictionary(language)
    if path is None:
        raise LookupError(f"no Hunspell dictionary of {language} is installed")
    run = subprocess.run(
        ["hunspell", "-d", path, "-i", "utf-8", "-l"], input="\n".join(unique), capture_output=True, text=True, check=True
    )
    return set(run.stdout.split()) & set(unique)


@functools.cache
def word_list(lexicon: str) -> dict[str, float]:
    """wordfreq's list of ``lexicon`` (its code), each word with its Zipf frequency."""
    import wordfreq

    return {word: math.log10(share) + 9 for word, share in wordfreq.get_frequency_dict(lexicon, "best").items()}


@functools.cache
def alphabet(lexicon: str) -> tuple[str, ...]:
    """The letters (with their marks) of the word list's :data:`ALPHABET_WORDS` commonest words, each in 20 or more."""
    common = Counter(g for word in list(word_list(lexicon))[:ALPHABET_WORDS] for g in _GRAPHEME.findall(word))
    return tuple(sorted(g for g, n in common.items() if n >= 20 and regex.fullmatch(r"\p{L}\p{M}*", g)))


def neighbours(word: str, letters: Iterable[str]) -> set[str]:
    """Every string one edit from ``word`` in letters with their marks (graphemes): one of ``letters`` substituted or
    inserted, a letter dropped, or two neighbouring letters swapped."""
    graphemes = _GRAPHEME.findall(word)
    letters = tuple(letters)
    found: set[str] = set()
    for i in range(len(graphemes) + 1):
        head, tail = graphemes[:i], graphemes[i:]
        found.update("".join([*head, a, *tail]) for a in letters)
        if tail:
            found.add("".join(head + tail[1:]))
            found.update("".join([*head, a, *tail[1:]]) for a in letters if a != tail[0])
        if len(tail) > 1 and tail[0] != tail[1]:
            found.add("".join([*head, tail[1], tail[0], *tail[2:]]))
    found.discard(word)
    return found
