"""The analyses on real results: all-MiniLM-L6-v2 and the two baselines, evaluated here on a slice of the
fixture files' WMT19 (tests/data/clsd-mini, with its annotation files)."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import mteb
import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

import clsd_mteb
from clsd_analysis import render
from clsd_analysis.disagreements import DIRECT_ONLY, PIVOT_ONLY, find_disagreements
from clsd_analysis.edit_distance import TIES_OR_BEATS, bin_summary, distractor_table
from clsd_analysis.pos_shift import OneWordChange, TaggingSummary, tag_with_stanza
from clsd_analysis.report import AnalysisOptions, analyze
from clsd_analysis.results import ModelRun, ResultsFolder, load_results
from clsd_analysis.sections import with_options
from clsd_analysis.sections.pos_shift import PosShift
from clsd_analysis.stanza_tagging import StanzaModelMissing, StanzaTagger
from clsd_analysis.tables import comparison_frame, comparison_table
from clsd_analysis.task_data import TaskCatalog
from clsd_cli.app import app
from clsd_format.defaults import BASELINE_MODELS
from clsd_format.errors import CLSDError
from clsd_format.text_measures import PAPER_BIN_LABELS
from clsd_mteb import table1_render
from clsd_mteb.baselines import RANDOM_NAME
from clsd_mteb.models import MINILM_NAME, load_model
from clsd_mteb.naming import setting_of, short_task
from clsd_mteb.table1 import AVERAGE, DIRECT

pytestmark = pytest.mark.slow  # evaluates three models (one real) and builds full reports

TASKS = ["CLSD-WMT19-DE-FR", "CLSD-WMT19-FR-DE", "CLSD-WMT19-DE-FR-PivotEN", "CLSD-WMT19-FR-DE-PivotEN"]
ROWS = 20


@pytest.fixture(scope="module")
def results_dir(tmp_path_factory: pytest.TempPathFactory, small_release: Path, minilm) -> Path:
    """A results folder as `clsd evaluate --output` writes it, for three models on four tasks."""
    folder = tmp_path_factory.mktemp("results")
    for model in [minilm, *(load_model(name) for name in BASELINE_MODELS)]:
        meta = model.mteb_model_meta
        mteb.evaluate(
            model,
            clsd_mteb.get_tasks(TASKS, data_dir=small_release, limit=ROWS),
            cache=mteb.ResultCache(folder),
            prediction_folder=folder / "predictions" / meta.model_name_as_path() / meta.revision,
            show_progress_bar=False,
        )
    return folder


@pytest.fixture(scope="module")
def catalog(small_release: Path) -> TaskCatalog:
    return TaskCatalog(small_release)


@pytest.fixture(scope="module")
def report(results_dir: Path, small_release: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report") / "report"
    embeddings = tmp_path_factory.mktemp("embeddings")
    options = AnalysisOptions(data_dir=small_release, sections=with_options(PosShift(cache_dir=embeddings)))
    return analyze(results_dir, out, options).folder


def test_results_are_found_for_every_model_and_task(results_dir: Path) -> None:
    results = load_results(results_dir)
    assert sorted(r.name for r in results.runs) == sorted(["sentence-transformers/all-MiniLM-L6-v2", *BASELINE_MODELS])
    assert results.task_names == sorted(TASKS)
    assert len(results.scores) == len(results.prediction_paths) == 3 * len(TASKS)
    assert set(results.trials.values()) == {ROWS} and len(results.trials) == 3 * len(TASKS)  # each one a trial, known as such


def test_table_values_equal_the_result_files(results_dir: Path) -> None:
    results = load_results(results_dir)
    table = comparison_frame(comparison_table(results))
    checked = 0
    for path in (results_dir / "results").glob("*/*/CLSD-*.json"):
        data = json.loads(path.read_text())
        model = json.loads((path.parent / "model_meta.json").read_text())["name"]
        task = data["task_name"]
        block = DIRECT if "Pivot" not in task else "pivot EN"
        column = (block, short_task(task.removesuffix("-PivotEN")))
        scores = data["scores"][f"test_first_{ROWS}"][0]  # a trial's own split
        assert table.loc[model, column] == pytest.approx(100 * scores["precision_at_1"])
        # the interval Table 1 shows is the one the result file carries (Wilson, from the per-row hits; mteb keeps 6 decimals)
        assert table.loc[model, (block, f"{column[1]} 95% low")] == pytest.approx(100 * scores["precision_at_1_ci_low"], abs=1e-4)
        assert table.loc[model, (block, f"{column[1]} 95% high")] == pytest.approx(
            100 * scores["precision_at_1_ci_high"], abs=1e-4
        )
        checked += 1
    assert checked == 12
    minilm = "sentence-transformers/all-MiniLM-L6-v2"
    direct_cols = [c for c in table.columns if c[0] == DIRECT and c[1] != AVERAGE and "95%" not in c[1]]
    assert table.loc[minilm, (DIRECT, AVERAGE)] == pytest.approx(table.loc[minilm, direct_cols].mean())


def test_missing_results_show_as_missing(results_dir: Path, tmp_path: Path) -> None:
    partial = tmp_path / "partial"
    shutil.copytree(results_dir, partial)
    (next((partial / "results").glob("clsd-baselines__random/*")) / "CLSD-WMT19-FR-DE.json").unlink()
    table = comparison_table(load_results(partial))
    frame = comparison_frame(table)
    row = frame.loc["clsd-baselines/random"]
    assert math.isnan(row[(DIRECT, "WMT19 FR→DE")])
    assert math.isnan(row[(DIRECT, AVERAGE)])  # no average over a subset
    assert not math.isnan(row[(DIRECT, "WMT19 DE→FR")])
    markdown = table1_render.table1_markdown(table)
    line = next(t for t in markdown.splitlines() if t.startswith("| clsd-baselines/random"))
    assert render.MISSING in line and " 0.00 " not in line
    render.write_csv(frame, tmp_path / "table.csv")
    csv_line = next(t for t in (tmp_path / "table.csv").read_text().splitlines() if t.startswith("clsd-baselines/random"))
    assert ",," in csv_line  # an empty field, not 0


def _wins_by_hand(cosines: np.ndarray) -> int:
    """Distractors whose saved cosine ties or beats the true translation's."""
    return int((cosines[:, 1:] >= cosines[:, :1]).sum())


