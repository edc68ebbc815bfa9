"""Figures of the report (matplotlib, Agg backend), each saved as PNG and PDF.

* POS-by-model heatmaps of the cross-lingual and the monolingual shift (the paper's Figures 1-2);
* P@1 direct versus pivot per model;
* the Levenshtein-bin distribution of successful distractors;
* the rate at which distractors of each edit type beat T.

Every axis says what it shows and in which unit; heatmaps have a colour bar and print their values,
and a missing value is drawn as a hatched cell marked "n/a", never as a colour that reads as zero.
Figures are read at the width a report shows them (about 900 pixels): at most 8 inches wide, so their
7-9 point text stays legible; legends sit below the axes, never over data; a model is drawn in its colour
and named by its short label (:mod:`clsd_analysis.model_style`) in every figure.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.patches
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from clsd_analysis.model_style import ModelStyle
from clsd_analysis.pos_shift import ALL_LANGUAGES, ANY
from clsd_analysis.results import ResultsFolder
from clsd_mteb.confidence import counts_from_share, mean_interval
from clsd_mteb.naming import pivot_base, short_task

SHIFT_LABELS = {
    "cross": "cross-lingual shift  [(1-cos(S,T)) - (1-cos(S,d))] / gap",
    "mono": "monolingual shift  [(1-cos(T,T)) - (1-cos(T,d))] / gap",
}


def save(fig: plt.Figure, out_dir: Path, stem: str) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = [out_dir / f"{stem}.png", out_dir / f"{stem}.pdf"]
    fig.savefig(paths[0], dpi=150, bbox_inches="tight")
    fig.savefig(paths[1], bbox_inches="tight")
    plt.close(fig)
    return paths


def _two_lines(label: str) -> str:
    """A short label on at most two lines, broken at its middle space (column labels stay narrow)."""
    words = label.split(" ")
    if len(words) < 2:
        return label
    cut = min(range(1, len(words)), key=lambda i: abs(len(" ".join(words[:i])) - len(" ".join(words[i:]))))
    return " ".join(words[:cut]) + "\n" + " ".join(words[cut:])


def _legend_below(fig: plt.Figure, handles: list, labels: list[str], columns: int) -> None:
    """One legend for the whole figure, outside and below every axes (constrained layout makes room for it)."""
    fig.legend(handles, labels, loc="outside lower center", ncols=min(columns, len(labels)), fontsize=8, frameon=False)


def _pos_rows(summary: pd.DataFrame, min_pairs: int) -> list[str]:
    """POS with at least ``min_pairs`` pairs over all languages, most frequent first, then ANY."""
    overall = summary[summary["language"] == ALL_LANGUAGES].groupby("pos")["n"].max()
    return [p for p in overall[overall >= min_pairs].sort_values(ascending=False).index if p != ANY] + [ANY]


def _colour_limit(values: pd.Series) -> float:
    """One symmetric colour scale for every panel: the largest absolute finite value (1 when there is none)."""
    finite = values.to_numpy(dtype=float)
    finite = finite[np.isfinite(finite)]
    return float(np.max(np.abs(finite))) if len(finite) else 1.0


def _write_cell(ax: plt.Axes, i: int, j: int, value: float, limit: float) -> None:
    if math.isnan(value):
        ax.add_patch(plt.Rectangle((j - 0.5, i - 0.5), 1, 1, facecolor="#eeeeee", hatch="///", edgecolor="#bbbbbb"))
        ax.text(j, i, "n/a", ha="center", va="center", fontsize=7, color="#555555")
        return
    ax.text(j, i, f"{value:.2f}", ha="center", va="center", fontsize=7, color="white" if abs(value) > 0.6 * limit else "black")


def _model_strip(ax: plt.Axes, models: list[str], styles: Mapping[str, ModelStyle]) -> None:
    """Short labels on top of the columns, each over a strip of the model's colour."""
    ax.xaxis.tick_top()
    ax.set_xticks(range(len(models)), [_two_lines(styles[m].short) for m in models], fontsize=7)
    ax.tick_params(axis="x", length=0, pad=6)
    for j, model in enumerate(models):
        ax.add_patch(plt.Rectangle((j - 0.45, -0.75), 0.9, 0.2, color=styles[model].colour, clip_on=False))


def _heatmap_panel(
    ax: plt.Axes, block: pd.DataFrame, column: str, models: list[str], pos_order: list[str], limit: float
) -> matplotlib.image.AxesImage:
    """One language's POS x model grid, each cell with its value; each row label with its number of pairs."""
    grid = block.pivot_table(index="pos", columns="model", values=column, aggfunc="first", dropna=False)
    grid = grid.reindex(index=pos_order, columns=models)
    counts = block.groupby("pos")["n"].max().reindex(pos_order)
    values = grid.to_numpy(dtype=float)
    image = ax.imshow(np.ma.masked_invalid(values), cmap="RdBu", vmin=-limit, vmax=limit, aspect="auto")
    for (i, j), value in np.ndenumerate(values):
        _write_cell(ax, i, j, value, limit)
    labels = [f"{pos} ({0 if math.isnan(n) else int(n)})" for pos, n in zip(pos_order, counts, strict=True)]
    ax.set_yticks(range(len(pos_order)), labels, fontsize=7)
    ax.axhline(len(pos_order) - 1.5, color="black", linewidth=1)
    return image


