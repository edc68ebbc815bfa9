"""Writes the fixture files of ``tests/data/clsd-mini/`` (see ``tests/data/README.md``).

Every sentence here was written for this project's tests; none comes from the CLSD release. Each row
is a German sentence, its French translation, and two English renderings (the pivot versions of the
German and of the French cell); each of its four edits turns the original into one distractor per
language (``de_advN``, ``fr_advN``) and into the English pivot version of that distractor.

Edit syntax: ``"old>new"`` replaces the first whole-word occurrence; several replacements are joined
with ``;``. The English part may hold two edits, ``"for the German-based English / for the
French-based English"``, or ``"="``: the translation collapsed, so the pivot distractor equals the
pivot original (a tie in the English-pivot tasks). The last part names the annotation: ``"NOUN"``
(both languages), ``"de:NOUN fr:ADJ"``, ``"PROPN/LOC"`` (with an entity type), ``"NOUN=1"`` (annotated
semantically equivalent), ``"+"`` (an addition: no part of speech), or nothing.

Run ``python tests/data/make_fixture_files.py`` to rewrite the files; tests/plugin/test_data.py checks that
the committed files are what this script writes.
"""

from __future__ import annotations

import csv
import io
import re
import sys
from dataclasses import dataclass
from pathlib import Path

FOLDER = Path(__file__).resolve().parent / "clsd-mini"
COLUMNS = ["Index", "French", "German", *(f"de_adv{i}" for i in range(1, 5)), *(f"fr_adv{i}" for i in range(1, 5))]


@dataclass(frozen=True)
class Row:
    de: str
    fr: str
    en_de: str  # the German sentence in English (pivot)
    en_fr: str  # the French sentence in English (pivot)
    edits: tuple[tuple[str, str, str, str], ...]  # (German, French, English, annotation) x 4


