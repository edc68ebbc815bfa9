"""Names as whole units: which spans of a corpus are names, of what type and kind, and which may replace which.

A name is swapped only for another whole name of the same type from the same language's side of the
corpus (a person for a person, a place for a place, an organisation for an organisation), never in part.

* Well-known names have a kind as well (:mod:`clsd_generation.rules.name_kinds`): "EU" is a
  supranational body, "SPD" a party, "Spiegel" a news medium. A name of a kind is swapped only with
  names of that kind, a name of no kind only with names of no kind: a native reader of "the other 27
  member states of the SPD" sees at once that no translator wrote it. A kind also fixes the type (a
  small NER model calls "Spiegel" a person and "Ifop" a place).
* Types come from NER where a side of the corpus has it (``NER_LANGUAGES``: spaCy's French model),
  voted over the corpus: a surface form gets the label most of its mentions carry. HanTa (German,
  English) finds names but not their types, so a German or English name takes the type of the same
  surface form on the French side ("Merkel", "Reuters" are written alike).
* A corpus with no NER side (English-German) types the names of the lexicon by their kind and a name
  right after a title ("Kanzlerin", "Mr") as a person. Any other name stays untyped and is left
  alone: an untyped swap could put a place where a person was.
* A substitute must be written in this language: a corpus name the lexicon knows only in another
  language ("EVP" in French text) is refused, and neither is an alias of the same entity ("EU" for
  "Europäische Union") a substitute. Where the corpus has no other name of a listed name's kind and
  shape, the lexicon's own names of that kind in this language stand in, if they take the same article.
* A substitute must also have the same shape: the same sequence of tags (runs of proper nouns
  counted once) and, in French, the same gender and number, so "la Bourse de New York" only becomes
  another "NOUN de PROPN" organisation; and the article before it (in French also the preposition:
  "en Allemagne" / "à Paris") must be one the substitute was seen with.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from clsd_format.tagging import Name, TaggedSentence, Token
from clsd_generation.rules.common import VARIANTS, agreement_context, onset, tokens_text
from clsd_generation.rules.lexicon import Edit, LanguageRules
from clsd_generation.rules.name_kinds import (
    GENDERED_TITLES,
    KIND_TYPES,
    KNOWN_NAMES,
    LANGUAGES,
    STATE_FORMS,
    TITLE_ENDINGS,
    TITLES,
    KnownName,
)

NER_LANGUAGES = frozenset({"fr"})  # whose tagger types names (spaCy's French NER); HanTa finds names untyped
SWAPPED_TYPES = ("PER", "LOC", "ORG")  # MISC (events, products, nationalities) is too mixed to swap within
_MIXED_CASE = re.compile(r"[a-zà-ÿß][A-ZÀ-Þ]")  # a lower-case letter followed by a capital inside a word
GENITIVE = "genitive"  # a German place name with the genitive -s ("Frankreichs"): only another such form replaces it


def shape(sentence: TaggedSentence, start: int, end: int) -> tuple[str, ...]:
    """Tags of tokens [start, end) with repeats collapsed ("Dow Jones" and "Nasdaq" are both (PROPN,))."""
    out: list[str] = []
    for token in sentence.tokens[start:end]:
        label = f"{token.tag}:{token.slot}" if token.upos != "PROPN" else token.tag
        if not out or out[-1] != label:
            out.append(label)
    return tuple(out)


def vote_types(corpora: Iterable[Sequence[TaggedSentence]]) -> dict[str, str]:
    """Case-folded surface form -> the type most of its typed mentions carry (ties: alphabetical)."""
    votes: dict[str, Counter[str]] = {}
    for corpus in corpora:
        for sentence in corpus:
            for name in sentence.names:
                if name.label:
                    votes.setdefault(tokens_text(sentence, name.start, name.end).casefold(), Counter())[name.label] += 1
    return {surface: min(counter, key=lambda label: (-counter[label], label)) for surface, counter in votes.items()}


def _gendered(before: Token, language: str) -> bool:
    """A word before a name that says the person's sex: "Frau", "M.", or a feminine role noun
    ("Bundesjustizministerin", "la présidente"): then only a surname, with no first name, may come in."""
    word = before.text.casefold()
    feminine_noun = before.upos == "NOUN" and ("Gender=Fem" in before.slot or (before.text[:1].isupper() and word.endswith("in")))
    return word in GENDERED_TITLES.get(language, ()) or feminine_noun


def is_title(word: str, language: str) -> bool:
    folded, endings = word.casefold(), TITLE_ENDINGS.get(language, ())
    return folded in TITLES.get(language, ()) or (bool(endings) and folded.endswith(endings))


def titled_names(sentence: TaggedSentence, name: Name, rules: LanguageRules) -> list[str]:
    """The surfaces a title marks as a person: "Scholz" after "Kanzler" or "Mr."; "Chancellor Scholz" and "Scholz".

    German names in -s are left out: after a title they are as often a place in the genitive
    ("Ministerpräsident Sachsens") as a person.
    """
    tokens, text, language = sentence.tokens, tokens_text(sentence, name.start, name.end), rules.code
    if rules.genitive_s_names and text.endswith("s"):
        return []
    if rules.titles_in_name_runs and is_title(tokens[name.start].text, language):
        rest = name.start + 1
        return [text, tokens_text(sentence, rest, name.end)] if rest < name.end else []
    return [text] if follows_title(sentence, name.start, language) else []


def follows_title(sentence: TaggedSentence, index: int, language: str) -> bool:
    """Whether the token before ``index`` (or before its full stop: "Mr. Johnson") is a title."""
    before = index - 1
    if before > 0 and sentence.tokens[before].text == ".":
        before -= 1
    return before >= 0 and is_title(sentence.tokens[before].text, language)


def starts_with_title(text: str, language: str) -> bool:
    """An English name run with its title ("Chancellor Scholz"): never put after another title ("Mr. Chancellor Scholz")."""
    return bool(text.split()) and is_title(text.split()[0], language)


def title_types(corpora: Mapping[str, Sequence[TaggedSentence]], rules: Mapping[str, LanguageRules]) -> dict[str, str]:
    """Case-folded surface form -> "PER" for every name that follows a title somewhere in the corpus."""
    return {
        surface.casefold(): "PER"
        for language, corpus in corpora.items()
        for sentence in corpus
        for name in sentence.names
        for surface in titled_names(sentence, name, rules[language])
    }


def corpus_types(corpora: Mapping[str, Sequence[TaggedSentence]], rules: Mapping[str, LanguageRules]) -> dict[str, str]:
    """Name types of a corpus (language -> its tagged side): NER votes where a side has NER, else titles.

    The lexicon's names are typed by :class:`NameInventory` on top of these, by their kind.
    """
    if NER_LANGUAGES & set(corpora):
        return vote_types(corpora.values())
    return title_types(corpora, rules)


def without_article(text: str) -> str:
    """A name without the article a tagger took into it ("La Chine", "L'Allemagne"); else the name itself."""
    first, _, rest = text.partition(" ")
    if rest and first.casefold() in ("le", "la", "les", "the", "der", "die", "das"):
        return rest
    if text[:2].casefold() in ("l'", "l\u2019") and len(text) > 2:
        return text[2:]
    return text


def recase(original: str, substitute: str) -> str:
    """The substitute with the original's initial case where an article leads either: "La Chine" -> "La France", not "la France"."""
    if without_article(substitute) == substitute:  # "dpa", "taz" keep their own case
        return substitute
    if original[:1].isupper():
        return substitute[:1].upper() + substitute[1:]
    return substitute[:1].lower() + substitute[1:] if original[:1].islower() else substitute


