"""Which words are real words of a language: every source that knows words, asked together.

The invented-word check and the near-copy check's "no new real word" (:mod:`clsd_generation.checks.answers`) know a
word when any of these knows it (a rare neighbour of a common word, or its letters rearranged, is a slip of it all the
same: :func:`slip_of`):

* the language's **word list**: :mod:`wordfreq`'s (for Thai, which it lacks, PyThaiNLP's dictionary);
* the **user's own corpus** (:class:`CorpusLexicon`): a word of any sentence of that language in the run's input is a
  word of that language and domain, whatever a general list holds; the only source of a language no list knows
  (Swahili, Telugu, Amharic);
* the **segmenter's dictionary**, where a segmenter reads the language: jieba's own dictionary for Chinese (wordfreq's
  list cuts "蝮蛇" into "蝮" and "蛇"), IPAdic for Japanese and mecab-ko-dic for Korean (a word MeCab reads as one
  dictionary entry, not as its guess at an unknown word), PyThaiNLP's for Thai (the word list above);
* an **inflected form**: a form simplemma's dictionary holds (Hungarian "olvastak", Turkish "okuyorlardı") whose lemma
  the word list knows, or, read as a whole word, whose lemma the dictionary holds too (Turkish "denetlenmeyen"). Its rule-made lemmas are not enough: they lemmatize the slip "olvastakk" and the fragment
  "okuyorlard" too. Which languages simplemma has a dictionary for is read from the installed package;
* an **ending of the corpus's inflection** (:meth:`CorpusLexicon.inflects`): a known word followed by an ending that
  the corpus writes after several of its own words, those words with other endings too (a paradigm: "-களுக்கும்"
  and "-கள்" after "வேலை"), where the word is known with another ending of that paradigm (Tamil "கடமைகளுக்கும்":
  "கடமைகள்" is known), the inflection of a language no lemmatizer knows, learnt from the user's text; letters the
  corpus writes after other words make no word of a stem of another kind ("loiement", "законость"); the same with a
  **beginning** before the stem, where a language inflects by prefixes (Swahili "alikuwapo": "ali-" and "ata-" are
  written before the same verbs, and the corpus writes "atakuwapo");
* a **compound** of two known words (:func:`compound`; a word list's part at :data:`MIN_PART_ZIPF` or more), the
  second perhaps with such an ending (Hungarian "nyomtatókiszolgálóra", German "Apfelbaumblüten"), in a language
  written with spaces that writes compounds (:mod:`clsd_generation.checks.compounding`); elsewhere a known word
  after a prefix the word list writes before many of its words (French "autoconsommateurs", :func:`prefixes`), never
  two words glued ("maisonvoiture");
* a known word with a **clitic** after an apostrophe that the corpus writes after several of its words (Tagalog
  "ngipin'y");
* a **name** (:meth:`CorpusLexicon.reads_as_name`), in a script without case only, where no capital tells one: a word
  of the input or of T with a clitic or a case ending, or a word of the word list after a proclitic of the language
  (:func:`proclitics`: Arabic "بميرتس", "with Merz"); in Chinese a run of characters of transliterated names
  (:func:`transliterates`), its first character perhaps another ("朔尔茨", Scholz).

Every dictionary loads once per process, the first time a word of its language is looked up, and only for the
languages read. The corpus lexicon is built once per language per run, on first use, from the set of the input's
sentences of that language: it does not depend on their order and is the same when a run is resumed.
"""

from __future__ import annotations

import functools
import itertools
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

import regex

from clsd_format.apostrophes import APOSTROPHES, elision_cuts, elision_language
from clsd_format.words import SEGMENTER_MODULES, find_words
from clsd_generation.checks.coverage import THAI_DICTIONARY, LanguageSupport, support

