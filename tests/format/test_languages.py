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
    parse_pair,
    script_share,
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


@pytest.mark.parametrize(
    ("text", "meant"),
    [
        ("greek", "'el' (Greek)"),  # a language's English name, in any case
        ("Greek", "'el' (Greek)"),
        ("deutsch", "'de' (German)"),  # its name in its own language
        ("ελληνικά", "'el' (Greek)"),
        ("Ancient Greek", "'grc' (Ancient Greek)"),
        ("Brazilian Portuguese", "'pt-BR' (Portuguese (Brazil)"),
        ("gr", "'el' (Greek; GR is the region code of Greece)"),  # a country's code for its language
        ("jp", "'ja' (Japanese; JP is the region code of Japan)"),
    ],
)
def test_a_language_name_or_a_country_code_gets_the_code_to_write(text: str, meant: str) -> None:
    with pytest.raises(CLSDError) as caught:
        parse_language(text)
    message = str(caught.value)
    assert len(message.splitlines()) == 1 and f"did you mean {meant}" in message and "code:Name:mteb-code" in message


@pytest.mark.parametrize("text", ["xx", "zz", "12", "de-", "a", "un"])
def test_nothing_is_suggested_where_no_language_is_meant(text: str) -> None:
    with pytest.raises(CLSDError) as caught:
        parse_language(text)
    assert "did you mean" not in str(caught.value)


def test_a_code_that_is_a_language_is_read_as_it_is_not_as_a_near_name() -> None:
    assert parse_language("grc").name == "Ancient Greek"  # not Greek: grc is a code of its own
    assert parse_language("ell").code == parse_language("gre").code == "el"


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


LONG_TAG = "en-x-" + "-".join(["abcdefgh"] * 33)  # 301 characters, each subtag well-formed


@pytest.mark.parametrize(
    ("text", "code", "name", "mteb_code"),
    [
        ("zh-TW", "zh-TW", "Chinese (Taiwan)", "zho-Hant"),  # the region's script, as CLDR's likely subtags give it
        ("pa-PK", "pa-PK", "Punjabi (Pakistan)", "pan-Arab"),
        ("sr-ME", "sr-ME", "Serbian (Montenegro)", "srp-Latn"),
        ("es-419", "es-419", "Spanish (Latin America)", "spa-Latn"),  # a UN M.49 area is a region too
    ],
)
def test_a_region_is_kept_in_the_code_and_name_and_chooses_the_script(text: str, code: str, name: str, mteb_code: str) -> None:
    assert parse_language(text) == Language(code, name, mteb_code)


@pytest.mark.parametrize(
    ("text", "named"), [("de-1901", "1901"), ("sl-rozaj", "rozaj"), ("de-CH-1996", "1996"), ("en-u-ca-gregory", "u-ca-gregory")]
)
def test_a_variant_or_extension_is_refused_not_dropped(text: str, named: str) -> None:
    with pytest.raises(CLSDError) as caught:
        parse_language(text)
    message = str(caught.value)
    assert len(message.splitlines()) == 1 and repr(text) in message and repr(named) in message and "variant" in message


