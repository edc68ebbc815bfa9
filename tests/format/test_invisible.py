"""Texts are compared without what a reader cannot see: NFKC, with default-ignorable and bidi control characters removed;
a distractor keeps such a character only when its original uses it (clsd_format.invisible), and Jaccard reads that form."""

from __future__ import annotations

import unicodedata

import pytest

from clsd_format.invisible import INVISIBLE, comparable, keep_invisible_of
from clsd_format.text_measures import jaccard, mean_jaccard_to_others

GERMAN = "Die Schule hat im Jahr 2020 genau 45 neue Fenster bekommen."
# Each a copy of GERMAN a reader cannot tell from it; by the kind of difference.
COPIES = {
    "zero-width space": GERMAN.replace("Schule ", "Schule\u200b "),
    "soft hyphens": GERMAN.replace("Schule", "Schu\u00adle").replace("Fenster", "Fens\u00adter"),
    "zero-width joiner": GERMAN.replace("neue", "ne\u200due"),
    "bidi isolate": GERMAN.replace("45 neue", "\u2068" + "45 neue\u2069"),
    "right-to-left mark": "\u200f" + GERMAN.replace("bekommen", "be\u200fkommen"),
    "fullwidth digits": GERMAN.replace("2020", "２０２０").replace("45", "４５"),
    "compatibility forms": GERMAN.replace("Fenster", "Ｆｅｎｓｔｅｒ").replace("Die", "Ⅾie"),
    "combining grapheme joiner": GERMAN.replace("neue", "neue\u034f"),
}


def test_the_installed_regex_knows_both_unicode_properties() -> None:
    invisible = "\u200b\u200c\u200d\u00ad\u2060\ufeff\ufe0f\u034f\u200e\u200f\u061c\u202a\u202e\u2066\u2069"
    assert INVISIBLE.findall(invisible) == list(invisible)
    assert not INVISIBLE.search("Abc 123 ي ی क्ष 中 ﬁ ２ \u0301 \u00a0")


@pytest.mark.parametrize("kind", sorted(COPIES))
def test_a_copy_with_invisible_characters_or_compatibility_forms_compares_equal(kind: str) -> None:
    copy = COPIES[kind]
    assert copy != GERMAN
    assert comparable(copy) == comparable(GERMAN) == GERMAN
    assert jaccard(GERMAN, copy) == 1.0
    assert mean_jaccard_to_others([GERMAN, copy]) == [1.0, 1.0]


def test_removal_comes_before_composition() -> None:
    assert comparable("Cafe\u034f\u0301") == "Café" == unicodedata.normalize("NFC", "Café")


def test_a_distractor_loses_the_invisible_characters_its_original_does_not_use() -> None:
    assert keep_invisible_of("Die\u200f Schule\u2067 ist\u200b alt\u00ad.", "Die Schule ist neu.") == "Die Schule ist alt."
    assert keep_invisible_of("Der Hund\u200f schläft.", "Der\u200f Hund bellt.") == "Der Hund\u200f schläft."


def test_a_persian_distractor_keeps_the_zwnj_its_original_writes() -> None:
    original = "بچه\u200cها هر صبح در پارک بازی می\u200cکنند."
    distractor = "بچه\u200cها هر\u200f شب در پارک بازی می\u200cکنند."
    assert keep_invisible_of(distractor, original) == "بچه\u200cها هر شب در پارک بازی می\u200cکنند."
    assert keep_invisible_of(distractor, "بچهها هر صبح در پارک بازی میکنند.") == "بچهها هر شب در پارک بازی میکنند."