def shift_heatmap(
    summary: pd.DataFrame, kind: str, styles: Mapping[str, ModelStyle], out_dir: Path, min_pairs: int = 5
) -> list[Path]:
    """One panel per target language (and all languages), stacked: rows POS (+ANY) with their pair counts, columns models.

    Rows are the POS with at least ``min_pairs`` pairs over all languages, the same in every panel.
    """
    column = f"{kind}_shift_mean"
    if summary.empty:
        return []
    languages = [*sorted(set(summary["language"]) - {ALL_LANGUAGES}), ALL_LANGUAGES]
    models = [m for m in styles if m in set(summary["model"])]
    pos_order = _pos_rows(summary, min_pairs)
    limit = _colour_limit(summary[column])
    panel_height = 0.8 + 0.24 * len(pos_order)
    fig, axes = plt.subplots(
        len(languages),
        1,
        figsize=(1.6 + 0.75 * len(models), 0.9 + panel_height * len(languages)),
        squeeze=False,
        layout="constrained",
    )
    for ax, language in zip(axes[:, 0], languages, strict=True):
        image = _heatmap_panel(ax, summary[summary["language"] == language], column, models, pos_order, limit)
        _model_strip(ax, models, styles)
        ax.set_ylabel("all target languages" if language == ALL_LANGUAGES else f"target language {language}", fontsize=8)
    fig.colorbar(
        image,  # the last panel's; every panel shares the colour scale
        ax=axes[:, 0].tolist(),
        shrink=0.6,
        label="mean shift (units of the model's gap)\n0 = change invisible, -1 = as far as an unrelated sentence",
    )
    fig.suptitle(
        f"One-word changes by part of speech: mean {SHIFT_LABELS[kind]}\n"
        f"POS (pairs) with ≥{min_pairs} pairs; n/a = undefined (no reliable gap)",
        fontsize=9,
    )
    return save(fig, out_dir, f"pos_{kind}_shift_heatmap")


def _p1_frame(results: ResultsFolder) -> pd.DataFrame:
    """Per model and task pair: P@1 (%) direct and pivot, where both were run, and each one's rows."""
    rows = []
    for run in results.runs:
        for task in results.task_names:
            base = pivot_base(task)
            if base is None:
                continue
            direct, pivot = results.score(run, base), results.score(run, task)
            if direct is not None and pivot is not None:
                n_direct, n_pivot = (int(results.score(run, t, "num_rows") or 0) for t in (base, task))
                rows.append((results.label(run), short_task(base), 100 * direct, 100 * pivot, n_direct, n_pivot))
    return pd.DataFrame(rows, columns=["model", "task", "direct", "pivot", "direct_rows", "pivot_rows"])


def _mean_error(points: pd.Series, rows: pd.Series) -> list[list[float]]:
    """The 95% interval of a mean P@1 over tasks (stratified bootstrap), as matplotlib's [[below], [above]]."""
    counts = [(counts_from_share(p / 100, n), n) for p, n in zip(points, rows, strict=True) if n > 0]
    if len(counts) < len(points):
        return [[0.0], [0.0]]  # a result without its row count: no interval to draw
    interval = mean_interval(counts).scaled(100)
    return [[points.mean() - interval.low], [interval.high - points.mean()]]


def p1_direct_vs_pivot(results: ResultsFolder, styles: Mapping[str, ModelStyle], out_dir: Path) -> list[Path]:
    """Per model, in its colour: mean P@1 direct (solid) and through the pivot (hatched), dots per task."""
    frame = _p1_frame(results)
    if frame.empty:
        return []
    models = [m for m in styles if m in set(frame["model"])]
    fig, ax = plt.subplots(figsize=(7, 1.3 + 0.62 * len(models)), layout="constrained")
    height = 0.38
    for k, setting in enumerate(("direct", "pivot")):
        for i, model in enumerate(models):
            points = frame.loc[frame["model"] == model, setting]
            y = i + (k - 0.5) * height
            ax.barh(y, points.mean(), height=height, color=styles[model].colour, alpha=0.85 if k == 0 else 0.45,
                    hatch=None if k == 0 else "///", edgecolor="white" if k == 0 else styles[model].colour)  # fmt: skip
            ax.scatter(points, [y] * len(points), color="black", s=10, zorder=3)
            error = _mean_error(points, frame.loc[frame["model"] == model, f"{setting}_rows"])
            ax.errorbar(points.mean(), y, xerr=error, fmt="none", ecolor="#333333", capsize=2, lw=0.8)
            ax.text(max(points.max(), points.mean() + error[1][0]) + 1, y, f"{points.mean():.1f}", va="center", fontsize=7)
    ax.set_yticks(range(len(models)), [styles[m].short for m in models], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, 108)
    ax.set_xlabel("Precision@1 (%): bar = mean over task pairs with its 95% interval, dot = one task", fontsize=8)
    handles = [
        matplotlib.patches.Patch(facecolor="#777777", alpha=0.85),
        matplotlib.patches.Patch(facecolor="#777777", alpha=0.45, hatch="///", edgecolor="#777777"),
    ]
    _legend_below(fig, handles, ["direct (cross-lingual)", "pivot (English)"], 2)
    ax.set_title("P@1 direct vs. through the English pivot, per model", fontsize=9)
    ax.grid(axis="x", alpha=0.3)
    return save(fig, out_dir, "p1_direct_vs_pivot")


