"""Well-known names by kind and language: what keeps the name rule from putting a party where "EU" stood.

Entity types alone are too coarse for a distractor a reader takes for a translation: "the EU" and
"the SPD" are both organisations, yet "the other 27 member states of the SPD" is not a sentence a
translator writes. So a name listed here is swapped only for a name of the same kind (supranational
body, a party of one country, news medium, polling firm, company, stock index, central bank,
parliament, seat of power, a country or city of Europe or of the rest of the world; the EU, Brussels
and the EU's institutions are never swapped), and the kind gives it an entity type where no tagger
does (HanTa finds German and English names but not their types).

Each line of a table is one entity, in three columns "German | French | English" (a line without
``|`` is written alike in all three). A column lists the forms that language writes, separated by
``;``; a form may end in ``:code``, the article it takes, which a substitute drawn from this list
must share: German ``m``/``f``/``n``/``p`` (``n`` also for article-less places), French ``m``/``f``/``p``,
English ``t`` (takes "the"); no code means the name goes without an article. The column records which
languages write a form: "EVP" is German, so it never replaces "PPE" in French text.

Persons are absent: the corpus types them, and a person is replaced only by one of the same sex
(:func:`clsd_generation.rules.entities.person_sexes`, from the titles and role nouns below). ``TITLES``
lists the words that announce a person in German and English, for corpora where no tagger types names.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

LANGUAGES = ("de", "fr", "en")
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

_TABLES = {
    "eu": """
EU:f | UE:f; Union européenne:f | EU:t; European Union:t
""",
    "eu_seat": """
Brüssel:n | Bruxelles | Brussels
""",
    "supranational": """
UNO:f; UN:p; Vereinte Nationen:p | ONU:f; Nations unies:p | UN:t; United Nations:t
NATO:f; Nato:f | OTAN:f; Otan:f | NATO; Nato
WHO:f; Weltgesundheitsorganisation:f | OMS:f | WHO:t; World Health Organization:t
IWF:m; Internationaler Währungsfonds:m | FMI:m; Fonds monétaire international:m | IMF:t; International Monetary Fund:t
WTO:f; Welthandelsorganisation:f | OMC:f | WTO:t; World Trade Organization:t
OECD:f | OCDE:f | OECD:t
OSZE:f | OSCE:f | OSCE:t
Europarat:m | Conseil de l'Europe:m | Council of Europe:t
Weltbank:f | Banque mondiale:f | World Bank:t
OPEC:f; Opec:f | Opep:f; OPEP:f | OPEC; Opec
IAEA:f | AIEA:f | IAEA:t
Afrikanische Union:f | Union africaine:f | African Union:t
Unesco:f; UNESCO:f | Unesco:f; UNESCO:f | Unesco; UNESCO
Unicef; UNICEF | Unicef:m; UNICEF:m | Unicef; UNICEF
Interpol
Europol
Frontex
ASEAN:f | Asean:f; ASEAN:f | ASEAN
""",
    "eu_institution": """
Europäische Kommission:f; EU-Kommission:f | Commission européenne:f | European Commission:t
Europäisches Parlament:n; EU-Parlament:n; Europaparlament:n | Parlement européen:m | European Parliament:t
Europäischer Rat:m | Conseil européen:m | European Council:t
EuGH:m; Europäischer Gerichtshof:m | CJUE:f | ECJ:t; CJEU:t; European Court of Justice:t
""",
    "party": """
SPD:f | SPD:m | SPD:t
CDU:f | CDU:f | CDU:t
CSU:f | CSU:f | CSU:t
AfD:f | AfD:f | AfD:t
FDP:f | FDP:m | FDP:t
Grüne:p; Grünen:p | Verts:p | Greens:t
Linke:f; Linkspartei:f | Die Linke | Left Party:t
""",
    "party_fr": """
