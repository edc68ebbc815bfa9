"""Invented words are refused in every language: two known words glued where the language writes no compounds, a rare
neighbour of a common word or its letters rearranged (a misspelling a web word list holds), letters the corpus writes after other words put
after a stem of another kind; real compounds, real words one letter apart and inflected forms stay kept."""

from __future__ import annotations

import wordfreq

from clsd_generation.checks.answers import INVENTED_WORDS, NEAR_COPY, AnswerReader
from clsd_generation.checks.candidates import reason_kind
from clsd_generation.checks.compounding import WRITES_COMPOUNDS, writes_compounds
from clsd_generation.checks.coverage import support
from clsd_generation.checks.lexicon import SLIP_ZIPF_GAP, CorpusLexicon, knows, listed, slip_of


def kind(original: str, candidate: str, language: str, corpus: list[str] | None = None) -> str | None:
    """The kind of refusal of ``candidate`` (None: kept), read with the corpus ``original`` + ``corpus`` where given."""
    lexicon = CorpusLexicon.of(language, [original, *corpus]) if corpus is not None else None
    reason = AnswerReader(language, corpus=lexicon).refusal(original, candidate)
    return reason_kind(reason) if reason else None


GLUED = [  # house + car, where the language writes no compounds
    ("fr", "La maison est grande.", "maison", "maisonvoiture"),
    ("es", "La casa es grande.", "casa", "casacoche"),
    ("it", "La casa è grande.", "casa", "casamacchina"),
    ("pt", "A casa é grande.", "casa", "casacarro"),
]
COMPOUNDS = [  # apple tree blossoms, apple tree branches: no word list holds them
    ("de", "Im Frühling sahen wir die Blüten im Garten.", "Blüten", "Apfelbaumblüten"),
    ("nl", "De kinderen speelden in de tuin.", "tuin", "appelboomtakken"),
]


def test_two_known_words_glued_are_a_word_only_where_the_language_writes_compounds() -> None:
    for language, original, old, glued in GLUED:
        found = support(language)
        assert not found.compounds and not knows(glued, found), glued
        assert kind(original, original.replace(old, glued), language) == INVENTED_WORDS, glued
    for language, original, old, compound in COMPOUNDS:
        found = support(language)
        assert wordfreq.zipf_frequency(compound, language) == 0 and found.compounds and knows(compound, found)
        assert kind(original, original.replace(old, compound), language) is None, compound


def test_which_languages_write_compounds_is_declared_once_with_a_source_and_read_through_langcodes() -> None:
    assert all(source.strip() for source in WRITES_COMPOUNDS.values())
    for code in ("de", "de-AT", "deu", "nl", "sv", "nob", "fi", "hu", "is", "el", "tr", "hi", "ta"):
        assert writes_compounds(code), code
    for code in ("fr", "es", "it", "pt-BR", "en", "ru", "ar", "sw", "zh", "my-own-code"):
        assert not writes_compounds(code), code


SLIPS = [
    ("en", "The hospital is closed today.", "hospital", "hopsital"),  # two letters swapped
    ("ru", "Мы поедем в город сегодня вечером.", "сегодня", "сегоня"),  # a letter dropped
    ("de", "Er kommt heute nicht nach Hause.", "nicht", "nihct"),
]
OTHER_WORDS = [  # real words one letter apart, of comparable frequency
    ("en", "The house is old.", "house", "horse"),
    ("de", "Der Hund bellt laut.", "Hund", "Bund"),
]


def test_a_rare_neighbour_of_a_common_word_is_a_slip_whatever_list_holds_it_a_comparable_word_is_not() -> None:
    for language, original, word, slip in SLIPS:
        found = support(language)
        assert listed(slip, found), slip  # the web word list holds the misspelling
        assert wordfreq.zipf_frequency(word, language) - wordfreq.zipf_frequency(slip, language) >= SLIP_ZIPF_GAP
        assert slip_of(slip, word, found), slip
        assert kind(original, original.replace(word, slip), language, []) == NEAR_COPY, slip
    for language, original, word, other in OTHER_WORDS:
        assert not slip_of(other.casefold(), word.casefold(), support(language)), other
        assert kind(original, original.replace(word, other), language) is None, other


def test_a_rare_word_that_rearranges_the_letters_of_a_common_word_is_a_slip_whatever_list_holds_it() -> None:
    """ "theer" (Zipf 1.1) is "three" (5.8) with its letters rearranged, two edits apart: the web list holds it, yet it is
    no other word, alone (the original up to a slip) or beside a real word replaced (letters scrambled)."""
    found = support("en")
    assert listed("theer", found) and slip_of("theer", "three", found)
    original = "They walked three miles to the old village yesterday."
    assert kind(original, original.replace("three", "theer"), "en", []) == NEAR_COPY
    changed = original.replace("three", "theer").replace("village", "harbour")
    assert kind(original, changed, "en", []) == INVENTED_WORDS


def test_a_neighbour_the_corpus_writes_as_often_as_its_word_is_a_word_of_the_domain() -> None:
    found = support("en")
    assert slip_of("hopsital", "hospital", found, CorpusLexicon.of("en", ["The hospital is open."]))
    corpus = CorpusLexicon.of("en", ["The hopsital ward is open.", "The hospital is open."])
    assert not slip_of("hopsital", "hospital", found, corpus)


