"""A text in HTML names its language and direction, from any code the data holds, and never becomes markup itself."""

from __future__ import annotations

import copy
import pickle

import pandas as pd

from clsd_format.html_text import OWN_SPAN, LanguageText, html_language, in_language
from clsd_format.languages import parse_language


def test_lang_and_dir_come_from_the_language_and_its_script() -> None:
    assert html_language("ara-Arab") == ("ar", "rtl") and html_language("heb-Hebr") == ("he", "rtl")
    assert html_language("deu-Latn") == ("de", "ltr") and html_language("pan-Arab") == ("pa-Arab", "rtl")
    assert html_language(parse_language("pt-BR")) == ("pt-BR", "ltr")  # a region is kept
    assert html_language("xyz-Latn") == ("xyz-Latn", "ltr")  # unknown to every library: its own tag, its script
    assert html_language("xyz") == ("xyz", "auto")  # no script: the browser reads the text's letters
    assert html_language('" onclick="x') == ("und", "auto")  # no tag at all: undetermined


def test_a_text_is_escaped_inside_its_span() -> None:
    written = in_language("a <b>&</b> ב-2019", "heb-Hebr")
    assert written == '<span lang="he" dir="rtl">a &lt;b&gt;&amp;&lt;/b&gt; ב-2019</span>'
    assert OWN_SPAN.match(written) is not None


def test_a_language_text_keeps_its_language_through_a_table() -> None:
    text = LanguageText("שלום", "heb-Hebr")
    assert copy.deepcopy(text).language == pickle.loads(pickle.dumps(text)).language == "heb-Hebr"
    frame = pd.DataFrame([[text]], columns=["t"], dtype=object).copy()
    assert isinstance(frame.iat[0, 0], LanguageText) and frame.iat[0, 0].markdown().startswith('<span lang="he" dir="rtl">')
