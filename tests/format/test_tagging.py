"""The offline taggers are one table (``clsd_format.tagging.TAGGERS``): what it holds is what ``tagger_for`` makes,
what a missing tagger's message tells to install, and what an unknown language is told exists.

Real taggers (HanTa; spaCy's French model, which takes several seconds to load, in the slow tier).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

from clsd_format.errors import CLSDError
from clsd_format.tagging import TAGGERS, OfflineTagger, TaggerMissing, WordTagger, tagger_for

SENTENCES = {
    "de": "Die Regierung hat am Montag in Berlin ein Gesetz beschlossen.",
    "en": "The government passed a law in London on Monday.",
    "fr": "Le gouvernement a adopté une loi à Paris lundi.",
}
SLOW = {"fr"}  # spaCy's model loads in several seconds


@pytest.fixture
def fresh_taggers() -> Iterator[None]:
    """``tagger_for`` keeps each tagger for the process: a test that changes the table sees its own entries."""
    tagger_for.cache_clear()
    yield
    tagger_for.cache_clear()


@pytest.mark.parametrize(
    "code", [pytest.param(code, marks=[pytest.mark.slow] if code in SLOW else []) for code in TAGGERS], ids=str
)
def test_each_language_of_the_table_gets_its_own_tagger(code: str) -> None:
    tagger = tagger_for(code)
    assert tagger.language == code and tagger is tagger_for(code)  # loaded once per process
    (sentence,) = tagger.tag([SENTENCES[code]])
    upos = {token.upos for token in sentence.tokens}
    assert "NOUN" in upos and upos & {"VERB", "AUX"} and sentence.tokens[-1].upos == "PUNCT"


@pytest.mark.parametrize("code", list(TAGGERS))
def test_a_missing_tagger_names_the_command_of_its_table_entry(code: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for library in ("HanTa", "spacy"):
        monkeypatch.setitem(sys.modules, library, None)  # as if its package had not been installed
    with pytest.raises(TaggerMissing) as missing:
        TAGGERS[code].make()
    message = str(missing.value)
    assert f"`{TAGGERS[code].install}`" in message and f"'{code}'" in message and "\n" not in message


def test_the_table_is_what_tagger_for_reads(fresh_taggers: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(TAGGERS, "xx", OfflineTagger(lambda: WordTagger("xx"), "pip install toy-tagger"))
    toy = tagger_for("xx")
    assert isinstance(toy, WordTagger) and toy.language == "xx"
    with pytest.raises(CLSDError) as unknown:
        tagger_for("it")
    assert str(unknown.value) == "no offline tagger for language 'it' (there are taggers for de, en, fr, xx)."
