"""Languages: every language by its code, read through langcodes (CLDR and the IANA registry), not a table of ours.

One record per language, so that the release's column names ("German", ``de_adv1``), the prompt
("Answer in German!"), the translation models ("de" for M2M-100, "deu_Latn" for NLLB), the Hub rows
and mteb ("deu-Latn") and the analyses (Stanza's "de") always agree. :func:`parse_language` takes

* an ISO 639-1 code (``de``), an ISO 639-3 code (``deu``, ``gsw``, ``arb``), mteb's code (``deu-Latn``);
* a BCP 47 tag with a script where a language has several (``sr-Latn``, ``zh-Hant``, ``pa-Arab``) or a region
  (``pt-BR``);
* ``code:Name:mteb-code`` for a language no library knows (``xyz:Some Language:xyz-Latn``).

A CLSD task is one language in one script: a region is kept (in the code, so in the task and config names and the
card, and in the name: ``pt-BR`` is "Portuguese (Brazil)"; mteb's code has none) and chooses the script where the
language has several (``zh-TW`` is Traditional Han, ``pa-PK`` Arabic); a variant or extension (``de-1901``,
``en-u-ca-gregory``) would be lost, so it is refused. A script or region the IANA registry lists as private use or
as no particular one (``Zzzz``, ``Qaaa``, ``QM``, ``XA``, ``ZZ``) is refused, and so is a code that cannot name the
dataset's files, configs and tasks (:data:`MAX_CODE_LENGTH`, letters and digits joined by hyphens). Two codes of
one language (a region, the letter case, ``_`` for ``-``, the usual script or the member a macrolanguage stands
for do not make another) are refused as a pair (:func:`parse_pair`). :func:`script_share` measures how much of a
text is written in a language's script.

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
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
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
# A code names the dataset's config folders and files ("<code>-<code>-pivot-en/test.parquet") and its task names.
# A language, its script and its region take at most 12 characters; the rest is room for the code of a
# code:Name:mteb-code language, with two codes and a suffix far below a file system's 255-byte names.
MAX_CODE_LENGTH = 35
MAX_NAME_LENGTH = 100  # the name of a code:Name:mteb-code language: in every prompt and on the card
_CODE_SHAPE = re.compile(r"[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*")
_MTEB_SHAPE = re.compile(r"[a-z]{3}-[A-Z][a-z]{3}")
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
    """The one error line for a language code that cannot be read: what was given, why, what was probably meant (a
    name written for a code is the commonest slip, and the line should hand back the code to write), and the accepted
    forms."""
    meant = _probably_meant(text)
    hint = f"did you mean {meant}? Otherwise write" if meant else "write"
    return CLSDError(f"unknown language {text!r} ({why}); {hint} {ACCEPTED_FORMS}.")


def _probably_meant(text: str) -> str | None:
    """The code ``text`` probably stands for, with its English name: a language's name in any language CLDR names it
    in ("greek", "Deutsch", "ελληνικά"; English names first, since a few names mean another language elsewhere), or a
    country's code written for its language ("gr": CLDR's likely language of Greece). Read by langcodes, never from a
    table of ours; None where neither reading finds a language, or without langcodes.
    """
    if len(text) < 2 or not (importable("langcodes") and importable("language_data")):
        return None
    import langcodes
    from langcodes.data_dicts import LIKELY_SUBTAGS

    found, region = None, None
    for named_in in ("en", "und") if len(text) >= 3 else ():  # one or two letters match too many short names
        try:
            found = langcodes.find(text, named_in)
            break
        except LookupError:
            continue
    likely = LIKELY_SUBTAGS.get(f"und-{text.upper()}") if len(text) == 2 and text.isascii() and text.isalpha() else None
    if found is None and likely is not None:  # CLDR's likely language of a country ("und-GR" -> "el-Grek-GR")
        found, region = langcodes.Language.get(likely.split("-")[0]), registry_description("region", text.upper())
    if found is None or found.language in _NOT_A_LANGUAGE or found.display_name("en").startswith("Unknown language"):
        return None
    where = f"; {text.upper()} is the region code of {region}" if region else ""
    return f"{str(found)!r} ({found.display_name('en')}{where})"


def parse_language(text: str) -> Language:
    """The language of a code or tag (see the module docstring for the forms); the same object for the same code.

    Everything a code must satisfy is checked here, as it is read, so that nothing is asked of an LLM (and paid for)
    on a code a later step cannot use.
    """
    text = text.strip()
    known = _RESOLVED.get(text)
    if known is not None:
        return known
    if ":" in text:
        return _from_triple(text)
    _check_length(text, text)
    language = _from_library(text)
    _check_code(language.code, text)
    language = _RESOLVED.setdefault(language.code, language)
    _RESOLVED[text] = language
    return language


def _shown(text: str) -> str:
    """``text`` quoted for a message, cut where it is longer than any code could be."""
    return repr(text if len(text) <= 2 * MAX_CODE_LENGTH else text[: 2 * MAX_CODE_LENGTH] + "...")


def _check_length(code: str, given: str) -> None:
    if len(code) > MAX_CODE_LENGTH:
        raise CLSDError(
            f"language {_shown(given)}: the code is {len(code)} characters; it names the dataset's files, configs and "
            f"tasks, so at most {MAX_CODE_LENGTH} (a language, its script and its region take at most 12)."
        )


def _check_code(code: str, given: str) -> None:
    """A code names the dataset's folders, files, configs and tasks: one that cannot is refused before any use."""
    _check_length(code, given)
    if not _CODE_SHAPE.fullmatch(code):
        raise CLSDError(
            f"language {_shown(given)}: the code {code!r} can name no file or task; write ASCII letters and digits "
            "joined by hyphens, starting with the language (e.g. 'gsw', 'sr-Latn')."
        )


