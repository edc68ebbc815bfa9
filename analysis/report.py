"""``clsd analyze``: every analysis over one results folder, written as a Markdown report with its files.

Layout of the report folder::

    report.md                    the report; embeds the tables and figures below
    tables/<name>.md|.tex|.csv   each table as Markdown, LaTeX (booktabs) and CSV
    tables/disagreements.csv     direct-vs-pivot disagreements with their texts
    tables/one_word_shifts.csv   every one-word pair with its cosines and shifts, per model
    figures/<name>.png|.pdf      the figures

An existing report is never replaced silently: a folder holding ``report.md`` is refused unless
``overwrite`` is set.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from clsd_analysis import figures, render
from clsd_analysis.disagreements import DIRECT_ONLY, PIVOT_ONLY, find_disagreements
from clsd_analysis.distractor_stats import distractor_statistics
from clsd_analysis.edit_distance import BIN_LABELS, bin_summary, distractor_table
from clsd_analysis.embeddings import EmbeddingStore, ModelUnavailable
from clsd_analysis.pos_shift import ALL_LANGUAGES, ANY, analyse_one_word_changes
from clsd_analysis.results import ResultsFolder, load_results
from clsd_analysis.stanza_tagging import StanzaTagger
from clsd_analysis.tables import comparison_table
from clsd_analysis.task_data import TaskCatalog
from clsd_format.errors import CLSDError

REPORT_FILE = "report.md"
EXAMPLES_PER_KIND = 3


class ReportExists(CLSDError):
    """The report folder already holds a report."""


@dataclass
class AnalysisOptions:
    data_dir: str | Path | None = None
    dataset_folders: Sequence[str | Path] = ()
    model_paths: Mapping[str, str] = field(default_factory=dict)
    pos_shift: bool = True
    stanza_dir: str | Path | None = None
    stanza_download: bool = False
    cache_dir: Path | None = None
    batch_size: int = 32
    overwrite: bool = False
    command: str | None = None  # the command line, quoted in the report


def default_cache_dir() -> Path:
    """Beside the release cache of the plugin (``CLSD_CACHE_DIR``, default ``~/.cache/clsd_mteb``)."""
    root = os.environ.get("CLSD_CACHE_DIR") or Path.home() / ".cache" / "clsd_mteb"
    return Path(root) / "embeddings"


class _Writer:
    """Collects Markdown and writes each table in three formats next to it."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.tables = out / "tables"
        self.figures = out / "figures"
        self.tables.mkdir(parents=True, exist_ok=True)
        self.parts: list[str] = []

    def add(self, text: str) -> None:
        self.parts.append(text.rstrip() + "\n")

    def table(
        self,
        name: str,
        frame: pd.DataFrame,
        *,
        caption: str,
        fmt: render.Formatter = render.number(),
        bold: set | None = None,
        embed: bool = True,
        index_name: str | None = None,
    ) -> None:
        render.write_csv(frame, self.tables / f"{name}.csv", index_name=index_name)
        markdown = render.to_markdown(frame, fmt, bold or set(), index_name=index_name)
        (self.tables / f"{name}.md").write_text(markdown, encoding="utf-8")
        latex = render.to_latex(frame, fmt, bold or set(), caption=caption, label=f"tab:{name}", index_name=index_name)
        (self.tables / f"{name}.tex").write_text(latex, encoding="utf-8")
        if embed:
            self.add(markdown)
        self.add(f"*{caption}* Files: [CSV](tables/{name}.csv), [LaTeX](tables/{name}.tex), [Markdown](tables/{name}.md).\n")

    def figure(self, paths: list[Path], alt: str) -> None:
        if not paths:
            self.add(f"*(no figure: {alt} has no data)*\n")
            return
        png, pdf = paths
        self.add(f"![{alt}](figures/{png.name})\n\n[PDF](figures/{pdf.name})\n")

    def write(self) -> Path:
        path = self.out / REPORT_FILE
        path.write_text("\n".join(self.parts), encoding="utf-8")
        return path


def _check_target(out: Path, overwrite: bool) -> None:
    if (out / REPORT_FILE).exists() and not overwrite:
        raise ReportExists(
            f"{out / REPORT_FILE} already exists; choose another --out folder or pass --overwrite to replace the report."
        )
    if out.exists() and not out.is_dir():
        raise CLSDError(f"--out {out} exists and is not a folder.")


def _pct(value: float) -> str:
    return render.MISSING if render.is_missing(value) else f"{100 * value:.1f}"