LREM; La République en marche | LREM; La République en marche:f; LaREM | LREM
LR; Les Républicains:p | LR; Les Républicains:p | LR
RN; Rassemblement National | RN:m; Rassemblement national:m | RN; National Rally:t
FN; Front National | FN:m; Front national:m | FN; National Front:t
Parti socialiste | PS:m; Parti socialiste:m | PS; Socialist Party:t
LFI; La France insoumise | LFI:f; La France insoumise:f | LFI
EELV | EELV | EELV
""",
    "party_eu": """
EVP:f | PPE:m | EPP:t
S&D | S&D | S&D
ALDE | ALDE | ALDE
Renew Europe | Renew Europe | Renew Europe
EKR:f | ECR:m | ECR:t
GUE/NGL | GUE/NGL | GUE/NGL
""",
    "party_uk": """
Labour; Labour-Partei:f | Labour; Parti travailliste:m | Labour; Labour Party:t
Tories:p | Tories:p | Tories:t; Conservatives:t
Liberaldemokraten:p |  | Liberal Democrats:t; Lib Dems:t
SNP:f | SNP:m | SNP:t
""",
    "party_at": """
ÖVP:f | ÖVP:m | ÖVP
FPÖ:f | FPÖ:m | FPÖ
""",
    "party_es": """
PSOE:f | PSOE:m | PSOE
Podemos
""",
    "party_us": """
Republikaner:p |  | Republicans:t
Demokraten:p |  | Democrats:t
""",
    "party_hu": """
Fidesz:f | Fidesz:m | Fidesz
""",
    "party_pl": """
PiS:f | PiS:m | PiS
""",
    "party_ch": """
SVP:f | UDC:f | SVP
""",
    "party_gr": """
Syriza:f | Syriza:m | Syriza
""",
    "party_it": """
Lega:f | Ligue:f | League:t
""",
    "media": """
Spiegel:m | Spiegel:m | Spiegel
Bild:f; Bild-Zeitung:f | Bild | Bild
FAZ:f; Frankfurter Allgemeine Zeitung:f | FAZ; Frankfurter Allgemeine Zeitung:f | FAZ; Frankfurter Allgemeine Zeitung
Süddeutsche Zeitung:f; Süddeutsche:f; SZ:f | Süddeutsche Zeitung:f | Süddeutsche Zeitung
Handelsblatt:n | Handelsblatt:m | Handelsblatt
Tagesspiegel:m | Tagesspiegel:m | Tagesspiegel
taz:f | taz | taz
ARD:f | ARD:f | ARD
ZDF:n | ZDF:f | ZDF
dpa:f | DPA:f; dpa:f | dpa; DPA
Le Monde | Le Monde; Monde:m | Le Monde
Le Figaro | Le Figaro; Figaro:m | Le Figaro
Libération | Libération:f | Libération
Le Parisien | Le Parisien; Parisien:m | Le Parisien
Les Echos; Les Échos | Les Echos; Les Échos; Echos:p; Échos:p | Les Echos
Mediapart
AFP:f | AFP:f | AFP:t
Reuters
Bloomberg
AP:f | AP:f | AP:t
BBC:f | BBC:f | BBC:t
CNN
Fox News
New York Times:f | New York Times:m | New York Times:t
Washington Post:f | Washington Post:m | Washington Post:t
Wall Street Journal:n | Wall Street Journal:m | Wall Street Journal:t
Financial Times:f | Financial Times:m | Financial Times:t
Guardian:m | Guardian:m | Guardian:t
Politico
Xinhua
""",
    "pollster": """
Ifop
Forsa
YouGov
Infratest; Infratest dimap
Forschungsgruppe Wahlen:f | Forschungsgruppe Wahlen | Forschungsgruppe Wahlen
Allensbach
Emnid
INSA
Civey
Kantar
Ipsos
Elabe
Odoxa
OpinionWay
Harris Interactive
BVA
Gallup
Pew; Pew Research Center
""",
    "company": """