def _from_triple(text: str) -> Language:
    parts = [p.strip() for p in text.split(":")]
    if len(parts) != 3 or not all(parts) or "-" not in parts[2]:
        raise CLSDError(f"language {_shown(text)}: write a full language as code:Name:mteb-code, e.g. {TRIPLE_EXAMPLE}.")
    code, name, mteb_code = parts
    _check_code(code, text)
    if len(name) > MAX_NAME_LENGTH or not name.isprintable():
        raise CLSDError(
            f"language {_shown(text)}: the name is written into every prompt and onto the card: at most "
            f"{MAX_NAME_LENGTH} characters on one line, no control characters."
        )
    if not _MTEB_SHAPE.fullmatch(mteb_code):
        raise CLSDError(
            f"language {_shown(text)}: mteb's code is an ISO 639-3 code and an ISO 15924 script, e.g. 'gsw-Latn', "
            f"not {mteb_code!r}."
        )
    if importable("langcodes"):
        _refuse_unknown_subtag(text, "script", mteb_code.split("-")[1])
    return Language(code, name, mteb_code)


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
    _refuse_lost_subtags(text, found)
    _refuse_unknown_subtag(text, "script", found.script)
    _refuse_unknown_subtag(text, "region", found.territory)
    return found


def _refuse_lost_subtags(text: str, found: Any) -> None:
    """A variant, extension or private-use part would be dropped from every name the task has: refused, not lost."""
    lost = [*(found.variants or []), *(found.extensions or []), *([found.private] if found.private else [])]
    if lost:
        raise CLSDError(
            f"language {text!r}: the variant or extension {'-'.join(lost)!r} would be lost, since a CLSD task is one "
            "language in one script, with a region at most; write the tag without it."
        )


@functools.cache
def _registry(kind: str) -> tuple[dict[str, str], tuple[tuple[str, str, str], ...]]:
    """The IANA subtag registry's subtags of one type ("script", "region") with their first description, and its
    ranges (``Qaaa..Qabx``, private use) as (first, last, description); the registry langcodes ships.
    """
    from langcodes.registry_parser import parse_registry

    single, ranges = {}, []
    for entry in parse_registry():
        if entry.get("Type") != kind:
            continue
        subtag, description = entry["Subtag"], entry["Description"][0]
        if ".." in subtag:
            first, last = subtag.split("..")
            ranges.append((first, last, description))
        else:
            single[subtag] = description
    return single, tuple(ranges)


def registry_description(kind: str, subtag: str) -> str | None:
    """The IANA registry's description of a script or region subtag ("Latin", "Private use"); None where unlisted."""
    single, ranges = _registry(kind)
    if subtag in single:
        return single[subtag]
    # A range's ends have the same length and letter case, so comparing strings compares the codes.
    return next((text for first, last, text in ranges if len(subtag) == len(first) and first <= subtag <= last), None)


