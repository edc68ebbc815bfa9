"""A toy language for the rule backend ("xx", Italian-like), added from this one module (its few names written in it).

It shows what a new language needs and nothing more: a tagger, the locale of its month and weekday names,
its well-known names, and the words around numbers and persons. It is installed by the test that uses it as
a package with an entry point in the group ``clsd_generation.languages``; nothing of clsd-mteb is edited.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from clsd_format.tagging import Name, TaggedSentence, Token
from clsd_generation.rules.lexicon import Edit, LanguageRules, NumberWords, PersonWords
from clsd_generation.rules.name_kinds import parse_names

_TOKEN = re.compile(r"\w+|[^\w\s]")


class ToyTagger:
    """Numbers, capitalised words inside a sentence (proper nouns, runs of them are names), everything else a noun."""

    language = "xx"

    def tag(self, texts: Sequence[str]) -> list[TaggedSentence]:
        return [self._tag(text) for text in texts]

    def _tag(self, text: str) -> TaggedSentence:
        tokens = []
        for position, match in enumerate(_TOKEN.finditer(text)):
            word = match.group()
            upos = (
                "NUM"
                if word.isdigit()
                else "PUNCT"
                if not word.isalnum()
                else "PROPN"
                if position and word[0].isupper()
                else "NOUN"
            )
            tokens.append(Token(word, match.start(), match.end(), upos, upos, word.casefold(), ""))
        names, start = [], None
        for index, token in enumerate((*tokens, None)):
            proper = token is not None and token.upos == "PROPN"
            if proper and start is None:
                start = index
            elif not proper and start is not None:
                names.append(Name(start, index, None))
                start = None
        return TaggedSentence(text, tuple(tokens), tuple(names))

    def tag_tokens(self, sentences: Sequence[Sequence[str]]) -> list[list[str]]:
        return [[t.upos for t in self._tag(" ".join(words)).tokens] for words in sentences]


def _no_negation(sentence: TaggedSentence, rng: random.Random) -> list[Edit]:
    return []


NAMES = """\
city\trome\tRoma
city\tmilan\tMilano
city\tnaples\tNapoli
city\tturin\tTorino
city\tflorence\tFirenze
city\tvenice\tVenezia
"""  # kind<TAB>entity<TAB>forms, as a names file (clsd_generation.rules.name_kinds)


RULES = LanguageRules(
    code="xx",
    locale="it",  # month and weekday names from CLDR's Italian
    tagger=ToyTagger,
    known_names=parse_names(NAMES, "xx"),
    numbers=NumberWords(day_articles=frozenset({"il"}), percent=frozenset({"percento"}), range_joiners=frozenset({"e"})),
    persons=PersonWords(titles=frozenset({"signor", "signora"}), title_sexes={"signor": "m", "signora": "f"}),
    articles=frozenset({"il", "la"}),
    leading_articles=frozenset({"il", "la"}),
    antonyms=(),
    negate=_no_negation,
)