Siemens
Volkswagen; VW
BMW
Daimler
Mercedes-Benz
Airbus
Boeing
Renault
Peugeot
Lufthansa:f | Lufthansa | Lufthansa
Air France:f | Air France | Air France
Deutsche Bank:f | Deutsche Bank:f | Deutsche Bank
Commerzbank:f | Commerzbank:f | Commerzbank
BNP Paribas
Société Générale:f | Société Générale:f | Société Générale
Allianz
AXA
Bayer
BASF
Telekom:f; Deutsche Telekom:f | Deutsche Telekom:f | Deutsche Telekom
TotalEnergies
Danone
LVMH
Sanofi
Nestlé
Novartis
Shell
Tesla
Toyota
Gazprom
Pfizer
BioNTech
Moderna
AstraZeneca
""",
    "tech_company": """
SAP
Apple
Google
Amazon
Microsoft
Meta
Uber
Huawei
Samsung
Alibaba
Mozilla
""",
    "platform": """
Facebook
Twitter
Instagram
YouTube
WhatsApp
TikTok
Telegram
LinkedIn
Snapchat
Netflix
""",
    "index": """
Dax:m; DAX:m | Dax:m; DAX:m | Dax:t; DAX:t
MDax:m; MDAX:m | MDax:m | MDax:t
Dow Jones:m | Dow Jones:m | Dow Jones:t
Nasdaq:m | Nasdaq:m | Nasdaq:t
S&P 500:m | S&P 500:m | S&P 500:t
CAC 40:m | CAC 40:m | CAC 40:t
Nikkei:m | Nikkei:m | Nikkei:t
FTSE:m | FTSE:m | FTSE:t
Euro Stoxx:m; EuroStoxx:m | Euro Stoxx:m | Euro Stoxx:t
Hang Seng:m | Hang Seng:m | Hang Seng:t
""",
    "central_bank": """
EZB:f; Europäische Zentralbank:f | BCE:f; Banque centrale européenne:f | ECB:t; European Central Bank:t
Fed:f; US-Notenbank:f | Fed:f | Fed:t; Federal Reserve:t
Bundesbank:f | Bundesbank:f | Bundesbank:t
Banque de France:f | Banque de France:f | Banque de France:t
Bank of England:f | Banque d'Angleterre:f | Bank of England:t
Bank of Japan:f | Banque du Japon:f | Bank of Japan:t
SNB:f; Schweizerische Nationalbank:f | BNS:f; Banque nationale suisse:f | SNB:t; Swiss National Bank:t
""",
    "parliament": """
Bundestag:m | Bundestag:m | Bundestag:t
Bundesrat:m | Bundesrat:m | Bundesrat:t
Nationalversammlung:f | Assemblée nationale:f | National Assembly:t
Kongress:m | Congrès:m | Congress
Unterhaus:n | Chambre des communes:f | House of Commons:t
Repräsentantenhaus:n | Chambre des représentants:f | House of Representatives:t
Duma:f | Douma:f | Duma:t
Knesset:f | Knesset:f | Knesset:t
""",
    "seat_of_power": """
Kreml:m | Kremlin:m | Kremlin:t
Weißes Haus:n | Maison Blanche:f; Maison-Blanche:f | White House:t
Élysée:m; Elysée:m; Élysée-Palast:m | Élysée:m; Elysée:m | Élysée:t; Elysée:t
Matignon | Matignon | Matignon
Downing Street
Kanzleramt:n | chancellerie:f | Chancellery:t
""",
    "country": """