# A run of three or more letters, marks included ("खरीदी" is one): how many words a fragment of text holds.
LETTER_WORD = regex.compile(r"[^\W\d_]{3,}")
_LETTER = regex.compile(r"[^\W\d_]")
# Letters joined by apostrophes: a word as its language writes it ("подвір'я", "don't"; see letter_words).
_LETTER_RUN = regex.compile(rf"[^\W\d_]+(?:[{APOSTROPHES}][^\W\d_]+)*")
SHORTEST_WORD = 3  # letters (apostrophes not counted) of a word the checks look up
# A run of one-character segments up to this long is kept whole too: a name the segmenter does not know is cut into
# its characters ("朔尔茨" into "朔", "尔", "茨"), and a candidate's run of them is looked up joined.
LONGEST_CHARACTER_RUN = 6
# Letters before a name in a script without case: Arabic, Hebrew and Persian write a preposition or conjunction onto
# the word ("بميرتس", "with Merz"); at most this many, the rest a name of at least three letters.
_ATTACHED_LETTERS = 2
# A letter is a proclitic of the language where its word list writes it before at least this share of its
# PREFIX_WORDS commonest words, each a word of the list too (:func:`proclitics`): Arabic "و" 16%, "ب" 7%, "ل" 6%, then
# a gap to letters that start many stems ("ا" 4.0%, "ت" 2.9%); Hebrew "ו", "ה", "ש", "ל", "ב", "מ" 16% to 6.8%, then
# "כ" 2.4%; Persian "ب" 2.3%, Bengali "আ" 0.8%, Hindi "अ" 0.7% (none). A word the list holds with one reads as a name
# met nowhere in the input ("بميرتس": "ميرتس" is in the list, at Zipf 2.4). One letter only: the Arabic article "ال"
# (12%) before a word with a possessive ending reads invented derivations as words ("الصفاتها": "صفاتها" is listed).
MIN_PROCLITIC_SHARE = 0.05
# An ending is learnt from the corpus when it follows at least this many of the corpus's own words there
# ("வேலை" + "களுக்கும்", "உரிமை" + "களுக்கும்", ...), and read after a known stem of at least SHORTEST_STEM characters
# (code points, as a word's length is counted: "வேலை" is four, two syllables). An ending is at least SHORTEST_ENDING
# letters with their marks (graphemes): one letter more is a slip ("olvastakk"), not an inflection. Cuts fall between
# graphemes only: a vowel sign never starts an ending.
MIN_ENDING_STEMS = 3
# ... and is an ending of the language's inflection: at least this many of those stems are written by the corpus with
# another such ending too, its paradigm ("வேலை" + "கள்" and "வேலை" + "களுக்கு"; Finnish "talo" + "ssa" and "talo" +
# "lle"). A word is then a known stem with an ending whose paradigm the stem is known with too (:meth:`inflects`).
# Measured on the tune sample against 2 and 3 (docs/generation.md).
MIN_PARADIGM_STEMS = 1
SHORTEST_STEM = 4
SHORTEST_ENDING = 2
_GRAPHEME = regex.compile(r"\X")
# Each word of a compound (:func:`compound`) has at least this many characters: shorter ones would let slips and
# scrambled letters through as two short words.
SHORTEST_PART = 4
# ... and the word list holds each at a Zipf frequency above this (or another source holds it): the large lists' rarest
# entries are pieces of words ("ienne", "ischen", 1.6 and 2.5), which would make "fossienne" a compound.
MIN_PART_ZIPF = 2.5
# Where a language writes no compounds, a word of a prefix and a known word is still a word: a prefix is a first part
# that this many of the word list's PREFIX_WORDS commonest words are written with, before a word of the list
# (:func:`prefixes`; "auto-" before 263 French words, "micro-" 158, "maison" 10, Italian "casa" 71, "porta" 99).
PREFIX_WORDS = 300_000
MIN_PREFIX_WORDS = 100
# A word one edit from a word it replaces (a letter with its marks substituted, inserted, dropped, or two swapped), or
# its letters rearranged, that the word list holds at least this much rarer (Zipf), and the corpus no more often in
# that proportion, is a slip of it whatever list holds it ("hopsital", 1.2, for "hospital", 5.1); a word of comparable
# frequency ("horse" for "house", Korean "사회" for "회사") is another word. Measured: scripts/measure_slip_gap.py,
# the same gap on letters rearranged with --rearranged (docs/generation.md).
SLIP_ZIPF_GAP = 3.75


def letter_words(text: str, language: str) -> list[str]:
    """The words of ``text`` (a language written with spaces) that the checks look up: runs of letters, marks included,
    an apostrophe inside one as the language writes it ("подвір'я", "don't" one word each; French "l'" and "homme", Italian
    "dell'" and "anno" two, :mod:`clsd_format.apostrophes`), of :data:`SHORTEST_WORD` letters or more, the typographic
    apostrophe read as the plain one. A word changed at a fragment ("потішати'я") is then one unknown word."""
    words = _LETTER_RUN.findall(text.replace("\u2019", "'"))
    code = elision_language(language)
    if code is not None:
        cut = [(word, [0, *elision_cuts(code, word), len(word)]) for word in words]
        words = [word[start:end] for word, edges in cut for start, end in itertools.pairwise(edges)]
    return [word for word in words if len(word) - word.count("'") >= SHORTEST_WORD]


@functools.cache
def _thai_words() -> frozenset[str]:
    from pythainlp.corpus import thai_words

    return frozenset(thai_words())


@functools.lru_cache(maxsize=200_000)
def word_zipf(word: str, lexicon: str) -> float:
    """The word list's Zipf frequency of ``word`` (wordfreq's code ``lexicon``), looked up once per word: a word's part
    is asked at two thresholds (:data:`MIN_PART_ZIPF` and any), and a slip compares the frequencies of both words."""
    import wordfreq

    return float(wordfreq.zipf_frequency(word, lexicon))