class NameLexicon:
    """The known names of :mod:`clsd_generation.rules.name_kinds`, looked up case-blind by language."""

    def __init__(self, names: Iterable[KnownName] = KNOWN_NAMES) -> None:
        self.names = tuple(names)
        self.written: dict[tuple[str, str], KnownName] = {(n.text.casefold(), n.language): n for n in self.names}
        self.anywhere: dict[str, KnownName] = {}
        self.by_kind: dict[tuple[str, str], list[KnownName]] = {}
        for language in LANGUAGES:  # a form several languages write: the first language's entry
            for n in self.names:
                if n.language == language:
                    self.anywhere.setdefault(n.text.casefold(), n)
                    self.by_kind.setdefault((n.kind, language), []).append(n)

    def known(self, text: str, language: str) -> KnownName | None:
        """The entry of a name as this language writes it, else of an abbreviation another writes ("EVP" in French is a party).

        A word another language writes is not looked up there: "League" in German text or "Mexico" in
        French (the city) is not the English entry.
        """
        folded = text.casefold()
        entry = self.written.get((folded, language))
        if entry is None and " " not in text and sum(c.isupper() for c in text) >= 2:
            entry = self.anywhere.get(folded)
        return entry

    def identify(self, text: str, language: str, genitive_s: bool = False) -> tuple[KnownName | None, bool]:
        """The entry of a name and whether it is a German genitive of a listed place ("Deutschlands").

        A leading article that the tagger took into the name is set aside: spaCy's "La Chine" is "Chine".
        """
        entry = self.known(text, language)
        if entry is None:
            text = without_article(text)
            entry = self.known(text, language)
        if entry is None and genitive_s and text.endswith("s"):
            stem = self.known(text[:-1], language)
            if stem is not None and stem.kind in ("country", "city"):
                return stem, True
        return entry, False

    def foreign(self, text: str, language: str) -> bool:
        """Listed, but not as this language writes names: "EVP" in French text, "UE" in German text."""
        folded = text.casefold()
        return folded in self.anywhere and (folded, language) not in self.written

    def shouted(self, text: str, language: str) -> bool:
        """A listed name in capitals it is not written in: "PARIS" at the head of a news item."""
        entry = self.known(text, language)
        return entry is not None and text.isupper() and not entry.text.isupper()

    def of_kind(self, kind: str, language: str) -> list[KnownName]:
        return self.by_kind.get((kind, language), [])