FRENCH = [  # "-ment" after nouns and verbs, with its paradigm "-ments": government(s), rule(s), change(s)
    "Le gouvernement présente les règlements.",
    "Les gouvernements changent le règlement.",
    "Le changement et les changements sont nombreux.",
    "On gouverne, on règle, on change.",
]
RUSSIAN = [  # "-сть" after adverbs ("благость", "мудрость", "святость"), and "-сти"
    "Это благо, он говорит мудро, место свято.",
    "Благость, мудрость и святость велики.",
    "О благости, мудрости и святости.",
]
TAMIL = [  # "-கள்" and "-களுக்கும்" after the same nouns: work, right, responsibility
    "ஒவ்வொருவருக்கும் வேலை செய்யும் உரிமை உண்டு.",
    "மக்களின் உரிமைகளுக்கும் பொறுப்புகளுக்கும் சட்டம் பாதுகாப்பு அளிக்கிறது.",
    "ஒவ்வொரு பதவிக்கும் ஒரு பொறுப்பு உண்டு.",
    "வேலைகள், உரிமைகள், பொறுப்புகள் எல்லாம் முக்கியம்.",
]
HUNGARIAN = [  # "-ben" (in) and "-hez" (to) after the same nouns
    "A szerver gyors, a szerverben sok adat van, a szerverhez csatlakozunk.",
    "A kliens lassú, a kliensben hiba van, a klienshez írunk.",
    "A modem új, a modemben fény van, a modemhez kábel kell.",
    "A router régi, a routerhez nem nyúlunk.",
]
FINNISH = [  # "-ssa" (in) and "-lle" (onto) after the same nouns
    "Talo on vanha, talossa asuu perhe, talolle tulee posti.",
    "Auto on uusi, autossa on tilaa, autolle tarvitaan paikka.",
    "Kirja on hyvä, kirjassa on kuvia, kirjalle annettiin palkinto.",
]


INFLECTED = [
    # "and to duties": the list knows "கடமை" and "கடமைகள்"
    ("ta", TAMIL, "அவர் தனது வேலைகளுக்கும் நேரம் ஒதுக்கினார்.", "வேலைகளுக்கும்", "கடமைகளுக்கும்"),
    # "in the router": the corpus writes "routerhez"
    ("hu", HUNGARIAN, "A fájl a szerverben van.", "szerverben", "routerben"),
    # "in the judge('s hands)": the list knows "tuomarille"
    ("fi", FINNISH, "Paperi on autossa nyt.", "autossa", "tuomarissa"),
]


def test_an_ending_makes_a_word_only_after_a_stem_known_with_its_paradigm() -> None:
    """The corpus writes "-ment" and "-сть" after words of its own; after "loie" and "законо" (rare pieces of words a
    web list holds) they make no word: no form of theirs with another ending of the paradigm is known. Tamil, Hungarian
    and Finnish forms no list holds stay words: their stem is known with another ending of the paradigm."""
    french, russian = support("fr"), support("ru")
    assert listed("loie", french) and listed("законо", russian)  # the stems a web list holds
    assert "ment" in CorpusLexicon.of("fr", FRENCH).endings and "сть" in CorpusLexicon.of("ru", RUSSIAN).endings
    assert not knows("loiement", french, CorpusLexicon.of("fr", FRENCH))
    assert not knows("законость", russian, CorpusLexicon.of("ru", RUSSIAN))
    law = "La loi protège les citoyens depuis longtemps."
    assert kind(law, law.replace("loi", "loiement"), "fr", FRENCH) == INVENTED_WORDS
    court = "Суд проверил закон вчера вечером."
    assert kind(court, court.replace("закон", "законость"), "ru", RUSSIAN) == INVENTED_WORDS
    for language, corpus, original, old, form in INFLECTED:
        found = support(language)
        lexicon = CorpusLexicon.of(language, [original, *corpus])
        assert not listed(form, found, lexicon) and knows(form, found, lexicon), form
        assert kind(original, original.replace(old, form), language, corpus) is None, form


TAGALOG = [  # "'y" (ay) and "'t" (at) written onto the word before, after many words of the corpus
    "Ang bahay'y malaki at ang bukid'y malawak.",
    "Ang tubig'y malamig, ang hangin'y malakas.",
    "Sapagka't ang puso'y tapat, ang isip'y malinaw.",
    "Ang bahay, ang bukid, ang tubig, ang hangin, ang isip.",
]


def test_a_real_word_no_web_list_holds_stays_a_word_where_a_dictionary_or_a_clitic_reads_it() -> None:
    """Forms simplemma's dictionary holds whose lemma only the dictionary holds (a verb stem a web list lacks), and a
    known word with a clitic written after an apostrophe: valid candidates of the per-language table that the paradigm
    rule alone refused."""
    for language, form in (("hu", "meghívandó"), ("tr", "denetlenmeyen"), ("ro", "detașabilă")):
        assert wordfreq.zipf_frequency(form, language) == 0 and knows(form, support(language)), form
    tagalog = CorpusLexicon.of("tl", TAGALOG)
    assert "'y" in tagalog.clitics and knows("ngipin'y", support("tl"), tagalog)
    assert not knows("ngipinyy", support("tl"), tagalog)  # no apostrophe: no clitic, a slip
    original = "Ang bahay'y malaki ngayon."
    assert kind(original, original.replace("bahay'y", "ngipin'y"), "tl", TAGALOG) is None
    # the derivations stay refused
    assert not knows("loiement", support("fr"), CorpusLexicon.of("fr", FRENCH))