Deutschland:n | Allemagne:f | Germany
Frankreich:n | France:f | France
Italien:n | Italie:f | Italy
Spanien:n | Espagne:f | Spain
Portugal:n | Portugal:m | Portugal
Niederlande:p | Pays-Bas:p | Netherlands:t
Belgien:n | Belgique:f | Belgium
Luxemburg:n | Luxembourg:m | Luxembourg
Österreich:n | Autriche:f | Austria
Schweiz:f | Suisse:f | Switzerland
Polen:n | Pologne:f | Poland
Tschechien:n | Tchéquie:f; République tchèque:f | Czech Republic:t; Czechia
Slowakei:f | Slovaquie:f | Slovakia
Ungarn:n | Hongrie:f | Hungary
Rumänien:n | Roumanie:f | Romania
Bulgarien:n | Bulgarie:f | Bulgaria
Griechenland:n | Grèce:f | Greece
Zypern:n | Chypre | Cyprus
Malta:n | Malte | Malta
Slowenien:n | Slovénie:f | Slovenia
Kroatien:n | Croatie:f | Croatia
Serbien:n | Serbie:f | Serbia
Bosnien-Herzegowina:n | Bosnie-Herzégovine:f | Bosnia and Herzegovina
Albanien:n | Albanie:f | Albania
Nordmazedonien:n | Macédoine du Nord:f | North Macedonia
Kosovo:m | Kosovo:m | Kosovo
Montenegro:n | Monténégro:m | Montenegro
Dänemark:n | Danemark:m | Denmark
Schweden:n | Suède:f | Sweden
Norwegen:n | Norvège:f | Norway
Finnland:n | Finlande:f | Finland
Island:n | Islande:f | Iceland
Irland:n | Irlande:f | Ireland
Großbritannien:n | Grande-Bretagne:f | Britain; Great Britain
Vereinigtes Königreich:n | Royaume-Uni:m | United Kingdom:t; UK:t
Estland:n | Estonie:f | Estonia
Lettland:n | Lettonie:f | Latvia
Litauen:n | Lituanie:f | Lithuania
""",
    "country_world": """
Ukraine:f | Ukraine:f | Ukraine
Russland:n | Russie:f | Russia
Belarus:n; Weißrussland:n | Biélorussie:f; Bélarus:m | Belarus
Moldau:f; Moldawien:n | Moldavie:f | Moldova
Türkei:f | Turquie:f | Turkey
Georgien:n | Géorgie:f | Georgia
USA:p; Vereinigte Staaten:p | États-Unis:p; Etats-Unis:p | United States:t; US:t; USA:t
Kanada:n | Canada:m | Canada
Mexiko:n | Mexique:m | Mexico
Brasilien:n | Brésil:m | Brazil
Argentinien:n | Argentine:f | Argentina
China:n | Chine:f | China
Japan:n | Japon:m | Japan
Indien:n | Inde:f | India
Indonesien:n | Indonésie:f | Indonesia
Südkorea:n | Corée du Sud:f | South Korea
Nordkorea:n | Corée du Nord:f | North Korea
Australien:n | Australie:f | Australia
Saudi-Arabien:n | Arabie saoudite:f | Saudi Arabia
Südafrika:n | Afrique du Sud:f | South Africa
Iran:m | Iran:m | Iran
Irak:m | Irak:m | Iraq
Israel:n | Israël | Israel
Syrien:n | Syrie:f | Syria
Ägypten:n | Égypte:f | Egypt
Afghanistan:n | Afghanistan:m | Afghanistan
Pakistan:n | Pakistan:m | Pakistan
Venezuela:n | Venezuela:m | Venezuela
Libyen:n | Libye:f | Libya
Nigeria:n | Nigeria:m | Nigeria
Marokko:n | Maroc:m | Morocco
Algerien:n | Algérie:f | Algeria
Tunesien:n | Tunisie:f | Tunisia
""",
    "city": """