def _grouped_bars(
    ax: plt.Axes,
    block: pd.DataFrame,
    key: str,
    value: str,
    labels: list[str],
    models: list[str],
    styles: Mapping[str, ModelStyle],
) -> list:
    """Bars of ``value`` (a share, drawn in %) per category of ``key``, one per model in its colour; returns the bar containers."""
    width = 0.8 / len(models)
    x = np.arange(len(labels))
    bars = []
    for k, model in enumerate(models):
        rows = block[block["model"] == model].set_index(key).reindex(labels)
        bars.append(
            ax.bar(x + (k - (len(models) - 1) / 2) * width, 100 * rows[value].fillna(0), width, color=styles[model].colour)
        )
    ax.grid(axis="y", alpha=0.3)
    return bars


def levenshtein_bins(bins: pd.DataFrame, styles: Mapping[str, ModelStyle], out_dir: Path) -> list[Path]:
    """Share of successful distractors per Levenshtein-similarity bin, one panel per setting and language (two per line).

    ``bins`` is one rule's :func:`clsd_analysis.edit_distance.bin_summary`.
    """
    if bins.empty:
        return []
    panels = sorted({(s, lang) for s, lang in zip(bins["setting"], bins["target_language"], strict=True)})
    models = [m for m in styles if m in set(bins["model"])]
    columns = min(2, len(panels))
    lines = math.ceil(len(panels) / columns)
    fig, axes = plt.subplots(lines, columns, figsize=(8, 0.8 + 2.6 * lines), squeeze=False, sharey=True, layout="constrained")
    labels = list(dict.fromkeys(bins["bin"]))  # the summary's bins, in its order
    bars: list = []
    for ax, (setting, language) in zip(axes.flat, panels, strict=False):
        block = bins[(bins["setting"] == setting) & (bins["target_language"] == language)]
        bars = _grouped_bars(ax, block, "bin", "share_of_successful", labels, models, styles)
        ax.set_xticks(np.arange(len(labels)), labels, fontsize=7)
        ax.tick_params(axis="y", labelsize=7)
        ax.set_title(f"{setting}, target {language}", fontsize=8)
    for ax in axes.flat[len(panels) :]:
        ax.set_visible(False)
    for ax in axes[:, 0]:
        ax.set_ylabel("share of successful (%)", fontsize=8)
    for ax in axes[-1, :]:
        ax.set_xlabel("indel similarity to the true translation", fontsize=8)
    _legend_below(fig, bars, [styles[m].short for m in models], 5)
    fig.suptitle("Which distractors beat the true translation, by surface similarity", fontsize=9)
    return save(fig, out_dir, "levenshtein_bins")


def edit_type_rates(summary: pd.DataFrame, styles: Mapping[str, ModelStyle], out_dir: Path) -> list[Path]:
    """Per setting (stacked panels): the % of distractors of each edit type that beat T, one bar per model.

    ``summary`` is :func:`clsd_analysis.edit_type_table.edit_type_summary`; each type's label gives its number
    of distractors (the most any model was scored on) and its share of them.
    """
    if summary.empty:
        return []
    settings = sorted(set(summary["setting"]))
    models = [m for m in styles if m in set(summary["model"])]
    order = [t for t in dict.fromkeys(summary["edit_type"])]
    fig, axes = plt.subplots(
        len(settings), 1, figsize=(8, 0.9 + 2.7 * len(settings)), squeeze=False, sharey=True, layout="constrained"
    )
    bars: list = []
    for ax, setting in zip(axes[:, 0], settings, strict=True):
        block = summary[summary["setting"] == setting]
        n = block.groupby("edit_type")["distractors"].max().reindex(order).fillna(0).astype(int)
        share = block.groupby("edit_type")["share"].max().reindex(order).fillna(0)
        bars = _grouped_bars(ax, block, "edit_type", "beat_rate", order, models, styles)
        ax.set_xticks(np.arange(len(order)), [f"{t}\n{n[t]} ({100 * share[t]:.1f}%)" for t in order], fontsize=7)
        ax.tick_params(axis="y", labelsize=7)
        ax.set_ylabel("beat T (% of the type)", fontsize=8)
        ax.set_title(f"{setting}: distractors that tie or beat T, by edit type (type: distractors, share)", fontsize=8)
    _legend_below(fig, bars, [styles[m].short for m in models], 5)
    return save(fig, out_dir, "edit_type_rates")