def _group_of(task: str) -> tuple[str, str]:
    """(setting, target language) of a task of this module: 'CLSD-WMT19-DE-FR-PivotEN' -> ('pivot EN', 'fr')."""
    return setting_of(task), task.removesuffix("-PivotEN").split("-")[3].lower()


def test_bins_sum_to_the_successful_distractors(results_dir: Path, catalog: TaskCatalog) -> None:
    results = load_results(results_dir)
    distractors = distractor_table(results, catalog)
    bins = bin_summary(distractors, TIES_OR_BEATS)
    for run in results.runs:
        label = results.label(run)
        expected = {_group_of(task): _wins_by_hand(results.predictions(run, task).cosines) for task in TASKS}
        for task in TASKS:
            in_task = distractors[(distractors["model"] == label) & (distractors["task"] == task)]
            assert int(in_task[TIES_OR_BEATS].sum()) == expected[_group_of(task)]
        model_bins = bins[bins["model"] == label]
        assert int(model_bins["bin_size"].sum()) == len(TASKS) * ROWS * 4
        groups = dict(list(model_bins.groupby(["setting", "target_language"])))
        assert {key: int(group["successful"].sum()) for key, group in groups.items()} == expected
        for key, group in groups.items():
            assert list(group["bin"])[:5] == list(PAPER_BIN_LABELS)
            share = group["share_of_successful"]  # undefined (NaN, summing to 0) where nothing was successful
            assert share.isna().all() == (expected[key] == 0)
            assert share.sum() == pytest.approx(1.0 if expected[key] else 0.0)
    # A random encoder is tricked in every task, so the shares above were checked in every group at least once.
    random_run = next(run for run in results.runs if run.name == RANDOM_NAME)
    assert all(_wins_by_hand(results.predictions(random_run, task).cosines) > 0 for task in TASKS)


def _right_by_hand(cosines: np.ndarray) -> np.ndarray:
    """Rows whose true translation beats every distractor strictly (a tie is a miss)."""
    return cosines[:, 0] > np.nanmax(cosines[:, 1:], axis=1)


def test_disagreements_match_the_ranks(results_dir: Path, catalog: TaskCatalog) -> None:
    results = load_results(results_dir)
    found = find_disagreements(results, catalog)
    for run in results.runs:
        expected = {DIRECT_ONLY: 0, PIVOT_ONLY: 0}
        for base in ("CLSD-WMT19-DE-FR", "CLSD-WMT19-FR-DE"):
            direct, pivot = results.predictions(run, base), results.predictions(run, base + "-PivotEN")
            assert direct.ids == pivot.ids  # the same rows in both settings, in the same order
            direct_right, pivot_right = _right_by_hand(direct.cosines), _right_by_hand(pivot.cosines)
            expected[DIRECT_ONLY] += int((direct_right & ~pivot_right).sum())
            expected[PIVOT_ONLY] += int((pivot_right & ~direct_right).sum())
        counts = found.counts.loc[results.label(run)]
        assert counts[DIRECT_ONLY] == expected[DIRECT_ONLY] and counts[PIVOT_ONLY] == expected[PIVOT_ONLY]
    assert len(found.rows) == int(found.counts["total"].sum()) > 0  # the fixture has disagreements to read
    for _, row in found.rows.iterrows():  # every row comes with the texts it names
        direct_row = catalog.get(row["direct_task"]).rows[row["id"]]
        pivot_row = catalog.get(row["pivot_task"]).rows[row["id"]]
        assert (row["direct_source"], row["direct_target"]) == (direct_row["source"], direct_row["target"])
        assert row["direct_top_distractor"] == direct_row["distractors"][row["direct_top_slot"] - 1]
        assert (row["pivot_source"], row["pivot_target"]) == (pivot_row["source"], pivot_row["target"])
        assert row["pivot_top_distractor"] == pivot_row["distractors"][row["pivot_top_slot"] - 1]