@functools.lru_cache(maxsize=200_000)
def known_word(word: str, language: str, zipf: float = 0.0) -> bool:
    """Whether the word list of ``language`` (wordfreq's code, or THAI_DICTIONARY) has seen ``word`` at all (at a Zipf
    frequency above ``zipf``)."""
    if language == THAI_DICTIONARY:
        return word in _thai_words()
    return word_zipf(word, language) > zipf


@functools.lru_cache(maxsize=200_000)
def known_whole(word: str, language: str) -> bool:
    """Whether the word list knows ``word`` as one word: wordfreq would cut "府政" into "府" and "政", each known."""
    if language == THAI_DICTIONARY:
        return word in _thai_words()
    import wordfreq

    return len(wordfreq.lossy_tokenize(word, language)) == 1 and known_word(word, language)


@functools.cache
def _jieba_dictionary() -> frozenset[str]:
    """jieba's own dictionary (its ``dict.txt``, one word and its count a line), a larger list than the one it cuts by."""
    import jieba

    with jieba.dt.get_dict_file() as handle:
        return frozenset(line.split(b" ", 1)[0].decode("utf-8") for line in handle if line.strip())


# A character is one Chinese writes foreign names with where at least this share of the entries of jieba's dictionary
# that hold it are transliterated names of three characters or more (tagged "nrt"): 茨 0.53, 斯 0.29, 尔 0.29, 克 0.24,
# against 马 0.05, 道 0.001, 政 0; and it starts (ends) such names where at least NAME_EDGE_SHARE of those names start
# (end) with it: 斯 starts 12% of its names and 克 29%, 尔 and 茨 hardly any (0.1%, 2.7%); 尔 ends 30%, 茨 55%. Lower
# bounds (0.05 and 0.03) kept 4 of the 18 Chinese slips of the per-language table, slips of names ("亚拉伯罕").
TRANSLITERATION_SHARE = 0.15
NAME_EDGE_SHARE = 0.05
# A run of this many characters or more reads as a name whatever its first character, where the others are characters
# of transliterated names ending with a name's last (:meth:`NameCharacters.reads`): two of them after it.
MIN_FREE_FIRST_RUN = 3


@dataclass(frozen=True)
class NameCharacters:
    """The characters a language writes names with where its segmenter cuts them into single characters: those that
    start a name, any of a name's, those that end one."""

    first: frozenset[str] = frozenset()
    any: frozenset[str] = frozenset()
    last: frozenset[str] = frozenset()

    def reads(self, run: list[str]) -> bool:
        """A name's first, then a name's characters to a name's last; or, three characters or more, any first
        character before them: a name's first syllable is often written with a character of the language's own words
        that no transliteration in the dictionary starts with ("朔" of "朔尔茨", Scholz), the rest with the characters
        of transliterated names."""
        free = len(run) >= MIN_FREE_FIRST_RUN
        body = run[1:] if free else run
        return (free or run[0] in self.first) and run[-1] in self.last and all(ch in self.any for ch in body)


@functools.cache
def _jieba_name_characters() -> NameCharacters:
    """The characters of transliterated names in jieba's dictionary (see :data:`TRANSLITERATION_SHARE`)."""
    import jieba

    entries: Counter[str] = Counter()
    names: Counter[str] = Counter()
    edges: tuple[Counter[str], Counter[str]] = (Counter(), Counter())
    with jieba.dt.get_dict_file() as handle:
        for line in handle:
            word, *rest = line.decode("utf-8").split()
            entries.update(set(word))
            if rest[1:] == ["nrt"] and len(word) >= SHORTEST_WORD:
                names.update(set(word))
                edges[0][word[0]] += 1
                edges[1][word[-1]] += 1
    common = {ch for ch, n in names.items() if n >= TRANSLITERATION_SHARE * entries[ch]}
    first, last = ({ch for ch in common if edge[ch] >= NAME_EDGE_SHARE * names[ch]} for edge in edges)
    return NameCharacters(frozenset(first), frozenset(common), frozenset(last))


def transliterates(run: list[str], method: str) -> bool:
    """Whether a run of one-character segments reads as a transliterated name: two to :data:`LONGEST_CHARACTER_RUN`
    characters the language writes names with, a name's first first and a name's last last, as jieba's dictionary shows
    them in its transliterated names ("萨尔茨" for Salz, cut into its characters); from three characters on, any first
    (:meth:`NameCharacters.reads`: "朔尔茨" for Scholz). Never "茨默", as no name starts with "茨", nor "茨尔朔", as
    none ends with "朔"; a word of T with its characters rearranged is refused on its own (scrambled letters).
    Characters the corpus writes in names it cuts so are not read: they keep slips and scrambles of the corpus's own
    names ("亚拉伯罕" for "亚伯拉罕")."""
    return 2 <= len(run) <= LONGEST_CHARACTER_RUN and method == "jieba" and _jieba_name_characters().reads(run)


