"""The languages that write compounds as one word: where two known words glued are a word of the language.

German writes "Apfelbaum" + "blüten" as "Apfelbaumblüten", Hungarian "nyomtató" + "kiszolgálóra" as one word; French,
Spanish, Italian or Portuguese never glue "maison" and "voiture" into "maisonvoiture". Whether a language does is a
fact of its writing, and no library the checks read states it (spaCy, Stanza, CLDR, langcodes and wordfreq declare
no such property), so it is declared here, once, each language with where it is written down: for most, the
language's Hunspell dictionary (LibreOffice's, packaged as ``hunspell-LL``), whose affix file turns compounding on
(``COMPOUNDFLAG``, ``COMPOUNDBEGIN``); for the others, the language's reference grammar or spelling rules. A language
is matched by langcodes (``de-AT``, ``deu``, ``gsw`` and ``lb`` read as German, ``nob`` as Norwegian Bokmål).

:func:`clsd_generation.checks.lexicon.knows` reads a word as two known words only in these languages; elsewhere two
known words glued are no word.
"""

from __future__ import annotations

import functools

# A language that writes compounds as one word, and where that is written down.
WRITES_COMPOUNDS: dict[str, str] = {
    "de": "Hunspell de_DE (igerman98): its affix file sets COMPOUNDBEGIN, COMPOUNDMIDDLE, COMPOUNDEND",
    "nl": "Hunspell nl (OpenTaal): its affix file sets COMPOUNDBEGIN, COMPOUNDRULE",
    "af": "Afrikaanse Woordelys en Spelreëls (Die Taalkommissie): compounds are written as one word",
    "da": "Hunspell da_DK (LibreOffice): its affix file sets COMPOUNDBEGIN, COMPOUNDEND",
    "nb": "Hunspell nb_NO (LibreOffice): its affix file sets COMPOUNDFLAG",
    "nn": "Hunspell nn_NO (LibreOffice): its affix file sets COMPOUNDFLAG",
    "no": "Hunspell nb_NO and nn_NO (LibreOffice): their affix files set COMPOUNDFLAG",
    "sv": "Hunspell sv_SE (LibreOffice): its affix file sets COMPOUNDBEGIN, COMPOUNDRULE",
    "is": "Ritreglur (Íslensk málnefnd): compounds are written as one word",
    "fo": "Hunspell fo (ispell-fo): its affix file sets COMPOUNDFLAG",
    "fi": "Iso suomen kielioppi (Kotimaisten kielten keskus, 2004): compounds are written as one word",
    "et": "Hunspell et_EE (myspell-et): its affix file sets COMPOUNDFLAG",
    "hu": "Hunspell hu_HU (LibreOffice, Magyar Ispell): its affix file sets COMPOUNDFLAG, COMPOUNDRULE",
    "el": "Holton, Mackridge & Philippaki-Warburton, Greek: A Comprehensive Grammar (Routledge): compound words",
    "tr": "Göksel & Kerslake, Turkish: A Comprehensive Grammar (Routledge, 2005): compounds written as one word",
    "hi": "Kachru, Hindi (John Benjamins, 2006): compounds (samās) written as one word",
    "bn": "Thompson, Bengali: A Comprehensive Grammar (Routledge, 2010): compound words",
    "ta": "Lehmann, A Grammar of Modern Tamil (Pondicherry Institute of Linguistics and Culture, 1989): compounds",
    "ml": "Asher & Kumari, Malayalam (Routledge, 1997): compounds written as one word",
}
_SAME_LANGUAGE = 10  # langcodes' distance of one language's varieties ("de-AT" -> "de" is 4, "lb" -> "de" 8)


@functools.cache
def writes_compounds(language: str) -> bool:
    """Whether ``language`` (a run's code) writes compounds as one word (:data:`WRITES_COMPOUNDS`)."""
    import langcodes

    for tag in (language, language.replace("_", "-").split("-")[0]):
        try:
            match, _ = langcodes.closest_match(tag, sorted(WRITES_COMPOUNDS), max_distance=_SAME_LANGUAGE)
        except (ValueError, LookupError):  # not a tag langcodes parses (a dataset's own code)
            continue
        if match != "und":
            return True
    return False
