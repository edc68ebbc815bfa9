"""The report a person browses: sections in order, figures without a legend over data, and report.html (self-contained,
its rows the data's, its explorer driven in a real headless Chromium).

Results are synthetic prediction files (seeded cosines, with ties) over the fixture texts, for three models, one with
a long id; no model is loaded. Building the report tags the fixture texts (spaCy's French model): slow.
"""

from __future__ import annotations

import base64
import gzip
import json
import re
import shutil
import threading
from collections.abc import Iterator
from html.parser import HTMLParser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from scipy.stats import binomtest

from clsd_analysis import figures
from clsd_analysis.changed_words import changed_spans
from clsd_analysis.distractor_types import distractor_types
from clsd_analysis.explorer_data import COSINE_SCALE, utf16_offset
from clsd_analysis.html_report import markdown_to_html, render_page
from clsd_analysis.report import AnalysisOptions, analyze
from clsd_analysis.results import load_results
from clsd_analysis.sections import default_sections, with_options
from clsd_analysis.sections.pos_shift import PosShift
from clsd_analysis.task_data import TaskCatalog
from clsd_format import edit_types
from tests.analysis.test_edit_typing import declared_hub_folder
from tests.analysis.test_report_parts import legends_over_axes
from tests.helpers.browser import Chromium

pytestmark = pytest.mark.slow

TASKS = ("CLSD-WMT19-DE-FR", "CLSD-WMT19-DE-FR-PivotEN", "CLSD-WMT19-FR-DE", "CLSD-WMT21-FR-DE")
MODELS = ("clsd-baselines/random", "org/a-model-whose-name-is-far-too-long-for-a-label", "org/small")
FOCUS = MODELS[1]
HEADINGS = [
    "Model comparison (Table 1)",
    "Direct versus pivot disagreements",
    "Successful distractors by edit similarity",
    "Examples of successful distractors",
    "Distractor statistics",
    "One-word changes by part of speech",
    "What fooled the model: edit types",
]