@functools.cache
def _mecab_tagger(dictionary: str) -> object:
    import importlib

    import MeCab

    return MeCab.Tagger(importlib.import_module(dictionary).MECAB_ARGS)


def _mecab_entry(word: str, dictionary: str) -> bool:
    """Whether MeCab reads ``word`` as one entry of its dictionary; an unknown word is a guess it marks (MECAB_UNK_NODE)."""
    import MeCab

    node = _mecab_tagger(dictionary).parseToNode(word)  # type: ignore[attr-defined]
    entries = []
    while node:
        if node.stat not in (MeCab.MECAB_BOS_NODE, MeCab.MECAB_EOS_NODE):
            entries.append((node.surface, node.stat))
        node = node.next
    return entries == [(word, MeCab.MECAB_NOR_NODE)]


@functools.lru_cache(maxsize=200_000)
def segmenter_knows(word: str, method: str) -> bool:
    """Whether the dictionary of the segmenter ``method`` (:data:`clsd_format.words.SEGMENTER_MODULES`) holds ``word``."""
    if method == "jieba":
        return word in _jieba_dictionary()
    if method in ("mecab-ipadic", "mecab-ko-dic"):
        return _mecab_entry(word, SEGMENTER_MODULES[method][1])  # the dictionary's module: ipadic, mecab_ko_dic
    if method == "pythainlp":
        return word in _thai_words()
    return False


@functools.cache
def inflection_language(language: str) -> str | None:
    """simplemma's code for ``language`` (a run's code), its dictionary loaded now; None where it has none."""
    import langcodes

    try:
        from simplemma.strategies.dictionaries.dictionary_factory import SUPPORTED_LANGUAGES
    except ImportError:  # the generate extra brings simplemma; without it, no inflected forms
        return None
    for tag in (language, language.replace("_", "-").split("-")[0]):
        try:
            match, _ = langcodes.closest_match(tag, sorted(SUPPORTED_LANGUAGES), max_distance=10)
        except (ValueError, LookupError):  # not a tag langcodes parses (a dataset's own code)
            continue
        if match != "und":
            import simplemma

            simplemma.is_known("a", str(match))  # loads the dictionary before any candidate is timed or read
            return str(match)
    return None


@functools.lru_cache(maxsize=200_000)
def inflected_known(word: str, language: str, lexicon: str | None) -> bool:
    """Whether simplemma's dictionary of ``language`` holds ``word`` and the word list ``lexicon`` knows its lemma
    (where the language has no word list, as Swahili, its dictionary alone)."""
    import simplemma

    if not simplemma.is_known(word, language):
        return False
    lemma = simplemma.lemmatize(word, language)
    return lexicon is None or lemma.casefold() == word.casefold() or known_word(lemma, lexicon)


@functools.lru_cache(maxsize=200_000)
def dictionary_form(word: str, language: str) -> bool:
    """Whether simplemma's dictionary of ``language`` holds ``word`` as a form of a lemma it holds too (a verb stem a
    web list lacks: Hungarian "meghív" of "meghívandó", Turkish "denetle" of "denetlenmeyen"). Read for a whole word
    only (:func:`knows`): as a part of a compound or a slip's new word it lets invented words and slips through."""
    import simplemma

    return simplemma.is_known(word, language) and simplemma.is_known(simplemma.lemmatize(word, language), language)


