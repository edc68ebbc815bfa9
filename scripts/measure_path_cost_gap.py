"""How far a segmenter's path cost of a candidate may exceed the original's: the measurement behind PATH_COST_GAPS.

Korean and Japanese scrambled syllables are cut by MeCab into real one-syllable entries, so no dictionary lookup refuses
them; their reading costs MeCab more than a word replaced. On the per-language measurement's *tune* sample (never the
reported one: ``scripts/measure_answer_checks_per_language.py``), per language cut by MeCab, the valid stand-in
candidates and the scrambled ones are read by every other check with the run's corpus; the gap printed is the smallest
that keeps 96% of the valid candidates (a point over the 95% every cell of the table is held to, for the spread between
the two samples), with the share of valid candidates then kept and of scrambled ones refused, and both shares without
the path cost (the other checks alone; docs/generation.md, "Scrambled syllables, measured").

    python scripts/measure_path_cost_gap.py --per-language 200 --seed 1
"""

from __future__ import annotations

import argparse
import random

import measure_answer_checks_per_language as per_language  # scripts/
from measure_answer_checks import VERSIONS  # scripts/

from clsd_generation.checks.coverage import support
from clsd_generation.checks.lexicon import PATH_COST_GAPS, CorpusLexicon, path_cost

KEEP = 0.96  # of the tune sample's valid candidates: a point over the 95% every cell is held to


def candidates(language: str, per_language_verses: int, seed: int) -> tuple[list[tuple[str, str, str]], CorpusLexicon]:
    """(kind, original, candidate) of the tune sample's valid and scrambled candidates, and the reader's corpus."""
    sets = per_language.verse_sets(per_language_verses, seed, "tune")
    letters = {letter for _, letter, *_ in VERSIONS}
    by_letter = per_language.read_texts(letters, set(sets["test"]) | set(sets["corpus"]) | set(sets["donor"]))
    texts = {code: by_letter[letter] for code, letter, *_ in VERSIONS} | by_letter
    own = dict((code, letter) for code, letter, *_ in VERSIONS)[language]
    source = per_language.word_source(language, texts, sets["donor"], own)
    rng = random.Random(f"{seed}-{language}")
    real = frozenset(w.casefold() for w in source.words + source.names)
    made: list[tuple[str, str, str]] = []
    for number in sets["test"]:
        text = texts[language][number]
        valid = per_language.stand_in(text, language, source, rng) + per_language.other_valid(text, language, source, rng)
        made += [("valid", text, c) for c in valid]
        bad = per_language.bad_candidates(number, text, language, per_language.other_verses(texts), rng, real)
        made += [("scrambled", text, c) for c in bad["scrambled"]]
    return made, CorpusLexicon.of(language, (texts[language][n] for n in sets["corpus"]))


def measure(language: str, per_language_verses: int, seed: int) -> str:
    """The smallest gap that keeps :data:`KEEP` of the valid candidates, and what it keeps and refuses, for one language."""
    method = support(language).reading.method
    made, corpus = candidates(language, per_language_verses, seed)
    rows = []
    for kind, original, candidate in made:
        verdict = per_language.checked(original, [candidate], language, corpus)
        reason = verdict.rejected[0][1] if verdict.rejected else ""
        others_keep = bool(verdict.kept) or "path cost" in reason  # the other checks alone
        rows.append((kind, others_keep, (path_cost(candidate, method) or 0) - (path_cost(original, method) or 0)))
    valid = [(keep, gap) for kind, keep, gap in rows if kind == "valid"]
    scrambled = [(keep, gap) for kind, keep, gap in rows if kind == "scrambled"]
    for bound in sorted({gap for _, gap in valid}):
        kept = sum(keep and gap <= bound for keep, gap in valid) / len(valid)
        if kept >= KEEP:
            refused = sum(not (keep and gap <= bound) for keep, gap in scrambled) / len(scrambled)
            alone = [sum(keep for keep, _ in valid) / len(valid), sum(not keep for keep, _ in scrambled) / len(scrambled)]
            return f"| {language} | {method} | {bound} | {kept:.1%} | {refused:.1%} | {alone[0]:.1%} | {alone[1]:.1%} |"
    return f"| {language} | {method} | none: the other checks keep fewer than {KEEP:.0%} | | | | |"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--per-language", type=int, default=200, help="test verses per language")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print("| language | segmenter | gap | valid kept | scrambled refused | without it: valid kept | scrambled refused |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for code, *_ in VERSIONS:
        if support(code).segmented and support(code).reading.method in PATH_COST_GAPS:
            print(measure(code, args.per_language, args.seed))


if __name__ == "__main__":
    main()
