"""Whole-run checks of a rule-made generation run: what a sample of 120 cannot show.

Reads a ``clsd generate --backend rules`` run folder and prints, per language:

* coverage: sentences with four distractors, and the share of all sentences;
* the rule mix: distractors per rule (as the checkpoint stored them; read back from the texts for older runs) and their share;
* the antonym pairs: the most frequent change and its share of the antonym rule's output;
* distractors equal to their original once case and accents are folded (one "wrong" candidate that is a
  correct translation);
* French: distractors with more elision or contraction errors than their original ("l'République").

    python scripts/check_rule_run.py runs/wmt19-rules
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from clsd_format.tagging import TaggedSentence
from clsd_generation.core.checkpoint import Checkpoint, Result
from clsd_generation.core.languages import languages_of
from clsd_generation.core.settings import DISTRACTORS_PER_SENTENCE
from clsd_generation.rules import TagCache, rules_for
from clsd_generation.rules.elision import faults, fold
from clsd_generation.rules.explain import changed_edit, explain


def _antonym_change(original: TaggedSentence, distractor: TaggedSentence) -> str:
    found = changed_edit(original, distractor)
    if found is None:
        return "?"
    (start, end, _), new = found
    return f"{' '.join(t.text for t in original.tokens[start:end])} -> {' '.join(new)}".casefold()


def check_language(pairs: dict[str, str], results: list[Result], code: str) -> list[str]:
    """The report lines of one language: ``pairs`` maps pair id to this language's sentence."""
    rules, tags = rules_for(code), TagCache(code)
    done = [r for r in results if r.lang == code]
    full = sum(len(r.distractors) >= DISTRACTORS_PER_SENTENCE for r in done)
    rule_mix: Counter[str] = Counter()
    antonyms: Counter[str] = Counter()
    folded_equal, elision = 0, 0
    for result in done:
        sentence = pairs[result.pair_id]
        original, *tagged = tags.tag([sentence, *result.distractors])
        stored = result.rules or (None,) * len(tagged)
        for distractor, known in zip(tagged, stored, strict=True):
            rule, _ = explain(original, distractor, rules, known_rule=known)
            rule_mix[rule] += 1
            if rule == "antonyms":
                antonyms[_antonym_change(original, distractor)] += 1
            folded_equal += " ".join(fold(distractor.text).split()) == " ".join(fold(sentence).split())
            elision += code == "fr" and faults(distractor.text) > faults(sentence)
    total = sum(rule_mix.values())
    lines = [
        f"[{code}] sentences {len(done)}, with {DISTRACTORS_PER_SENTENCE} distractors {full} "
        f"({100 * full / max(len(done), 1):.1f}%); distractors {total}",
        "  rule mix: " + ", ".join(f"{rule} {n} ({100 * n / total:.1f}%)" for rule, n in rule_mix.most_common()),
    ]
    if antonyms:
        top, count = antonyms.most_common(1)[0]
        lines.append(
            f"  antonyms: {sum(antonyms.values())} from {len(antonyms)} distinct changes; most frequent {top!r} "
            f"{count} ({100 * count / sum(antonyms.values()):.1f}%)"
        )
    lines.append(f"  equal to the original after case and accent folding: {folded_equal}")
    if code == "fr":
        lines.append(f"  with more elision or contraction errors than the original: {elision}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run_dir", type=Path)
    args = parser.parse_args()
    with Checkpoint.existing(args.run_dir) as checkpoint:
        languages = languages_of(checkpoint)
        pairs = checkpoint.pairs()
        results = checkpoint.results()
    for side, language in enumerate(languages):
        for line in check_language({p.pair_id: p.texts[side] for p in pairs}, results, language.code):
            print(line)


if __name__ == "__main__":
    main()