@dataclass(frozen=True, eq=False)
class CorpusLexicon:
    """The words of one language's sentences in a run's input (case-folded, composed), read on first use.

    ``texts``: the input's sentences of ``language``. Written with spaces, a word is one of :func:`letter_words`;
    cut by a segmenter, every segment with a letter, and every run of one-character segments up to
    :data:`LONGEST_CHARACTER_RUN` joined (a name the segmenter cuts into its characters).
    """

    language: str
    texts: tuple[str, ...] = field(repr=False)

    @classmethod
    def of(cls, language: str, texts: Iterable[str]) -> CorpusLexicon:
        return cls(language, tuple(texts))

    @functools.cached_property
    def words(self) -> frozenset[str]:
        return frozenset(self.counts)

    @functools.cached_property
    def counts(self) -> Counter[str]:
        """How many of the distinct sentences write each word (how common it is in the user's domain)."""
        found = support(self.language)
        counts: Counter[str] = Counter()
        if not found.reads_words:
            return counts
        for text in set(self.texts):
            composed = unicodedata.normalize("NFC", text).casefold()
            if found.segmented:
                counts.update(segment_words(find_words(composed, self.language)))
            else:
                counts.update(set(letter_words(composed, self.language)))
        return counts

    @functools.cached_property
    def endings(self) -> frozenset[str]:
        """The endings of the language's inflection the corpus writes (see :meth:`inflects`): each after at least
        :data:`MIN_ENDING_STEMS` of its own words, :data:`MIN_PARADIGM_STEMS` of which it writes with another such
        ending too (their paradigm); none in a language cut by a segmenter, whose words are its segments."""
        return frozenset(self.paradigms)

    @functools.cached_property
    def written_endings(self) -> dict[str, frozenset[str]]:
        """Each ending the corpus writes after at least :data:`MIN_ENDING_STEMS` of its own words, with those words;
        none in a language cut by a segmenter, whose words are its segments."""
        return self._written(_cuts)

    @functools.cached_property
    def paradigms(self) -> dict[str, frozenset[str]]:
        """Each ending of :attr:`endings` with its paradigm: the other endings the corpus writes after one of its stems
        ("களுக்கு" with "கள்" and "களை": "வேலைகளுக்கு", "வேலைகள்", "வேலைகளை")."""
        return _paradigms(self.written_endings)

    @functools.cached_property
    def beginnings(self) -> dict[str, frozenset[str]]:
        """The same on the other side of a stem: each beginning the corpus writes before :data:`MIN_ENDING_STEMS` of
        its own words, with its paradigm, the inflection of a language that inflects by prefixes (Swahili "ali-" with
        "alipo-" and "aliye-" before the same verbs: "alikuwapo" where the corpus writes "kuwapo" and "alipokuwapo";
        Tagalog "ma-", Indonesian "ter-")."""
        return _paradigms(self._written(_beginning_cuts))

    def _written(self, cuts: Callable[[str], Iterable[tuple[str, str]]]) -> dict[str, frozenset[str]]:
        """Each affix that ``cuts`` cuts off the corpus's words where the rest is a word of the corpus too, written so
        with at least :data:`MIN_ENDING_STEMS` of them, with those words; none in a language cut by a segmenter."""
        if support(self.language).segmented:
            return {}
        stems: defaultdict[str, set[str]] = defaultdict(set)
        for word in self.words:
            for stem, affix in cuts(word):
                if stem in self.words:
                    stems[affix].add(stem)
        return {affix: frozenset(found) for affix, found in stems.items() if len(found) >= MIN_ENDING_STEMS}

    @functools.cached_property
    def clitics(self) -> frozenset[str]:
        """Endings written after an apostrophe that the corpus writes after :data:`MIN_ENDING_STEMS` of its own words of
        :data:`SHORTEST_STEM` characters or more: Tagalog "'y" and "'t" ("ngipin'y", "sapagka't"), Turkish case endings
        after a name ("Davut'un"). A clitic attaches to a word of any kind, so no paradigm is asked of its stem."""
        stems: defaultdict[str, set[str]] = defaultdict(set)
        for word in self.words:
            cut = _clitic_cut(word)
            if cut is not None and len(cut[0]) >= SHORTEST_STEM and cut[0] in self.words:
                stems[cut[1]].add(cut[0])
        return frozenset(clitic for clitic, found in stems.items() if len(found) >= MIN_ENDING_STEMS)

    def inflects(self, word: str, known: Callable[[str], bool]) -> bool:
        """Whether ``word`` is a stem that ``known`` knows followed by an ending of the corpus's inflection
        (:attr:`paradigms`) that ``known`` knows the stem with another ending of the same paradigm too: an inflected
        form in a language whose forms no list holds (Tamil "கடமைகளுக்கு" where the list holds "கடமைகள்"; Swahili,
        Turkish beyond simplemma's dictionary). Letters the corpus writes after other words are no inflection of a stem
        of another kind: French "loi" + "-ement", Russian "законо" + "-сть" and "сказать" + "-ами" are no words. A
        scrambled word or a slip rarely splits so: its stem or its ending is no word's.

        Also a known word with a clitic written after an apostrophe (:attr:`clitics`): Tagalog "ngipin'y"."""
        folded = unicodedata.normalize("NFC", word).casefold()
        cut = _clitic_cut(folded)
        if cut is not None and cut[1] in self.clitics and known(cut[0]):
            return True
        paradigms, beginnings = self.paradigms, self.beginnings
        return any(
            ending in paradigms and known(stem) and any(known(stem + other) for other in paradigms[ending])
            for stem, ending in _cuts(folded)
        ) or any(
            start in beginnings and known(stem) and any(known(other + stem) for other in beginnings[start])
            for stem, start in _beginning_cuts(folded)
        )

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and unicodedata.normalize("NFC", word).casefold() in self.words

    def reads_as_name(self, word: str, original: Iterable[str] = ()) -> bool:
        """Whether ``word``, in a script without case, reads as a name: a word of the corpus or of the ``original``'s
        words (the names of the input and of T) with letters written onto it, one or two before it (Arabic, Hebrew and
        Persian proclitics: "بميرتس" where the input writes "ميرتس") or after it an ending the corpus writes after
        other words of its own (:attr:`name_endings`: Marathi "नागपूरला" where it writes "नागपूर") where the word list
        does not hold the name part (Arabic "عندما" + "ية" is a common word with an ending, no name). A name met nowhere
        in the input or T is one where the word list holds it after a proclitic of the language
        (:meth:`_proclitic_on_listed`: "بميرتس" where the list holds "ميرتس"); else it is not told from an invented word
        by its letters, as no capital says it is one (Chinese transliterations excepted, :func:`transliterates`)."""
        if any(ch.lower() != ch.upper() for ch in word):
            return False
        folded = unicodedata.normalize("NFC", word).casefold()
        names = {unicodedata.normalize("NFC", w).casefold() for w in original}

        def held(part: str) -> bool:
            return len(_LETTER.findall(part)) >= SHORTEST_WORD and (part in self.words or part in names)

        def unlisted(part: str) -> bool:  # a word of the list with an ending is the inflection's to read, not a name's
            lexicon = support(self.language).lexicon
            return lexicon is None or lexicon == THAI_DICTIONARY or not known_word(part, lexicon)

        ends = [match.end() for match in _GRAPHEME.finditer(folded)]
        before = any(held(folded[cut:]) for cut in ends[:_ATTACHED_LETTERS]) or self._proclitic_on_listed(folded)
        return before or any(
            held(folded[:cut]) and unlisted(folded[:cut]) and folded[cut:] in self.name_endings
            for cut in ends[-_ATTACHED_LETTERS - 1 : -1]
        )

    def _proclitic_on_listed(self, word: str) -> bool:
        """Whether ``word`` (folded) is a proclitic of the language (:func:`proclitics`) and a name its word list holds,
        of three letters or more ("ب" + "ميرتس"); never in a language cut by a segmenter. A listed word that reads as a
        known stem and an ending the corpus writes is a form of the inflection, no name: "و" + "الذيين" ("الذي" + "ين"),
        one of the list's rare entries of invented derivations, is none."""
        found = support(self.language)
        first = _GRAPHEME.match(word)
        lexicon = found.lexicon
        if first is None or lexicon is None or lexicon == THAI_DICTIONARY or found.segmented:
            return False
        rest = word[first.end() :]
        if first.group() not in proclitics(lexicon) or len(_LETTER.findall(rest)) < SHORTEST_WORD:
            return False
        if not known_word(rest, lexicon):
            return False
        endings = self.written_endings
        return not any(ending in endings and (stem in self.words or known_word(stem, lexicon)) for stem, ending in _cuts(rest))

    @functools.cached_property
    def name_endings(self) -> frozenset[str]:
        """Endings of one or two graphemes that the corpus writes after :data:`MIN_ENDING_STEMS` or more of its own
        words of three letters or more: the case endings and postpositions a language writes onto a word and a name
        (Marathi "-ला", "-चा"), which :attr:`written_endings` leaves out as too short to tell from a slip."""
        stems: defaultdict[str, set[str]] = defaultdict(set)
        for word in self.words:
            ends = [match.end() for match in _GRAPHEME.finditer(word)]
            for cut in ends[-_ATTACHED_LETTERS - 1 : -1]:
                if len(_LETTER.findall(word[:cut])) >= SHORTEST_WORD and word[:cut] in self.words:
                    stems[word[cut:]].add(word[:cut])
        return frozenset(ending for ending, found in stems.items() if len(found) >= MIN_ENDING_STEMS)


