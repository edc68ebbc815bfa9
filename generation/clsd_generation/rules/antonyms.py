"""Opposites with a corpus-level cap, so that no single pair makes most of the antonym distractors.

A few pairs are far more frequent than the rest in news text (German "mehr", French "plus"): left
alone they would make the antonym rule a test of one word. :class:`AntonymCap` counts, over the
whole corpus, how many swaps of each pair pass the tag check, then keeps a pair's swaps only in the
sentences whose seeded hash of (text, pair) ranks among its lowest, as many as a water level allows:
every pair then makes at most ``share`` of all the swaps kept. Whole swaps are kept in rank order
(not sampled with a probability), so the shares hold exactly, not only on average. The choice
depends only on the set of corpus sentences and the seed, never on the order they are processed in,
so a resumed run keeps the same swaps; a sentence outside the corpus is kept by the same hash
threshold.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import Protocol

from clsd_format.tagging import TaggedSentence
from clsd_generation.rules.any_language import apply_edit, swap_antonyms
from clsd_generation.rules.checks import SAME_TAGS, check
from clsd_generation.rules.lexicon import Edit, LanguageRules

SHARE = 0.15  # the most of the antonym swaps one pair may make over a corpus
Pair = tuple[str, str]
_ALL = "g"  # above every hex rank: a pair under the level keeps its swaps in any sentence, in the corpus or not


def pair_keys(antonyms: Iterable[tuple[str, str]]) -> dict[str, Pair]:
    """Each word (case-folded) to its pair, the same key for both directions."""
    keys: dict[str, Pair] = {}
    for a, b in antonyms:
        key: Pair = (a.casefold(), b.casefold())
        keys[a.casefold()] = keys[b.casefold()] = key
    return keys


def rank(seed: int, text: str, pair: Pair) -> str:
    """A seeded hash of (sentence, pair): the same on every machine, run and processing order."""
    return hashlib.sha256(f"{seed}|{pair[0]}|{pair[1]}|{text}".encode()).hexdigest()


def water_level(counts: Iterable[int], share: float) -> int:
    """The largest number of swaps per pair such that each pair, capped at it, makes at most ``share`` of the total.

    With fewer pairs than ``1 / share`` no level can meet the share; the pairs are then evened out
    (each at most 1/k of the total for k pairs), which is the best any cap can do.
    """
    values = sorted(c for c in counts if c > 0)
    if not values:
        return 0
    share = max(share, 1 / len(values))
    level = values[-1]
    while level > 0 and level > share * sum(min(c, level) for c in values) + 1e-9:
        level -= 1
    return level


class Retagger(Protocol):
    def tag(self, texts: Sequence[str]) -> list[TaggedSentence]: ...


class AntonymCap:
    """The antonym edits of a sentence, with every pair held to ``share`` of the swaps its corpus offers.

    With ``tags`` (the generator's tag cache), only swaps that pass the tag check count and are offered for
    corpus sentences, so the share holds for the swaps the rule can actually keep: a pair the tagger often
    reads differently after the swap ("gauche"/"droite") would otherwise take room another pair then fills.
    """

    def __init__(
        self,
        corpus: Iterable[TaggedSentence],
        rules: LanguageRules,
        seed: int = 0,
        share: float = SHARE,
        tags: Retagger | None = None,
    ) -> None:
        self.rules = rules
        self.seed = seed
        self.keys = pair_keys(rules.antonyms)
        sentences = list({s.text: s for s in corpus}.values())
        self.swaps = {s.text: self._edits(s) for s in sentences}
        if tags is not None:
            self._keep_passing(sentences, tags)
        per_pair: dict[Pair, list[tuple[str, int]]] = defaultdict(list)  # pair -> (rank, swaps in that sentence)
        for sentence in sentences:
            for pair, n in Counter(self._pair(sentence, edit) for edit in self.swaps[sentence.text]).items():
                per_pair[pair].append((rank(seed, sentence.text, pair), n))
        for ranked in per_pair.values():
            ranked.sort()
        self.offered = {pair: sum(n for _, n in ranked) for pair, ranked in per_pair.items()}
        self.threshold = self._thresholds(per_pair, share)

    def _keep_passing(self, sentences: list[TaggedSentence], tags: Retagger) -> None:
        """Drop the corpus swaps the tag check would refuse (tagged in one batch; the generator's cache keeps them)."""
        proposed = [(s, edit) for s in sentences for edit in self.swaps[s.text]]
        retagged = tags.tag([apply_edit(s, edit) for s, edit in proposed])
        refused = {
            (s.text, edit)
            for (s, edit), new in zip(proposed, retagged, strict=True)
            if check(s, edit, SAME_TAGS, new, self.rules) is not None
        }
        self.swaps = {text: [e for e in edits if (text, e) not in refused] for text, edits in self.swaps.items()}

    def _edits(self, sentence: TaggedSentence) -> list[Edit]:
        return swap_antonyms(sentence, self.rules.antonyms, self.rules.antonym_stops, self.rules.antonym_blocked)

    def _pair(self, sentence: TaggedSentence, edit: Edit) -> Pair:
        return self.keys[sentence.tokens[edit[0]].text.casefold().replace("\u2019", "'")]

    @staticmethod
    def _kept(ranked: list[tuple[str, int]], level: int) -> tuple[int, str | None]:
        """Swaps kept and the rank threshold when a pair takes its sentences in rank order up to ``level`` swaps."""
        total, threshold = 0, None
        for key, n in ranked:
            if total + n > level:
                return total, threshold
            total, threshold = total + n, key
        return total, _ALL

    def _thresholds(self, per_pair: dict[Pair, list[tuple[str, int]]], share: float) -> dict[Pair, str | None]:
        """Per pair, the highest rank kept (None: none kept); lowers the level until the kept shares fit."""
        level = water_level(self.offered.values(), share)
        floor = max(share, 1 / len(per_pair)) if per_pair else share
        while True:
            kept = {pair: self._kept(ranked, level) for pair, ranked in per_pair.items()}
            total = sum(n for n, _ in kept.values())
            if level <= 0 or all(n <= floor * total + 1e-9 for n, _ in kept.values()):
                return {pair: threshold for pair, (_, threshold) in kept.items()}
            level -= 1

    def keeps(self, text: str, pair: Pair) -> bool:
        if pair not in self.threshold:
            return True  # a pair the corpus never offers: nothing to hold back
        threshold = self.threshold[pair]
        return threshold is not None and rank(self.seed, text, pair) <= threshold

    def edits(self, sentence: TaggedSentence) -> list[Edit]:
        """The sentence's antonym swaps whose pair the cap keeps in this sentence."""
        swaps = self.swaps.get(sentence.text)
        swaps = self._edits(sentence) if swaps is None else swaps
        return [edit for edit in swaps if self.keeps(sentence.text, self._pair(sentence, edit))]
