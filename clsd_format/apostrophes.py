"""Apostrophes inside words: a letter of the word in most languages, the end of an elided word where the language says so.

An apostrophe between two word characters stays in its word in every language, which is how most write it:
Ukrainian and Belarusian write it as a letter ("подвір'я", "м'ясо", "сям'я"), an English contraction or possessive is
one word ("don't", "it's", "Merkel's"), as wordfreq's word lists count them. Cutting there would make fragments
("подвір" and "я") that no reader sees, and a word changed at a fragment ("потішати'я"). The plain apostrophe (U+0027)
and the typographic one (U+2019) are read alike; the modifier letters U+02BC and U+02BB are letters to Unicode and are
always inside their word.

Where the language's own rules cut an elided word off at its apostrophe (French "l'homme", "qu'il", Italian
"dell'anno", "un'altra", Catalan "l'home" and the enclitic "porta'ls"), the word is cut there, the apostrophe going with
the elided part ("l'", "dell'", "'ls"), and the language's exceptions stay whole (French "aujourd'hui"). The rules are
spaCy's, not a list of ours: a language elides when its spaCy language data declares elision (``ELISION`` in
``spacy.lang.<code>.punctuation``; in spaCy 3.8 French, Italian, Catalan, Haitian Creole, Ligurian and Luxembourgish),
and such a word is cut where that language's spaCy tokenizer cuts it next to an apostrophe. Whether a language
declares elision is read from its punctuation module's source without importing spaCy (an import takes seconds), so
every other language costs nothing; an eliding language's tokenizer loads once per process, at its first word with an
apostrophe. spaCy comes with the ``generate`` and ``analysis`` extras; without it (the base install) no word is cut.

The paper's word (:data:`clsd_format.words.PAPER_WORD`, CountVectorizer's token) is not read here: the paper's
measures keep the authors' definition, which cuts at every apostrophe.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
from collections.abc import Callable
from pathlib import Path

from clsd_format.errors import CLSDError
from clsd_format.extras import importable

APOSTROPHES = "'\u2019"  # the plain and the typographic apostrophe; U+02BC and U+02BB are letters already


@functools.cache
def _declares_elision(code: str) -> bool:
    """Whether spaCy's language data for ``code`` (an ISO 639 code) declares elision, read without importing spaCy."""
    if not code.isalpha() or not importable("spacy"):
        return False
    spec = importlib.util.find_spec("spacy")
    if spec is None or spec.origin is None:
        return False
    source = Path(spec.origin).parent / "lang" / code / "punctuation.py"
    if not source.is_file():
        return False
    tree = ast.parse(source.read_text(encoding="utf-8"))
    names = (target for node in tree.body if isinstance(node, ast.Assign) for target in node.targets)
    return any(isinstance(name, ast.Name) and name.id == "ELISION" for name in names)


@functools.cache
def _tokenizer(code: str) -> Callable[[str], list[tuple[int, str]]]:
    """(start, text) of each token spaCy's tokenizer for ``code`` cuts a word into; loaded once per process."""
    from spacy.util import get_lang_class

    tokenizer = get_lang_class(code)().tokenizer
    return lambda word: [(token.idx, token.text) for token in tokenizer(word)]


@functools.cache
def elision_language(language: str | None) -> str | None:
    """spaCy's code for ``language`` (any code :mod:`clsd_format.languages` reads) when its rules cut elided words off at
    their apostrophe; None for every other language, an unknown code, no language, or without spaCy."""
    if language is None:
        return None
    from clsd_format.languages import parse_language

    try:
        code = parse_language(language).code.split("-")[0].lower()
    except CLSDError:  # a code no library knows (a dataset's own), or langcodes missing: its first subtag
        code = language.replace("_", "-").split("-")[0].lower()
    return code if _declares_elision(code) else None


@functools.lru_cache(maxsize=100_000)
def elision_cuts(code: str, word: str) -> tuple[int, ...]:
    """Where, inside ``word`` (a run of word characters joined by apostrophes), the rules of the eliding language
    ``code`` (:func:`elision_language`) cut it next to an apostrophe: ``(2,)`` for "l'homme", ``()`` for "aujourd'hui"."""
    if not any(mark in word for mark in APOSTROPHES):
        return ()
    cuts = [start for start, _ in _tokenizer(code)(word)[1:] if 0 < start < len(word)]
    return tuple(cut for cut in cuts if word[cut - 1] in APOSTROPHES or word[cut] in APOSTROPHES)