def _clitic_cut(word: str) -> tuple[str, str] | None:
    """``word`` cut before its last apostrophe into a word and a clitic ("ngipin" and "'y"); None without one inside."""
    at = max(word.rfind(mark) for mark in APOSTROPHES)
    return (word[:at], word[at:]) if 0 < at < len(word) - 1 else None


def _cuts(word: str) -> Iterable[tuple[str, str]]:
    """Each split of ``word`` between graphemes into a stem of :data:`SHORTEST_STEM` characters or more and an ending
    of :data:`SHORTEST_ENDING` graphemes or more."""
    ends = [match.end() for match in _GRAPHEME.finditer(word)]
    for end in ends[: len(ends) - SHORTEST_ENDING]:
        if end >= SHORTEST_STEM:
            yield word[:end], word[end:]


def _beginning_cuts(word: str) -> Iterable[tuple[str, str]]:
    """Each split of ``word`` between graphemes into a beginning of :data:`SHORTEST_ENDING` graphemes or more and a
    stem of :data:`SHORTEST_STEM` characters or more, as (stem, beginning)."""
    ends = [match.end() for match in _GRAPHEME.finditer(word)]
    for end in ends[SHORTEST_ENDING - 1 : -1]:
        if len(word) - end >= SHORTEST_STEM:
            yield word[end:], word[:end]