def _refuse_unknown_subtag(text: str, kind: str, subtag: str | None) -> None:
    """A script or region the registry does not list, lists as private use, or lists as a code for none in particular
    (``Zzzz``: uncoded, ``Zyyy``: undetermined) tells nothing a task could be named by: refused."""
    if subtag is None:
        return
    description = registry_description(kind, subtag)
    if description is None:
        raise unknown_language(text, f"its {kind} {subtag!r} is not in the IANA subtag registry")
    if description == "Private use" or description.startswith("Code for"):
        raise unknown_language(text, f"its {kind} {subtag!r} names no particular {kind}: {description.lower()}")


def likely_script(language: str, region: str | None = None) -> str | None:
    """CLDR's likely script of a language subtag, in ``region`` where CLDR gives the pair one ("zh" in "TW" ->
    "Hant"), else of the language ("sr" -> "Cyrl"); for the member CLDR takes a macrolanguage for, the
    macrolanguage's ("arb" -> "Arab", as "ar"); None where neither is known (another member may be written
    otherwise: South Azerbaijani in Arabic script, Azerbaijani in Latin).
    """
    from langcodes.data_dicts import LIKELY_SUBTAGS, NORMALIZED_MACROLANGUAGES

    subtags = (language, NORMALIZED_MACROLANGUAGES.get(language))
    keys = [f"{subtag}-{region}" for subtag in subtags if subtag and region] + [s for s in subtags if s]
    for key in keys:
        parts = (LIKELY_SUBTAGS.get(key) or "").split("-")
        if len(parts) > 1 and len(parts[1]) == 4:
            return parts[1]
    return None


def _from_library(text: str) -> Language:
    found = _tag(text)
    likely = likely_script(found.language)
    script = found.script or likely_script(found.language, found.territory)
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


def _identity(language: Language) -> tuple[str, str]:
    """What makes a language one: its ISO 639 code as CLDR writes it (the macrolanguage for the member it stands for:
    "arb" is "ar") and its script; the region, the letter case and the separator are not part of it."""
    base, script = language.iso639_3.lower(), language.script
    if importable("langcodes"):
        import langcodes
        from langcodes.data_dicts import NORMALIZED_MACROLANGUAGES

        if langcodes.tag_is_valid(base):
            base = langcodes.Language.get(base).language or base
        base = NORMALIZED_MACROLANGUAGES.get(base, base)
    return base, _MTEB_SCRIPTS.get(script, script)


def one_language(first: Language, second: Language) -> bool:
    """Whether two languages are one (``de`` and ``de-AT``, ``zh-TW`` and ``zh-Hant``, ``ar`` and ``arb``): a CLSD pair
    of them would measure no crossing of languages. One language in two scripts (``sr``, ``sr-Latn``) is two."""
    return _identity(first) == _identity(second)


def parse_pair(first: str, second: str) -> tuple[Language, Language]:
    """The two languages of a CLSD pair, each read by :func:`parse_language`; two codes of one language are refused."""
    languages = parse_language(first), parse_language(second)
    if one_language(*languages):
        raise CLSDError(
            f"{first.strip()!r} and {second.strip()!r} name one language ({languages[0].name}, {languages[0].mteb_code}); a CLSD "
            "pair is two languages, and a region, the letter case, '_' for '-' or the usual script does not make another."
        )
    return languages


@dataclass(frozen=True)
class ScriptShare:
    """How much of a text is in a language's script, counted as a reader counts it: in words where the script
    puts spaces between them, in characters where it does not (:func:`script_share`). ``units`` is how many of
    those carry a particular script (digits, punctuation and Unicode's Common letters carry none), ``share`` the
    part of them in ``script`` and ``other`` the script most of the rest are in."""

    script: str  # ISO 15924, as CLDR writes it ("Kore" for Korean, which mteb writes "Hang")
    units: int
    share: float | None  # None for a text without such units
    other: str | None  # None where every unit is in ``script``


# Letters of scripts written without spaces between words, by Unicode's line-breaking classes (UAX #14): a line
# may break between any two ideographs or kana (ID, CJ), and only a dictionary finds the words of Thai, Lao, Khmer
# or Myanmar (SA). Hangul syllables have classes of their own (H2, H3): Korean puts spaces between its words.
_WITHOUT_SPACES = r"\p{Line_Break=ID}\p{Line_Break=CJ}\p{Line_Break=SA}"
# One unit of text: a letter of a script written without spaces with its marks (a grapheme, about a word of
# Chinese), else a run of other letters with their marks, an apostrophe inside it kept (a word).
_UNITS = (
    rf"[\p{{L}}&&[{_WITHOUT_SPACES}]]\p{{M}}*"
    rf"|(?:[\p{{L}}--[{_WITHOUT_SPACES}]]\p{{M}}*)+(?:['\u2019](?:[\p{{L}}--[{_WITHOUT_SPACES}]]\p{{M}}*)+)*"
)


