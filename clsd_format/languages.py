"""Languages: every language by its code, read through langcodes (CLDR and the IANA registry), not a table of ours.

One record per language, so that the release's column names ("German", ``de_adv1``), the prompt
("Answer in German!"), the translation models ("de" for M2M-100, "deu_Latn" for NLLB), the Hub rows
and mteb ("deu-Latn") and the analyses (Stanza's "de") always agree. :func:`parse_language` takes

* an ISO 639-1 code (``de``), an ISO 639-3 code (``deu``, ``gsw``, ``arb``), mteb's code (``deu-Latn``);
* a BCP 47 tag with a script where a language has several (``sr-Latn``, ``zh-Hant``, ``pa-Arab``) or a region
  (``pt-BR``);
* ``code:Name:mteb-code`` for a language no library knows (``xyz:Some Language:xyz-Latn``).

What is derived, and from where:

* **code**: the tag as CLDR writes it, ISO 639-1 where the language has one, the script kept only where
  it is not the language's likely one (``sr-Latn``; ``sr-Cyrl`` is ``sr``);
* **name**: CLDR's English name (language_data), with the script or region where the code names one;
* **mteb code**: ISO 639-3 (the macrolanguage for a two-letter code, as mteb's own ISO 639-1 table maps it:
  ``ara``, ``zho``, ``fas``) + ``-`` + ISO 15924 script, the script from CLDR's likely subtags; Korean is
  ``kor-Hang`` as mteb and NLLB write it (CLDR's ``Kore`` is Hangul with Han);
* **direction**, **M2M-100 code** and **NLLB-200 code**: properties of :class:`Language`, below.

langcodes and language_data come with the ``generate`` and ``analysis`` extras; the plugin's base install
needs neither (it reads languages as the data writes them, by mteb code), and the three languages of the
release (:data:`GERMAN`, :data:`FRENCH`, :data:`ENGLISH`) are known without them. Kept free of mteb: the
generator must not import it (``tests/plugin/test_languages.py`` checks the codes against mteb's list).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from clsd_format.errors import CLSDError
from clsd_format.extras import MissingExtra, importable
from clsd_format.schema import RELEASE_N_DISTRACTORS

# ISO 15924 scripts written right to left (Unicode's Bidi_Class R or AL for their letters; a test checks it).
RTL_SCRIPTS = frozenset(
    "Adlm Arab Armi Avst Chrs Cprt Elym Hatr Hebr Hung Khar Lydi Mand Mani Mend Merc Mero Narb Nbat Nkoo Orkh Ougr "
    "Palm Phli Phlp Phnx Prti Rohg Samr Sarb Sogd Sogo Syrc Thaa Yezi".split()
)
# Script codes as mteb and NLLB write them, where CLDR's likely script differs.
_MTEB_SCRIPTS = {"Kore": "Hang"}
# M2M-100's own spellings of three languages (its tokenizer's codes), where CLDR writes another code.
M2M_SPELLINGS = {"fil": "tl", "nso": "ns", "nb": "no"}
# Codes that name no language: undetermined, several, no linguistic content, uncoded (and qaa-qtz, private use).
_NOT_A_LANGUAGE = frozenset({"und", "mul", "zxx", "mis"})
TRIPLE_EXAMPLE = "'gsw:Swiss German:gsw-Latn'"
ACCEPTED_FORMS = (
    "an ISO 639-1 code (de), an ISO 639-3 code (deu, gsw), a BCP 47 tag with a script (sr-Latn, zh-Hant, pa-Arab), "
    f"or, for a language no library knows, code:Name:mteb-code, e.g. {TRIPLE_EXAMPLE}"
)


@dataclass(frozen=True)
class Language:
    """A language by its short code, its English name and mteb's code.

    The field names are stored in generation checkpoints (``asdict``), so they stay as they are; everything
    else is derived from them.
    """

    code: str  # BCP 47, ISO 639-1 where the language has one ("de", "gsw", "sr-Latn"): task and config names, Stanza
    name: str  # English name: the release's column of original sentences, and the prompts
    mteb_code: str  # ISO 639-3 + ISO 15924 script, as mteb writes it: "deu-Latn"

    @property
    def iso639_3(self) -> str:
        """The ISO 639-3 part of mteb's code ("deu")."""
        return self.mteb_code.split("-")[0]

    @property
    def script(self) -> str:
        """The ISO 15924 script of mteb's code ("Latn")."""
        return self.mteb_code.split("-")[-1]

    @property
    def direction(self) -> str:
        """The writing direction: "rtl" for a language written right to left (Arabic, Hebrew, ...), else "ltr"."""
        return script_direction(self.script)

    @property
    def m2m_code(self) -> str:
        """M2M-100's language code: the language's ISO 639-1 code, its macrolanguage's for an individual language."""
        return m2m_code(self.code)

    @property
    def nllb_code(self) -> str:
        """NLLB-200's language token ("deu_Latn"; "arb_Arab" for Arabic, "zho_Hant" for ``zh-Hant``)."""
        return nllb_code(self.mteb_code)

    @property
    def release_column(self) -> str:
        """The release CSV column holding the original sentences in this language ("German")."""
        return self.name

    def distractor_columns(self, n: int = RELEASE_N_DISTRACTORS) -> list[str]:
        """The release CSV columns holding distractors *in* this language (``de_adv1`` ...)."""
        return [f"{self.code}_adv{i}" for i in range(1, n + 1)]


