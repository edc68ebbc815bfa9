"""Noun swaps: a common noun becomes another corpus noun attested in the same slot and the same frame.

Off by default (see ``DEFAULT_RULES`` in :mod:`clsd_generation.rules`): read strictly by a native
speaker, a noun swap drawn from the corpus by tag and inflection alone made a valid distractor in
few cases ("am 70. Geburtstag" -> "am 70. Prozent", "répondre à cette question" -> "à cette
bienvenue"); a noun that fits its slot needs a parser and a lexicon of what goes with what. With the
rule switched on, these guards apply:

* the slot (:func:`slot_key`): the tag, the inflection (French gender and number; the ending a German or
  English noun adds to its lemma), the onset and, where articles mark case and gender (German), the
  article or preposition it agrees with;
* the frame (:func:`frame`): the word that governs the noun phrase (the preposition, verb or noun right
  before it) and the word after it; a substitute must have been seen in the corpus in the same slot *and*
  frame, after a determiner (the guard against words the tagger misreads as nouns: "commet", "défaire");
* a word form is swapped, or used as a substitute, only if the tagger calls it a noun in most of its
  corpus occurrences; never inside or right next to a name ("der Naturschützer Pascal Durand"), before a
  number ("Artikel 16"), nor inside a fixed phrase of the language's stop list ("du point de vue");
* German nouns carry no gender in HanTa's tags, so each noun gets the genders its articles allow across
  the corpus ("der Verlust", "den Verlust", "dem Verlust" -> masculine), and a substitute must share one.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from clsd_format.tagging import TaggedSentence
from clsd_generation.rules.any_language import agreement_context, in_name, match_case, onset
from clsd_generation.rules.lexicon import Edit, LanguageRules

ALL_GENDERS = frozenset("mfnp")
MOSTLY = 2 / 3  # share of a word form's corpus occurrences the tagger must call a noun
_PHRASE_HEAD = ("DET", "ADJ", "NUM")  # what may stand between a noun and the word governing its phrase
_GOVERNORS = ("ADP", "VERB", "AUX", "NOUN", "PROPN")
Frame = tuple[str, str]


def slot_key(sentence: TaggedSentence, index: int, rules: LanguageRules) -> tuple[str, ...]:
    """The slot a substitute noun must fill: tag, inflection slot, onset and, where articles agree, the article."""
    token = sentence.tokens[index]
    key: tuple[str, ...] = (token.tag, token.slot, onset(token.text))
    return (*key, agreement_context(sentence, index, rules)) if rules.agreeing_articles else key


def _determined(sentence: TaggedSentence, index: int) -> bool:
    """A determiner heads the noun's phrase (within two words: "la nouvelle loi", "die 27 Staaten")."""
    for back in range(index - 1, max(index - 3, -1), -1):
        upos = sentence.tokens[back].upos
        if upos == "DET":
            return True
        if upos not in ("ADJ", "NUM"):
            return False
    return False


def frame(sentence: TaggedSentence, index: int) -> Frame:
    """The governing word before the noun's phrase (case-folded; "^" at the start) and the word after the noun."""
    back = index - 1
    while back >= 0 and sentence.tokens[back].upos in _PHRASE_HEAD:
        back -= 1
    left = sentence.tokens[back] if back >= 0 else None
    governor = left.text.casefold() if left is not None and left.upos in _GOVERNORS else (left.upos if left else "^")
    right = sentence.tokens[index + 1] if index + 1 < len(sentence.tokens) else None
    follower = "$" if right is None else right.text.casefold() if right.upos in ("ADP", "DET", "PUNCT", "CCONJ") else right.upos
    return governor, follower


def _in_fixed_phrase(sentence: TaggedSentence, index: int, phrases: Sequence[tuple[str, ...]]) -> bool:
    words = [t.text.casefold() for t in sentence.tokens]
    for phrase in phrases:
        for start in range(max(index - len(phrase) + 1, 0), index + 1):
            if tuple(words[start : start + len(phrase)]) == phrase:
                return True
    return False


def _candidate(sentence: TaggedSentence, index: int, rules: LanguageRules) -> bool:
    """A common noun of letters only, not in, before or after a name, not before a number, not in a fixed phrase."""
    token = sentence.tokens[index]
    if token.upos != "NOUN" or not token.text.isalpha() or len(token.text) <= 2:
        return False
    near_name = any(in_name(sentence, i) for i in (index - 1, index, index + 1) if 0 <= i < len(sentence.tokens))
    before_number = index + 1 < len(sentence.tokens) and sentence.tokens[index + 1].upos == "NUM"
    return not near_name and not before_number and not _in_fixed_phrase(sentence, index, rules.fixed_phrases)


class NounIndex:
    """The corpus's nouns by slot and frame, with the German genders each one's articles allow."""

    def __init__(self, corpus: Sequence[TaggedSentence], rules: LanguageRules, calendar: frozenset[str] = frozenset()) -> None:
        self.rules = rules
        uses: Counter[str] = Counter()
        as_noun: Counter[str] = Counter()
        self.genders: dict[str, frozenset[str]] = {}
        attested: dict[tuple[tuple[str, ...], Frame], set[str]] = {}
        for sentence in corpus:
            for position, token in enumerate(sentence.tokens):
                uses[token.text] += 1
                if not _candidate(sentence, position, rules):
                    continue
                as_noun[token.text] += 1
                if _determined(sentence, position):
                    attested.setdefault((slot_key(sentence, position, rules), frame(sentence, position)), set()).add(token.text)
                self._learn_gender(sentence, position)
        # Months and weekdays have their own rules ("janvier" -> "ministre" would be a noun swap).
        self.nouns = frozenset(w for w, n in as_noun.items() if n >= MOSTLY * uses[w] and w.casefold() not in calendar)
        self.attested = {key: sorted(words & self.nouns) for key, words in attested.items() if len(words & self.nouns) > 1}

    def _learn_gender(self, sentence: TaggedSentence, position: int) -> None:
        context = agreement_context(sentence, position, self.rules, articles_only=True).split("+")[0]
        allowed = self.rules.article_genders.get(context)
        if allowed:
            word = sentence.tokens[position].text
            self.genders[word] = self.genders.get(word, ALL_GENDERS) & allowed or ALL_GENDERS

    def compatible(self, original: str, substitute: str) -> bool:
        return bool(self.genders.get(original, ALL_GENDERS) & self.genders.get(substitute, ALL_GENDERS))

    def swaps(self, sentence: TaggedSentence, rng: random.Random) -> list[Edit]:
        """Each noun of the sentence replaced by another corpus noun of the same slot and frame."""
        edits = []
        present = {t.text.casefold() for t in sentence.tokens}
        for position, token in enumerate(sentence.tokens):
            if not _candidate(sentence, position, self.rules) or token.text not in self.nouns:
                continue
            key = (slot_key(sentence, position, self.rules), frame(sentence, position))
            pool = [w for w in self.attested.get(key, []) if w.casefold() not in present and self.compatible(token.text, w)]
            if pool:
                new = rng.choice(pool)
                edits.append((position, position + 1, new if self.rules.capitalised_nouns else match_case(token.text, new)))
        return edits
