"""`clsd analyze` on a results folder mixing an embedding model and a reranker: both in Table 1, the
reranker's five scores readable as predictions."""

from __future__ import annotations

from pathlib import Path

import mteb
import pytest

import clsd_mteb
from clsd_analysis.report import AnalysisOptions, build_report
from clsd_analysis.results import load_results
from clsd_analysis.sections import PosShift, with_options
from clsd_mteb.baselines import CHAR_NGRAM_NAME
from clsd_mteb.models import load_model
from tests.helpers.encoders import CosineCrossEncoder, VectorEncoder, hashed_vector

pytestmark = pytest.mark.slow  # builds a full report

TASKS = ["CLSD-WMT19-DE-FR", "CLSD-WMT19-DE-FR-PivotEN"]
RERANKER = "tests/cosine-cross-encoder"


def test_a_reranker_sits_beside_an_embedding_model_in_the_report(small_release: Path, tmp_path: Path) -> None:
    folder = tmp_path / "results"
    for model in [load_model(CHAR_NGRAM_NAME), CosineCrossEncoder(VectorEncoder(hashed_vector), name=RERANKER)]:
        meta = model.mteb_model_meta
        mteb.evaluate(
            model,
            clsd_mteb.get_tasks(TASKS, data_dir=small_release),
            cache=mteb.ResultCache(folder),
            prediction_folder=folder / "predictions" / meta.model_name_as_path() / meta.revision,
            show_progress_bar=False,
        )
    results = load_results(folder)
    assert not results.skipped
    reranker = next(run for run in results.runs if run.name == RERANKER)
    assert results.is_reranker(reranker) and not any(results.is_reranker(r) for r in results.runs if r != reranker)
    saved = results.predictions(reranker, TASKS[0])
    assert saved is not None and saved.cosines.shape[1] == 5
    assert results.score(reranker, TASKS[0]) == pytest.approx(float((saved.ranks == 1).mean()), abs=1e-5)  # files round

    options = AnalysisOptions(data_dir=small_release, sections=with_options(PosShift(enabled=False)))
    report = build_report(folder, tmp_path / "report", options).read_text(encoding="utf-8")
    table_line = next(line for line in report.splitlines() if line.startswith(f"| {RERANKER}"))
    assert f"{100 * results.score(reranker, TASKS[0]):.1f} ±" in table_line