GERMAN = Language("de", "German", "deu-Latn")
FRENCH = Language("fr", "French", "fra-Latn")
ENGLISH = Language("en", "English", "eng-Latn")

# Languages read so far, by the text they were asked by and by their code; the release's three from the start.
_RESOLVED: dict[str, Language] = {language.code: language for language in (GERMAN, FRENCH, ENGLISH)}
_RESOLVED.update({language.mteb_code: language for language in (GERMAN, FRENCH, ENGLISH)})


def script_direction(script: str) -> str:
    """The writing direction of an ISO 15924 script: "rtl" for one written right to left, else "ltr"."""
    return "rtl" if script in RTL_SCRIPTS else "ltr"


def unknown_language(text: str, why: str = "no library knows it") -> CLSDError:
    """The one error line for a language code that cannot be read: what was given, why, and the accepted forms."""
    return CLSDError(f"unknown language {text!r} ({why}); write {ACCEPTED_FORMS}.")


def parse_language(text: str) -> Language:
    """The language of a code or tag (see the module docstring for the forms); the same object for the same code."""
    text = text.strip()
    known = _RESOLVED.get(text)
    if known is not None:
        return known
    if ":" in text:
        return _from_triple(text)
    language = _from_library(text)
    language = _RESOLVED.setdefault(language.code, language)
    _RESOLVED[text] = language
    return language


def _from_triple(text: str) -> Language:
    parts = [p.strip() for p in text.split(":")]
    if len(parts) != 3 or not all(parts) or "-" not in parts[2]:
        raise CLSDError(f"language {text!r}: write a full language as code:Name:mteb-code, e.g. {TRIPLE_EXAMPLE}.")
    return Language(*parts)


def _langcodes() -> Any:
    """The langcodes module, with language_data for names; one line naming the extra when they are missing."""
    missing = [module for module in ("langcodes", "language_data") if not importable(module)]
    if missing:
        raise MissingExtra("generate", "reading a language code other than de, fr or en", missing)
    import langcodes

    return langcodes


def _tag(text: str) -> Any:
    """The langcodes Language of ``text`` (``zho_Hant`` read as ``zho-Hant``), or the one error line."""
    langcodes = _langcodes()
    tag = text.replace("_", "-")
    if not langcodes.tag_is_valid(tag):
        raise unknown_language(text, "not a valid language tag")
    found = langcodes.Language.get(tag)
    if found.language is None or found.language in _NOT_A_LANGUAGE or "qaa" <= found.language <= "qtz":
        raise unknown_language(text, "it names no particular language")
    if found.display_name("en").startswith("Unknown language"):
        raise unknown_language(text)
    return found


def likely_script(language: str) -> str | None:
    """CLDR's likely script of a bare language subtag ("sr" -> "Cyrl"); for the member CLDR takes a macrolanguage
    for, the macrolanguage's ("arb" -> "Arab", as "ar"); None where neither is known (another member may be written
    otherwise: South Azerbaijani in Arabic script, Azerbaijani in Latin).
    """
    from langcodes.data_dicts import LIKELY_SUBTAGS, NORMALIZED_MACROLANGUAGES

    for subtag in (language, NORMALIZED_MACROLANGUAGES.get(language)):
        parts = (LIKELY_SUBTAGS.get(subtag or "") or "").split("-")
        if len(parts) > 1 and len(parts[1]) == 4:
            return parts[1]
    return None