def _paradigms(learnt: Mapping[str, frozenset[str]]) -> dict[str, frozenset[str]]:
    """Each learnt affix with the other affixes the corpus writes on one of its stems, where at least
    :data:`MIN_PARADIGM_STEMS` of its stems take another one."""
    taken: defaultdict[str, set[str]] = defaultdict(set)  # the learnt affixes of each stem
    for affix, found in learnt.items():
        for stem in found:
            taken[stem].add(affix)
    return {
        affix: frozenset().union(*(taken[stem] for stem in found)) - {affix}
        for affix, found in learnt.items()
        if sum(len(taken[stem]) > 1 for stem in found) >= MIN_PARADIGM_STEMS
    }


def segment_words(segments: list[str]) -> set[str]:
    """The segments with a letter, and the joins of runs of one-character segments (see :class:`CorpusLexicon`)."""
    words = {s for s in segments if _LETTER.search(s)}
    run: list[str] = []
    for segment in [*segments, ""]:
        if len(segment) == 1 and _LETTER.match(segment):
            run.append(segment)
            continue
        for start in range(len(run)):
            for end in range(start + 2, min(len(run), start + LONGEST_CHARACTER_RUN) + 1):
                words.add("".join(run[start:end]))
        run = []
    return words


def knows(word: str, found: LanguageSupport, corpus: CorpusLexicon | None = None) -> bool:
    """Whether any source knows ``word`` as a word of the language ``found`` describes (see the module's docstring).

    Cut by a segmenter, the word list must know it as one word (:func:`known_whole`)."""
    if listed(word, found, corpus):
        return True
    if found.segmented:  # the segmenter's words are whole: no ending or compound is read into them
        return False
    inflected = inflection_language(found.code)
    if inflected is not None and dictionary_form(word.casefold(), inflected):
        return True

    def held(part: str) -> bool:
        return listed(part, found, corpus)

    if corpus is not None and corpus.inflects(word, held):
        return True

    def part(piece: str) -> bool:
        return listed(piece, found, corpus, MIN_PART_ZIPF)

    def prefix(piece: str) -> bool:
        return found.lexicon is not None and piece.casefold() in prefixes(found.lexicon)

    # two known words glued are a word only where the language writes compounds; elsewhere a prefix and a word are
    head = part if found.compounds else prefix
    return compound(word, head, lambda piece: part(piece) or (corpus is not None and corpus.inflects(piece, part)))


def _commonest(lexicon: str) -> tuple[list[str], frozenset[str]]:
    """The word list's :data:`PREFIX_WORDS` commonest words, in order and as a set: what :func:`prefixes` and
    :func:`proclitics` learn a language's bound first parts from."""
    import wordfreq

    words = list(itertools.islice(wordfreq.iter_wordlist(lexicon, "best"), PREFIX_WORDS))
    return words, frozenset(words)


@functools.cache
def prefixes(lexicon: str) -> frozenset[str]:
    """The prefixes of a language that writes no compounds, as its word list writes them: first parts of
    :data:`SHORTEST_PART` characters or more that its :data:`PREFIX_WORDS` commonest words write before
    :data:`MIN_PREFIX_WORDS` or more of its words (French "auto-", "micro-", "multi-": "autoconsommateurs",
    "microproducteurs"), never a noun glued to another ("maison" + "voiture"). PyThaiNLP's dictionary: none."""
    if lexicon == THAI_DICTIONARY:
        return frozenset()
    words, known = _commonest(lexicon)
    counts: Counter[str] = Counter()
    for word in words:
        for end in (match.end() for match in _GRAPHEME.finditer(word)):
            if SHORTEST_PART <= end <= len(word) - SHORTEST_PART and word[end:] in known:
                counts[word[:end]] += 1
    return frozenset(head for head, n in counts.items() if n >= MIN_PREFIX_WORDS)


@functools.cache
def proclitics(lexicon: str) -> frozenset[str]:
    """The proclitics of a language, as its word list writes them: each letter (with its marks) that its
    :data:`PREFIX_WORDS` commonest words write before :data:`MIN_PROCLITIC_SHARE` of them or more, the rest a word of
    the list of three letters or more (Arabic "و", "ب", "ل"; Hebrew "ו", "ה", "ש", "ל", "ב", "מ")."""
    words, known = _commonest(lexicon)
    counts: Counter[str] = Counter()
    for word in words:
        first = _GRAPHEME.match(word)
        if first is not None and len(_LETTER.findall(word[first.end() :])) >= SHORTEST_WORD and word[first.end() :] in known:
            counts[first.group()] += 1
    return frozenset(head for head, n in counts.items() if n >= MIN_PROCLITIC_SHARE * len(words))


