"""Noun swaps: a common noun becomes another corpus noun that fills the same slot.

The slot (:func:`clsd_generation.rules.common.word_key`) is the tag, the inflection (French gender
and number; the ending a German or English noun adds to its lemma), the onset (elision, a/an) and,
in German, the article or preposition it agrees with. Two corpus-level guards against tagger noise:

* a word form is swapped, or used as a substitute, only if the tagger calls it a noun in most of its
  corpus occurrences ("fait" in "tout à fait", "survivre" are not);
* German nouns carry no gender in HanTa's tags, so each noun gets the genders its articles allow
  across the corpus ("der Verlust", "den Verlust", "dem Verlust" -> masculine; "der/die Vergangenheit"
  -> feminine), and a substitute must share one with the original.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from clsd_format.tagging import TaggedSentence
from clsd_generation.rules.common import agreement_context, in_name, match_case, word_key
from clsd_generation.rules.lexicon import Edit

# Genders (and plural) each German article form allows; a noun's genders are the intersection over its corpus uses.
_ARTICLE_GENDERS: dict[str, frozenset[str]] = {
    "der": frozenset("mf"),
    "die": frozenset("fp"),
    "das": frozenset("n"),
    "den": frozenset("mp"),
    "dem": frozenset("mn"),
    "des": frozenset("mn"),
    "ein": frozenset("mn"),
    "eine": frozenset("f"),
    "einen": frozenset("m"),
    "einem": frozenset("mn"),
    "einer": frozenset("f"),
    "eines": frozenset("mn"),
    "im": frozenset("mn"),
    "am": frozenset("mn"),
    "vom": frozenset("mn"),
    "zum": frozenset("mn"),
    "beim": frozenset("mn"),
    "ins": frozenset("n"),
    "zur": frozenset("f"),
}
ALL_GENDERS = frozenset("mfnp")
MOSTLY = 2 / 3  # share of a word form's corpus occurrences the tagger must call a noun


def _candidate(sentence: TaggedSentence, index: int) -> bool:
    """A common noun of letters only, not in a name nor right after one ("Dow Jones Index" is one name)."""
    token = sentence.tokens[index]
    near_name = in_name(sentence, index) or (index > 0 and in_name(sentence, index - 1))
    return token.upos == "NOUN" and token.text.isalpha() and len(token.text) > 2 and not near_name


class NounIndex:
    """The corpus's nouns by slot, with the German genders each one's articles allow."""

    def __init__(self, corpus: Sequence[TaggedSentence], language: str, calendar: frozenset[str] = frozenset()) -> None:
        self.language = language
        uses: Counter[str] = Counter()
        as_noun: Counter[str] = Counter()
        self.genders: dict[str, frozenset[str]] = {}
        slots: dict[tuple[str, ...], set[str]] = {}
        for sentence in corpus:
            for position, token in enumerate(sentence.tokens):
                uses[token.text] += 1
                if not _candidate(sentence, position):
                    continue
                as_noun[token.text] += 1
                slots.setdefault(word_key(sentence, position, language), set()).add(token.text)
                allowed = _ARTICLE_GENDERS.get(agreement_context(sentence, position, language, articles_only=True).split("+")[0])
                if language == "de" and allowed:
                    self.genders[token.text] = self.genders.get(token.text, ALL_GENDERS) & allowed or ALL_GENDERS
        # Months and weekdays have their own rules ("janvier" -> "ministre" would be a noun swap).
        self.nouns = frozenset(w for w, n in as_noun.items() if n >= MOSTLY * uses[w] and w.casefold() not in calendar)
        self.by_slot = {key: sorted(words & self.nouns) for key, words in slots.items() if len(words & self.nouns) > 1}

    def compatible(self, original: str, substitute: str) -> bool:
        return bool(self.genders.get(original, ALL_GENDERS) & self.genders.get(substitute, ALL_GENDERS))

    def swaps(self, sentence: TaggedSentence, rng: random.Random) -> list[Edit]:
        """Each noun of the sentence replaced by another corpus noun of the same slot ("tensions" -> "réformes")."""
        edits = []
        present = {t.text.casefold() for t in sentence.tokens}
        for position, token in enumerate(sentence.tokens):
            if not _candidate(sentence, position) or token.text not in self.nouns:
                continue
            pool = [
                w
                for w in self.by_slot.get(word_key(sentence, position, self.language), [])
                if w.casefold() not in present and self.compatible(token.text, w)
            ]
            if pool:
                new = rng.choice(pool)
                edits.append((position, position + 1, new if self.language == "de" else match_case(token.text, new)))
        return edits