def _shorten(text: object, limit: int = 160) -> str:
    text = "" if text is None or (isinstance(text, float)) else str(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def build_report(results_dir: str | Path, out: str | Path, options: AnalysisOptions | None = None) -> Path:
    """Run every analysis and write the report; returns the path of ``report.md``."""
    options = options or AnalysisOptions()
    out = Path(out)
    _check_target(out, options.overwrite)
    results = load_results(results_dir)
    catalog = TaskCatalog(options.data_dir, options.dataset_folders)
    writer = _Writer(out)
    notes: list[str] = [f"Skipped file {s}" for s in results.skipped]

    writer.add("# CLSD analysis report\n")
    if options.command:
        writer.add(f"Produced by:\n\n```\n{options.command}\n```\n")
    model_lines = "\n".join(f"- `{results.label(r)}` (revision `{r.revision}`)" for r in results.runs)
    writer.add(f"Results folder: `{results_dir}`. Models:\n\n{model_lines}\n")
    writer.add(f"Tasks: {', '.join(f'`{t}`' for t in results.task_names)}.\n")

    # 1. Model comparison ---------------------------------------------------------------------
    writer.add("## 1. Model comparison\n")
    writer.add(
        "Precision@1 (%) from the result files; ties between the true translation and a distractor count as misses. "
        "Averages only where a model has every task of the block; **bold** is the best per column; "
        "Δ is the pivot average minus the direct average over the same tasks; — means no result.\n"
    )
    table = comparison_table(results)
    writer.table("comparison", table.frame, caption="Precision@1 (%) per task, direct and pivot.", bold=table.best)
    writer.figure(figures.p1_direct_vs_pivot(results, writer.figures), "P@1 direct vs pivot")

    # 2. Disagreements ------------------------------------------------------------------------
    writer.add("## 2. Direct versus pivot disagreements\n")
    disagreements = find_disagreements(results, catalog)
    if disagreements.counts.empty:
        writer.add("No model has predictions for both a direct task and its pivot version.\n")
    else:
        writer.table(
            "disagreement_counts",
            disagreements.counts,
            caption="Rows right in one setting and wrong in the other, summed over task pairs.",
            fmt=render.number(0),
        )
        disagreements.rows.to_csv(writer.tables / "disagreements.csv", index=False)
        writer.add("All rows with their texts: [tables/disagreements.csv](tables/disagreements.csv). Examples:\n")
        for kind in (DIRECT_ONLY, PIVOT_ONLY):
            sample = disagreements.rows[disagreements.rows["kind"] == kind].head(EXAMPLES_PER_KIND)
            for _, row in sample.iterrows():
                writer.add(
                    f"- *{kind}* — `{row['model']}`, `{row['direct_task']}` `{row['id']}`: "
                    f"S = “{_shorten(row['direct_source'])}”; T = “{_shorten(row['direct_target'])}”; "
                    f"strongest distractor direct = “{_shorten(row['direct_top_distractor'])}”, "
                    f"pivot = “{_shorten(row['pivot_top_distractor'])}”"
                )
        writer.add("")

    # 3. Edit distance ------------------------------------------------------------------------
    writer.add("## 3. Successful distractors by edit distance\n")
    writer.add(
        "A distractor is successful when it ties or beats the true translation. Bins: normalised Levenshtein "
        "similarity to the true translation (the paper's five bins, plus 0.0-0.3 so the bins add up to all "
        "successful distractors). Cells: share of the successful distractors (%) and, in brackets, their number / "
        "all distractors in the bin.\n"
    )
    distractors = distractor_table(results, catalog)
    bins = bin_summary(distractors)
    if bins.empty:
        writer.add("No predictions with task texts available.\n")
    else:
        wide = {}
        for key, group in bins.groupby(["model", "setting", "target_language"], sort=True):
            cells = group.set_index("bin").reindex(BIN_LABELS)
            wide[key] = {
                label: f"{_pct(r.share_of_successful)} ({int(r.successful)}/{int(r.bin_size)})"
                for label, r in cells.iterrows()
            }
            wide[key]["successful"] = int(group["successful"].sum())
        frame = pd.DataFrame.from_dict(wide, orient="index")
        frame.index = [" · ".join(k) for k in frame.index]
        writer.table(
            "levenshtein_bins",
            frame,
            caption="Successful distractors per Levenshtein-similarity bin: share % (successful / bin size).",
            index_name="model · setting · target language",
        )
        bins.to_csv(writer.tables / "levenshtein_bins_long.csv", index=False)
        writer.figure(figures.levenshtein_bins(bins, writer.figures), "Levenshtein bins")

    # 4. Distractor statistics ----------------------------------------------------------------
    writer.add("## 4. Distractor statistics\n")
    writer.add(
        "Word-level Jaccard (lower-cased words, punctuation dropped) between the true translation and each distractor, "
        "mean pairwise Jaccard among a row's distractors, and distractor/original length ratios; all rows of each task. "
        "The paper reports Jaccard 0.47 (sd 0.17) original-distractor on the release.\n"
    )
    stats = distractor_statistics(results.task_names, catalog)
    if stats.empty:
        writer.add("No task texts available.\n")
    else:
        writer.table("distractor_stats", stats, caption="Distractor statistics per task.", fmt=render.number(3))

    # 5. One-word changes by POS --------------------------------------------------------------
    writer.add("## 5. One-word changes by part of speech\n")
    if not options.pos_shift:
        writer.add("Left out (`--no-pos-shift`).\n")
    else:
        _pos_section(writer, results, catalog, options, notes)

    # Notes -----------------------------------------------------------------------------------
    notes += [f"Task `{name}`: {why}" for name, why in catalog.problems.items()]
    if notes:
        writer.add("## Notes\n")
        writer.add("\n".join(f"- {n}" for n in notes) + "\n")
    return writer.write()


def _annotation_dir(options: AnalysisOptions) -> Path | None:
    from clsd_mteb import release

    folder = release.resolve_data_dir(options.data_dir)
    return Path(folder) if folder is not None else None


def _pos_section(writer: _Writer, results: ResultsFolder, catalog: TaskCatalog, options: AnalysisOptions, notes: list[str]) -> None:
    store = EmbeddingStore(options.cache_dir or default_cache_dir(), options.model_paths, options.batch_size)
    tagger = StanzaTagger(options.stanza_dir, download=options.stanza_download)
    try:
        analysis = analyse_one_word_changes(
            results, catalog, store, annotation_dir=_annotation_dir(options), tagger=tagger
        )
    except ModelUnavailable as exc:
        raise CLSDError(str(exc)) from exc
    notes += store.warnings
    t = analysis.tagging
    writer.add(
        f"{len(analysis.changes)} original-distractor pairs differ by exactly one substituted token. Part of speech: "
        f"{t.from_annotation} from the release's annotation files, {t.from_stanza} from Stanza, {t.untagged} untagged "
        f"(counted in ANY only); {t.excluded_equivalent} pairs annotated as semantically equivalent are left out.\n\n"
        "Shifts are cos(·,d) − cos(·,T) in units of the model's gap (mean cosine of parallel pairs minus mean cosine "
        "of unrelated pairs): 0 = the change is invisible to the model, −1 = it moved the sentence as far as an "
        "unrelated one. Cross-lingual: from the source S; monolingual: from T itself. A gap within three standard "
        "errors of zero leaves a model's shifts undefined (—).\n"
    )
    if analysis.gaps.empty:
        writer.add("No model could be analysed (no direct task with texts).\n")
        return
    gaps = analysis.gaps.set_index(["model", "language_pair"])
    gaps.index = [" · ".join(k) for k in gaps.index]
    writer.table("gaps", gaps, caption="Parallel minus unrelated mean cosine per model and language pair.", fmt=render.number(3), index_name="model · language pair")
    analysis.shifts.to_csv(writer.tables / "one_word_shifts.csv", index=False)
    summary = analysis.summary
    summary.to_csv(writer.tables / "pos_shift_summary_long.csv", index=False)
    for kind in ("cross", "mono"):
        for language in sorted(set(summary["language"])):
            block = summary[summary["language"] == language]
            wide = block.pivot_table(index="pos", columns="model", values=f"{kind}_shift_mean", aggfunc="first", dropna=False)
            counts = block.groupby("pos")["n"].max()
            order = [p for p in counts.sort_values(ascending=False).index if p != ANY] + [ANY]
            wide = wide.reindex(order)
            wide.insert(0, "n", counts.reindex(order).astype(int))
            name = f"pos_{kind}_shift_{'all' if language == ALL_LANGUAGES else language}"
            title = "all target languages" if language == ALL_LANGUAGES else f"target language {language}"
            writer.add(f"### Mean {kind}-lingual shift by POS, {title}\n" if kind == "cross" else f"### Mean monolingual shift by POS, {title}\n")
            writer.table(name, wide, caption=f"Mean {'cross-lingual' if kind == 'cross' else 'monolingual'} shift by POS ({title}).", fmt=render.number(3), index_name="POS")
    writer.add("### Correlation of monolingual and cross-lingual shift\n")
    corr = summary.pivot_table(index=["language", "pos"], columns="model", values="pearson_r", aggfunc="first", dropna=False)
    corr.index = [f"{lang} · {pos}" for lang, pos in corr.index]
    writer.table("pos_shift_pearson", corr, caption="Pearson r between monolingual and cross-lingual shifts (— below three pairs or undefined).", fmt=render.number(2), index_name="language · POS")
    for kind in ("cross", "mono"):
        writer.figure(figures.shift_heatmap(summary, kind, writer.figures), f"{kind} shift heatmap")