Berlin:n | Berlin | Berlin
Hamburg:n | Hambourg | Hamburg
München:n | Munich | Munich
Köln:n | Cologne | Cologne
Frankfurt:n | Francfort | Frankfurt
Stuttgart:n | Stuttgart | Stuttgart
Düsseldorf:n | Düsseldorf | Düsseldorf
Dresden:n | Dresde | Dresden
Leipzig:n | Leipzig | Leipzig
Hannover:n | Hanovre | Hanover
Bonn:n | Bonn | Bonn
Bremen:n | Brême | Bremen
Nürnberg:n | Nuremberg | Nuremberg
Paris:n | Paris | Paris
Lyon:n | Lyon | Lyon
Marseille:n | Marseille | Marseille
Toulouse:n | Toulouse | Toulouse
Bordeaux:n | Bordeaux | Bordeaux
Lille:n | Lille | Lille
Nantes:n | Nantes | Nantes
Straßburg:n | Strasbourg | Strasbourg
Wien:n | Vienne | Vienna
Genf:n | Genève | Geneva
Zürich:n | Zurich | Zurich
Bern:n | Berne | Bern
Rom:n | Rome | Rome
Mailand:n | Milan | Milan
Madrid:n | Madrid | Madrid
Barcelona:n | Barcelone | Barcelona
Lissabon:n | Lisbonne | Lisbon
Amsterdam:n | Amsterdam | Amsterdam
Den Haag | La Haye | The Hague
Kopenhagen:n | Copenhague | Copenhagen
Stockholm:n | Stockholm | Stockholm
Oslo:n | Oslo | Oslo
Helsinki:n | Helsinki | Helsinki
Dublin:n | Dublin | Dublin
London:n | Londres | London
Warschau:n | Varsovie | Warsaw
Prag:n | Prague | Prague
Budapest:n | Budapest | Budapest
Bukarest:n | Bucarest | Bucharest
Athen:n | Athènes | Athens
""",
    "city_world": """