def test_report_embeds_tables_and_figures(report: Path) -> None:
    text = (report / "report.md").read_text(encoding="utf-8")
    assert "**Trials, not the tasks' scores:**" in text and f"`CLSD-WMT19-DE-FR`: first {ROWS} rows" in text
    for heading in (
        "Model comparison",
        "disagreements",
        "edit similarity",
        "Examples of successful",
        "Distractor statistics",
        "part of speech",
        "edit types",
    ):
        assert heading in text
    for name in (
        "comparison",
        "model_comparisons",
        "pivot_tests",
        "levenshtein_bin_totals",
        "levenshtein_bins",
        "levenshtein_bins_ties_or_beats",
        "successful_examples",
        "distractor_stats",
        "gaps",
        "pos_shift_pearson",
        "pos_shift_spearman",
        "edit_types",
    ):
        for suffix in (".md", ".tex", ".csv"):
            assert (report / "tables" / f"{name}{suffix}").stat().st_size > 0
    assert "\\toprule" in (report / "tables" / "comparison.tex").read_text()
    # the report opens on the answer: its first section, before what was read, the tables and (in report.html) the explorer
    assert [line for line in text.splitlines() if line.startswith("## ")][:2] == ["## The answer", "## What this report read"]
    page = (report / "report.html").read_text(encoding="utf-8")
    assert page.index(">The answer</h2>") < page.index("Model comparison (Table 1)") < page.index('id="explorer"')
    # section 2's disagreement counts are the discordant rows of the pooled pivot test
    counts = pd.read_csv(report / "tables" / "disagreement_counts.csv", index_col=0)
    pooled = pd.read_csv(report / "tables" / "pivot_tests.csv").query("task == 'all'").set_index("model")
    assert len(pooled) == len(counts) == 3
    assert (counts.loc[pooled.index].iloc[:, 0] == pooled["only_direct"]).all()
    assert (counts.loc[pooled.index].iloc[:, 1] == pooled["only_pivot"]).all()
    assert "These counts are the discordant rows of the paired test" in text
    assert "Over all directions, through English: " in text.split("## 1.")[0]  # each model's pooled pivot test
    assert (report / "report.html").stat().st_size > 10_000 and "[report.html](report.html)" in text
    for stem in (
        "p1_direct_vs_pivot",
        "levenshtein_bins",
        "pos_cross_shift_heatmap",
        "pos_mono_shift_heatmap",
        "edit_type_rates",
    ):
        png = report / "figures" / f"{stem}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
        assert (report / "figures" / f"{stem}.pdf").read_bytes()[:5] == b"%PDF-"
        assert f"figures/{stem}.png" in text


def _gap_by_hand(results: ResultsFolder, run: ModelRun, catalog: TaskCatalog, encoder) -> float:
    """The paper's gap for DE/FR: mean cos(S,T) of the parallel pairs minus the mean over unrelated pairs.

    The parallel cosines are those the evaluator saved; the unrelated ones come from encoding every German
    and every French sentence of the scored rows here and comparing each with the other rows' translations.
    """
    parallel: dict[tuple[str, str], float] = {}  # (German, French) -> saved cos; both directions hold the same pairs
    for task in ("CLSD-WMT19-DE-FR", "CLSD-WMT19-FR-DE"):
        predictions, rows = results.predictions(run, task), catalog.get(task).rows
        for row_id, cos in zip(predictions.ids, predictions.cosines[:, 0], strict=True):
            source, target = rows[row_id]["source"], rows[row_id]["target"]
            parallel.setdefault((source, target) if task.endswith("DE-FR") else (target, source), float(cos))
    german, french = [pair[0] for pair in parallel], [pair[1] for pair in parallel]
    vectors = clsd_mteb.encode_texts(encoder, german + french, task_metadata=catalog.get("CLSD-WMT19-DE-FR").metadata)
    similarity = vectors[: len(german)] @ vectors[len(german) :].T
    unrelated = similarity[~np.eye(len(german), dtype=bool)].mean()
    np.testing.assert_allclose(np.diag(similarity), list(parallel.values()), atol=1e-5)  # same encoder as the evaluator
    return float(np.mean(list(parallel.values())) - unrelated)


