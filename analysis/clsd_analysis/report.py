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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from clsd_analysis import figures, render
from clsd_analysis.alignment import Alignment
from clsd_analysis.annotations import PAPER_SELECTION, SelectionRule
from clsd_analysis.disagreements import DIRECT_ONLY, PIVOT_ONLY, find_disagreements
from clsd_analysis.distractor_stats import POOLED, distractor_statistics
from clsd_analysis.edit_distance import SUCCESS_RULES, TOP, bin_summary, bin_totals, distractor_table
from clsd_analysis.embeddings import EmbeddingStore, ModelUnavailable
from clsd_analysis.examples import successful_examples
from clsd_analysis.pos_shift import ALL_LANGUAGES, ANY, analyse_one_word_changes
from clsd_analysis.results import ResultsFolder, load_results
from clsd_analysis.stanza_tagging import StanzaTagger
from clsd_analysis.tables import Table1, comparison_frame, comparison_table
from clsd_analysis.task_data import TaskCatalog
from clsd_format.errors import CLSDError
from clsd_mteb.release import cache_root, resolve_data_dir

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
    alignment: Mapping[str, Alignment] = field(default_factory=dict)  # user entries over the built-in ones
    success_rule: str = TOP  # which distractors count as successful in the bins and the examples
    selection: SelectionRule = PAPER_SELECTION  # which annotated pairs the one-word analysis uses
    examples: int = 10  # successful-distractor examples sampled
    seed: int = 0  # seed of that sample


def default_cache_dir() -> Path:
    """Beside the release cache of the plugin, so ``CLSD_CACHE_DIR`` moves both."""
    return cache_root() / "embeddings"


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
        fmt: render.Formatter = render.DEFAULT_FORMAT,
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

    def table1(self, name: str, table: Table1, *, caption: str) -> None:
        """Table 1 as ``clsd evaluate`` prints it; the CSV holds the numbers per setting at full precision."""
        render.write_csv(comparison_frame(table), self.tables / f"{name}.csv")
        markdown = render.table1_markdown(table) + "\n"
        (self.tables / f"{name}.md").write_text(markdown, encoding="utf-8")
        latex = render.table1_latex(table, caption=caption, label=f"tab:{name}")
        (self.tables / f"{name}.tex").write_text(latex, encoding="utf-8")
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
    _comparison_section(writer, results, options)
    _disagreement_section(writer, results, catalog)
    distractors = distractor_table(results, catalog)
    _edit_distance_section(writer, results, catalog, distractors)
    _examples_section(writer, results, catalog, distractors, options)
    _statistics_section(writer, results, catalog)
    writer.add("## 6. One-word changes by part of speech\n")
    if not options.pos_shift:
        writer.add("Left out (`--no-pos-shift`).\n")
    else:
        _pos_section(writer, results, catalog, options, notes)
    notes += [f"Task `{name}`: {why}" for name, why in catalog.problems.items()]
    if notes:
        writer.add("## Notes\n")
        writer.add("\n".join(f"- {n}" for n in notes) + "\n")
    return writer.write()


def _comparison_section(writer: _Writer, results: ResultsFolder, options: AnalysisOptions) -> None:
    writer.add("## 1. Model comparison (Table 1)\n")
    writer.add(
        'Precision@1 (%) from the result files as "direct / pivot"; ties between the true translation and a distractor '
        "count as misses. Averages only where a model has every task of the block; **bold** is the best per column and "
        "block (among two or more models); — means no result. Alignment: trained with cross-lingual, paraphrase or "
        "retrieval objectives (✓ yes, ✗ no, blank unknown; from the models' papers and cards, or `--alignment FILE`). "
        "The CSV also holds, per pivot setting, Δ = pivot average minus direct average over the same tasks.\n"
    )
    writer.table1("comparison", comparison_table(results, options.alignment), caption="Precision@1 (%) per task, direct / pivot.")
    writer.figure(figures.p1_direct_vs_pivot(results, writer.figures), "P@1 direct vs pivot")


def _disagreement_section(writer: _Writer, results: ResultsFolder, catalog: TaskCatalog) -> None:
    writer.add("## 2. Direct versus pivot disagreements\n")
    disagreements = find_disagreements(results, catalog)
    if disagreements.counts.empty:
        writer.add("No model has predictions for both a direct task and its pivot version.\n")
        return
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


def _bins_wide(bins: pd.DataFrame) -> pd.DataFrame:
    """One line per model · setting · language: share % (successful / bin size) per bin, and the total."""
    wide = {}
    labels = list(dict.fromkeys(bins["bin"]))
    for key, group in bins.groupby(["model", "setting", "target_language"], sort=True):
        cells = group.set_index("bin").reindex(labels)
        wide[" · ".join(key)] = {
            label: f"{_pct(r.share_of_successful)} ({int(r.successful)}/{int(r.bin_size)})" for label, r in cells.iterrows()
        } | {"successful": int(group["successful"].sum())}
    return pd.DataFrame.from_dict(wide, orient="index")


