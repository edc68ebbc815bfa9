"""Every text of the data in report.md and report.html names its language and direction in the static HTML, with no
script: Arabic and Hebrew right to left, German and English left to right, the Latin names and numbers inside in
their own order. Checked by parsing the page (html.parser) and in headless Chromium (computed direction, and where each
word lands on the screen).

The data: a small dataset of Arabic-Hebrew (with its English pivot) and Hebrew-German rows, each sentence with a
Latin name or a number inside, evaluated for real by two baselines; the report is built from those results.
"""

from __future__ import annotations

import json
import re
import unicodedata
from html.parser import HTMLParser
from pathlib import Path

import pytest

from clsd_analysis.html_report import markdown_to_html
from clsd_analysis.report import AnalysisOptions, analyze
from clsd_analysis.sections import with_options
from clsd_analysis.sections.pos_shift import PosShift
from clsd_format import hub
from clsd_mteb.baselines import CHAR_NGRAM_NAME, RANDOM_NAME
from tests.helpers.browser import Chromium
from tests.helpers.results_folders import evaluate_toy

# (Arabic source, Hebrew target, Hebrew distractors, English, English distractors, German, German distractors)
ROWS = [
    (
        "اشترى أخي سيارة BMW X5 جديدة في عام 2019.",
        "אחי קנה מכונית BMW X5 חדשה בשנת 2019.",
        [
            "אחי קנה מכונית BMW X5 ישנה בשנת 2019.",
            "אחי מכר מכונית BMW X5 חדשה בשנת 2019.",
            "אחי קנה מכונית BMW X5 חדשה בשנת 2018.",
            "אבי קנה מכונית BMW X5 חדשה בשנת 2019.",
        ],
        "My brother bought a new BMW X5 in 2019.",
        [
            "My brother bought an old BMW X5 in 2019.",
            "My brother sold a new BMW X5 in 2019.",
            "My brother bought a new BMW X5 in 2018.",
            "My father bought a new BMW X5 in 2019.",
        ],
        "Mein Bruder kaufte 2019 einen neuen BMW X5.",
        [
            "Mein Bruder kaufte 2019 einen alten BMW X5.",
            "Mein Bruder verkaufte 2019 einen neuen BMW X5.",
            "Mein Bruder kaufte 2018 einen neuen BMW X5.",
            "Mein Vater kaufte 2019 einen neuen BMW X5.",
        ],
    ),
    (
        "وصل 45 نائبا إلى ستراسبورغ يوم الثلاثاء عبر طريق A4.",
        "45 חברי פרלמנט הגיעו לשטרסבורג ביום שלישי דרך כביש A4.",
        [
            "54 חברי פרלמנט הגיעו לשטרסבורג ביום שלישי דרך כביש A4.",
            "45 חברי פרלמנט עזבו את שטרסבורג ביום שלישי דרך כביש A4.",
            "45 חברי פרלמנט הגיעו לשטרסבורג ביום רביעי דרך כביש A4.",
            "45 חברי פרלמנט הגיעו לפריז ביום שלישי דרך כביש A4.",
        ],
        "On Tuesday 45 MPs came to Strasbourg on the A4 road.",
        [
            "On Tuesday 54 MPs came to Strasbourg on the A4 road.",
            "On Tuesday 45 MPs left Strasbourg on the A4 road.",
            "On Wednesday 45 MPs came to Strasbourg on the A4 road.",
            "On Tuesday 45 MPs came to Paris on the A4 road.",
        ],
        "Am Dienstag kamen 45 Abgeordnete über die A4 nach Straßburg.",
        [
            "Am Dienstag kamen 54 Abgeordnete über die A4 nach Straßburg.",
            "Am Dienstag verließen 45 Abgeordnete über die A4 Straßburg.",
            "Am Mittwoch kamen 45 Abgeordnete über die A4 nach Straßburg.",
            "Am Dienstag kamen 45 Abgeordnete über die A4 nach Paris.",
        ],
    ),
    (
        "تعمل شركة Siemens في القاهرة منذ 1990.",
        "חברת Siemens פועלת בקהיר מאז 1990.",
        [
            "חברת Siemens פועלת בקהיר מאז 1980.",
            "חברת Siemens פועלת בביירות מאז 1990.",
            "חברת Bosch פועלת בקהיר מאז 1990.",
            "חברת Siemens נסגרה בקהיר בשנת 1990.",
        ],
        "Siemens has worked in Cairo since 1990.",
        [
            "Siemens has worked in Cairo since 1980.",
            "Siemens has worked in Beirut since 1990.",
            "Bosch has worked in Cairo since 1990.",
            "Siemens closed in Cairo in 1990.",
        ],
        "Die Firma Siemens arbeitet seit 1990 in Kairo.",
        [
            "Die Firma Siemens arbeitet seit 1980 in Kairo.",
            "Die Firma Siemens arbeitet seit 1990 in Beirut.",
            "Die Firma Bosch arbeitet seit 1990 in Kairo.",
            "Die Firma Siemens schloss 1990 in Kairo.",
        ],
    ),
    (
        "قرأت 3 كتب عن Python في الصيف.",
        "קראתי 3 ספרים על Python בקיץ.",
        [
            "קראתי 5 ספרים על Python בקיץ.",
            "כתבתי 3 ספרים על Python בקיץ.",
            "קראתי 3 ספרים על Java בקיץ.",
            "קראתי 3 ספרים על Python בחורף.",
        ],
        "I read 3 books about Python in the summer.",
        [
            "I read 5 books about Python in the summer.",
            "I wrote 3 books about Python in the summer.",
            "I read 3 books about Java in the summer.",
            "I read 3 books about Python in the winter.",
        ],
        "Im Sommer las ich 3 Bücher über Python.",
        [
            "Im Sommer las ich 5 Bücher über Python.",
            "Im Sommer schrieb ich 3 Bücher über Python.",
            "Im Sommer las ich 3 Bücher über Java.",
            "Im Winter las ich 3 Bücher über Python.",
        ],
    ),
]
GERMAN_WORDS = ("Bruder", "Abgeordnete", "Firma", "Sommer", "Winter")