WMT19 = [
    Row(
        "Der Stadtrat von Lindenau hat am Dienstag den Bau einer neuen Brücke über die Saale genehmigt.",
        "Mardi, le conseil municipal de Lindenau a approuvé la construction d'un nouveau pont sur la Saale.",
        "The city council of Lindenau approved the construction of a new bridge over the Saale on Tuesday.",
        "On Tuesday, the Lindenau city council approved the construction of a new bridge over the Saale.",
        (
            ("Dienstag>Freitag", "Mardi>Vendredi", "Tuesday>Friday", "NOUN"),
            ("genehmigt>abgelehnt", "approuvé>rejeté", "approved>rejected", "VERB"),
            ("neuen>zweiten", "nouveau>second", "new>second", "ADJ"),
            ("Saale>Elbe", "la Saale>l'Elbe", "Saale>Elbe", "PROPN/LOC"),
        ),
    ),
    Row(
        "Die Polizei hat nach dem Fußballspiel am Samstag drei Männer festgenommen.",
        "La police a arrêté trois hommes après le match de football de samedi.",
        "The police arrested three men after the football match on Saturday.",
        "Police arrested three men after Saturday's football match.",
        (
            ("drei>fünf", "trois>cinq", "three>five", "NUM"),
            ("Männer>Frauen", "hommes>femmes", "men>women", "NOUN"),
            ("festgenommen>freigelassen", "arrêté>relâché", "arrested>released", "VERB"),
            ("Fußballspiel>Konzert", "match de football>concert", "football match>concert", "de:NOUN"),
        ),
    ),
    Row(
        "Der Wetterdienst warnt für Donnerstag vor starken Gewittern im Süden des Landes.",
        "Le service météorologique met en garde contre de violents orages jeudi dans le sud du pays.",
        "The weather service warns of strong thunderstorms in the south of the country for Thursday.",
        "The weather service warns against violent thunderstorms on Thursday in the south of the country.",
        (
            ("Süden>Norden", "sud>nord", "south>north", "NOUN"),
            ("starken>leichten", "violents>légers", "=", "ADJ"),
            ("Donnerstag>Sonntag", "jeudi>dimanche", "Thursday>Sunday", "NOUN"),
            ("Gewittern>Stürmen", "orages>vents", "thunderstorms>winds", "NOUN"),
        ),
    ),
    Row(
        "Nach Angaben des Ministeriums sind im vergangenen Jahr 12 000 neue Lehrer eingestellt worden.",
        "Selon le ministère, 12 000 nouveaux enseignants ont été recrutés l'année dernière.",
        "According to the ministry, 12,000 new teachers were hired last year.",
        "According to the ministry, 12,000 new teachers were recruited last year.",
        (
            ("12 000>2 000", "12 000>2 000", "12,000>2,000", "NUM"),
            ("Lehrer>Polizisten", "enseignants>policiers", "teachers>police officers", "NOUN"),
            ("vergangenen>laufenden", "l'année dernière>cette année", "last year>this year", "de:ADJ"),
            ("des Ministeriums>der Gewerkschaft", "le ministère>le syndicat", "the ministry>the union", "fr:NOUN"),
        ),
    ),
    Row(
        "Die Zentralbank hat den Leitzins überraschend um 0,25 Prozentpunkte gesenkt.",
        "La banque centrale a abaissé de manière inattendue son taux directeur de 0,25 point.",
        "The central bank unexpectedly cut its key interest rate by 0.25 percentage points.",
        "The central bank unexpectedly lowered its key rate by 0.25 points.",
        (
            ("gesenkt>erhöht", "abaissé>relevé", "cut>raised / lowered>raised", "VERB"),
            ("überraschend>erwartungsgemäß", "de manière inattendue>comme prévu", "unexpectedly>as expected", "de:ADV"),
            ("0,25>0,5", "0,25>0,5", "0.25>0.5", "NUM"),
            ("Zentralbank>Regierung", "La banque centrale>Le gouvernement", "central bank>government", "de:NOUN"),
        ),
    ),
    Row(
        "Im Museum der Stadt ist seit Montag eine Ausstellung über die Geschichte des Bergbaus zu sehen.",
        "Depuis lundi, le musée de la ville présente une exposition sur l'histoire de l'exploitation minière.",
        "Since Monday, the city museum has been showing an exhibition on the history of mining.",
        "Since Monday, the city's museum has been presenting an exhibition on the history of mining.",
        (
            ("Montag>Januar", "lundi>janvier", "Monday>January", "NOUN"),
            ("Bergbaus>Weinbaus", "l'exploitation minière>la viticulture", "mining>winemaking", "de:NOUN"),
            ("Geschichte>Zukunft", "l'histoire>l'avenir", "history>future", "NOUN"),
            ("Museum>Rathaus", "le musée>la mairie", "museum>town hall", "de:NOUN"),
        ),
    ),
    Row(
        "Die Bahn will bis 2025 rund 200 neue Züge für den Fernverkehr kaufen.",
        "La compagnie ferroviaire veut acheter environ 200 nouveaux trains pour les grandes lignes d'ici 2025.",
        "The railway wants to buy around 200 new trains for long-distance services by 2025.",
        "The rail company wants to buy about 200 new trains for long-distance lines by 2025.",
        (
            ("2025>2030", "2025>2030", "2025>2030", "NUM"),
            ("kaufen>verkaufen", "acheter>vendre", "buy>sell", "VERB"),
            ("Züge>Lokomotiven", "nouveaux trains>nouvelles locomotives", "trains>engines", "de:NOUN"),
            ("Züge>Triebwagen", "nouveaux trains>nouvelles rames", "trains>engines", ""),
        ),
    ),
    Row(
        "Der Trainer sagte nach der Niederlage, seine Mannschaft habe zu viele Fehler gemacht.",
        "Après la défaite, l'entraîneur a déclaré que son équipe avait commis trop d'erreurs.",
        "After the defeat, the coach said his team had made too many mistakes.",
        "After the defeat, the coach said that his team had made too many errors.",
        (
            ("Niederlage>Sieg", "défaite>victoire", "defeat>victory", "NOUN"),
            ("zu viele>kaum", "trop d'erreurs>peu d'erreurs", "too many>few", ""),
            ("Trainer>Kapitän", "l'entraîneur>le capitaine", "coach>captain", "NOUN"),
            ("Mannschaft>Abwehr", "son équipe>sa défense", "team>defence", "de:NOUN"),
        ),
    ),
    Row(
        'Die Ministerin sprach von einem "schwierigen, aber notwendigen" Schritt für das Gesundheitswesen.',
        "La ministre a parlé d'une étape « difficile, mais nécessaire » pour le système de santé.",
        'The minister spoke of a "difficult but necessary" step for the health system.',
        'The minister spoke about a "difficult, but necessary" step for the health system.',
        (
            ("notwendigen>überflüssigen", "nécessaire>inutile", "necessary>unnecessary", "ADJ"),
            ("Gesundheitswesen>Bildungswesen", "santé>éducation", "health>education", "NOUN"),
            ("Ministerin>Kanzlerin", "La ministre>La chancelière", "minister>chancellor", "de:NOUN"),
            ("schwierigen>einfachen", "difficile>facile", "difficult>easy", "ADJ"),
        ),
    ),
    Row(
        '"Wir sind bereit", sagte die Kapitänin vor dem Finale in Lyon.',
        "« Nous sommes prêtes », a déclaré la capitaine avant la finale à Lyon.",
        '"We are ready," said the captain before the final in Lyon.',
        '"We are ready," the captain said before the final in Lyon.',
        (
            ("bereit>müde", "prêtes>fatiguées", "ready>tired", "ADJ"),
            ("vor>nach", "avant>après", "before>after", "ADP"),
            ("Lyon>Paris", "Lyon>Paris", "Lyon>Paris", "PROPN/LOC"),
            ("sind>waren", "sommes>étions", "=", "AUX"),
        ),
    ),
    Row(
        "Die Zahl der Arbeitslosen ist im Oktober auf 2,2 Millionen gesunken.",
        "Le nombre de chômeurs est tombé à 2,2 millions en octobre.",
        "The number of unemployed fell to 2.2 million in October.",
        "The number of jobseekers fell to 2.2 million in October.",
        (
            ("gesunken>gestiegen", "tombé>monté", "fell>rose", "VERB"),
            ("Oktober>März", "octobre>mars", "October>March", "NOUN"),
            ("2,2>3,2", "2,2>3,2", "2.2>3.2", "NUM"),
            ("Arbeitslosen>Studierenden", "chômeurs>étudiants", "unemployed>students / jobseekers>students", "NOUN"),
        ),
    ),
    Row(
        "Ein Feuer hat in der Nacht zum Sonntag eine Lagerhalle im Hafen zerstört.",
        "Dans la nuit de samedi à dimanche, un incendie a détruit un entrepôt du port.",
        "A fire destroyed a warehouse in the harbour on the night before Sunday.",
        "In the night from Saturday to Sunday, a fire destroyed a warehouse in the port.",
        (
            ("Lagerhalle>Schule", "un entrepôt>une école", "warehouse>school", "de:NOUN"),
            ("zerstört>beschädigt", "détruit>endommagé", "destroyed>damaged", "VERB"),
            ("Feuer>Brand", "un incendie>un feu", "fire>blaze", "NOUN=1"),
            ("Hafen>Bahnhof", "du port>de la gare", "harbour>station / port>station", "de:NOUN"),
        ),
    ),
    Row(
        "Die Regierung will die Steuern für kleine Unternehmen im nächsten Jahr senken.",
        "Le gouvernement veut baisser les impôts des petites entreprises l'an prochain.",
        "The government wants to cut taxes for small businesses next year.",
        "The government wants to lower taxes for small companies next year.",
        (
            ("senken>erhöhen", "baisser>augmenter", "cut>raise / lower>raise", "VERB"),
            ("kleine>große", "petites>grandes", "small>large", "ADJ"),
            ("Steuern>Gebühren", "impôts>frais", "taxes>fees", "NOUN"),
            ("nächsten>letzten", "l'an prochain>l'an dernier", "next>last", "de:ADJ"),
        ),
    ),
    Row(
        "Forscher haben in den Alpen eine bisher unbekannte Käferart entdeckt.",
        "Des chercheurs ont découvert une espèce de coléoptère jusqu'ici inconnue dans les Alpes.",
        "Researchers have discovered a previously unknown species of beetle in the Alps.",
        "Researchers discovered a hitherto unknown beetle species in the Alps.",
        (
            ("Alpen>Pyrenäen", "Alpes>Pyrénées", "Alps>Pyrenees", "PROPN/LOC"),
            ("entdeckt>ausgerottet", "découvert>exterminé", "discovered>wiped out", "VERB"),
            ("unbekannte>bekannte", "inconnue>connue", "unknown>known", "ADJ"),
            ("Käferart>Vogelart", "coléoptère>oiseau", "beetle>bird", "NOUN"),
        ),
    ),
    Row(
        "Der Flughafen meldete wegen des Streiks mehr als 300 gestrichene Flüge.",
        "L'aéroport a signalé plus de 300 vols annulés en raison de la grève.",
        "The airport reported more than 300 cancelled flights because of the strike.",
        "The airport reported more than 300 flights cancelled due to the strike.",
        (
            ("mehr>weniger", "plus>moins", "more>fewer", "ADV"),
            ("Streiks>Nebels", "la grève>le brouillard", "strike>fog", "de:NOUN"),
            ("Flughafen>Hafen", "L'aéroport>Le port", "airport>port", "de:NOUN"),
            ("gestrichene>verspätete", "annulés>retardés", "cancelled>delayed", "ADJ"),
        ),
    ),
    Row(
        "Bei der Wahl am Sonntag lag die Wahlbeteiligung bei knapp 60 Prozent.",
        "Lors de l'élection de dimanche, la participation a atteint à peine 60 %.",
        "In Sunday's election, turnout was just under 60 percent.",
        "In the election on Sunday, participation was barely 60%.",
        (
            ("60>45", "60>45", "60>45", "NUM"),
            ("knapp>über", "à peine>plus de", "just under>over / barely>over", "de:ADV"),
            ("Sonntag>Mittwoch", "dimanche>mercredi", "Sunday>Wednesday", "NOUN"),
            ("Wahl>Abstimmung", "de l'élection>du référendum", "election>referendum", "de:NOUN"),
        ),
    ),
    Row(
        "Das Unternehmen kündigte an, in Sachsen 500 Arbeitsplätze abzubauen.",
        "L'entreprise a annoncé la suppression de 500 emplois en Saxe.",
        "The company announced that it would cut 500 jobs in Saxony.",
        "The company announced the elimination of 500 jobs in Saxony.",
        (
            ("abzubauen>zu schaffen", "suppression>création", "cut>create / elimination>creation", "fr:NOUN"),
            ("Sachsen>Bayern", "Saxe>Bavière", "Saxony>Bavaria", "PROPN/LOC"),
            ("500>50", "500>50", "500>50", "NUM"),
            ("Unternehmen>Krankenhaus", "L'entreprise>L'hôpital", "company>hospital", "NOUN"),
        ),
    ),
    Row(
        "Die Brücke bleibt wegen Bauarbeiten bis Ende August für Autos gesperrt.",
        "Le pont reste fermé aux voitures jusqu'à fin août en raison de travaux.",
        "The bridge remains closed to cars until the end of August due to construction work.",
        "The bridge remains closed to cars until the end of August because of works.",
        (
            ("August>Mai", "août>mai", "August>May", "NOUN"),
            ("Autos>Fußgänger", "voitures>piétons", "cars>pedestrians", "NOUN"),
            ("gesperrt>geöffnet", "fermé>ouvert", "closed>open", "de:VERB fr:ADJ"),
            ("Ende>Anfang", "fin>début", "end>beginning", "NOUN"),
        ),
    ),
    Row(
        "Nach monatelangen Verhandlungen haben sich die Parteien auf einen Koalitionsvertrag geeinigt.",
        "Après des mois de négociations, les partis se sont mis d'accord sur un accord de coalition.",
        "After months of negotiations, the parties have agreed on a coalition agreement.",
        "After months of negotiations, the parties agreed on a coalition deal.",
        (
            (
                "geeinigt>zerstritten",
                "se sont mis d'accord>se sont disputés",
                "have agreed>have fallen out / agreed>fell out",
                "de:VERB",
            ),
            ("monatelangen>tagelangen", "mois>jours", "months>days", "de:ADJ fr:NOUN"),
            ("Parteien>Gewerkschaften", "les partis>les syndicats", "parties>unions", "NOUN"),
            (
                "Koalitionsvertrag>Haushalt",
                "un accord de coalition>un budget",
                "coalition agreement>budget / coalition deal>budget",
                "de:NOUN",
            ),
        ),
    ),
    Row(
        "In der Schweiz wurde am Wochenende ein neuer Temperaturrekord für den Monat Juni gemessen.",
        "Un nouveau record de température pour le mois de juin a été mesuré ce week-end en Suisse.",
        "A new temperature record for the month of June was measured in Switzerland at the weekend.",
        "A new temperature record for the month of June was measured this weekend in Switzerland.",
        (
            ("Juni>Dezember", "juin>décembre", "June>December", "NOUN"),
            ("In der Schweiz>In Österreich", "Suisse>Autriche", "Switzerland>Austria", "fr:PROPN/LOC"),
            ("neuer>alter", "nouveau>vieux", "new>old", "ADJ"),
            ("Temperaturrekord>Niederschlagsrekord", "température>pluie", "temperature>rainfall", "NOUN"),
        ),
    ),
    Row(
        "Der Verein hat den Vertrag mit seinem Torhüter um zwei Jahre verlängert.",
        "Le club a prolongé de deux ans le contrat de son gardien de but.",
        "The club has extended its goalkeeper's contract by two years.",
        "The club extended the contract of its goalkeeper by two years.",
        (
            ("zwei>drei", "deux>trois", "two>three", "NUM"),
            ("hat>hat nicht", "a prolongé>n'a pas prolongé", "has extended>has not extended / extended>did not extend", "+"),
            ("Torhüter>Stürmer", "gardien de but>attaquant", "goalkeeper>striker", "de:NOUN"),
            ("Jahre>Monate", "ans>mois", "years>months", "NOUN"),
        ),
    ),
    Row(
        "Die Stadt plant, im Zentrum künftig nur noch Elektrobusse fahren zu lassen.",
        "La ville prévoit de ne faire circuler que des bus électriques dans le centre à l'avenir.",
        "The city plans to allow only electric buses to run in the centre in future.",
        "The city plans to run only electric buses in the centre in the future.",
        (
            ("Zentrum>Umland", "le centre>la banlieue", "centre>suburbs", "de:NOUN"),
            ("Elektrobusse>Dieselbusse", "électriques>diesel", "electric>diesel", "de:NOUN fr:ADJ"),
            ("plant>verbietet", "prévoit>refuse", "plans>refuses", "VERB"),
            ("nur noch>keine", "ne faire circuler que des>ne plus faire circuler de", "only>no", ""),
        ),
    ),
    Row(
        "Der Angeklagte wurde vom Landgericht zu vier Jahren Haft verurteilt.",
        "L'accusé a été condamné à quatre ans de prison par le tribunal régional.",
        "The defendant was sentenced to four years in prison by the regional court.",
        "The accused was sentenced by the regional court to four years in prison.",
        (
            ("vier>acht", "quatre>huit", "four>eight", "NUM"),
            ("Haft>Bewährung", "de prison>avec sursis", "in prison>on probation", "de:NOUN"),
            ("Angeklagte>Zeuge", "L'accusé>Le témoin", "defendant>witness / accused>witness", "de:NOUN"),
            ("Landgericht>Amtsgericht", "régional>local", "regional>local", "de:NOUN fr:ADJ"),
        ),
    ),
    Row(
        "Wegen des Hochwassers mussten rund 1 500 Menschen ihre Häuser verlassen.",
        "En raison des inondations, environ 1 500 personnes ont dû quitter leur maison.",
        "Because of the floods, around 1,500 people had to leave their homes.",
        "Due to the flooding, about 1,500 people had to leave their homes.",
        (
            ("verlassen>renovieren", "quitter>rénover", "leave>renovate", "VERB"),
            ("1 500>15 000", "1 500>15 000", "1,500>15,000", "NUM"),
            ("Hochwassers>Erdbebens", "des inondations>du séisme", "floods>earthquake / flooding>earthquake", "de:NOUN"),
            ("Menschen>Familien", "personnes>familles", "people>families", "NOUN"),
        ),
    ),
]

