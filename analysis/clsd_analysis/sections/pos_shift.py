"""Section 6: one-word changes by part of speech (the paper's shift analysis; needs the models)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from clsd_analysis.annotations import SELECTIONS
from clsd_analysis.sections.base import Section
from clsd_format.declared_settings import option_name, setting
from clsd_format.errors import CLSDError
from clsd_format.folders import folder_callback

if TYPE_CHECKING:
    import pandas as pd

    from clsd_analysis.annotations import SelectionRule
    from clsd_analysis.pos_shift import ShiftAnalysis
    from clsd_analysis.report_context import ReportContext
    from clsd_analysis.stanza_tagging import StanzaModelMissing


def default_cache_dir() -> Path:
    """Beside the release cache of the plugin, so ``CLSD_CACHE_DIR`` moves both."""
    from clsd_mteb.release_fetch import cache_root

    return cache_root() / "embeddings"


def _selection_text(rule: SelectionRule) -> str:
    parts = [f"operation {' or '.join(rule.operations)}" if rule.operations else "any operation"]
    parts += ["not annotated semantically equivalent"] * rule.exclude_equivalent + ["no named entity"] * rule.exclude_entities
    parts += ["exactly one word replaced"] * rule.single_word
    return ", ".join(parts)


def _introduction(analysis: ShiftAnalysis) -> str:
    import pandas as pd

    t = analysis.tagging
    per_language = pd.Series([c.target_language for c in analysis.changes]).value_counts().sort_index()
    scored = 0 if analysis.shifts.empty else len(analysis.shifts[["task", "row_id", "slot"]].drop_duplicates())
    return (
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


@dataclass(frozen=True)
class PosShift(Section):
    title = "One-word changes by part of speech"
    order = 60
    models: tuple[str, ...] = setting((), help="NAME=PATH: a local copy of a model in the results (repeatable).", flag="--model")
    enabled: bool = setting(True, help="Run the one-word-change analysis (needs the models).", flag="--pos-shift/--no-pos-shift")
    stanza_dir: Path | None = setting(
        None,
        help="Folder with Stanza models (datasets without annotation files).",
        check=folder_callback("folder of Stanza models", may_be_missing=True),
    )
    stanza_download: bool = setting(False, help="Let Stanza download missing models.", flag="--stanza-download")
    cache_dir: Path | None = setting(
        None,
        help="Embedding cache (default: $CLSD_CACHE_DIR/embeddings or ~/.cache/clsd_mteb/embeddings).",
        check=folder_callback("cache folder", may_be_missing=True),
    )
    batch_size: int = setting(32, help="Texts per encoding batch.", minimum=1)
    selection: str = setting(
        "paper",
        help="Annotated one-word pairs used: 'paper' (closest to the paper's counts), 'swaps' or 'all'.",
        flag="--pos-selection",
        choices=tuple(SELECTIONS),
    )

    def check(self) -> None:
        _ = self.model_paths  # a malformed --model stops the report before anything is written

    @property
    def rule(self) -> SelectionRule:
        """Which annotated pairs of the release are analysed."""
        return SELECTIONS[self.selection]

    @property
    def _off(self) -> str:
        """The option that leaves this section out, as the messages that offer it name it."""
        return option_name(PosShift, "enabled", off=True)

    def stanza_missing(self, missing: StanzaModelMissing) -> str:
        """What the tagger says is missing, and how to fetch it, with this section's options that avoid the need."""
        folder = f" {option_name(PosShift, 'stanza_dir')} {missing.model_dir}" if missing.model_dir else ""
        return (
            f"{missing}, then rerun `clsd analyze`{folder}; or rerun with {option_name(PosShift, 'stanza_download')}. "
            f"Or leave the part-of-speech analysis out for this dataset with {self._off}."
        )

    @cached_property
    def model_paths(self) -> dict[str, str]:
        """The local copies of models in the results, by model name (``models``: NAME=PATH each)."""
        paths = {}
        for value in self.models:
            name, sep, path = value.partition("=")
            if not sep or not name or not path:
                raise CLSDError(
                    f"{option_name(PosShift, 'models')} expects NAME=PATH (e.g. intfloat/multilingual-e5-large=/models/e5-large), got {value!r}."
                )
            paths[name] = path
        return paths

    def write(self, report: ReportContext) -> None:
        from clsd_analysis.embeddings import EmbeddingStore, ModelUnavailable
        from clsd_analysis.pos_shift import analyse_one_word_changes
        from clsd_analysis.stanza_tagging import StanzaModelMissing, StanzaTagger

        if not self.enabled:
            report.writer.add(f"Left out (`{self._off}`).\n")
            return
        store = EmbeddingStore(self.cache_dir or default_cache_dir(), self.model_paths, self.batch_size)
        tagger = StanzaTagger(self.stanza_dir, download=self.stanza_download)
        try:
            analysis = analyse_one_word_changes(
                report.results,
                report.catalog,
                store,
                annotation_dir=report.annotation_dir,
                tagger=tagger,
                selection=self.rule,
            )
        except ModelUnavailable as exc:
            local = f"{option_name(PosShift, 'models')} {exc.model}=/path/to/model"
            raise CLSDError(
                f"{exc} Map the name to a local copy with {local}, or leave the shift analysis out with {self._off}."
            ) from exc
        except StanzaModelMissing as exc:
            said = self.stanza_missing(exc)
            if not tagger.offline_fallback:  # a model folder the user named, or a download asked for: worth an error
                raise CLSDError(said) from exc
            # No tagger here for a language of these results: the section is left out and says so, the report is written.
            report.writer.add(f"Left out: {said}\n")
            report.notes.append(
                "One-word changes by part of speech: left out, no part-of-speech tagger for a language (section 6)."
            )
            return
        report.notes.extend(store.warnings)
        report.writer.add(_introduction(analysis))
        rerankers = [report.results.label(run) for run in report.results.runs if report.results.is_reranker(run)]
        if rerankers:
            report.writer.add(
                f"Left out: {', '.join(rerankers)}, rerankers (cross-encoders), which score pairs of texts and give no "
                "embeddings to measure cosine shifts with.\n"
            )
        if analysis.gaps.empty:
            report.writer.add("No model could be analysed (no direct task with texts).\n")
            return
        gaps = analysis.gaps.set_index(["model", "language_pair"])
        gaps.index = [" · ".join(k) for k in gaps.index]
        from clsd_analysis import render

        report.writer.table(
            "gaps",
            gaps,
            caption="Parallel minus unrelated mean cosine per model and language pair.",
            fmt=render.number(3),
            index_name="model · language pair",
        )
        report.writer.csv("one_word_shifts", analysis.shifts)
        report.writer.csv("pos_shift_summary_long", analysis.summary)
        _shift_tables(report, analysis.summary)


def _shift_tables(report: ReportContext, summary: pd.DataFrame) -> None:
    from clsd_analysis import figures, render
    from clsd_analysis.pos_shift import ALL_LANGUAGES, ANY

    writer = report.writer
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
        writer.figure(figures.shift_heatmap(summary, kind, report.styles, writer.figures), f"{kind} shift heatmap")
