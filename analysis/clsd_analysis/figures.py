"""Figures of the report (matplotlib, Agg backend), each saved as PNG and PDF.

* POS-by-model heatmaps of the cross-lingual and the monolingual shift (the paper's Figures 1-2);
* P@1 direct versus pivot per model;
* the Levenshtein-bin distribution of successful distractors.

Every axis says what it shows and in which unit; heatmaps have a colour bar and print their values,
and a missing value is drawn as a hatched cell marked "n/a", never as a colour that reads as zero.
"""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from clsd_analysis.pos_shift import ALL_LANGUAGES, ANY
from clsd_analysis.results import ResultsFolder
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


def _wrap(label: str, width: int = 22) -> str:
    """Model names are long ('sentence-transformers/...'): break after the organisation."""
    if len(label) <= width or "/" not in label:
        return label
    org, name = label.split("/", 1)
    return f"{org}/\n{name}"


def _pos_rows(summary: pd.DataFrame, min_pairs: int) -> list[str]:
    """POS with at least ``min_pairs`` pairs over all languages, most frequent first, then ANY."""
    overall = summary[summary["language"] == ALL_LANGUAGES].groupby("pos")["n"].max()
    return [p for p in overall[overall >= min_pairs].sort_values(ascending=False).index if p != ANY] + [ANY]


def _colour_limit(values: pd.Series) -> float:
    """One symmetric colour scale for every panel: the largest absolute finite value (1 when there is none)."""
    finite = values.to_numpy(dtype=float)
    finite = finite[np.isfinite(finite)]
    return float(np.max(np.abs(finite))) if len(finite) else 1.0


def _write_cell(ax: plt.Axes, i: int, j: int, value: float, n: float, limit: float) -> None:
    if math.isnan(value):
        ax.add_patch(plt.Rectangle((j - 0.5, i - 0.5), 1, 1, facecolor="#eeeeee", hatch="///", edgecolor="#bbbbbb"))
        ax.text(j, i, "n/a", ha="center", va="center", fontsize=8, color="#555555")
        return
    ax.text(
        j,
        i,
        f"{value:.2f}\nn={int(n)}",
        ha="center",
        va="center",
        fontsize=7,
        color="white" if abs(value) > 0.6 * limit else "black",
    )


def _heatmap_panel(
    ax: plt.Axes, block: pd.DataFrame, column: str, models: list[str], pos_order: list[str], limit: float
) -> matplotlib.image.AxesImage:
    """One language's POS x model grid, each cell with its value and pair count."""
    grid = block.pivot_table(index="pos", columns="model", values=column, aggfunc="first", dropna=False)
    grid = grid.reindex(index=pos_order, columns=models)
    counts = block.groupby("pos")["n"].max().reindex(pos_order)
    values = grid.to_numpy(dtype=float)
    image = ax.imshow(np.ma.masked_invalid(values), cmap="RdBu", vmin=-limit, vmax=limit, aspect="auto")
    for (i, j), value in np.ndenumerate(values):
        _write_cell(ax, i, j, value, counts.iloc[i], limit)
    ax.set_xticks(range(len(models)), [_wrap(m) for m in models], rotation=45, ha="right", fontsize=8)
    ax.set_yticks(range(len(pos_order)), pos_order, fontsize=9)
    ax.axhline(len(pos_order) - 1.5, color="black", linewidth=1)
    return image


def shift_heatmap(summary: pd.DataFrame, kind: str, out_dir: Path, min_pairs: int = 5) -> list[Path]:
    """One panel per target language (and all languages): rows POS (+ANY), columns models.

    Rows are the POS with at least ``min_pairs`` pairs over all languages, the same in every panel;
    each cell prints the mean shift and its number of pairs.
    """
    column = f"{kind}_shift_mean"
    if summary.empty:
        return []
    languages = [*sorted(set(summary["language"]) - {ALL_LANGUAGES}), ALL_LANGUAGES]
    models = sorted(set(summary["model"]))
    pos_order = _pos_rows(summary, min_pairs)
    limit = _colour_limit(summary[column])
    fig, axes = plt.subplots(
        1,
        len(languages),
        figsize=(2.2 + 1.25 * len(models) * len(languages), 1.6 + 0.5 * len(pos_order)),
        squeeze=False,
        sharey=True,
    )
    for ax, language in zip(axes[0], languages, strict=True):
        image = _heatmap_panel(ax, summary[summary["language"] == language], column, models, pos_order, limit)
        ax.set_title("all target languages" if language == ALL_LANGUAGES else f"target language {language}", fontsize=10)
    axes[0][0].set_ylabel("part of speech of the changed word")
    fig.colorbar(
        image,  # the last panel's; every panel shares the colour scale
        ax=axes[0].tolist(),
        shrink=0.9,
        label="mean shift (units of the model's gap)\n0 = change invisible, -1 = as far as an unrelated sentence",
    )
    fig.suptitle(
        f"One-word changes by part of speech: mean {SHIFT_LABELS[kind]}\n"
        f"(POS with ≥{min_pairs} pairs over all languages; n/a = undefined, e.g. no reliable gap)",
        fontsize=11,
        y=1.0 + 0.6 / (1.6 + 0.5 * len(pos_order)),
    )
    return save(fig, out_dir, f"pos_{kind}_shift_heatmap")