WMT21 = [
    Row(
        "Die Impfkampagne soll im Frühjahr auf alle Erwachsenen ausgeweitet werden.",
        "La campagne de vaccination doit être étendue à tous les adultes au printemps.",
        "The vaccination campaign is to be extended to all adults in the spring.",
        "The vaccination campaign should be extended to all adults in spring.",
        (
            ("Frühjahr>Herbst", "printemps>automne", "spring>autumn", "NOUN"),
            ("Erwachsenen>Kinder", "adultes>enfants", "adults>children", "NOUN"),
            ("ausgeweitet>beschränkt", "étendue>limitée", "extended>limited", "VERB"),
            ("alle>einige", "tous les>certains", "all>some", "de:DET"),
        ),
    ),
    Row(
        "Der Hersteller ruft weltweit rund 80 000 Fahrzeuge wegen defekter Bremsen zurück.",
        "Le constructeur rappelle environ 80 000 véhicules dans le monde en raison de freins défectueux.",
        "The manufacturer is recalling around 80,000 vehicles worldwide because of faulty brakes.",
        "The manufacturer is recalling about 80,000 vehicles worldwide due to defective brakes.",
        (
            ("Bremsen>Airbags", "freins>airbags", "brakes>airbags", "NOUN"),
            ("80 000>8 000", "80 000>8 000", "80,000>8,000", "NUM"),
            ("weltweit>in Europa", "dans le monde>en Europe", "worldwide>in Europe", ""),
            ("Fahrzeuge>Fahrräder", "véhicules>vélos", "vehicles>bicycles", "NOUN"),
        ),
    ),
    Row(
        "Der Bürgermeister trat am Mittwoch nach nur sechs Monaten im Amt zurück.",
        "Le maire a démissionné mercredi après seulement six mois en fonction.",
        "The mayor resigned on Wednesday after only six months in office.",
        "The mayor stepped down on Wednesday after just six months in office.",
        (
            ("Mittwoch>Montag", "mercredi>lundi", "Wednesday>Monday", "NOUN"),
            ("sechs>sechzehn", "six>seize", "six>sixteen", "NUM"),
            ("Monaten>Wochen", "mois>semaines", "months>weeks", "NOUN"),
            ("Bürgermeister>Polizeichef", "Le maire>Le chef de la police", "mayor>police chief", "de:NOUN"),
        ),
    ),
    Row(
        "Die Preise für Heizöl sind innerhalb eines Jahres um fast 40 Prozent gestiegen.",
        "Les prix du fioul ont augmenté de près de 40 % en un an.",
        "Heating oil prices have risen by almost 40 percent within a year.",
        "The prices of heating oil increased by nearly 40% in one year.",
        (
            ("gestiegen>gefallen", "augmenté>baissé", "risen>fallen / increased>fell", "VERB"),
            ("Heizöl>Strom", "du fioul>de l'électricité", "Heating oil>Electricity / heating oil>electricity", "de:NOUN"),
            ("40>14", "40>14", "40>14", "NUM"),
            ("Jahres>Monats", "un an>un mois", "a year>a month / one year>one month", "de:NOUN"),
        ),
    ),
    Row(
        "Die Schauspielerin erhielt für ihre Rolle in dem Drama den Preis als beste Darstellerin.",
        "L'actrice a reçu le prix de la meilleure interprétation féminine pour son rôle dans le drame.",
        "The actress received the award for best actress for her role in the drama.",
        "The actress won the prize for best female performance for her role in the drama.",
        (
            ("Drama>Komödie", "le drame>la comédie", "drama>comedy", "de:NOUN"),
            ("beste>schlechteste", "meilleure>pire", "best>worst", "ADJ"),
            ("erhielt>verpasste", "a reçu>a manqué", "received>missed / won>missed", "de:VERB"),
            ("Schauspielerin>Regisseurin", "L'actrice>La réalisatrice", "The actress>The director", "de:NOUN"),
        ),
    ),
    Row(
        "Die Polizei sucht nach einem Zeugen, der den Unfall auf der Autobahn beobachtet hat.",
        "La police recherche un témoin qui a observé l'accident sur l'autoroute.",
        "The police are looking for a witness who observed the accident on the motorway.",
        "Police are searching for a witness who saw the accident on the highway.",
        (
            ("Zeugen>Fahrer", "un témoin>un conducteur", "witness>driver", "de:NOUN"),
            ("beobachtet>verursacht", "observé>causé", "observed>caused / saw>caused", "VERB"),
            ("Autobahn>Landstraße", "l'autoroute>la route nationale", "=", "de:NOUN"),
            ("Unfall>Überfall", "l'accident>l'agression", "accident>attack", "NOUN"),
        ),
    ),
    Row(
        "Die Gemeinde hat beschlossen, das alte Schwimmbad zu schließen und ein neues zu bauen.",
        "La commune a décidé de fermer l'ancienne piscine et d'en construire une nouvelle.",
        "The municipality has decided to close the old swimming pool and build a new one.",
        "The municipality decided to close the old pool and to build a new one.",
        (
            ("schließen>renovieren", "fermer>rénover", "close>renovate", "VERB"),
            ("Schwimmbad>Eisstadion", "piscine>patinoire", "swimming pool>ice rink / pool>ice rink", "NOUN"),
            ("hat>hat nicht", "a décidé>n'a pas décidé", "has decided>has not decided / decided>did not decide", "+"),
            ("alte>kleine", "l'ancienne>la petite", "old>small", "de:ADJ"),
        ),
    ),
    Row(
        "Laut einer Umfrage wollen 45 Prozent der Befragten im Sommer ins Ausland reisen.",
        "Selon un sondage, 45 % des personnes interrogées veulent voyager à l'étranger cet été.",
        "According to a survey, 45 percent of respondents want to travel abroad in the summer.",
        "According to a poll, 45% of those surveyed want to travel abroad this summer.",
        (
            ("Ausland>Inland", "à l'étranger>dans leur pays", "abroad>at home", "de:NOUN"),
            ("45>25", "45>25", "45>25", "NUM"),
            ("Sommer>Winter", "été>hiver", "summer>winter", "NOUN"),
            ("wollen>fürchten", "veulent>refusent de", "want to>refuse to", "de:VERB"),
        ),
    ),
    Row(
        "Der Konzern bezeichnete die Vorwürfe als „völlig haltlos“ und kündigte rechtliche Schritte an.",
        "Le groupe a qualifié les accusations de « totalement infondées » et a annoncé des poursuites judiciaires.",
        'The group described the allegations as "completely unfounded" and announced legal action.',
        'The group called the accusations "totally unfounded" and announced legal proceedings.',
        (
            ("haltlos>berechtigt", "infondées>justifiées", "unfounded>justified", "ADJ"),
            (
                "rechtliche Schritte>eine Untersuchung",
                "des poursuites judiciaires>une enquête",
                "legal action>an investigation / legal proceedings>an investigation",
                "",
            ),
            ("Konzern>Verband", "Le groupe>L'association", "group>association", "de:NOUN"),
            ("völlig>teilweise", "totalement>partiellement", "completely>partly / totally>partly", "ADV"),
        ),
    ),
    Row(
        "Der Astronaut kehrte nach sechs Monaten auf der Raumstation zur Erde zurück.",
        "L'astronaute est revenu sur Terre après six mois passés à bord de la station spatiale.",
        "The astronaut returned to Earth after six months on the space station.",
        "The astronaut came back to Earth after six months spent aboard the space station.",
        (
            ("sechs>drei", "six>trois", "six>three", "NUM"),
            ("Astronaut>Tourist", "L'astronaute>Le touriste", "astronaut>tourist", "de:NOUN"),
            ("Raumstation>Mondbasis", "la station spatiale>la base lunaire", "space station>moon base", "de:NOUN"),
            ("Monaten>Tagen", "mois>jours", "months>days", "NOUN"),
        ),
    ),
    Row(
        "Wegen eines Cyberangriffs waren die Computer der Verwaltung drei Tage lang nicht erreichbar.",
        "En raison d'une cyberattaque, les ordinateurs de l'administration ont été inaccessibles pendant trois jours.",
        "Because of a cyber attack, the administration's computers were unreachable for three days.",
        "Due to a cyberattack, the administration's computers were inaccessible for three days.",
        (
            ("drei>dreizehn", "trois>treize", "three>thirteen", "NUM"),
            (
                "nicht erreichbar>erreichbar",
                "inaccessibles>accessibles",
                "unreachable>reachable / inaccessible>accessible",
                "fr:ADJ",
            ),
            ("Verwaltung>Schule", "de l'administration>de l'école", "administration's>school's", "de:NOUN"),
            ("Tage>Wochen", "jours>semaines", "days>weeks", "NOUN"),
        ),
    ),
    Row(
        "Die Feuerwehr rettete einen Hund, der in einen zugefrorenen See eingebrochen war.",
        "Les pompiers ont sauvé un chien tombé à travers la glace d'un lac gelé.",
        "The fire brigade rescued a dog that had fallen through the ice of a frozen lake.",
        "Firefighters rescued a dog that fell through the ice of a frozen lake.",
        (
            ("Hund>Rehbock", "un chien>un chevreuil", "dog>deer", "de:NOUN"),
            ("Hund>Hirsch", "un chien>un cerf", "dog>deer", "de:NOUN"),
            ("See>Teich", "lac>étang", "lake>pond", "NOUN"),
            ("rettete>filmte", "ont sauvé>ont filmé", "rescued>filmed", "de:VERB"),
        ),
    ),
    Row(
        "Die Universität erhält vom Land 15 Millionen Euro für ein neues Forschungszentrum.",
        "L'université reçoit 15 millions d'euros de la région pour un nouveau centre de recherche.",
        "The university is receiving 15 million euros from the state for a new research centre.",
        "The university receives 15 million euros from the region for a new research center.",
        (
            ("15>50", "15>50", "15>50", "NUM"),
            ("Forschungszentrum>Sportzentrum", "de recherche>sportif", "research>sports", "de:NOUN"),
            ("Universität>Klinik", "L'université>La clinique", "university>clinic", "de:NOUN"),
            ("erhält>verliert", "reçoit>perd", "is receiving>is losing / receives>loses", "VERB"),
        ),
    ),
    Row(
        "Im Prozess um den Bankraub hat der Hauptangeklagte ein Geständnis abgelegt.",
        "Dans le procès du braquage de la banque, le principal accusé a fait des aveux.",
        "In the bank robbery trial, the main defendant has confessed.",
        "In the trial over the bank robbery, the main accused made a confession.",
        (
            ("Bankraub>Museumsraub", "de la banque>du musée", "bank>museum", "de:NOUN"),
            (
                "Geständnis abgelegt>Alibi vorgelegt",
                "a fait des aveux>a présenté un alibi",
                "has confessed>has presented an alibi / made a confession>presented an alibi",
                "",
            ),
            (
                "Hauptangeklagte>Nebenkläger",
                "le principal accusé>la partie civile",
                "main defendant>joint plaintiff / main accused>joint plaintiff",
                "de:NOUN",
            ),
            ("Prozess>Berufungsprozess", "le procès>le procès en appel", "trial>appeal trial", "de:NOUN"),
        ),
    ),
    Row(
        "Der Schnee hat in den Bergen zahlreiche Straßen unpassierbar gemacht.",
        "La neige a rendu de nombreuses routes impraticables dans les montagnes.",
        "Snow has made numerous roads impassable in the mountains.",
        "The snow made many roads impassable in the mountains.",
        (
            ("Schnee>Regen", "neige>pluie", "Snow>Rain / snow>rain", "NOUN"),
            ("Bergen>Städten", "montagnes>villes", "mountains>cities", "NOUN"),
            ("zahlreiche>einige", "de nombreuses>quelques", "numerous>some / many>some", "de:DET"),
            ("unpassierbar>glatt", "impraticables>glissantes", "impassable>slippery", "ADJ"),
        ),
    ),
    Row(
        "Die Zahl der Neuinfektionen ist erstmals seit Wochen wieder unter 1000 gefallen.",
        "Le nombre de nouvelles infections est repassé sous la barre des 1000 pour la première fois depuis des semaines.",
        "The number of new infections has fallen below 1000 again for the first time in weeks.",
        "The number of new infections fell below 1000 for the first time in weeks.",
        (
            ("unter>über", "sous>au-dessus de", "below>above", "de:ADP"),
            ("Wochen>Monaten", "semaines>mois", "weeks>months", "NOUN"),
            ("1000>100", "1000>100", "1000>100", "NUM"),
            ("Neuinfektionen>Todesfälle", "nouvelles infections>décès", "new infections>deaths", "de:NOUN"),
        ),
    ),
    Row(
        "Ein Gericht hat das geplante Windrad neben der Schule vorerst gestoppt.",
        "Un tribunal a provisoirement stoppé l'éolienne prévue à côté de l'école.",
        "A court has temporarily halted the planned wind turbine next to the school.",
        "A court provisionally stopped the planned wind turbine beside the school.",
        (
            ("Schule>Kirche", "l'école>l'église", "school>church", "NOUN"),
            ("gestoppt>genehmigt", "stoppé>autorisé", "halted>approved / stopped>approved", "VERB"),
            ("Windrad>Hochhaus", "l'éolienne prévue>la tour prévue", "wind turbine>tower block", "de:NOUN"),
            ("vorerst>endgültig", "provisoirement>définitivement", "temporarily>permanently / provisionally>permanently", "ADV"),
        ),
    ),
    Row(
        "Die Band hat ihre Tournee wegen einer Erkrankung des Sängers abgesagt.",
        "Le groupe a annulé sa tournée en raison de la maladie du chanteur.",
        "The band has cancelled its tour because of the singer's illness.",
        "The band cancelled its tour due to the illness of the singer.",
        (
            ("abgesagt>verlängert", "annulé>prolongé", "cancelled>extended", "VERB"),
            ("Sängers>Gitarristen", "chanteur>guitariste", "singer>guitarist", "NOUN"),
            ("Tournee>Konzertreise", "tournée>série de concerts", "tour>concert series", "de:NOUN=1"),
            ("Erkrankung>Verletzung", "maladie>blessure", "illness>injury", "NOUN"),
        ),
    ),
    Row(
        "Der Zoo freut sich über die Geburt von zwei Eisbären.",
        "Le zoo se réjouit de la naissance de deux ours polaires.",
        "The zoo is delighted at the birth of two polar bears.",
        "The zoo is celebrating the birth of two polar bears.",
        (
            ("Eisbären>Pandas", "ours polaires>pandas", "polar bears>pandas", "de:NOUN"),
            ("zwei>drei", "deux>trois", "two>three", "NUM"),
            ("Geburt>Tod", "naissance>mort", "birth>death", "NOUN"),
            ("freut sich über>trauert um", "se réjouit de>déplore", "is delighted at>mourns / is celebrating>is mourning", ""),
        ),
    ),
    Row(
        "Die Regierung hat ein Verbot von Einwegplastik ab dem kommenden Jahr angekündigt.",
        "Le gouvernement a annoncé une interdiction du plastique à usage unique à partir de l'année prochaine.",
        "The government has announced a ban on single-use plastic from next year.",
        "The government announced a ban on single-use plastics starting next year.",
        (
            ("Verbot>Steuer", "interdiction>taxe", "ban>tax", "NOUN"),
            (
                "kommenden>übernächsten",
                "à partir de l'année prochaine>dans deux ans",
                "from next year>in two years / starting next year>in two years",
                "de:ADJ",
            ),
            ("angekündigt>zurückgenommen", "annoncé>retiré", "announced>withdrawn / announced>withdrew", "VERB"),
            (
                "Einwegplastik>Zigaretten",
                "du plastique à usage unique>des cigarettes",
                "single-use plastic>cigarettes / single-use plastics>cigarettes",
                "de:NOUN",
            ),
        ),
    ),
]

