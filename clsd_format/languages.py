"""Languages: the one table of codes and names that the plugin, the generator and the analyses share.

One record per language, so that the release's column names ("German", ``de_adv1``), the prompt
("Answer in German!"), the translation model ("de" for M2M-100, "deu_Latn" for NLLB), the Hub rows
and mteb ("deu-Latn") and the analyses (Stanza's "de") always agree. Kept free of mteb: mteb's own
ISO tables are private files, and the generator must not import mteb.
"""

from __future__ import annotations

from dataclasses import dataclass

from clsd_format.schema import RELEASE_N_DISTRACTORS


@dataclass(frozen=True)
class Language:
    """A language by its short code, its English name and mteb's code.

    The field names are stored in generation checkpoints (``asdict``), so they stay as they are.
    """

    code: str  # ISO 639-1 where the language has one, else ISO 639-3 ("gsw"): task and config names, Stanza
    name: str  # English name: the release's column of original sentences, and the prompts
    mteb_code: str  # ISO 639-3 + ISO 15924 script, as mteb writes it: "deu-Latn"

    @property
    def nllb_code(self) -> str:
        """NLLB's language token ("deu_Latn")."""
        return self.mteb_code.replace("-", "_")

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

KNOWN_LANGUAGES: dict[str, Language] = {
    language.code: language
    for language in (
        GERMAN,
        FRENCH,
        ENGLISH,
        Language("it", "Italian", "ita-Latn"),
        Language("es", "Spanish", "spa-Latn"),
        Language("pt", "Portuguese", "por-Latn"),
        Language("nl", "Dutch", "nld-Latn"),
        Language("lb", "Luxembourgish", "ltz-Latn"),
        Language("rm", "Romansh", "roh-Latn"),
        Language("gsw", "Swiss German", "gsw-Latn"),
        Language("pl", "Polish", "pol-Latn"),
        Language("cs", "Czech", "ces-Latn"),
        Language("sv", "Swedish", "swe-Latn"),
        Language("da", "Danish", "dan-Latn"),
        Language("fi", "Finnish", "fin-Latn"),
        Language("ro", "Romanian", "ron-Latn"),
        Language("tr", "Turkish", "tur-Latn"),
        Language("ru", "Russian", "rus-Cyrl"),
        Language("uk", "Ukrainian", "ukr-Cyrl"),
        Language("el", "Greek", "ell-Grek"),
        Language("ar", "Arabic", "arb-Arab"),
        Language("zh", "Chinese", "zho-Hans"),
        Language("ja", "Japanese", "jpn-Jpan"),
    )
}

_CODE_OF_ISO3 = {language.mteb_code.split("-")[0]: code for code, language in KNOWN_LANGUAGES.items()}


def code_from_mteb(mteb_code: str) -> str:
    """'deu-Latn' -> 'de' for a known language; any other code gives its ISO 639-3 part ('hun-Latn' -> 'hun')."""
    iso3 = mteb_code.split("-")[0]
    return _CODE_OF_ISO3.get(iso3, iso3)