def rtl_dataset(folder: Path) -> Path:
    """Arabic-Hebrew, its English pivot and Hebrew-German, as `clsd build` writes a dataset."""
    specs = {
        "ar-he": hub.DirectionSpec("ar-he", "CLSD-RTL-AR-HE", "ara-Arab", "heb-Hebr"),
        "ar-he-pivot-en": hub.DirectionSpec("ar-he-pivot-en", "CLSD-RTL-AR-HE-PivotEN", "eng-Latn", "eng-Latn", pivot=True),
        "he-de": hub.DirectionSpec("he-de", "CLSD-RTL-HE-DE", "heb-Hebr", "deu-Latn"),
    }
    texts = {
        "ar-he": [(ar, he, he_d) for ar, he, he_d, *_ in ROWS],
        "ar-he-pivot-en": [(en, en, en_d) for _, _, _, en, en_d, _, _ in ROWS],
        "he-de": [(he, de, de_d) for _, he, _, _, _, de, de_d in ROWS],
    }
    for config, spec in specs.items():
        rows = [
            {
                "id": f"r{i}",
                "source": s,
                "target": t,
                "distractors": d,
                "source_lang": spec.source_lang,
                "target_lang": spec.target_lang,
            }
            for i, (s, t, d) in enumerate(texts[config])
        ]
        hub.write_config(folder, spec, rows)
    card = hub.render_card(hub.front_matter(list(specs.values()), pretty_name="right to left"), "rtl\n")
    (folder / hub.CARD_FILE).write_text(card, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("rtl")
    dataset = rtl_dataset(folder / "data")
    results = evaluate_toy(dataset, folder / "results", CHAR_NGRAM_NAME)
    evaluate_toy(dataset, results, RANDOM_NAME)
    options = AnalysisOptions(sections=with_options(PosShift(enabled=False)))
    return analyze(results, folder / "report", options).folder


def _direction_of_script(text: str) -> str | None:
    """The direction of a text's letters: rtl when one is written right to left, ltr when all are left to right."""
    kinds = {unicodedata.bidirectional(ch) for ch in text if ch.isalpha()}
    return "rtl" if kinds & {"R", "AL"} else "ltr" if kinds else None


class _Texts(HTMLParser):
    """Each text node of the report's section with the element it is in and the nearest element naming a language."""

    VOID = frozenset({"br", "img", "meta", "hr", "input", "link", "col", "area", "base", "wbr", "source"})

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, dict[str, str | None]]] = []
        self.found: list[tuple[str, str, dict[str, str | None]]] = []  # (text, innermost tag, nearest lang element's attrs)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.VOID:
            self.stack.append((tag, dict(attrs)))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        pass  # <img ... />: holds no text

    def handle_endtag(self, tag: str) -> None:
        if any(open_tag == tag for open_tag, _ in self.stack):
            while self.stack.pop()[0] != tag:
                pass

    def handle_data(self, data: str) -> None:
        if data.strip() and any(tag == "section" and attrs.get("id") == "report" for tag, attrs in self.stack):
            named = next(attrs for _, attrs in reversed(self.stack) if "lang" in attrs)  # <html lang="en"> at least
            self.found.append((data, self.stack[-1][0], named))


