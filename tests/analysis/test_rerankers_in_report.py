"""`clsd analyze` on a results folder mixing an embedding model and a reranker: both in Table 1, the
reranker's five scores readable as predictions and shown in the row explorer as its own scores, not cosines."""

from __future__ import annotations

import base64
import gzip
import json
import re
from pathlib import Path

import mteb
import pandas as pd
import pytest

import clsd_mteb
from clsd_analysis.explorer_data import COSINE_SCALE, SCORE_UNIT
from clsd_analysis.report import AnalysisOptions, analyze
from clsd_analysis.results import ResultsFolder, load_results
from clsd_analysis.sections import with_options
from clsd_analysis.sections.pos_shift import PosShift
from clsd_mteb.baselines import CHAR_NGRAM_NAME
from clsd_mteb.models import load_model
from tests.helpers.browser import Chromium
from tests.helpers.encoders import CosineCrossEncoder, VectorEncoder, hashed_vector

pytestmark = pytest.mark.slow  # builds a full report

TASKS = ["CLSD-WMT19-DE-FR", "CLSD-WMT19-DE-FR-PivotEN"]
RERANKER = "tests/cosine-cross-encoder"


@pytest.fixture(scope="module")
def built(small_release: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[ResultsFolder, Path]:
    """The results of an embedding model and a reranker on two tasks, and the report built from them."""
    folder = tmp_path_factory.mktemp("results")
    for model in [load_model(CHAR_NGRAM_NAME), CosineCrossEncoder(VectorEncoder(hashed_vector), name=RERANKER)]:
        meta = model.mteb_model_meta
        mteb.evaluate(
            model,
            clsd_mteb.get_tasks(TASKS, data_dir=small_release),
            cache=mteb.ResultCache(folder),
            prediction_folder=folder / "predictions" / meta.model_name_as_path() / meta.revision,
            show_progress_bar=False,
        )
    options = AnalysisOptions(data_dir=small_release, sections=with_options(PosShift(enabled=False)))
    report = analyze(folder, tmp_path_factory.mktemp("report") / "report", options)
    return load_results(folder), report.folder


def test_a_reranker_sits_beside_an_embedding_model_in_the_report(built) -> None:
    results, report = built
    assert not results.skipped
    reranker = next(run for run in results.runs if run.name == RERANKER)
    assert results.is_reranker(reranker) and not any(results.is_reranker(r) for r in results.runs if r != reranker)
    saved = results.predictions(reranker, TASKS[0])
    assert saved is not None and saved.cosines.shape[1] == 5
    assert results.score(reranker, TASKS[0]) == pytest.approx(float((saved.ranks == 1).mean()), abs=1e-5)  # files round

    text = (report / "report.md").read_text(encoding="utf-8")
    table_line = next(line for line in text.splitlines() if line.startswith(f"| {RERANKER}"))
    assert f"{100 * results.score(reranker, TASKS[0]):.1f} ±" in table_line
    # the disagreements' table says whose numbers are cosines and whose are the reranker's scores
    rows = pd.read_csv(report / "tables" / "disagreements.csv")
    assert set(rows["model"]) == {results.label(run) for run in results.runs}  # both models disagree somewhere
    assert ((rows["score_unit"] == "reranker score") == (rows["model"] == RERANKER)).all()


def _document(report: Path) -> dict:
    page = (report / "report.html").read_text(encoding="utf-8")
    packed = re.search(r'<script id="clsd-data" type="application/octet-stream">([^<]*)</script>', page)
    assert packed is not None
    return json.loads(gzip.decompress(base64.b64decode(packed.group(1))))


@pytest.mark.browser
def test_the_row_explorer_shows_the_rerankers_five_scores_as_its_own_units(built) -> None:
    results, report = built
    document = _document(report)
    model = next(k for k, m in enumerate(document["models"]) if m["label"].startswith(RERANKER))
    assert [m["unit"] == SCORE_UNIT for m in document["models"]] == [results.is_reranker(run) for run in results.runs]
    reranker = results.runs[model]
    task = next(t for t in document["tasks"] if t["name"] == TASKS[0])
    saved = results.predictions(reranker, TASKS[0])
    assert saved is not None
    with Chromium() as browser:
        browser.open(report / "report.html")
        browser.evaluate("window.clsdExplorerReady.then(() => true)")
        browser.choose("f-model", str(model))
        browser.choose("f-task", TASKS[0])
        browser.choose("f-rows", "all")
        cards = browser.evaluate(
            "[...document.querySelectorAll('#rows article')].map(a => [a.dataset.id, a.dataset.unit, "
            "a.querySelector('.margin').textContent, [...a.querySelectorAll('.cos')].map(c => c.textContent)])"
        )
    assert [card[0] for card in cards] == [row[0] for row in task["rows"]][:50]
    position = {row_id: i for i, row_id in enumerate(saved.ids)}
    stored = dict(zip([row[0] for row in task["rows"]], task["cos"][model], strict=True))
    for row_id, unit, margin, shown in cards:
        scores = saved.cosines[position[row_id]]
        assert unit == SCORE_UNIT and len(shown) == 5  # T and four distractors, each with the model's own score
        assert stored[row_id] == [round(float(s) * COSINE_SCALE) for s in scores]
        assert shown == [f"{value / COSINE_SCALE:.4f}" for value in stored[row_id]]
        assert margin.startswith("score margin ") and margin.endswith("(the reranker's own score units, not a cosine)")
