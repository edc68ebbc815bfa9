"""Languages a corpus can be in: the short code users type, the name prompts use, the mteb code.

One table, so that the prompt ("Answer in German!"), the translation model ("de" for M2M-100,
"deu_Latn" for NLLB) and the Hub rows ("deu-Latn") always agree. A language missing from the table
is given in full as ``code:Name:mteb-code`` (e.g. ``gsw:Swiss German:gsw-Latn``).
"""

from __future__ import annotations

from dataclasses import dataclass

from clsd_format.errors import CLSDError


@dataclass(frozen=True)
class LanguageSpec:
    code: str  # what the user types and what config names use: "de"
    name: str  # English name, filled into prompts: "German"
    mteb_code: str  # ISO 639-3 + script, as mteb and NLLB (with "_") write it: "deu-Latn"

    @property
    def nllb_code(self) -> str:
        return self.mteb_code.replace("-", "_")


ENGLISH = LanguageSpec("en", "English", "eng-Latn")

KNOWN_LANGUAGES: dict[str, LanguageSpec] = {
    spec.code: spec
    for spec in (
        LanguageSpec("de", "German", "deu-Latn"),
        LanguageSpec("fr", "French", "fra-Latn"),
        ENGLISH,
        LanguageSpec("it", "Italian", "ita-Latn"),
        LanguageSpec("es", "Spanish", "spa-Latn"),
        LanguageSpec("pt", "Portuguese", "por-Latn"),
        LanguageSpec("nl", "Dutch", "nld-Latn"),
        LanguageSpec("lb", "Luxembourgish", "ltz-Latn"),
        LanguageSpec("rm", "Romansh", "roh-Latn"),
        LanguageSpec("gsw", "Swiss German", "gsw-Latn"),
        LanguageSpec("pl", "Polish", "pol-Latn"),
        LanguageSpec("cs", "Czech", "ces-Latn"),
        LanguageSpec("sv", "Swedish", "swe-Latn"),
        LanguageSpec("da", "Danish", "dan-Latn"),
        LanguageSpec("fi", "Finnish", "fin-Latn"),
        LanguageSpec("ro", "Romanian", "ron-Latn"),
        LanguageSpec("tr", "Turkish", "tur-Latn"),
        LanguageSpec("ru", "Russian", "rus-Cyrl"),
        LanguageSpec("uk", "Ukrainian", "ukr-Cyrl"),
        LanguageSpec("el", "Greek", "ell-Grek"),
        LanguageSpec("ar", "Arabic", "arb-Arab"),
        LanguageSpec("zh", "Chinese", "zho-Hans"),
        LanguageSpec("ja", "Japanese", "jpn-Jpan"),
    )
}


def parse_language(text: str) -> LanguageSpec:
    """A known short code (``de``) or a full ``code:Name:mteb-code`` triple."""
    text = text.strip()
    if ":" in text:
        parts = [p.strip() for p in text.split(":")]
        if len(parts) != 3 or not all(parts) or "-" not in parts[2]:
            raise CLSDError(
                f"language {text!r}: write a full language as code:Name:mteb-code, e.g. 'gsw:Swiss German:gsw-Latn'."
            )
        return LanguageSpec(*parts)
    spec = KNOWN_LANGUAGES.get(text.lower())
    if spec is None:
        raise CLSDError(
            f"unknown language code {text!r}; known: {', '.join(sorted(KNOWN_LANGUAGES))}. "
            "For another language write code:Name:mteb-code, e.g. 'gsw:Swiss German:gsw-Latn'."
        )
    return spec