def _edit_distance_section(writer: _Writer, results: ResultsFolder, catalog: TaskCatalog, distractors: pd.DataFrame) -> None:
    writer.add("## 3. Successful distractors by edit similarity\n")
    writer.add(
        "Similarity of a distractor to the true translation: python-Levenshtein's `ratio` (normalised indel similarity), "
        "the paper's measure, in the paper's bins (0.9-1.0 includes 1.0; a 0.0-0.3 bin only when some distractor falls "
        "there). |D_bin| counts all distractors of each target language in the bin, over the direct tasks.\n"
    )
    totals = bin_totals(results.task_names, catalog)
    if not totals.empty:
        writer.table(
            "levenshtein_bin_totals",
            totals,
            caption="|D_bin|: all distractors per bin and target language.",
            fmt=render.number(0),
        )
    if distractors.empty:
        writer.add("No predictions with task texts available.\n")
        return
    for rule, meaning in SUCCESS_RULES.items():
        bins = bin_summary(distractors, rule)
        name = "levenshtein_bins" if rule == TOP else f"levenshtein_bins_{rule.replace('-', '_')}"
        writer.add(f"### Successful = {meaning} (`{rule}`)\n")
        writer.table(
            name,
            _bins_wide(bins),
            caption=f"Successful distractors ({rule}) per similarity bin: share % (successful / bin size).",
            index_name="model · setting · target language",
        )
        bins.to_csv(writer.tables / f"{name}_long.csv", index=False)
        if rule == TOP:
            writer.figure(figures.levenshtein_bins(bins, writer.figures), "Levenshtein bins")


def _examples_section(
    writer: _Writer, results: ResultsFolder, catalog: TaskCatalog, distractors: pd.DataFrame, options: AnalysisOptions
) -> None:
    writer.add("## 4. Examples of successful distractors\n")
    examples = successful_examples(
        results, catalog, n=options.examples, seed=options.seed, rule=options.success_rule, distractors=distractors
    )
    if examples.empty:
        writer.add("No direct-task distractor tricked any model (or no predictions with texts).\n")
        return
    writer.add(
        f"A random sample (seed {options.seed}) of original/distractor pairs that tricked at least one model "
        f"(successful = {SUCCESS_RULES[options.success_rule]}); the words that differ from the original are in bold.\n"
    )
    writer.table("successful_examples", examples.set_index("task"), caption="Successful distractors and the models they tricked.")


def _statistics_section(writer: _Writer, results: ResultsFolder, catalog: TaskCatalog) -> None:
    writer.add("## 5. Distractor statistics\n")
    writer.add(
        "Word-level Jaccard with the paper's words (lower-cased, two or more word characters), per distractor: "
        "**intra-distractor** = mean Jaccard to the other distractors of the same row (what the paper reports as "
        '"0.47, sd 0.17"; 0.471 / 0.172 on the release), and **original-distractor** = Jaccard to the true '
        "translation (0.516 / 0.190 on the release); then distractor/original length ratios.\n"
    )
    stats = distractor_statistics(results.task_names, catalog)
    if stats.empty:
        writer.add("No task texts available.\n")
        return
    writer.table("distractor_stats", stats, caption="Distractor statistics per task.", fmt=render.number(3))
    if POOLED in stats.index:
        pooled = stats.loc[POOLED]
        writer.add(
            f"Pooled over {int(pooled['distractors'])} direct distractors: intra-distractor Jaccard "
            f"{pooled['jaccard_intra_distractor_mean']:.3f} (sd {pooled['jaccard_intra_distractor_sd']:.3f}), "
            f"original-distractor {pooled['jaccard_original_distractor_mean']:.3f} (sd {pooled['jaccard_original_distractor_sd']:.3f}).\n"
        )


def _annotation_dir(options: AnalysisOptions) -> Path | None:
    folder = resolve_data_dir(options.data_dir)
    return Path(folder) if folder is not None else None


def _selection_text(rule: SelectionRule) -> str:
    parts = [f"operation {' or '.join(rule.operations)}" if rule.operations else "any operation"]
    parts += ["not annotated semantically equivalent"] * rule.exclude_equivalent + ["no named entity"] * rule.exclude_entities
    parts += ["exactly one word replaced"] * rule.single_word
    return ", ".join(parts)


