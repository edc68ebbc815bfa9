"""What two versions of the answer checks decide differently, on the very same candidates and corpus.

``scripts/measure_answer_checks_per_language.py --verdicts FILE`` writes every candidate it checks alone, with its kind
and the reason the checks refused it, and each language's corpus. ``recheck`` reads those candidates again with the
checks importable now (another version's, with its folders first on ``PYTHONPATH``) and writes its own verdicts;
``changed`` lists the valid candidates one version keeps and the other refuses (every one, with its language and the
reason, and, where both files were written by ``recheck``, the words the first knew and the second does not), and, per
kind of bad answer, how many the second refuses and the first keeps, with ``--per-kind`` of them evenly spaced over the
list sorted by language and candidate. ``reasons`` counts one file's refusals per language and
kind by reason (letters rearranged, unknown words, the other checks).

    python scripts/measure_answer_checks_per_language.py --per-language 200 --seed 1 --verdicts now.jsonl
    PYTHONPATH=OLD:OLD/generation python scripts/compare_answer_checks.py recheck now.jsonl before.jsonl
    python scripts/compare_answer_checks.py changed before.jsonl now.jsonl
    python scripts/compare_answer_checks.py reasons now.jsonl --kind scrambled
"""

from __future__ import annotations

import argparse
import difflib
import json
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

VALID = ("valid", "name")  # a name changed is a valid candidate too
BAD = ("glued", "derivation", "misspelling", "slip", "scrambled")


def lines(path: str) -> Iterator[dict[str, Any]]:
    with open(path, encoding="utf-8") as read:
        for line in read:
            yield json.loads(line)


def recheck(verdicts: str, out: str) -> None:
    """Every candidate of ``verdicts`` checked alone again by the checks importable now, each language with its corpus."""
    import clsd_generation
    from clsd_generation.checks.answers import unknown_words
    from clsd_generation.checks.candidates import check_candidates
    from clsd_generation.checks.lexicon import CorpusLexicon
    from clsd_generation.core.settings import ValidationBounds

    print(f"checks read from {Path(clsd_generation.__file__).parent}")
    corpus = None
    with open(out, "w", encoding="utf-8") as written:
        for line in lines(verdicts):
            if "corpus" in line:
                corpus = CorpusLexicon.of(line["language"], line["corpus"])
                continue
            verdict = check_candidates(
                line["original"], [line["candidate"]], ValidationBounds(), language=line["language"], corpus=corpus
            )
            unknown, count = unknown_words(line["original"], line["candidate"], line["language"], corpus)
            line |= {
                "reason": verdict.rejected[0][1] if verdict.rejected else None,
                "kept": verdict.kept[0] if verdict.kept else None,
                "unknown": unknown,
                "words": count,
            }
            written.write(json.dumps(line, ensure_ascii=False) + "\n")


def _key(line: dict[str, Any]) -> tuple[str, str, str, str]:
    return line["language"], line["kind"], line["original"], line["candidate"]


def changed_part(original: str, candidate: str) -> str:
    """The words the candidate changed ("old -> new"), read as whitespace-separated words where the original has
    spaces between words, else (Chinese, Japanese) as the one stretch of characters from the first change to the last."""
    spaced = original.count(" ") >= 2
    old, new = (text.split() if spaced else list(text) for text in (original, candidate))
    glue = " " if spaced else ""
    changes = [op for op in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes() if op[0] != "equal"]
    if not spaced and changes:
        changes = [("replace", changes[0][1], changes[-1][2], changes[0][3], changes[-1][4])]
    return "; ".join(f"{glue.join(old[i1:i2])} -> {glue.join(new[j1:j2])}" for _, i1, i2, j1, j2 in changes)


def _shown(line: dict[str, Any], reason: str | None) -> str:
    return f"- {line['language']} ({line['kind']}): {changed_part(line['original'], line['candidate'])} | {reason}"