def _texts_of(page: str) -> list[tuple[str, str, dict[str, str | None]]]:
    parser = _Texts()
    parser.feed(page)
    return parser.found


@pytest.mark.slow  # evaluates two baselines and builds a report
def test_every_text_of_the_data_names_its_language_and_direction_in_the_static_html(report: Path) -> None:
    page = (report / "report.html").read_text(encoding="utf-8")
    texts = _texts_of(page)
    right_to_left = [(text, tag, named) for text, tag, named in texts if _direction_of_script(text) == "rtl"]
    assert {tag for _, tag, _ in right_to_left} >= {"td", "span"}, right_to_left  # table cells and sentences in a line
    for text, _, named in right_to_left:
        language = "ar" if any("ARABIC" in unicodedata.name(ch, "") for ch in text) else "he"
        assert named.get("lang") == language and named.get("dir") == "rtl", (text, named)
    german = [(text, named) for text, _, named in texts if any(word in text for word in GERMAN_WORDS)]
    assert german and all(named.get("lang") == "de" and named.get("dir") == "ltr" for _, named in german), german
    cells = re.findall(r'<td lang="(\w+)" dir="(\w+)">', page)
    assert ("he", "rtl") in cells and ("de", "ltr") in cells  # a cell that is one text reads in its direction
    markdown = (report / "report.md").read_text(encoding="utf-8")
    assert '<span lang="he" dir="rtl">' in markdown and '<span lang="ar" dir="rtl">' in markdown  # report.md says it too


def test_only_the_reports_own_language_spans_become_elements(tmp_path: Path) -> None:
    hostile = (
        '- <span lang="he" dir="rtl" onclick="x()">a</span> <span lang="he" dir="rtl">b <b>c</b> '
        '<span style="color:red">d</span>\n'
    )
    html = markdown_to_html(hostile, tmp_path)
    assert html.count("<span") == 1 and html.count("</span>") == 1  # the own one, closed at the end of its line
    assert "&lt;span lang=&quot;he&quot; dir=&quot;rtl&quot; onclick" in html and "&lt;b&gt;c&lt;/b&gt;" in html


# For each element of the report naming a language: its language, computed direction, text, and where (x) each of
# the words asked for lands, measured on the text node that holds the word.
_LAYOUT = """
(words => [...document.querySelectorAll('#report [lang]')].map(el => {
  const where = {};
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const word of words) {
      const at = node.data.indexOf(word);
      if (at < 0 || word in where) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + word.length);
      where[word] = range.getBoundingClientRect().left;
    }
  }
  return {lang: el.lang, direction: getComputedStyle(el).direction, text: el.textContent, where};
}))(WORDS)
"""


@pytest.mark.slow
@pytest.mark.browser
def test_a_browser_reads_arabic_and_hebrew_right_to_left_with_latin_and_numbers_in_order(report: Path) -> None:
    words = ["אחי", "45", "חברי", "BMW", "X5", "20", "19", "Mein", "Bruder", "اشترى", "أخي", "وصل", "نائبا", "On", "Tuesday"]
    with Chromium() as browser:
        browser.open(report / "report.html")
        found = browser.evaluate(_LAYOUT.replace("WORDS", json.dumps(words)))
    assert {item["lang"] for item in found} >= {"ar", "he", "de", "en"}, found
    for item in found:
        direction = "rtl" if item["lang"] in ("ar", "he") else "ltr"
        assert item["direction"] == direction == _direction_of_script(item["text"]), item
        where = item["where"]
        first = item["text"].split()[0]  # the word read first stands at the right (left) end
        if first in where and len(where) > 1:
            assert where[first] == (max if direction == "rtl" else min)(where.values()), item
        if "BMW" in where and "X5" in where:
            assert where["BMW"] < where["X5"], item  # a Latin name keeps its order inside
        if "2019" in item["text"]:
            assert where["20"] < where["19"], item  # and so does a number
    measured = [item for item in found if item["text"].split()[0] in item["where"] and len(item["where"]) >= 3]
    assert {item["lang"] for item in measured} >= {"ar", "he", "de", "en"}, found  # the checks above ran for each