Moskau:n | Moscou | Moscow
Kiew:n; Kyjiw:n | Kiev; Kyiv | Kyiv; Kiev
Minsk:n | Minsk | Minsk
Istanbul:n | Istanbul | Istanbul
Ankara:n | Ankara | Ankara
Washington:n | Washington | Washington
New York:n | New York | New York
Los Angeles:n | Los Angeles | Los Angeles
Chicago:n | Chicago | Chicago
Ottawa:n | Ottawa | Ottawa
Toronto:n | Toronto | Toronto
Peking:n | Pékin | Beijing
Shanghai:n | Shanghai | Shanghai
Hongkong:n | Hong Kong | Hong Kong
Tokio:n | Tokyo | Tokyo
Seoul:n | Séoul | Seoul
Neu-Delhi:n | New Delhi | New Delhi
Jerusalem:n | Jérusalem | Jerusalem
Kairo:n | Le Caire | Cairo
Teheran:n | Téhéran | Tehran
Riad:n | Riyad | Riyadh
Brasília:n | Brasília | Brasília
Buenos Aires:n | Buenos Aires | Buenos Aires
Mexiko-Stadt:n | Mexico | Mexico City
Canberra:n | Canberra | Canberra
Sydney:n | Sydney | Sydney
Johannesburg:n | Johannesburg | Johannesburg
""",
}

# Words right before a name that make it a person (German compounds by their ending: "Bundeskanzlerin").
TITLES = {
    "de": frozenset(
        "herr herrn frau dr prof präsident präsidentin kanzler kanzlerin minister ministerin premier papst "
        "könig königin prinz prinzessin senator senatorin gouverneur gouverneurin".split()
    ),
    "en": frozenset(
        "mr mrs ms dr prof president chancellor minister secretary senator governor mayor "
        "judge king queen pope prince princess sir lord commissioner".split()
    ),
}
# Titles that say a person's sex: after them only a surname comes in ("Frau May" never "Frau Matthieu Orphelin"),
# and only a person of the same sex ("Mme Le Pen" never "Mme Bayrou").
TITLE_SEXES = {
    "de": {"herr": "m", "herrn": "m", "frau": "f"},
    "fr": {"m.": "m", "m": "m", "monsieur": "m", "mme": "f", "mme.": "f", "mlle": "f", "madame": "f"},
    "en": {"mr": "m", "mr.": "m", "mrs": "f", "mrs.": "f", "ms": "f", "ms.": "f", "miss": "f"},
}
GENDERED_TITLES = {language: frozenset(titles) for language, titles in TITLE_SEXES.items()}
# French role nouns before a name, by the sex they give ("la présidente X"); the gender of other nouns before a name
# says nothing ("la Commission Juncker", "la liste Wagenknecht"). Nouns of both sexes ("ministre", "camarade") take
# the sex of their article ("la ministre", "sa camarade").
ROLE_SEXES = {
    "fr": {
        **dict.fromkeys(
            "président vice-président chancelier député eurodéputé candidat dirigeant fondateur patron directeur "
            "premier conseiller sénateur maire ambassadeur chef".split(),
            "m",
        ),
        **dict.fromkeys(
            "présidente vice-présidente chancelière députée eurodéputée candidate dirigeante fondatrice patronne "
            "directrice première conseillère sénatrice ambassadrice cheffe".split(),
            "f",
        ),
    },
}
EPICENE_ROLES = {
    "fr": frozenset("ministre camarade collègue secrétaire commissaire journaliste leader responsable porte-parole".split())
}
ARTICLE_SEXES = {"fr": {"le": "m", "un": "m", "ce": "m", "du": "m", "au": "m", "la": "f", "une": "f", "cette": "f", "sa": "f"}}
# Endings of German role nouns in their masculine form ("der CSU-Politiker Weber"); the feminine adds "-in".
MASCULINE_ROLE_ENDINGS = {
    "de": (
        "politiker", "chef", "kandidat", "sprecher", "präsident", "kanzler", "minister", "kommissar", "sekretär",
        "direktor", "leiter", "gründer", "autor", "experte", "journalist", "ökonom", "abgeordneter", "vorsitzender",
        "bürgermeister", "europaabgeordneter", "botschafter", "richter", "professor", "forscher", "analyst", "berater",
    ),
}  # fmt: skip
# Words of a state's formal name before its short name ("Bundesrepublik Deutschland" is not "Bundesrepublik Dänemark").
STATE_FORMS = {
    "de": frozenset("bundesrepublik republik königreich freistaat fürstentum großherzogtum".split()),
    "fr": frozenset("république royaume principauté grand-duché".split()),
    "en": frozenset("republic kingdom principality commonwealth federation".split()),
}
TITLE_ENDINGS = {
    "de": ("präsident", "präsidentin", "kanzler", "kanzlerin", "minister", "ministerin", "bürgermeister", "bürgermeisterin"),
    "en": (),
}


@dataclass(frozen=True)
class KnownName:
    text: str
    kind: str
    language: str
    article: str  # the article class a substitute must share ("" where the name goes without one)
    entity: int  # the names of one entity, in every language, share this number: aliases are never substitutes


def _forms(column: str) -> Iterator[tuple[str, str]]:
    for form in column.split(";"):
        text, _, article = form.strip().partition(":")
        if text:
            yield text.strip(), article.strip()


def parse(tables: dict[str, str]) -> list[KnownName]:
    """The tables as names; a form listed for two entities of one language is a mistake in the data."""
    out: list[KnownName] = []
    seen: dict[tuple[str, str], tuple[str, int]] = {}  # (case-folded form, language) -> (kind, entity)
    entity = 0
    for kind, table in tables.items():
        for line in filter(None, (raw.strip() for raw in table.splitlines())):
            columns = [c.strip() for c in line.split("|")] if "|" in line else [line] * len(LANGUAGES)
            if len(columns) != len(LANGUAGES):
                raise ValueError(f"{kind}: {line!r} has {len(columns)} columns, not {len(LANGUAGES)}")
            entity += 1
            for language, column in zip(LANGUAGES, columns, strict=True):
                for text, article in _forms(column):
                    key = (text.casefold(), language)
                    if key in seen and seen[key] != (kind, entity):
                        raise ValueError(f"{text!r} ({language}) is listed twice: {seen[key][0]} and {kind}")
                    if key in seen:  # "NATO" and "Nato": one name to the case-blind lookup, the first spelling inserted
                        continue
                    seen[key] = (kind, entity)
                    out.append(KnownName(text, kind, language, article, entity))
    return out


KNOWN_NAMES = tuple(parse(_TABLES))
