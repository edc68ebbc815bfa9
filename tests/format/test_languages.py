"""Every language by its code (clsd_format.languages): ISO 639-1, ISO 639-3, BCP 47 with a script, macrolanguages.

Fast: langcodes and language_data only (the generate and analysis extras). mteb's own list of codes is
checked against in tests/plugin/test_languages.py.
"""

from __future__ import annotations

import unicodedata

import pytest
import regex

from clsd_format.errors import CLSDError
from clsd_format.languages import (
    FRENCH,
    GERMAN,
    KNOWN_LANGUAGES,
    RTL_SCRIPTS,
    Language,
    code_from_mteb,
    parse_language,
)


@pytest.mark.parametrize(
    ("text", "code", "name", "mteb_code"),
    [
        ("it", "it", "Italian", "ita-Latn"),  # ISO 639-1
        ("hi", "hi", "Hindi", "hin-Deva"),
        ("th", "th", "Thai", "tha-Thai"),
        ("deu", "de", "German", "deu-Latn"),  # ISO 639-3 of a language with an ISO 639-1 code
        ("gsw", "gsw", "Swiss German", "gsw-Latn"),  # ISO 639-3 only
        ("ROH", "rm", "Romansh", "roh-Latn"),
        ("sr-Latn", "sr-Latn", "Serbian (Latin)", "srp-Latn"),  # BCP 47 with the script a language has several of
        ("sr", "sr", "Serbian", "srp-Cyrl"),
        ("zh-Hant", "zh-Hant", "Chinese (Traditional)", "zho-Hant"),
        ("pa-Arab", "pa-Arab", "Punjabi (Arabic)", "pan-Arab"),
        ("pt-BR", "pt-BR", "Portuguese (Brazil)", "por-Latn"),
        ("ar", "ar", "Arabic", "ara-Arab"),  # macrolanguages, as mteb's ISO 639-1 table maps them
        ("zh", "zh", "Chinese", "zho-Hans"),
        ("fa", "fa", "Persian", "fas-Arab"),
        ("arb", "arb", "Standard Arabic", "arb-Arab"),  # a member of one, its script the macrolanguage's
        ("ko", "ko", "Korean", "kor-Hang"),  # as mteb and NLLB write Korean
        ("zho_Hant", "zh-Hant", "Chinese (Traditional)", "zho-Hant"),  # NLLB's and mteb's own spellings
        ("kor-Hang", "ko", "Korean", "kor-Hang"),
    ],
)
def test_any_code_gives_the_language(text: str, code: str, name: str, mteb_code: str) -> None:
    assert parse_language(text) == Language(code, name, mteb_code)


def test_the_translation_models_codes_and_the_writing_direction() -> None:
    cases = {"de": ("de", "deu_Latn"), "ar": ("ar", "arb_Arab"), "fa": ("fa", "pes_Arab"), "ms": ("ms", "zsm_Latn")}
    cases |= {"zh-Hant": ("zh", "zho_Hant"), "cmn": ("zh", "zho_Hans"), "sr-Latn": ("sr", "srp_Latn"), "ko": ("ko", "kor_Hang")}
    for text, codes in cases.items():
        language = parse_language(text)
        assert (language.m2m_code, language.nllb_code) == codes, text
    assert [parse_language(c).direction for c in ("ar", "he", "fa", "ur", "pa-Arab", "yi")] == ["rtl"] * 6
    assert [parse_language(c).direction for c in ("de", "pa", "zh", "hi", "el")] == ["ltr"] * 5


def test_one_object_per_language_and_the_old_table_reads_every_code() -> None:
    assert parse_language("de") is GERMAN and parse_language("deu") is GERMAN and parse_language("fra-Latn") is FRENCH
    assert parse_language("sr-Cyrl") is parse_language("sr")
    assert KNOWN_LANGUAGES.get("hu") == Language("hu", "Hungarian", "hun-Latn")  # the generator's lookup, any code
    assert "uk" in KNOWN_LANGUAGES and "xx" not in KNOWN_LANGUAGES
    assert (code_from_mteb("deu-Latn"), code_from_mteb("hun-Latn"), code_from_mteb("srp-Latn")) == ("de", "hu", "sr-Latn")
    assert parse_language("xyz:Some Language:xyz-Latn") == Language("xyz", "Some Language", "xyz-Latn")


@pytest.mark.parametrize("text", ["xx", "zz-Latn", "und", "qaa", "12", "de-", "KNOWN"])
def test_a_code_no_library_knows_is_one_line_naming_the_accepted_forms(text: str) -> None:
    with pytest.raises(CLSDError) as caught:
        parse_language(text)
    message = str(caught.value)
    assert len(message.splitlines()) == 1 and repr(text) in message
    assert all(form in message for form in ("ISO 639-1", "ISO 639-3", "sr-Latn", "code:Name:mteb-code"))
    with pytest.raises(CLSDError):
        KNOWN_LANGUAGES.get(text)


def test_the_right_to_left_scripts_are_those_whose_letters_run_right_to_left() -> None:
    letters = [chr(c) for c in range(0x20000) if unicodedata.category(chr(c)).startswith("L")]
    shared = regex.compile(r"\p{Script=Common}")  # the Arabic tatweel: a letter of no one script
    rtl = "".join(ch for ch in letters if unicodedata.bidirectional(ch) in ("R", "AL") and not shared.match(ch))
    ltr = "".join(ch for ch in letters if unicodedata.bidirectional(ch) == "L")
    listed = regex.compile("[" + "".join(rf"\p{{Script={script}}}" for script in sorted(RTL_SCRIPTS)) + "]")
    assert not regex.sub(listed, "", rtl)  # every right-to-left letter is of a listed script
    for script in RTL_SCRIPTS:
        pattern = regex.compile(rf"\p{{Script={script}}}")
        assert pattern.search(rtl) and not pattern.search(ltr), script