def _write_predictions(root: Path, catalog: TaskCatalog) -> Path:
    rng = np.random.default_rng(7)
    for k, model in enumerate(MODELS):
        folder = root / "predictions" / model.replace("/", "__") / "rev1"
        folder.mkdir(parents=True)
        for task in TASKS:
            ids = list(catalog.get(task).rows)
            cosines = rng.uniform(0.3, 0.9, (len(ids), 5))
            cosines[:, 0] += 0.1 * k  # a better model has its T further ahead
            cosines[::6, 3] = cosines[::6, 0]  # ties: misses
            records = [{"id": i, "cosines": [float(c) for c in row]} for i, row in zip(ids, cosines, strict=True)]
            (folder / f"{task}_predictions.json").write_text(json.dumps({"default": {"test": records}}), encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def built(small_release: Path, tmp_path_factory: pytest.TempPathFactory):
    """The report folder, and for each figure drawn, the legends that overlap an axes (should be none)."""
    generated = declared_hub_folder(small_release, tmp_path_factory.mktemp("generated") / "hub")  # rule-made, typed
    catalog = TaskCatalog(small_release, [generated])
    results_dir = _write_predictions(tmp_path_factory.mktemp("results"), catalog)
    overlaps: dict[str, list[str]] = {}
    save = figures.save

    def checked_save(fig: plt.Figure, out_dir: Path, stem: str) -> list[Path]:
        overlaps[stem] = legends_over_axes(fig)
        return save(fig, out_dir, stem)

    options = AnalysisOptions(
        data_dir=small_release, dataset_folders=[generated], focus=FOCUS, sections=with_options(PosShift(enabled=False))
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(figures, "save", checked_save)
        out = analyze(results_dir, tmp_path_factory.mktemp("report") / "report", options).folder
    return out, overlaps, load_results(results_dir), catalog


class _Resources(HTMLParser):
    """Every tag and every src/href value of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def _document(report: Path) -> dict:
    page = (report / "report.html").read_text(encoding="utf-8")
    packed = re.search(r'<script id="clsd-data" type="application/octet-stream">([^<]*)</script>', page)
    assert packed is not None
    return json.loads(gzip.decompress(base64.b64decode(packed.group(1))))


def test_sections_keep_their_numbers_and_the_new_one_comes_last(built) -> None:
    report, *_ = built
    text = (report / "report.md").read_text(encoding="utf-8")
    assert re.findall(r"^## \d+\. (.+)$", text, flags=re.M) == HEADINGS
    assert [section.title for section in default_sections()] == HEADINGS
    with pytest.raises(ValueError, match="not a section"):
        with_options(object())  # type: ignore[arg-type]


def test_the_report_starts_its_examples_with_its_model(built) -> None:
    report, *_ = built
    text = (report / "report.md").read_text(encoding="utf-8")
    assert f"The report is about `{FOCUS}`" in text
    examples = text.split("## 4.")[1].split("## 5.")[0]
    first_row = next(line for line in examples.splitlines() if line.startswith("| WMT"))
    assert FOCUS in first_row.split("|")[-3] and first_row.split("|")[-3].strip().startswith(FOCUS)
    disagreements = text.split("## 2.")[1].split("## 3.")[0]
    first_example = next(line for line in disagreements.splitlines() if line.startswith("- *"))
    assert f"`{FOCUS}`" in first_example and "**" in first_example  # its changed words marked


def test_edit_type_tables_and_figures(built) -> None:
    report, overlaps, *_ = built
    for name in ("edit_types", "edit_type_shares", "edit_type_agreement"):
        for suffix in (".md", ".tex", ".csv"):
            assert (report / "tables" / f"{name}{suffix}").stat().st_size > 0
    rates = (report / "tables" / "edit_types.md").read_text(encoding="utf-8")
    assert f"{FOCUS} · direct" in rates and edit_types.CONTENT_WORD in rates
    shares = pd.read_csv(report / "tables" / "edit_type_shares.csv", index_col=0)
    assert list(shares.index) == ["CLSD-WMT19-DE-FR", "CLSD-WMT19-FR-DE", "CLSD-WMT21-FR-DE"]  # pivot tasks keep their base's
    assert shares.loc["CLSD-WMT19-DE-FR", edit_types.NAME] == "96 (100.0)"  # declared by the rule-made dataset
    text = (report / "report.md").read_text(encoding="utf-8")
    assert "272 distractors made" in text and "96 with a declared type, 176 typed from the text" in text
    assert set(overlaps) == {"levenshtein_bins", "edit_type_rates"}  # no scores, no P@1 figure; no shift heatmaps
    assert all(not found for found in overlaps.values()), overlaps  # no legend over any axes


def test_html_report_is_self_contained(built) -> None:
    report, *_ = built
    page = (report / "report.html").read_text(encoding="utf-8")
    parser = _Resources()
    parser.feed(page)
    for tag, attrs in parser.tags:
        assert tag != "link" and not (tag == "script" and attrs.get("src")), (tag, attrs)
        if tag == "img":
            assert (attrs.get("src") or "").startswith("data:image/png;base64,")
        for name in ("src", "href"):
            value = attrs.get(name) or ""
            assert not re.match(r"^(https?:)?//", value), value  # nothing is fetched from anywhere
    assert sum(tag == "img" for tag, _ in parser.tags) == len(list((report / "figures").glob("*.png"))) == 2
    assert (report / "report.html").stat().st_size < 1_000_000


def test_embedded_rows_are_the_data(built) -> None:
    report, _, results, catalog = built
    document = _document(report)
    assert [m["label"] for m in document["models"]] == sorted(MODELS) and document["models"][document["focus"]]["label"] == FOCUS
    assert document["models"][document["focus"]]["short"] == "a-model-whose-nam…"
    types = distractor_types(results.task_names, catalog).lookup()
    texts = document["texts"]
    for task in document["tasks"]:
        rows, language = catalog.get(task["name"]).rows, catalog.get(task["name"]).languages[1]
        assert [r[0] for r in task["rows"]] == list(rows)  # every row, in the data's order
        for k, run in enumerate(results.runs):
            pred = results.predictions(run, task["name"])
            assert task["beat"][k] == [sum(1 << int(s) for s in np.flatnonzero(w)) for w in pred.wins]
            assert task["top"][k] == [int(np.nanargmax(c[1:])) for c in pred.cosines]
            assert task["cos"][k][0] == [round(c * COSINE_SCALE) for c in pred.cosines[0]]
            hits = int((pred.ranks == 1).sum())
            wilson = binomtest(hits, len(pred.ids)).proportion_ci(method="wilson")  # the explorer header's interval
            assert task["p1"][k] == [
                round(100 * hits / len(pred.ids), 1),
                round(100 * wilson.low, 1),
                round(100 * wilson.high, 1),
            ]
        for row_id, s, t, ds, marks, type_index, _, _ in task["rows"]:
            row = rows[row_id]
            assert (texts[s], texts[t], [texts[d] for d in ds]) == (row["source"], row["target"], row["distractors"])
            for slot, distractor in enumerate(row["distractors"]):
                spans = changed_spans(row["target"], distractor, language)  # the target's words ("l'" one of them)
                assert marks[slot] == [utf16_offset(distractor, i) for span in spans for i in span]
                assert document["types"][type_index[slot]] == types[(task["name"], row_id, slot + 1)].edit_type


def _expected(document: dict, model: int, rows: str, edit_type: str) -> list[tuple[str, str, int]]:
    """(task, id, margin x 10^4) of the rows the explorer should list for these filters, in data order."""
    found = []
    for task in document["tasks"]:
        for i, row in enumerate(task["rows"]):
            cos, top = task["cos"][model][i], task["top"][model][i]
            wrong = task["beat"][model][i] != 0
            if (rows == "wrong" and not wrong) or (edit_type and document["types"][row[5][top]] != edit_type):
                continue
            found.append((task["name"], row[0], cos[0] - cos[top + 1]))
    return found


@pytest.mark.browser
def test_the_explorer_filters_and_sorts_in_a_browser(built) -> None:
    report, *_ = built
    document = _document(report)
    focus = document["focus"]
    with Chromium() as browser:
        browser.open(report / "report.html")
        assert browser.evaluate("window.clsdExplorerReady.then(e => e.state.model)") == focus  # the report's model first
        wrong = _expected(document, focus, "wrong", "")
        assert browser.evaluate("window.clsdExplorer.matching()") == [[t, i] for t, i, _ in wrong]
        assert browser.evaluate("document.getElementById('count').textContent").startswith(
            f"{len(wrong)} rows the model got wrong"
        )

        chosen = document["tasks"][0]
        browser.choose("f-task", chosen["name"])
        p1, low, high = chosen["p1"][focus]
        assert browser.evaluate("document.getElementById('count').textContent").startswith(
            f"{FOCUS} on {chosen['short']} ({chosen['setting']}): P@1 {p1:.1f}% (95% interval {low:.1f}–{high:.1f})."
        )
        browser.choose("f-task", "")

        browser.choose("f-type", edit_types.CONTENT_WORD)
        content = _expected(document, focus, "wrong", edit_types.CONTENT_WORD)
        assert 0 < len(content) < len(wrong)
        assert browser.evaluate("window.clsdExplorer.matching()") == [[t, i] for t, i, _ in content]
        shown = browser.evaluate("[...document.querySelectorAll('#rows article')].map(a => [a.dataset.task, a.dataset.id])")
        assert shown == [[t, i] for t, i, _ in content][:50]

        browser.choose("f-type", "")
        browser.choose("f-rows", "all")
        browser.choose("f-sort", "margin")
        every = sorted(_expected(document, focus, "all", ""), key=lambda r: r[2])  # stable: data order among equal margins
        assert browser.evaluate("window.clsdExplorer.matching()") == [[t, i] for t, i, _ in every]

        first = browser.evaluate(
            "[...document.querySelectorAll('#rows article')[0].querySelectorAll('li')].map(li => "
            "[...li.querySelectorAll('mark')].map(m => m.textContent))"
        )
        task = next(t for t in document["tasks"] if t["name"] == every[0][0])
        row = next(r for r in task["rows"] if r[0] == every[0][1])
        target, texts = document["texts"][row[2]], document["texts"]
        assert first == [[texts[d][a:b] for a, b in changed_spans(target, texts[d], task["lang"][1])] for d in row[3]]


# Texts a dataset or a result may carry into the report's Markdown: image and link syntax, an autolink, raw HTML.
HOSTILE = """
## Texts from the data

- ![tracker]({url}/image.png) and [a link]({url}/link) and <{url}/autolink>
- <img src="{url}/raw.png"> <script src="{url}/script.js"></script> ![up](../outside.png)
"""


class _Witness(BaseHTTPRequestHandler):
    """A server on 127.0.0.1 that only records what asks it anything."""

    hits: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        self.hits.append(self.path)
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def witness() -> Iterator[tuple[str, list[str]]]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), type("Witness", (_Witness,), {"hits": []}))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", server.RequestHandlerClass.hits  # type: ignore[attr-defined]
    finally:
        server.shutdown()
        server.server_close()


def test_markdown_from_data_becomes_no_element(built, witness) -> None:
    report, *_ = built
    url, _ = witness
    parser = _Resources()
    parser.feed(markdown_to_html(HOSTILE.format(url=url), report))
    assert [tag for tag, _ in parser.tags] == ["h2", "ul", "li", "li"]  # no img, a or script: text only
    page = (report / "report.html").read_text(encoding="utf-8")
    policy = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', page)
    assert policy is not None and "default-src &#x27;none&#x27;" in policy.group(1)


@pytest.mark.browser
def test_opening_the_report_makes_no_request(built, witness, tmp_path: Path) -> None:
    report, *_ = built
    url, hits = witness
    folder = Path(shutil.copytree(report, tmp_path / "report"))
    markdown = (folder / "report.md").read_text(encoding="utf-8") + HOSTILE.format(url=url)
    (folder / "hostile.html").write_text(render_page("hostile", markdown, folder, _document(folder)), encoding="utf-8")
    attempt = (  # what an injected script would do, were one to run: the page's policy refuses it all the same
        f"(() => {{ const image = new Image(); image.src = '{url}/from-script.png'; document.body.append(image); "
        f"return fetch('{url}/fetch').then(() => 'fetched', () => 'refused')"
        ".then(outcome => new Promise(done => setTimeout(() => done(outcome), 300))); })()"
    )
    with Chromium() as browser:
        browser.call("Network.enable")
        for page in ("report.html", "hostile.html"):
            browser.open(folder / page)
            assert browser.evaluate("window.clsdExplorerReady.then(e => e.state.model)") is not None
            found = browser.evaluate(
                'document.querySelectorAll(\'#report img:not([src^="data:"]), #report a[href*=":"]\').length'
            )
            assert found == 0
            opening = _requests(browser.events)
            assert opening and all(u.startswith(("file:", "data:")) for u in opening.values()), opening  # nothing else
            browser.events.clear()
            assert browser.evaluate(attempt) == "refused"
            tried = {i for i, u in _requests(browser.events).items() if u.startswith(url)}
            blocked = {e["params"]["requestId"] for e in browser.events if e["params"].get("blockedReason") == "csp"}
            assert tried and tried <= blocked  # the policy stopped each one
            browser.events.clear()
    assert hits == []  # the server was never asked


def _requests(events: list[dict]) -> dict[str, str]:
    """Request id -> URL of every request the page began."""
    return {e["params"]["requestId"]: e["params"]["request"]["url"] for e in events if e["method"] == "Network.requestWillBeSent"}