def _pos_section(
    writer: _Writer, results: ResultsFolder, catalog: TaskCatalog, options: AnalysisOptions, notes: list[str]
) -> None:
    store = EmbeddingStore(options.cache_dir or default_cache_dir(), options.model_paths, options.batch_size)
    tagger = StanzaTagger(options.stanza_dir, download=options.stanza_download)
    try:
        analysis = analyse_one_word_changes(
            results, catalog, store, annotation_dir=_annotation_dir(options), tagger=tagger, selection=options.selection
        )
    except ModelUnavailable as exc:
        raise CLSDError(str(exc)) from exc
    notes += store.warnings
    t = analysis.tagging
    per_language = pd.Series([c.target_language for c in analysis.changes]).value_counts().sort_index()
    scored = 0 if analysis.shifts.empty else len(analysis.shifts[["task", "row_id", "slot"]].drop_duplicates())
    writer.add(
        f"{len(analysis.changes)} original-distractor pairs in the tasks' data "
        f"({', '.join(f'{n} {lang}' for lang, n in per_language.items())}), {scored} of them on rows the models were scored on. "
        f"Released tasks: the annotated pairs selected by the rule ({_selection_text(t.selection)}; the paper analyses "
        f"523 German and 324 French pairs, this default rule gives 528 and 326 on the full release), {t.not_selected} "
        f"annotated pairs left out by it, {t.not_found} selected ones left out because their distractor text is not in the "
        f"release row they name (three German rows of the release). Other datasets: pairs differing by one substituted token. Part of speech: "
        f"{t.from_annotation} from the annotation files, {t.from_stanza} from a tagger "
        f"({', '.join(f'{lang}: {name}' for lang, name in sorted(t.taggers.items())) or 'none needed'}), "
        f"{t.untagged} untagged (ANY only).\n\n"
        "Shifts are cos(·,d) - cos(·,T) in units of the model's gap (mean cosine of parallel pairs minus mean cosine "
        "of unrelated pairs): 0 = the change is invisible to the model, -1 = it moved the sentence as far as an "
        "unrelated one. Cross-lingual: from the source S; monolingual: from T itself. A gap within three standard "
        "errors of zero leaves a model's shifts undefined (—).\n"
    )
    if analysis.gaps.empty:
        writer.add("No model could be analysed (no direct task with texts).\n")
        return
    gaps = analysis.gaps.set_index(["model", "language_pair"])
    gaps.index = [" · ".join(k) for k in gaps.index]
    writer.table(
        "gaps",
        gaps,
        caption="Parallel minus unrelated mean cosine per model and language pair.",
        fmt=render.number(3),
        index_name="model · language pair",
    )
    analysis.shifts.to_csv(writer.tables / "one_word_shifts.csv", index=False)
    analysis.summary.to_csv(writer.tables / "pos_shift_summary_long.csv", index=False)
    _shift_tables(writer, analysis.summary)


def _shift_tables(writer: _Writer, summary: pd.DataFrame) -> None:
    for kind, title_kind in (("cross", "cross-lingual"), ("mono", "monolingual")):
        for language in sorted(set(summary["language"])):
            block = summary[summary["language"] == language]
            wide = block.pivot_table(index="pos", columns="model", values=f"{kind}_shift_mean", aggfunc="first", dropna=False)
            counts = block.groupby("pos")["n"].max()
            order = [p for p in counts.sort_values(ascending=False).index if p != ANY] + [ANY]
            wide = wide.reindex(order)
            wide.insert(0, "n", counts.reindex(order).astype(int))
            name = f"pos_{kind}_shift_{'all' if language == ALL_LANGUAGES else language}"
            title = "all target languages" if language == ALL_LANGUAGES else f"target language {language}"
            writer.add(f"### Mean {title_kind} shift by POS, {title}\n")
            writer.table(name, wide, caption=f"Mean {title_kind} shift by POS ({title}).", fmt=render.number(3), index_name="POS")
    writer.add(
        "### Correlation of monolingual and cross-lingual shift\n\nThe paper reports 0.93 (paraphrase-multilingual-mpnet-base-v2) "
        "and 0.71 (multilingual-e5-large) without naming the coefficient; both Pearson's r and Spearman's rho are given.\n"
    )
    for column, name, label in (
        ("pearson_r", "pos_shift_pearson", "Pearson r"),
        ("spearman_rho", "pos_shift_spearman", "Spearman rho"),
    ):
        corr = summary.pivot_table(index=["language", "pos"], columns="model", values=column, aggfunc="first", dropna=False)
        corr.index = [f"{lang} · {pos}" for lang, pos in corr.index]
        writer.table(
            name,
            corr,
            caption=f"{label} between monolingual and cross-lingual shifts (— below three pairs or undefined).",
            fmt=render.number(2),
            index_name="language · POS",
        )
    for kind in ("cross", "mono"):
        writer.figure(figures.shift_heatmap(summary, kind, writer.figures), f"{kind} shift heatmap")