DATASETS = {"wmt2019": WMT19, "wmt2021": WMT21}
ANNOTATED_ROWS = 12  # the annotation files cover the first rows of each dataset
# The French annotation file has stray byte-order marks at the start of these of its data lines (0-based).
FRENCH_STRAY_BOM_LINES = (4, 17)


def apply(text: str, spec: str) -> str:
    """``text`` with each ``old>new`` of ``spec`` (joined by ``;``) replaced once, as a whole word."""
    for part in spec.split(";"):
        old, new = part.split(">")
        changed, count = re.subn(rf"(?<!\w){re.escape(old)}(?!\w)", new, text, count=1)
        if count != 1:
            raise ValueError(f"{old!r} is not a word of {text!r}")
        text = changed
    return text


def english(row: Row, spec: str, base: str) -> str:
    """The pivot version of a distractor: the edited English of the German (``base='de'``) or French cell."""
    original = row.en_de if base == "de" else row.en_fr
    if spec == "=":
        return original
    both = spec.split(" / ")
    return apply(original, both[0] if base == "de" or len(both) == 1 else both[1])


def direct_record(index: int, row: Row) -> list[str]:
    record = [str(index), row.fr, row.de]
    record += [apply(row.de, edit[0]) for edit in row.edits]
    record += [apply(row.fr, edit[1]) for edit in row.edits]
    for original, distractors in ((row.de, record[3:7]), (row.fr, record[7:11])):
        if original in distractors or len(set(distractors)) != 4:
            raise ValueError(f"row {index}: a distractor equals its original or another distractor")
    return record


