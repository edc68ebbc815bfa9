"""Names as whole units: which spans of a corpus are names, of what type and kind, and which may replace which.

A name is swapped only for another whole name of the same type from the same language's side of the
corpus (a person for a person, a place for a place, an organisation for an organisation), never in part.

* Well-known names have a kind as well (:mod:`clsd_generation.rules.name_kinds`): "NATO" is a
  supranational body, "SPD" a German party, "Spiegel" a news medium. A name of a kind is swapped only
  with names of that kind, a name of no kind only with names of no kind: a native reader of "the other
  27 member states of the SPD" sees at once that no translator wrote it. A kind also fixes the type (a
  small NER model calls "Spiegel" a person and "Ifop" a place). Some kinds are never swapped (the EU,
  Brussels, the EU's institutions: no other body does what they do).
* Types come from NER where a side of the corpus has it (``LanguageRules.names_typed_by_tagger``: spaCy's French model),
  voted over the corpus: a surface form gets the label most of its mentions carry, if the corpus backs
  it (:func:`trusted_types`). HanTa (German, English) finds names but not their types, so a German or
  English name takes the type of the same surface form on the French side ("Merkel", "Reuters" are
  written alike). A person also needs a known sex (:func:`person_sexes`): only a person of the same sex
  replaces it.
* What the rule offers (:meth:`NameInventory.untied_swaps`) leaves out names that other words of the
  sentence tie down: another name, a nationality, a party office ("SPD-Spitzenkandidatin Merkel").
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

import functools
import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from clsd_format.tagging import Name, TaggedSentence, Token
from clsd_generation.rules.any_language import VARIANTS, agreement_context, onset, tokens_text
from clsd_generation.rules.languages import registered
from clsd_generation.rules.lexicon import Edit, LanguageRules, PersonWords
from clsd_generation.rules.name_kinds import FIXED_KINDS, KIND_TYPES, PLACE_KINDS, KnownName

SWAPPED_TYPES = ("PER", "LOC", "ORG")  # MISC (events, products, nationalities) is too mixed to swap within
_MIXED_CASE = re.compile(r"[a-zà-ÿß][A-ZÀ-Þ]")  # a lower-case letter followed by a capital inside a word
# A role noun whose first part names an organisation or place ("FDP-Generalsekretärin", "CSU-Chef", "EU-Kommissar").
_PARTY_ROLE = re.compile(r"[A-ZÄÖÜ][\w&]*-[A-Za-zÄÖÜäöüß]")
_WORD = re.compile(r"[^\W\d_]+(?:[-'\u2019][^\W\d_]+)*")  # a name's word: letters, inner hyphens and apostrophes
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


def _persons(language: str) -> PersonWords:
    """The person words of a language; none for a language without rules."""
    rules = registered().get(language)
    return rules.persons if rules is not None else PersonWords()


def _gendered_before(sentence: TaggedSentence, name: Name) -> bool:
    """A title that tells a sex right before the span ("Herr", "M.", "Mme"), in any language's words: a corpus
    quotes names with their foreign titles."""
    if not name.start:
        return False
    word = sentence.tokens[name.start - 1].text.casefold()
    return any(word in r.persons.title_sexes or word.rstrip(".") in r.persons.title_sexes for r in registered().values())


def _gendered(before: Token, language: str) -> bool:
    """A word before a name that says the person's sex: "Frau", "M.", or a feminine role noun
    ("Bundesjustizministerin", "la présidente"): then only a surname, with no first name, may come in."""
    word = before.text.casefold()
    feminine_noun = before.upos == "NOUN" and ("Gender=Fem" in before.slot or (before.text[:1].isupper() and word.endswith("in")))
    return word in _persons(language).gendered_titles or feminine_noun


def is_title(word: str, language: str) -> bool:
    persons = _persons(language)
    folded, endings = word.casefold(), persons.title_endings
    return folded in persons.titles or (bool(endings) and folded.endswith(endings))


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
    if any(rules[language].names_typed_by_tagger for language in corpora):
        return trusted_types(vote_types(corpora.values()), corpora, title_types(corpora, rules), rules)
    return title_types(corpora, rules)


def trusted_types(
    voted: Mapping[str, str],
    corpora: Mapping[str, Sequence[TaggedSentence]],
    titled: Mapping[str, str],
    rules: Mapping[str, LanguageRules],
) -> dict[str, str]:
    """The NER votes a reader would agree with: a small model's type is only trusted where the corpus backs it.

    A one-word "person" must be the surname of a full name somewhere in the corpus ("Merkel" after
    "Angela Merkel") or follow a title, and never follow an article: the tagger also calls parties,
    surveys, demonyms and places persons ("Union", "Alde", "l'Eurobaromètre", "le Finlandais"). A full
    name is written in capitals throughout ("Place publique" is a party). A "place" must be seen right
    after a preposition of place ("in Pullach", "à Bonn") and never be a first name or surname ("Luise",
    "Timmermans"). Organisations the lexicon does not list are left alone: their kinds (an NGO, a
    broadcaster, a firm) are too mixed for any of them to stand in for another ("NGOs such as
    Greenpeace" -> "NGOs such as ABC").
    """
    after_article: set[str] = set()
    after_place_word: set[str] = set()
    full_names: list[list[str]] = []
    for language, corpus in corpora.items():
        places = rules[language].place_prepositions
        for sentence in corpus:
            for name in sentence.names:
                surface = tokens_text(sentence, name.start, name.end)
                before = sentence.tokens[name.start - 1] if name.start else None
                if before is not None and before.upos == "DET":
                    after_article.add(surface.casefold())
                if before is not None and before.text.casefold() in places:
                    after_place_word.add(surface.casefold())
                if name.end - name.start > 1 and voted.get(surface.casefold()) == "PER":
                    full_names.append(surface.split())
    titles = {t for language in corpora for t in (*rules[language].persons.title_sexes, *rules[language].persons.titles)}
    full_names = [
        words
        for words in full_names
        if all(w[:1].isupper() for w in words) and words[0].casefold().rstrip(".") not in titles  # "M. Lafontaine"
    ]
    full_names = [words for words in full_names if all(_WORD.fullmatch(w) for w in words)]  # no "Génération.s"
    first_names = {words[0].casefold() for words in full_names}
    # a first name alone is no surname ("die Spitzenkandidatin Sahra")
    surnames = ({words[-1].casefold() for words in full_names} | set(titled)) - first_names
    written_full = {" ".join(words).casefold() for words in full_names}
    # the surname of a full name is a person whatever its own mentions' vote ("Wagenknecht" as LOC), also where it
    # has none ("M. Lafontaine")
    out = {surname: "PER" for surname in surnames - after_article}
    for surface, label in voted.items():
        if surface in out:
            continue
        if label == "PER" and surface in written_full:
            out[surface] = label
        elif label == "LOC" and surface in after_place_word and surface not in first_names | surnames:
            out[surface] = label
    return out


def cue_sex(sentence: TaggedSentence, index: int, language: str) -> str | None:
    """The sex the words before a name give its person: a title ("Frau", "M.", "Mr."), a French role noun
    ("la présidente", "sa camarade": an epicene noun by its article), a German role noun's ending
    ("Kanzlerin", "CSU-Politiker"); else None."""
    tokens = sentence.tokens
    before = index - 1
    dotted = before > 0 and tokens[before].text == "."
    if dotted:
        before -= 1
    if before < 0:
        return None
    word = tokens[before].text.casefold()
    persons = _persons(language)
    titled = persons.title_sexes
    if (word + "." if dotted else word) in titled or word in titled:
        return titled.get(word + "." if dotted else word, titled.get(word))
    roles = persons.role_sexes
    if roles is not None:
        if word in roles:
            return roles[word]
        if word in persons.epicene_roles:
            for k in range(before - 1, max(before - 4, -1), -1):  # "la Première ministre", "sa camarade"
                article = tokens[k].text.casefold()
                if article in persons.article_sexes:
                    return persons.article_sexes[article]
                if tokens[k].upos != "ADJ" and article not in roles:
                    break
        return None
    endings = persons.masculine_role_endings
    if tokens[before].upos != "NOUN" or not endings or not tokens[before].text[:1].isupper():
        return None
    if word.endswith(tuple(e + "in" for e in endings)):
        return "f"
    return "m" if word.endswith(endings) else None


def person_sexes(corpora: Mapping[str, Sequence[TaggedSentence]], types: Mapping[str, str]) -> dict[str, str]:
    """Case-folded person name -> "f" or "m", where the corpus says so without contradiction.

    A person is only replaced by another of the same known sex: the sentence around a name agrees with it
    ("Er betonte", "la vice-présidente", "Paul Lewis, elle"). The sex comes from the word before a mention
    (:func:`cue_sex`); a full name shares it with its surname and its first name, and a first name passes it
    on to the other full names it starts ("Angela Merkel" -> "Angela").
    """
    votes: dict[str, set[str]] = {}
    full_names: set[tuple[str, ...]] = set()
    for language, corpus in corpora.items():
        for sentence in corpus:
            titled = _persons(language).title_sexes
            for name in sentence.names:
                surface = tokens_text(sentence, name.start, name.end).casefold()
                title, _, rest = surface.partition(" ")
                sex = titled.get(title) if rest else None  # a tagger's span with its title: "M. Lafontaine"
                surface = rest if sex else surface
                if types.get(surface) != "PER":
                    continue
                words = tuple(surface.split())
                if len(words) > 1:
                    full_names.add(words)
                sex = sex or cue_sex(sentence, name.start, language)
                if sex:
                    votes.setdefault(surface, set()).add(sex)
                    if len(words) > 1:
                        votes.setdefault(words[-1], set()).add(sex)
    for words in full_names:  # a full name and its surname are one person
        votes.setdefault(" ".join(words), set()).update(votes.get(words[-1], set()))
    first_names: dict[str, set[str]] = {}
    for words in full_names:
        first_names.setdefault(words[0], set()).update(votes.get(" ".join(words), set()))
    for words in full_names:
        sexes = votes.setdefault(" ".join(words), set())
        if not sexes:
            sexes.update(first_names.get(words[0], set()))
            if not votes.get(words[-1]):
                votes[words[-1]] = set(sexes)
    return {surface: sexes.pop() for surface, sexes in votes.items() if len(sexes) == 1}


def same_name(one: str, other: str) -> bool:
    """Two spellings of one name, or a name and its full form: "Westphalie" / "Wesphalie", "Beer" / "Nicola Beer"."""
    a, b = one.casefold().split(), other.casefold().split()
    if set(a) <= set(b) or set(b) <= set(a):
        return True
    return len(one) >= 6 and SequenceMatcher(None, one.casefold(), other.casefold()).ratio() >= 0.85


@functools.cache
def _leading_articles() -> tuple[frozenset[str], tuple[str, ...]]:
    """Every language's articles a tagger takes into a name: whole words, and elided ones (with both apostrophes)."""
    articles = frozenset(a for rules in registered().values() for a in rules.leading_articles)
    elided = tuple(sorted({a[:-1] + mark for a in articles if a.endswith("'") for mark in ("'", "\u2019")}))
    return frozenset(a for a in articles if not a.endswith("'")), elided


def without_article(text: str) -> str:
    """A name without the article a tagger took into it ("La Chine", "L'Allemagne"); else the name itself.

    Any language's articles: a name is quoted with its own ("die Partei La République en marche")."""
    words, elided = _leading_articles()
    first, _, rest = text.partition(" ")
    if rest and first.casefold() in words:
        return rest
    prefix = next((a for a in elided if text[: len(a)].casefold() == a), None)
    if prefix is not None and len(text) > len(prefix):
        return text[len(prefix) :]
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

    def __init__(self, names: Iterable[KnownName]) -> None:
        self.names = tuple(names)  # language by language, in the order of the languages' registry
        self.written: dict[tuple[str, str], KnownName] = {(n.text.casefold(), n.language): n for n in self.names}
        self.anywhere: dict[str, KnownName] = {}
        self.by_kind: dict[tuple[str, str], list[KnownName]] = {}
        for n in self.names:  # a form several languages write: the first language's entry
            self.anywhere.setdefault(n.text.casefold(), n)
            self.by_kind.setdefault((n.kind, n.language), []).append(n)

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
            if stem is not None and stem.kind in PLACE_KINDS:
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


@functools.cache
def name_lexicon() -> NameLexicon:
    """The names files of every language with rules, read when a rule run first asks (never at import: the languages
    are plug-ins, :mod:`clsd_generation.rules.languages`)."""
    return NameLexicon(name for rules in registered().values() for name in rules.known_names)


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
        lexicon: NameLexicon | None = None,
        sexes: Mapping[str, str] | None = None,
    ) -> None:
        self.types = types
        self.sexes = sexes or {}  # person -> "f"/"m" (:func:`person_sexes`): a person is replaced only by one of its sex
        self.rules = rules
        self.language = rules.code
        self.calendar = calendar  # "Dimanche" or "Monday" tagged as a name: left to the weekday rule
        self.lexicon = lexicon if lexicon is not None else name_lexicon()
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
                before = sentence.tokens[name.start - 1].text.casefold().replace("\u2019", "'") if name.start else ""
                context = (
                    before  # an article whatever its tag (spaCy tags the "L'" of "L'Europe" a proper noun)
                    if before in self.rules.articles
                    else agreement_context(
                        sentence, name.start, self.rules, articles_only=not self.rules.names_bound_by_preposition
                    )
                )
                kind = (*shape(sentence, name.start, name.end), context, *((GENITIVE,) if genitive else ()))
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
        return (
            len(mentions) > 1
            or "(" in (before, after)
            or before in self.rules.persons.state_forms
            or single_common
            or self.described(sentence, name, typed)
        )

    def described(self, sentence: TaggedSentence, name: Name, typed: TypedName) -> bool:
        """Whether a name and the words right around it describe each other, so that another name breaks the pair.

        A person after a nationality ("die britische Forscherin Merkel", "le président français Emmanuel
        Macron"), and any name joined to another name by nothing but nouns, adjectives and articles
        ("Frankreichs Präsident Emmanuel Macron", "der Vorsitzende der SPD Andrea Nahles").
        """
        tokens, window = sentence.tokens, 3
        endings = self.rules.nationality_endings
        lead = []  # the words before the name back to its verb: "du Premier ministre hongrois ..., Viktor Orban"
        for token in reversed(tokens[max(0, name.start - 2 * window) : name.start]):
            if token.upos in ("VERB", "AUX"):
                break
            lead.append(token)
        if typed.label == "PER" and endings and any(t.upos == "ADJ" and t.text.casefold().endswith(endings) for t in lead):
            return True
        if typed.label == "PER" and name.start and _PARTY_ROLE.match(tokens[name.start - 1].text):
            return True  # "FDP-Generalsekretärin Beer": the office belongs to one party's people
        for other in sentence.names:
            if other is name:
                continue
            gap = range(other.end, name.start) if other.end <= name.start else range(name.end, other.start)
            words = [tokens[k] for k in gap]
            linked = not words or any(t.upos == "NOUN" for t in words)  # "dass Deutschland die EU verlässt": two roles
            if len(gap) <= window and linked and all(t.upos in ("NOUN", "ADJ", "DET") for t in words):
                return True
        return False

    def substitutes(self, typed: TypedName) -> list[str]:
        """Corpus names of the same type, kind and shape written in this language; else, for a listed name, the lexicon's."""
        same = typed.entry.entity if typed.entry else None
        corpus = [
            t.text
            for t in self.by_kind.get(typed.key, [])
            if t.text.casefold() != typed.text.casefold()
            and not self.lexicon.foreign(t.text, self.language)
            and (t.entry is None or t.entry.entity != same)
            # "zwischen Irland und Nordirland" never "zwischen Türkei und ...": a listed name takes its own article
            and (t.entry is None or typed.entry is None or t.entry.article == typed.entry.article)
        ]
        if typed.label == "PER":  # a tagger's misread: a place, movement or firm typed as a person ("Herr Instagram")
            corpus = [t for t in corpus if self.lexicon.known(t, self.language) is None and "." not in t]
        # a span with its article ("l'Europe") only for another such span: "la Porto" is not French
        corpus = [t for t in corpus if (without_article(t) == t) == (without_article(typed.text) == typed.text)]
        corpus = [t for t in corpus if not same_name(t, typed.text)]
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

    def swaps(
        self, sentence: TaggedSentence, rng: random.Random, typed_here: Sequence[tuple[Name, TypedName]] | None = None
    ) -> list[Edit]:
        """Each typed name of the sentence replaced by other names of the same type, kind and shape (``VARIANTS`` of them).

        ``typed_here``: the sentence's :meth:`typed_names`, where the caller has them already.
        """
        edits = []
        present = sentence.text.casefold()
        speaker_placed = any(t.text.casefold() in self.rules.speaker_words for t in sentence.tokens)
        for name, typed in self.typed_names(sentence) if typed_here is None else typed_here:
            place = typed.label == "LOC"
            if self.anchored(sentence, name, typed) or (speaker_placed and place) or typed.kind in FIXED_KINDS:
                continue
            titled = follows_title(sentence, name.start, self.language)
            gendered = name.start > 0 and _gendered(sentence.tokens[name.start - 1], self.language)
            sex = self.sexes.get(typed.text.casefold())
            if typed.label == "PER" and sex is None:
                continue  # the sentence may say the person's sex ("Er betonte"), and nothing says which names fit it
            pool = [
                t
                for t in self.substitutes(typed)
                if t.casefold() not in present
                and (typed.label != "PER" or self.sexes.get(t.casefold()) == sex)
                and not (titled and starts_with_title(t, self.language))
                and not (gendered and " " in t)  # "Frau May": a surname, no first name that tells a sex
                and not _MIXED_CASE.search(t)  # a tokenisation slip in the corpus ("progrèsBeaucoup")
            ]
            for substitute in rng.sample(pool, min(VARIANTS, len(pool))):
                edits.append((name.start, name.end, recase(typed.text, substitute)))
        return edits

    def untied_swaps(self, sentence: TaggedSentence, rng: random.Random) -> list[Edit]:
        """:meth:`swaps` of the names no other word of the sentence ties down (:meth:`tied`): what the rule offers."""
        typed_here = self.typed_names(sentence)
        free = {(name.start, name.end) for name, typed in typed_here if not self.tied(sentence, name, typed, typed_here)}
        return [edit for edit in self.swaps(sentence, rng, typed_here) if edit[:2] in free]

    def tied(self, sentence: TaggedSentence, name: Name, typed: TypedName, typed_here: Sequence[tuple[Name, TypedName]]) -> bool:
        """Whether other words of the sentence tie the name to who or where it is, so that another name contradicts them.

        Read strictly, a name is part of a web of facts: "SPD-Spitzenkandidatin Merkel", "In Island ist
        Syriza ...", "Spitzenkandidat von LR ... in Portugal", "eine diplomatische Krise mit Frankfurt ...
        den französischen Präsidenten". A person is swapped only where no other name, no nationality and no
        party office stands in its sentence; a place only where no person, organisation or nationality does
        (other places are fine: a list of countries); an organisation only where no person or nationality does.
        """
        endings = self.rules.nationality_endings
        tokens = sentence.tokens
        outside = [t for k, t in enumerate(tokens) if not name.start <= k < name.end]
        if endings and any(t.upos == "ADJ" and t.text.casefold().endswith(endings) for t in outside):
            return True
        if typed.label == "PER" and any(_PARTY_ROLE.match(t.text) for t in outside):
            return True
        if typed.label != "PER" and (follows_title(sentence, name.start, self.language) or _gendered_before(sentence, name)):
            return True  # "Herr Berlin" is a person whatever the tagger says: "Herr Madrid" is not
        listed = [self.lexicon.known(t.text, self.language) for t in outside if t.text[:1].isupper()]
        listed_labels = {KIND_TYPES[entry.kind] for entry in listed if entry is not None}  # "Syriza" tagged as foreign
        if (typed.label == "PER" and listed_labels) or (typed.label == "LOC" and "ORG" in listed_labels):
            return True
        labels = {other: t.label for other, t in typed_here}
        for other in sentence.names:
            if other.start == name.start or tokens_text(sentence, other.start, other.end).casefold() in self.calendar:
                continue  # itself, or "Monday" / "May" that a tagger marks as a name
            label = labels.get(other)  # None: a name of no type, which may be anyone or anywhere
            if typed.label == "PER" or label in (None, "PER") or (typed.label == "LOC" and label == "ORG"):
                return True
        return False

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
                    and (a.label != "PER" or self.sexes.get(a.text.casefold(), "?") == self.sexes.get(b.text.casefold()))
                    and not self.title_clash(sentence, first, b, second, a)
                ):
                    between = sentence.tokens[first.end : second.start]
                    if all(t.upos in ("PUNCT", "CCONJ") for t in between):
                        continue  # "Lafontaine und Wagenknecht": a list says the same in either order
                    middle = sentence.text[sentence.tokens[first.end - 1].end : sentence.tokens[second.start].start]
                    edits.append((first.start, second.end, recase(a.text, b.text) + middle + recase(b.text, a.text)))
        return edits