def _from_library(text: str) -> Language:
    found = _tag(text)
    likely = likely_script(found.language)
    script = found.script or likely
    if script is None:
        raise unknown_language(
            text, f"no script is known for it: name one, e.g. '{found.language}-Arab' or '{found.language}-Latn'"
        )
    if likely is not None and _MTEB_SCRIPTS.get(script, script) == _MTEB_SCRIPTS.get(likely, likely):
        found = found.update_dict({"script": None})  # the likely script goes without saying
    try:
        iso3 = found.to_alpha3()
    except LookupError as exc:
        raise unknown_language(text, "it has no ISO 639-3 code") from exc
    return Language(str(found), found.display_name("en"), f"{iso3}-{_MTEB_SCRIPTS.get(script, script)}")


def code_from_mteb(mteb_code: str) -> str:
    """'deu-Latn' -> 'de', 'srp-Latn' -> 'sr-Latn', 'hun-Latn' -> 'hu': the language's code (:attr:`Language.code`)."""
    known = _RESOLVED.get(mteb_code)
    if known is not None:
        return known.code
    return parse_language(mteb_code).code


def m2m_code(code: str) -> str:
    """M2M-100's code of a language code: its language subtag, the macrolanguage's for an individual language ("arb" -> "ar")."""
    base = code.split("-")[0]
    if importable("langcodes"):
        from langcodes.data_dicts import NORMALIZED_MACROLANGUAGES

        base = NORMALIZED_MACROLANGUAGES.get(base, base)
    return M2M_SPELLINGS.get(base, base)


@functools.cache
def _nllb_codes() -> dict[str, str]:
    """NLLB-200's language tokens as transformers lists them, each with its language as CLDR writes it
    ("nob_Latn": "nb"); empty where transformers cannot say.
    """
    try:
        from transformers.models.nllb.tokenization_nllb import FAIRSEQ_LANGUAGE_CODES
    except ImportError:
        return {}
    import langcodes

    return {code: langcodes.Language.get(code.split("_")[0]).language or "" for code in FAIRSEQ_LANGUAGE_CODES}


def nllb_code(mteb_code: str) -> str:
    """NLLB-200's token of an mteb code: the same language and script where NLLB has it ("deu_Latn"); for a
    macrolanguage or a member of one, the member CLDR takes for it ("ara-Arab" -> "arb_Arab", "fas-Arab" ->
    "pes_Arab"), else the macrolanguage itself ("cmn-Hans" -> "zho_Hans"), else its only member NLLB has in that
    script ("pus-Arab" -> "pbt_Arab"); else mteb's code spelled NLLB's way.
    """
    iso3, script = mteb_code.split("-")[0], mteb_code.split("-")[-1]
    exact = f"{iso3}_{script}"
    if not importable("langcodes") or exact in _nllb_codes():
        return exact
    import langcodes
    from langcodes.data_dicts import MACROLANGUAGES, NORMALIZED_MACROLANGUAGES

    language: str = langcodes.Language.get(iso3).language or iso3
    macro = MACROLANGUAGES.get(language, language)
    members = sorted(c for c, lang in _nllb_codes().items() if c.endswith(f"_{script}") and MACROLANGUAGES.get(lang) == macro)
    own = [c for c, lang in _nllb_codes().items() if c.endswith(f"_{script}") and lang == macro]
    representative = [c for c in members if NORMALIZED_MACROLANGUAGES.get(_nllb_codes()[c]) == macro]
    for chosen in (representative, own, members if len(members) == 1 else []):
        if chosen:
            return chosen[0]
    return exact


class _AnyLanguage(Mapping[str, Language]):
    """Every language a library knows, by any of its codes: ``KNOWN_LANGUAGES.get("hu")`` reads it on first use.

    Kept for callers that looked languages up in the old table. Unlike a dict's, :meth:`get` of a code no
    library knows raises the one error line of :func:`parse_language` (naming the accepted forms) rather than
    return None. Iterating lists the languages read so far.
    """

    def __getitem__(self, code: str) -> Language:
        return parse_language(code)

    def get(self, code: str, default: Any = None) -> Any:
        return parse_language(code)

    def __contains__(self, code: object) -> bool:
        try:
            return isinstance(code, str) and parse_language(code) is not None
        except CLSDError:
            return False

    def __iter__(self) -> Iterator[str]:
        return iter(sorted({language.code for language in _RESOLVED.values()}))

    def __len__(self) -> int:
        return len({language.code for language in _RESOLVED.values()})


KNOWN_LANGUAGES: Mapping[str, Language] = _AnyLanguage()