def pivot_record(index: int, row: Row) -> list[str]:
    return [
        str(index),
        row.en_fr,
        row.en_de,
        *(english(row, edit[2], "de") for edit in row.edits),
        *(english(row, edit[2], "fr") for edit in row.edits),
    ]


def csv_text(header: list[str], records: list[list[str]], line_end: str, blank_before_last: bool = False) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator=line_end)
    writer.writerow(header)
    for number, record in enumerate(records):
        if blank_before_last and number == len(records) - 1:
            out.write(line_end)  # the published MT_M2M wmt2019 file has an empty line between its last two rows
        writer.writerow(record)
    return out.getvalue()


def annotation_records(language: str) -> list[dict[str, str]]:
    """One annotation per edit whose last part names ``language`` (or both languages), in the first rows."""
    found = []
    for dataset, rows in DATASETS.items():
        for index, row in enumerate(rows[:ANNOTATED_ROWS]):
            for slot, edit in enumerate(row.edits, start=1):
                tags = dict(t.partition(":")[::2] if ":" in t else ("both", t) for t in edit[3].split())
                tag = tags.get(language, tags.get("both"))
                if tag is None:
                    continue
                spec = edit[0] if language == "de" else edit[1]
                original = row.de if language == "de" else row.fr
                old, new = spec.split(">")
                pos, _, equivalent = tag.partition("=")
                pos, _, entity = pos.partition("/")
                addition = pos == "+"
                details = f"Addition of '{new.removeprefix(old).strip()}'" if addition else f"Swap: '{old}' with '{new}'"
                found.append(
                    {
                        "Dataset": dataset.replace("20", "", 1),  # wmt2019 -> wmt19
                        "Operation": "Addition" if addition else "Swap",
                        "OriginalTextFrench": row.fr,
                        "Details": details,
                        "EntityType": entity,
                        "POSTag": "" if addition else pos,
                        "SemanticallyEquivalent": "" if addition else equivalent or "0",
                        "OriginalTextGerman": row.de,
                        "AdversarialText": apply(original, spec),
                        "AdversarialExample": f"{language}_adv{slot}",
                        "RowIndex": str(index),
                    }
                )
    return found