def compound(word: str, head: Callable[[str], bool], tail: Callable[[str], bool]) -> bool:
    """Whether ``word`` is two words of :data:`SHORTEST_PART` characters or more, the first as ``head`` knows it, the
    second as ``tail`` does (with an ending): Hungarian "nyomtató" + "kiszolgálóra" (printer + onto the server), German
    "Apfelbaum" + "blüten". Letters scrambled or slipped rarely fall into two known words; a linking letter
    ("Minderheit-s-entscheidung") is not read, so such a compound stays unknown unless a list holds it."""
    ends = [match.end() for match in _GRAPHEME.finditer(word)]
    return any(SHORTEST_PART <= end <= len(word) - SHORTEST_PART and head(word[:end]) and tail(word[end:]) for end in ends[:-1])


def listed(word: str, found: LanguageSupport, corpus: CorpusLexicon | None = None, zipf: float = 0.0) -> bool:
    """Whether a source holds ``word`` as it is written: a word list (at a Zipf frequency above ``zipf``), the corpus,
    a dictionary of words or forms; not an ending the corpus writes. A slip of an inflected word often reads as another
    stem and ending ("atarılmadı" for "aktarılmadı"), so the near-copy check asks this, and :func:`knows` the endings
    too."""
    lexicon = found.lexicon
    if lexicon is not None and (known_whole(word, lexicon) if found.segmented else known_word(word, lexicon, zipf)):
        return True
    if corpus is not None and word in corpus:
        return True
    if found.segmented and segmenter_knows(word, found.reading.method):
        return True
    inflected = inflection_language(found.code)
    return inflected is not None and inflected_known(word, inflected, lexicon)


def zipf(word: str, lexicon: str) -> float:
    """The word list's Zipf frequency of ``word`` (wordfreq's code ``lexicon``; 0.0 where it lacks the word)."""
    return word_zipf(word, lexicon)


def rearranged(new: str, old: str) -> bool:
    """Whether ``new`` is ``old``'s letters with their marks (graphemes) in another order, case folded ("장제사" for
    "제사장", "hsopital" for "hospital"): letters scrambled, or a real word that happens to share them ("사회", "회사")."""
    a, b = _folded_graphemes(new), _folded_graphemes(old)
    return a[0] != b[0] and a[1] == b[1]


@functools.lru_cache(maxsize=200_000)
def _folded_graphemes(word: str) -> tuple[str, tuple[str, ...]]:
    """``word`` composed and case-folded, and its graphemes sorted (what :func:`rearranged` compares), read once per
    word: an original's words are compared with each of its candidates' words."""
    folded = unicodedata.normalize("NFC", word).casefold()
    return folded, tuple(sorted(_GRAPHEME.findall(folded)))


def slip_of(new: str, old: str, found: LanguageSupport, corpus: CorpusLexicon | None = None) -> bool:
    """Whether ``new``, written in place of ``old``, is a slip of it, whatever list holds it: one edit apart in letters
    with their marks (one substituted, inserted or dropped, or two swapped) or ``old``'s letters rearranged
    (:func:`rearranged`), at least :data:`SLIP_ZIPF_GAP` rarer in the word list, and no more common in the corpus than
    that proportion of ``old``'s count there ("hopsital" for "hospital"; never "horse" for "house", nor "사회" for
    "회사"). Without frequencies (no word list, or PyThaiNLP's dictionary) never."""
    lexicon = found.lexicon
    if lexicon is None or lexicon == THAI_DICTIONARY or zipf(old, lexicon) - zipf(new, lexicon) < SLIP_ZIPF_GAP:
        return False
    if corpus is not None:
        folded = [unicodedata.normalize("NFC", w).casefold() for w in (new, old)]
        if corpus.counts[folded[0]] * 10**SLIP_ZIPF_GAP > corpus.counts[folded[1]]:
            return False
    from rapidfuzz.distance import OSA

    edits = int(OSA.distance(_GRAPHEME.findall(new.casefold()), _GRAPHEME.findall(old.casefold())))
    return edits == 1 or rearranged(new, old)


def has_source(found: LanguageSupport, corpus: CorpusLexicon | None = None) -> bool:
    """Whether any source knows words of the language: else no word can be told real and the checks that ask are off."""
    if not found.reads_words:
        return False
    listed = found.lexicon is not None or found.segmented or inflection_language(found.code) is not None
    return listed or bool(corpus is not None and corpus.words)