def script_share(texts: Iterable[str], language: Language) -> ScriptShare | None:
    """The share of ``texts`` written in ``language``'s script, counted in what carries a language: a word (a run of
    letters) in a script written with spaces, a character (with its marks) in one without (Han, kana, Thai), so
    that "MacBook" weighs what one Han character does. A word of two scripts counts once for each. Scripts are
    Unicode's Script property; None where Unicode has no letters of that script to tell (Braille is symbols;
    Tengwar has no Unicode block), or without langcodes (its IANA registry says what Jpan or Hant is made of).
    """
    script = {mteb: cldr for cldr, mteb in _MTEB_SCRIPTS.items()}.get(language.script, language.script)
    letters = _script_letters(script) if importable("langcodes") else None
    if letters is None:
        return None
    units: Counter[str] = Counter()
    for text in texts:
        units.update(_unit_pattern().findall(text))  # each distinct word is then looked at once
    inside, others = 0, Counter[str]()
    for unit, n in units.items():
        for first, found in _script_runs(unit):
            if letters.match(first):
                inside += n
            else:
                others[found] += n
    total = inside + others.total()
    if not total:
        return ScriptShare(script, 0, None, None)
    return ScriptShare(script, total, inside / total, others.most_common(1)[0][0] if others else None)


@functools.cache
def _unit_pattern() -> Any:
    import regex

    return regex.compile(_UNITS, regex.VERSION1)


def _script_runs(unit: str) -> list[tuple[str, str]]:
    """The first letter and the script of each run of one script in ``unit``; a letter of no particular script
    (Unicode's Common, such as the modifier apostrophe) joins the run it is in."""
    runs: list[tuple[str, str]] = []
    for char in unit:
        found = _script_of(char) if unicodedata.category(char).startswith("L") else None
        if found is not None and (not runs or found != runs[-1][1]):
            runs.append((char, found))
    return runs


def script_name(script: str) -> str:
    """A script's English name as the IANA registry gives it ("Cyrl" -> "Cyrillic", "Jpan" -> "Japanese")."""
    description = registry_description("script", script) if importable("langcodes") else None
    return description.split(" (")[0] if description else script


@functools.cache
def _regex_knows(script: str) -> bool:
    """Whether Unicode (as the regex module reads its Script property) has the script of this code or name."""
    import regex

    try:
        regex.compile(rf"\p{{Script={script}}}")
    except regex.error:
        return False
    return True


@functools.cache
def _script_letters(script: str) -> Any:
    """A pattern of one letter of ``script``: Unicode's script of that code, else the Unicode scripts the IANA
    registry names for it, as an alias ("Japanese (alias for Han + Hiragana + Katakana)") or a variant ("Han
    (Traditional variant)", "Latin (Fraktur variant)"); None where neither says.
    """
    import regex

    names = [script]
    if not _regex_knows(script):
        description = registry_description("script", script) or ""
        alias = re.search(r"\(alias for (.+)\)", description)
        variant = re.fullmatch(r"(.+) \([^)]* variant\)", description)
        names = alias.group(1).split(" + ") if alias else [variant.group(1)] if variant else []
    if not names or not all(_regex_knows(name) for name in names):
        return None
    return regex.compile("[" + "".join(rf"\p{{Script={name}}}" for name in names) + "]")


@functools.cache
def _script_classifier() -> Any:
    """One pattern naming the script of a letter: a group per script of the IANA registry that Unicode has, the
    codes for none in particular (Common, Inherited, Unknown) left out."""
    import regex

    single, _ = _registry("script")
    codes = [code for code, text in single.items() if not text.startswith("Code for") and _regex_knows(code)]
    return regex.compile("|".join(rf"(?P<{code}>\p{{Script={code}}})" for code in codes))


@functools.cache
def _script_of(char: str) -> str | None:
    match = _script_classifier().match(char)
    return match.lastgroup if match else None


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