def _known_before(old: dict[str, Any], new: dict[str, Any]) -> str:
    """What the first version read otherwise in a candidate both rechecked: the words it knew that the second does not
    know, and the words it counted where the second counts otherwise (the share of unknown words changes with them)."""
    if "unknown" not in old or "unknown" not in new:
        return ""
    known = [word for word in new["unknown"] if word not in old["unknown"]]
    counted = f" | words counted: {old['words']} before, {new['words']} now" if old["words"] != new["words"] else ""
    return (f" | known before: {', '.join(known)}" if known else "") + counted


def changed(before: str, after: str, per_kind: int) -> list[str]:
    """Markdown lists: the valid candidates kept by ``before`` and refused by ``after`` (and how many go the other way),
    then per kind of bad answer those ``after`` refuses and ``before`` keeps, ``per_kind`` of them evenly spaced."""
    first = {_key(line): line for line in lines(before) if "corpus" not in line}
    pairs = [(first[_key(line)], line) for line in lines(after) if "corpus" not in line and _key(line) in first]
    lost = sorted(
        ((old, new) for old, new in pairs if new["kind"] in VALID and old["reason"] is None and new["reason"]),
        key=lambda pair: _key(pair[1]),
    )
    won = [new for old, new in pairs if new["kind"] in VALID and old["reason"] and new["reason"] is None]
    valid = sum(new["kind"] in VALID for _, new in pairs)
    out = [f"## Valid candidates kept before and refused now: {len(lost)} of {valid} ({len(won)} go the other way)", ""]
    out += [_shown(new, new["reason"]) + _known_before(old, new) for old, new in lost] + [""]
    by_kind: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for old, new in pairs:
        if new["kind"] in BAD and old["reason"] is None and new["reason"]:
            by_kind[new["kind"]].append(new)
    for kind in BAD:
        found = sorted(by_kind[kind], key=_key)
        made = sum(new["kind"] == kind for _, new in pairs)
        out += [f"## {kind}: refused now and kept before, {len(found)} of {made}", ""]
        step = max(len(found) / per_kind, 1.0)
        out += [_shown(found[int(i * step)], found[int(i * step)]["reason"]) for i in range(min(per_kind, len(found)))] + [""]
    return out


def _why(reason: str) -> str:
    """A refusal's reason as the lists count it: letters rearranged, unknown words, or the reason's kind."""
    if "rearranged" in reason:
        return "letters rearranged"
    return "unknown words" if "words unknown" in reason else reason.split(" (")[0]


def reasons(verdicts: str, kinds: list[str]) -> list[str]:
    """A Markdown table: per language and kind, the candidates, the share refused, and the refusals by reason."""
    counts: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for line in lines(verdicts):
        if "corpus" not in line and line["kind"] in kinds:
            counts[line["language"], line["kind"]].update(["all", _why(line["reason"])] if line["reason"] else ["all"])
    out = ["| language | kind | candidates | refused | by reason |", "| --- | --- | --- | --- | --- |"]
    for (language, kind), found in counts.items():
        refused = sum(n for why, n in found.items() if why != "all")
        by = ", ".join(f"{why} {n}" for why, n in found.most_common() if why != "all")
        out.append(f"| {language} | {kind} | {found['all']} | {refused / found['all']:.1%} | {by or '-'} |")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    again = commands.add_parser("recheck", help="check the candidates of a --verdicts file again with the checks importable now")
    again.add_argument("verdicts")
    again.add_argument("out")
    compare = commands.add_parser("changed", help="what the second file's checks decide unlike the first's")
    compare.add_argument("before")
    compare.add_argument("after")
    compare.add_argument("--per-kind", type=int, default=10, help="bad candidates shown per kind")
    why = commands.add_parser("reasons", help="per language and kind, the share refused and the reasons")
    why.add_argument("verdicts")
    why.add_argument("--kind", action="append", help="a kind of candidate (repeat for more); default: valid and scrambled")
    args = parser.parse_args()
    if args.command == "recheck":
        recheck(args.verdicts, args.out)
    elif args.command == "reasons":
        print("\n".join(reasons(args.verdicts, args.kind or ["valid", "name", "scrambled"])))
    else:
        print("\n".join(changed(args.before, args.after, args.per_kind)))


if __name__ == "__main__":
    main()