def tsv_line(fields: list[str]) -> str:
    """Tab-separated, a field with a comma or a quote quoted as in the published files."""
    return "\t".join('"' + f.replace('"', '""') + '"' if ("," in f or '"' in f) else f for f in fields)


GERMAN_TSV_COLUMNS = [
    "Dataset", "Operation", "OriginalTextFrench", "Details", "EntityType", "POSTag", "SemanticallyEquivalent",
    "OriginalTextGerman", "AdversarialText", "AdversarialExample", "RowIndex",
]  # fmt: skip
FRENCH_TSV_COLUMNS = [
    "Dataset", "Operation", "Details", "EntityType", "POSTag", "SemanticallyEquivalent", "OriginalTextFrench",
    "OriginalTextGerman", "AdversarialExample", "RowIndex", "AdversarialText",
]  # fmt: skip


def file_contents() -> dict[str, bytes]:
    """Every fixture file's name and bytes."""
    files: dict[str, bytes] = {}
    for dataset, rows in DATASETS.items():
        direct = [direct_record(i, row) for i, row in enumerate(rows)]
        files[f"CLSD_{dataset}_adversarial_dataset.csv"] = csv_text(COLUMNS, direct, "\n").encode("utf-8")
        pivot = [[str(i), *pivot_record(i, row)] for i, row in enumerate(rows)]
        text = csv_text(["", *COLUMNS], pivot, "\r\n", blank_before_last=dataset == "wmt2019")
        files[f"MT_M2M_CLSD_{dataset}_adversarial_dataset.csv"] = text.encode("utf-8")
    german = [tsv_line(GERMAN_TSV_COLUMNS)] + [tsv_line([n[c] for c in GERMAN_TSV_COLUMNS]) for n in annotation_records("de")]
    files["DE_wmt1921_swaps_ner_pos.tsv"] = "\r\n".join(german).encode("utf-8")
    french = [tsv_line(FRENCH_TSV_COLUMNS)] + [tsv_line([n[c] for c in FRENCH_TSV_COLUMNS]) for n in annotation_records("fr")]
    for line in FRENCH_STRAY_BOM_LINES:
        french[1 + line] = "\ufeff" + french[1 + line]
    files["FR_wmt1921_swaps_ner_pos.tsv"] = "\ufeff".encode("utf-16-le") + "\r\n".join(french).encode("utf-16-le")
    return files


def main(folder: Path = FOLDER) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, payload in file_contents().items():
        (folder / name).write_bytes(payload)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else FOLDER)