def p1_direct_vs_pivot(results: ResultsFolder, out_dir: Path) -> list[Path]:
    """Per model: mean P@1 over the tasks run both directly and through a pivot, dots per task."""
    rows = []
    for run in results.runs:
        for task in results.task_names:
            base = pivot_base(task)
            if base is None:
                continue
            direct, pivot = results.score(run, base), results.score(run, task)
            if direct is not None and pivot is not None:
                rows.append((results.label(run), short_task(base), 100 * direct, 100 * pivot))
    if not rows:
        return []
    frame = pd.DataFrame(rows, columns=["model", "task", "direct", "pivot"])
    models = sorted(set(frame["model"]))
    fig, ax = plt.subplots(figsize=(8, 1.2 + 0.9 * len(models)))
    height = 0.38
    for k, (setting, colour) in enumerate((("direct", "#1f77b4"), ("pivot", "#ff7f0e"))):
        means = [frame.loc[frame["model"] == m, setting].mean() for m in models]
        y = np.arange(len(models)) + (k - 0.5) * height
        ax.barh(y, means, height=height, color=colour, alpha=0.75, label=f"{setting} (mean over tasks)")
        for yi, m in zip(y, models, strict=True):
            points = frame.loc[frame["model"] == m, setting]
            ax.scatter(points, [yi] * len(points), color="black", s=12, zorder=3)
        for yi, mean in zip(y, means, strict=True):
            ax.text(1, yi, f"{setting} {mean:.1f}", va="center", fontsize=8, color="white", fontweight="bold")
    counts = frame.groupby("model").size()
    ax.set_yticks(range(len(models)), [f"{m}\n({counts[m]} task pairs)" for m in models], fontsize=8)
    ax.set_xlim(0, 102)
    ax.set_xlabel("Precision@1 (%)")
    ax.scatter([], [], color="black", s=12, label="single task")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12 - 0.25 / len(models)), ncol=3, fontsize=8, frameon=False)
    ax.set_title("Direct cross-lingual vs. pivot (English) P@1 per model", fontsize=11)
    ax.grid(axis="x", alpha=0.3)
    return save(fig, out_dir, "p1_direct_vs_pivot")


def levenshtein_bins(bins: pd.DataFrame, out_dir: Path) -> list[Path]:
    """Share of successful distractors per Levenshtein-similarity bin, one panel per setting and language.

    ``bins`` is one rule's :func:`clsd_analysis.edit_distance.bin_summary`.
    """
    if bins.empty:
        return []
    panels = sorted({(s, lang) for s, lang in zip(bins["setting"], bins["target_language"], strict=True)})
    models = sorted(set(bins["model"]))
    fig, axes = plt.subplots(1, len(panels), figsize=(0.5 + 4.2 * len(panels), 4.2), squeeze=False, sharey=True)
    width = 0.8 / len(models)
    labels = list(dict.fromkeys(bins["bin"]))  # the summary's bins, in its order
    x = np.arange(len(labels))
    for ax, (setting, language) in zip(axes[0], panels, strict=True):
        block = bins[(bins["setting"] == setting) & (bins["target_language"] == language)]
        for k, model in enumerate(models):
            rows = block[block["model"] == model].set_index("bin").reindex(labels)
            total = int(rows["successful"].sum()) if not rows["successful"].isna().all() else 0
            ax.bar(
                x + (k - (len(models) - 1) / 2) * width,
                100 * rows["share_of_successful"].fillna(0),
                width,
                label=f"{_wrap(model, 30)} (n={total})",
            )
        ax.set_xticks(x, labels, rotation=30)
        ax.set_xlabel("indel similarity (Levenshtein ratio) to the true translation")
        ax.set_title(f"{setting}, target {language}", fontsize=10)
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize=7, title="model (successful distractors)", title_fontsize=7)
    axes[0][0].set_ylabel("share of successful distractors (%)")
    fig.suptitle("Which distractors beat the true translation, by surface similarity", fontsize=11)
    fig.tight_layout()
    return save(fig, out_dir, "levenshtein_bins")