LEXICON = NameLexicon()


@dataclass(frozen=True)
class TypedName:
    text: str
    label: str
    kind: str | None  # the lexicon's kind ("party", "city"), None for a name it does not list
    shape: tuple[str, ...]  # tags, then the agreement context (the article before the name, if any), then GENITIVE if so
    entry: KnownName | None = None

    @property
    def key(self) -> tuple[str, str | None, tuple[str, ...]]:
        return (self.label, self.kind, self.shape)


class NameInventory:
    """The typed names of one language's side of a corpus, to draw substitutes from."""

    def __init__(
        self,
        corpus: Sequence[TaggedSentence],
        types: dict[str, str],
        rules: LanguageRules,
        calendar: frozenset[str],
        lexicon: NameLexicon = LEXICON,
    ) -> None:
        self.types = types
        self.rules = rules
        self.language = rules.code
        self.calendar = calendar  # "Dimanche" or "Monday" tagged as a name: left to the weekday rule
        self.lexicon = lexicon
        found = {typed for sentence in corpus for _, typed in self.typed_names(sentence)}
        self.by_kind: dict[tuple[str, str | None, tuple[str, ...]], list[TypedName]] = {}
        for typed in sorted(found, key=lambda t: t.text):
            self.by_kind.setdefault(typed.key, []).append(typed)

    def typed_names(self, sentence: TaggedSentence) -> list[tuple[Name, TypedName]]:
        out = []
        for name in sentence.names:
            text = tokens_text(sentence, name.start, name.end)
            if text.casefold() in self.calendar:
                continue
            entry, genitive = self.lexicon.identify(text, self.language, self.rules.genitive_s_names)
            label = KIND_TYPES[entry.kind] if entry else self.types.get(text.casefold())
            if label in SWAPPED_TYPES:
                kind = (
                    *shape(sentence, name.start, name.end),
                    agreement_context(
                        sentence,
                        name.start,
                        self.rules.agreeing_articles,
                        articles_only=not self.rules.names_bound_by_preposition,
                    ),
                    *((GENITIVE,) if genitive else ()),
                )
                out.append((name, TypedName(text, label, entry.kind if entry else None, kind, entry)))
        return out

    def anchored(self, sentence: TaggedSentence, name: Name, typed: TypedName) -> bool:
        """Whether the rest of the sentence pins the name down, so that another name would contradict it.

        Mentioned again, also inside a compound or in the genitive ("die EU ... EU-Gegner", "Clegg ... Cleggs");
        glossed by, or the gloss of, an abbreviation in brackets ("Perussuomalaiset (PS"); the short name of a
        state's formal name ("Bundesrepublik Deutschland"); or a single word the tagger does not call a proper
        noun (a demonym or common noun the French NER marked: "les Européens", "États membres"), or a span that
        starts with a preposition.
        """
        tokens = sentence.tokens
        mentions = re.findall(rf"(?<!\w){re.escape(typed.text)}(?=s?\b|-)", sentence.text, re.IGNORECASE)
        before = tokens[name.start - 1].text.casefold() if name.start else ""
        after = tokens[name.end].text if name.end < len(tokens) else ""
        single_common = name.end - name.start == 1 and tokens[name.start].upos not in ("PROPN", "X")
        single_common |= tokens[name.start].upos == "ADP"  # a span that took in its preposition: "à Bonn" -> "de Bonn"
        return len(mentions) > 1 or "(" in (before, after) or before in STATE_FORMS.get(self.language, ()) or single_common

    def substitutes(self, typed: TypedName) -> list[str]:
        """Corpus names of the same type, kind and shape written in this language; else, for a listed name, the lexicon's."""
        same = typed.entry.entity if typed.entry else None
        corpus = [
            t.text
            for t in self.by_kind.get(typed.key, [])
            if t.text.casefold() != typed.text.casefold()
            and not self.lexicon.foreign(t.text, self.language)
            and (t.entry is None or t.entry.entity != same)
        ]
        if typed.label == "PER":  # a tagger's misread: a place, movement or firm typed as a person ("Herr Instagram")
            corpus = [t for t in corpus if self.lexicon.known(t, self.language) is None and "." not in t]
        if not corpus and typed.entry is not None:
            corpus = self.from_lexicon(typed, typed.entry)
        if self.lexicon.shouted(typed.text, self.language):  # a capitalised dateline stays in capitals
            return [t.upper() for t in corpus]
        return [t for t in corpus if not self.lexicon.shouted(t, self.language)]

    def from_lexicon(self, typed: TypedName, entry: KnownName) -> list[str]:
        """Listed one-word names of the kind that take the same article (in French also the same onset: "l'UE", "l'ONU")."""
        tags, context = typed.shape[:-1], typed.shape[-1]
        genitive = context == GENITIVE
        if genitive:
            tags, context = tags[:-1], tags[-1]
        if len(tags) != 1:  # a name of several tags ("Bourse de New York"): only the corpus knows others of its shape
            return []
        out = []
        for other in self.lexicon.of_kind(entry.kind, self.language):
            if other.entity == entry.entity or " " in other.text or other.article != entry.article:
                continue
            if self.rules.edge_faults is not None and context and onset(other.text) != onset(typed.text):  # elision
                continue
            if genitive:
                if other.text[-1] in "sxzß":
                    continue
                out.append(other.text + "s")
            else:
                out.append(other.text)
        return out

    def swaps(self, sentence: TaggedSentence, rng: random.Random) -> list[Edit]:
        """Each typed name of the sentence replaced by other names of the same type, kind and shape (``VARIANTS`` of them)."""
        edits = []
        present = sentence.text.casefold()
        for name, typed in self.typed_names(sentence):
            if self.anchored(sentence, name, typed):
                continue
            titled = follows_title(sentence, name.start, self.language)
            gendered = name.start > 0 and _gendered(sentence.tokens[name.start - 1], self.language)
            pool = [
                t
                for t in self.substitutes(typed)
                if t.casefold() not in present
                and not (titled and starts_with_title(t, self.language))
                and not (gendered and " " in t)  # "Frau May": a surname, no first name that tells a sex
                and not _MIXED_CASE.search(t)  # a tokenisation slip in the corpus ("progrèsBeaucoup")
            ]
            for substitute in rng.sample(pool, min(VARIANTS, len(pool))):
                edits.append((name.start, name.end, recase(typed.text, substitute)))
        return edits

    def title_clash(
        self, sentence: TaggedSentence, first: Name, new_first: TypedName, second: Name, new_second: TypedName
    ) -> bool:
        """Exchanging would put a titled name after a title: "Mr. Johnson ... Chancellor Scholz" -> "Mr. Chancellor Scholz"."""
        return any(
            follows_title(sentence, name.start, self.language) and starts_with_title(new.text, self.language)
            for name, new in ((first, new_first), (second, new_second))
        )

    def role_swaps(self, sentence: TaggedSentence) -> list[Edit]:
        """Two names of the same type, kind and shape exchanged: who did what to whom changes, the words stay.

        Names next to each other in a list are never exchanged: the list means the same in either order.

        A name mentioned twice is never exchanged: swapping one of its mentions names the same party
        twice ("Amazon und Google ... Amazon" -> "Amazon und Amazon ... Google").
        """
        text = sentence.text.casefold()
        named = [
            (name, typed)
            for name, typed in self.typed_names(sentence)
            if text.count(typed.text.casefold()) == 1 and not self.anchored(sentence, name, typed)
        ]
        edits = []
        for i, (first, a) in enumerate(named):
            for second, b in named[i + 1 :]:
                if (
                    a.key == b.key
                    and a.text.casefold() != b.text.casefold()
                    and not self.title_clash(sentence, first, b, second, a)
                ):
                    between = sentence.tokens[first.end : second.start]
                    if all(t.upos in ("PUNCT", "CCONJ") for t in between):
                        continue  # "Lafontaine und Wagenknecht": a list says the same in either order
                    middle = sentence.text[sentence.tokens[first.end - 1].end : sentence.tokens[second.start].start]
                    edits.append((first.start, second.end, recase(a.text, b.text) + middle + recase(b.text, a.text)))
        return edits