@pytest.mark.parametrize(
    ("text", "kind", "subtag"),
    [
        ("en-Zzzz", "script", "Zzzz"),  # uncoded
        ("en-Zyyy", "script", "Zyyy"),  # undetermined
        ("en-Qaaa", "script", "Qaaa"),  # private use, Qaaa..Qabx
        ("de-Qabx", "script", "Qabx"),
        ("en-QM", "region", "QM"),  # private use, QM..QZ
        ("en-XA", "region", "XA"),  # private use, XA..XZ
        ("en-AA", "region", "AA"),
        ("en-ZZ", "region", "ZZ"),
    ],
)
def test_an_unknown_or_private_script_or_region_is_refused(text: str, kind: str, subtag: str) -> None:
    with pytest.raises(CLSDError) as caught:
        parse_language(text)
    message = str(caught.value)
    assert len(message.splitlines()) == 1 and repr(text) in message and f"{kind} {subtag!r}" in message


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (LONG_TAG, "301 characters"),  # a valid tag, but no file, config or task can be named by it
        ("../x:Some Language:xyz-Latn", "name no file"),  # the code of a full language names folders too
        ("x" * 36 + ":Some Language:xyz-Latn", "36 characters"),
        ("xyz:Some\nLanguage:xyz-Latn", "the name"),  # printed in prompts and on the card
        ("xyz:" + "N" * 101 + ":xyz-Latn", "the name"),
        ("xyz:Some Language:xyz-latin", "mteb"),
        ("xyz:Some Language:xyz-Qaaa", "script 'Qaaa'"),
    ],
)
def test_a_code_that_cannot_name_files_tasks_and_configs_is_refused_as_it_is_read(text: str, says: str) -> None:
    with pytest.raises(CLSDError) as caught:
        parse_language(text)
    message = str(caught.value)
    assert len(message.splitlines()) == 1 and says in message and len(message) < 400


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("de", "deu"),
        ("de", "de-AT"),  # a region does not make another language
        ("en", "en_US"),  # nor the separator or the letter case
        ("EN-us", "en-GB"),
        ("zh-Hant", "zh-Hant-TW"),
        ("zh-TW", "zh-Hant"),  # Taiwan's script is Traditional Han
        ("sr", "sr-Cyrl"),  # nor a language's usual script
        ("ar", "arb"),  # nor the member a macrolanguage stands for
        ("cmn", "zh"),
        ("de", "de:Deutsch:deu-Latn"),
    ],
)
def test_two_codes_of_one_language_are_refused_as_a_pair(first: str, second: str) -> None:
    with pytest.raises(CLSDError) as caught:
        parse_pair(first, second)
    message = str(caught.value)
    assert len(message.splitlines()) == 1 and repr(first) in message and repr(second) in message and "one language" in message


@pytest.mark.parametrize(("first", "second"), [("sr", "sr-Latn"), ("zh-Hans", "zh-Hant"), ("pt-BR", "es"), ("ar", "arz")])
def test_two_languages_or_one_language_in_two_scripts_make_a_pair(first: str, second: str) -> None:
    assert parse_pair(first, second) == (parse_language(first), parse_language(second))


@pytest.mark.parametrize(
    ("code", "text", "share", "other"),
    [
        ("sr-Latn", "Добар дан, како сте? Ово је Београд.", 0.0, "Cyrl"),
        ("sr", "Dobar dan, kako ste? Ovo je Beograd.", 0.0, "Latn"),
        ("ja", "東京で、すしをたべました。カメラも買った。", 1.0, None),  # Jpan: Han + Hiragana + Katakana
        ("zh-Hant", "我們今天去臺北。", 1.0, None),  # Hant: Han (Traditional variant)
        ("ko", "大韓民國의 수도는 서울입니다.", 1.0, None),  # Korean with Hanja: Hangul + Han
        ("ar", "ذهبت إلى السوق في الساعة 3 مع أحمد.", 1.0, None),
        ("hi", "नमस्ते Delhi", 1 / 2, "Latn"),  # a word each, whatever their letters and marks
        ("zh", "苹果发布了MacBook", 5 / 6, "Latn"),  # a Han character weighs what a Latin word does
        ("th", "แอปเปิลเปิดตัว iPhone", 13 / 14, "Latn"),  # Thai is written without spaces: a letter with its marks each
        ("ko", "삼성은 Galaxy를 공개했다", 3 / 4, "Latn"),  # Korean has spaces; "Galaxy를" is a word of each script
        ("uk", "Подвір'я та ґанок, 2024 р.", 1.0, None),  # the apostrophe inside a word; digits count for none
    ],
)
def test_the_share_of_a_text_s_words_in_the_language_s_script(code: str, text: str, share: float, other: str | None) -> None:
    measured = script_share([text], parse_language(code))
    assert measured is not None and measured.share == pytest.approx(share, abs=0.05) and measured.other == other