def test_shift_table_uses_annotations_and_undefines_the_random_gap(
    report: Path, results_dir: Path, catalog: TaskCatalog, minilm
) -> None:
    gaps = pd.read_csv(report / "tables" / "gaps.csv", index_col=0)
    reliable = dict(zip(gaps.index, gaps["gap_reliable"], strict=True))
    assert reliable[f"{MINILM_NAME} · deu-Latn / fra-Latn"]
    # A random encoder does not tell translations from unrelated sentences: its gap is noise, its shifts undefined.
    assert not reliable[f"{RANDOM_NAME} · deu-Latn / fra-Latn"]
    shifts = pd.read_csv(report / "tables" / "one_word_shifts.csv")
    assert set(shifts["pos_from"].dropna()) == {"annotation"}
    random_rows = shifts[shifts["model"] == RANDOM_NAME]
    assert len(random_rows) > 0 and random_rows[["cross_shift", "mono_shift"]].isna().all().all()

    results = load_results(results_dir)
    run = next(r for r in results.runs if r.name == MINILM_NAME)
    gap = _gap_by_hand(results, run, catalog, minilm)
    minilm_rows = shifts[shifts["model"] == MINILM_NAME]
    assert len(minilm_rows) > 0 and minilm_rows["gap"].iloc[0] == pytest.approx(gap, abs=1e-5)
    for _, row in minilm_rows.head(3).iterrows():
        saved = results.predictions(run, row["task"])
        cos = saved.cosines[saved.ids.index(row["row_id"])]
        # [(1 - cos(S,T)) - (1 - cos(S,d))] / gap, with the cosines the evaluator saved for this row and slot
        assert row["cross_shift"] == pytest.approx(((1 - cos[0]) - (1 - cos[row["slot"]])) / gap, rel=1e-4, abs=1e-6)
        metadata = catalog.get(row["task"]).metadata
        target, distractor = clsd_mteb.encode_texts(minilm, [row["target"], row["distractor"]], task_metadata=metadata)
        # [(1 - cos(T,T)) - (1 - cos(T,d))] / gap
        assert row["mono_shift"] == pytest.approx((0 - (1 - float(target @ distractor))) / gap, rel=1e-4, abs=1e-6)


def test_cli_end_to_end_and_no_silent_overwrite(results_dir: Path, small_release: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "cli-report"
    args = ["analyze", str(results_dir), "--out", str(out), "--data-dir", str(small_release), "--no-pos-shift"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert "Left out (`--no-pos-shift`)" in (out / "report.md").read_text(encoding="utf-8")
    again = runner.invoke(app, args)  # the command raises; `clsd` prints it (tests/cli/test_cli_startup.py)
    assert isinstance(again.exception, CLSDError) and "already exists" in str(again.exception)
    assert runner.invoke(app, [*args, "--overwrite"]).exit_code == 0


def test_cli_says_what_is_wrong_with_the_results_folder(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["analyze", str(tmp_path), "--out", str(tmp_path / "r")])
    assert isinstance(result.exception, CLSDError) and "neither results/ nor predictions/" in str(result.exception)


def test_missing_stanza_model_says_how_to_get_it(tmp_path: Path) -> None:
    tagger = StanzaTagger(tmp_path / "no-stanza-models")
    with pytest.raises(StanzaModelMissing) as error:
        tagger.tag("de", [["Der", "Hund", "schläft", "."]])
    message = PosShift().stanza_missing(error.value)  # the section the tagger serves adds its options
    assert "stanza.download('de'" in message and "--stanza-dir" in message and "--no-pos-shift" in message
    # one sentence a person reads: never Stanza's own exception pasted in (its class, its resource paths)
    assert message.startswith("no Stanza part-of-speech model for language 'de' in ")
    assert "Error" not in message and "resources.json" not in message and "\n" not in message


def test_every_missing_stanza_model_is_named_in_one_line(tmp_path: Path) -> None:
    """Two target languages without a model: one error naming both and fetching both, not one per rerun."""
    tagger = StanzaTagger(tmp_path / "no-stanza-models")

    def change(language: str, target: str) -> OneWordChange:
        return OneWordChange("T", "1", 1, "s", target, target, "deu-Latn", language, 0, target.split()[0], "x")

    changes = [change("pol-Latn", "Pies śpi ."), change("ukr-Cyrl", "Собака спить ."), change("pol-Latn", "Kot śpi .")]
    with pytest.raises(StanzaModelMissing) as error:
        tag_with_stanza(changes, tagger, TaggingSummary())
    message = str(error.value)
    assert message.startswith("no Stanza part-of-speech model for languages 'pl', 'uk' in "), message
    assert "stanza.download('pl'" in message and "stanza.download('uk'" in message and "\n" not in message
