"""Well-known names by kind: what keeps the name rule from putting a party where "EU" stood.

Entity types alone are too coarse for a distractor a reader takes for a translation: "the EU" and
"the SPD" are both organisations, yet "the other 27 member states of the SPD" is not a sentence a
translator writes. So a name listed here is swapped only for a name of the same kind (supranational
body, a party of one country, news medium, polling firm, company, stock index, central bank,
parliament, seat of power, a country or city of Europe or of the rest of the world; the EU, Brussels
and the EU's institutions are never swapped), and the kind gives it an entity type where no tagger
does (HanTa finds German and English names but not their types).

The kinds are language-neutral and live here; the names are each language's own, in a data file beside
its module (``languages/<code>_names.tsv``, read by :func:`read_names`). A line there is one entity: its
kind, an entity key shared by every language's file, and the forms that language writes, separated by
``;``; a form may end in ``:code``, the article it takes, which a substitute drawn from the list must
share (German ``m``/``f``/``n``/``p``, ``n`` also for article-less places; French ``m``/``f``/``p``;
English ``t``, takes "the"); no code means the name goes without an article. A file records which forms
its language writes: "EVP" is German, so it never replaces "PPE" in French text.

Persons are absent: the corpus types them, and a person is replaced only by one of the same sex
(:func:`clsd_generation.rules.entities.person_sexes`, from each language's titles and role nouns).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

KIND_TYPES = {
    "eu_seat": "LOC",  # Brussels: as often the EU ("par Bruxelles") as the city, and no other city stands for the EU
    "eu": "ORG",  # never swapped: no other body has 27 member states, a customs union, treaties and "frexiters"
    "supranational": "ORG",
    "eu_institution": "ORG",
    "party": "ORG",  # German parties; the others by country (a reader sees "in Deutschland ... die Lega" at once)
    "party_fr": "ORG",
    "party_eu": "ORG",  # groups of the European Parliament and European parties
    "party_uk": "ORG",
    "party_at": "ORG",
    "party_es": "ORG",
    "party_us": "ORG",
    "party_hu": "ORG",  # a party alone of its country here: listed so that it is known, never swapped
    "party_pl": "ORG",
    "party_ch": "ORG",
    "party_gr": "ORG",
    "party_it": "ORG",
    "media": "ORG",
    "pollster": "ORG",
    "company": "ORG",
    "tech_company": "ORG",  # "Internet companies such as Google": never Nestlé
    "platform": "ORG",
    "index": "ORG",
    "central_bank": "ORG",
    "parliament": "ORG",
    "seat_of_power": "ORG",
    "country": "LOC",
    "country_world": "LOC",
    "city": "LOC",
    "city_world": "LOC",
}
# Places are split by region: a European country or city for another (a reader of "members from Egypt, Libya or
# Switzerland", in a sentence listing members from outside Europe, sees the slip at once).
PLACE_KINDS = frozenset({"country", "country_world", "city", "city_world", "eu_seat"})
# Kinds whose names are never swapped: the EU, its seat and its institutions each do what no other does ("the
# parliamentary groups of the European Parliament" -> "... of the European Council", "the 27 member states of
# the WHO", "taxes planned by Lyon").
FIXED_KINDS = frozenset({"eu", "eu_seat", "eu_institution"})


@dataclass(frozen=True)
class KnownName:
    text: str
    kind: str
    language: str
    article: str  # the article class a substitute must share ("" where the name goes without one)
    entity: str  # the names of one entity, in every language, share this key: aliases are never substitutes


def _forms(column: str) -> Iterator[tuple[str, str]]:
    for form in column.split(";"):
        text, _, article = form.strip().partition(":")
        if text:
            yield text.strip(), article.strip()


def read_names(path: Path, language: str) -> tuple[KnownName, ...]:
    """One language's names file, in file order (:func:`parse_names`)."""
    return parse_names(Path(path).read_text(encoding="utf-8"), language, str(path))


def parse_names(text: str, language: str, where: str = "names") -> tuple[KnownName, ...]:
    """Names written as a names file is (``kind<TAB>entity<TAB>forms`` a line), in order: a language module may hold
    its few names itself rather than in a file beside it. A form listed for two entities is a mistake in the data."""
    out: list[KnownName] = []
    seen: dict[str, tuple[str, str]] = {}  # case-folded form -> (kind, entity)
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.startswith("#"):
            continue
        fields = raw.split("\t")
        if len(fields) != 3 or fields[0] not in KIND_TYPES:
            raise ValueError(f"{where}, line {number}: expected 'kind<TAB>entity<TAB>forms' with a known kind, got {raw!r}")
        kind, entity, forms = fields
        for form, article in _forms(forms):
            key = form.casefold()
            if key in seen and seen[key] != (kind, entity):
                raise ValueError(f"{where}, line {number}: {form!r} is listed twice: {seen[key][0]} and {kind}")
            if key in seen:  # "NATO" and "Nato": one name to the case-blind lookup, the first spelling inserted
                continue
            seen[key] = (kind, entity)
            out.append(KnownName(form, kind, language, article, entity))
    return tuple(out)
