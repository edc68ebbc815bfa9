"""One-word changes by part of speech: how far does changing one word move a sentence, across and within languages?

1. **Pairs and tags.** For the released WMT19/21 tasks: the annotated (original T, distractor d) pairs
   of the release's annotation files that a :class:`~clsd_analysis.annotations.SelectionRule` keeps
   (default: the rule closest to the paper's 523 German / 324 French pairs), with the annotators'
   part of speech. For any other dataset: the pairs that differ by exactly one substituted token
   (:func:`clsd_analysis.changed_words.single_substitution`), tagged by Stanza on T.
3. **Shifts.** With unit embeddings from the evaluator's encoding path, for source S:

   * cross-lingual shift = [(1 - cos(S, T)) - (1 - cos(S, d))] / gap
   * monolingual shift   = [(1 - cos(T, T)) - (1 - cos(T, d))] / gap   (T in place of S)
   * gap = mean cos(S, T) over the parallel pairs minus mean cos over unrelated pairs (every S with
     every other row's T), per model and language pair, on the same data. A gap within three
     standard errors of zero (a model that does not tell translations from unrelated sentences,
     such as the random baseline) leaves the shifts undefined rather than dividing by noise.

   Both shifts equal cos(., d) - cos(., T) in units of the gap: 0 means the model does not see the
   change at all, -1 means the one word moved the sentence as far as swapping a translation for an
   unrelated sentence; a positive cross-lingual shift means the distractor is closer to S than T is.
4. **Summary.** Mean shifts per model, target language and POS, an ANY row over all pairs, and the
   correlation between monolingual and cross-lingual shifts, as Pearson's r and Spearman's rho (the
   paper gives 0.93 for paraphrase-multilingual-mpnet-base-v2 and 0.71 for multilingual-e5-large
   without naming the coefficient).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from clsd_analysis.annotations import PAPER_SELECTION, Annotation, SelectionRule, release_annotations
from clsd_analysis.changed_words import changed_span, single_substitution, tokens
from clsd_analysis.embeddings import EmbeddingStore
from clsd_analysis.results import ModelRun, ResultsFolder
from clsd_analysis.stanza_tagging import StanzaModelMissing, StanzaTagger
from clsd_analysis.task_data import TaskCatalog, TaskData
from clsd_format.languages import code_from_mteb
from clsd_mteb.naming import is_pivot

ANY = "ANY"
ALL_LANGUAGES = "all"


# --- formulas -------------------------------------------------------------------------------------


def cosine(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise cosine of two (n, dim) arrays (or two vectors)."""
    a, b = np.atleast_2d(a), np.atleast_2d(b)
    return np.einsum("ij,ij->i", a, b) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))


@dataclass(frozen=True)
class Gap:
    """Mean cosine of parallel pairs minus mean cosine of unrelated pairs, with what judges it."""

    value: float
    parallel: float
    unrelated: float
    parallel_se: float  # standard error of the parallel mean
    pairs: int

    @property
    def reliable(self) -> bool:
        """Dividing by the gap only means something when it clearly exceeds zero (3 standard errors).

        A model that does not separate translations from unrelated sentences (the random baseline)
        has a gap near zero, and shifts divided by it would be noise blown up to any size.
        """
        return self.value > 3 * self.parallel_se


def parallel_unrelated_gap(sources: np.ndarray, targets: np.ndarray) -> Gap:
    """The gap for unit vectors, row i of ``sources`` and ``targets`` being a parallel pair.

    Unrelated pairs are all (S_i, T_j), j != i; their mean comes from sums, so no n x n matrix is built.
    """
    n = len(sources)
    if n < 2:
        raise ValueError("the parallel/unrelated gap needs at least two parallel pairs")
    diagonal = np.einsum("ij,ij->i", sources, targets)
    parallel = float(diagonal.mean())
    unrelated = float((sources.sum(axis=0) @ targets.sum(axis=0) - diagonal.sum()) / (n * (n - 1)))
    se = float(diagonal.std(ddof=1) / math.sqrt(n))
    return Gap(value=parallel - unrelated, parallel=parallel, unrelated=unrelated, parallel_se=se, pairs=n)


def cross_lingual_shift(s: np.ndarray, t: np.ndarray, d: np.ndarray, gap: float) -> np.ndarray:
    return ((1 - cosine(s, t)) - (1 - cosine(s, d))) / gap


def monolingual_shift(t: np.ndarray, d: np.ndarray, gap: float) -> np.ndarray:
    return ((1 - cosine(t, t)) - (1 - cosine(t, d))) / gap


def pearson(x: Sequence[float], y: Sequence[float]) -> float:
    """Pearson r; NaN below three pairs or without variance (undefined, not zero)."""
    a, b = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if len(a) < 3 or np.std(a) == 0 or np.std(b) == 0:
        return math.nan
    return float(np.corrcoef(a, b)[0, 1])


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman rho: Pearson r of the ranks (ties get their average rank); NaN where Pearson is undefined."""
    return pearson(
        pd.Series(np.asarray(x, dtype=float)).rank().to_numpy(), pd.Series(np.asarray(y, dtype=float)).rank().to_numpy()
    )


# --- pairs and tags ---------------------------------------------------------------------------------


@dataclass
class OneWordChange:
    task: str
    row_id: str
    slot: int  # 1-based distractor slot
    source: str
    target: str
    distractor: str
    source_language: str
    target_language: str
    position: int  # token index in T
    original_token: str
    new_token: str
    pos: str | None = None
    pos_from: str | None = None  # "annotation", or the tagger: "stanza", "hanta", "spacy"


def find_one_word_changes(data: TaskData) -> list[OneWordChange]:
    changes = []
    for row_id, row in data.rows.items():
        for slot, distractor in enumerate(row["distractors"], start=1):
            found = single_substitution(row["target"], distractor)
            if found is None:
                continue
            position, old, new = found
            changes.append(
                OneWordChange(
                    task=data.name,
                    row_id=row_id,
                    slot=slot,
                    source=row["source"],
                    target=row["target"],
                    distractor=distractor,
                    source_language=row["source_lang"],
                    target_language=row["target_lang"],
                    position=position,
                    original_token=old,
                    new_token=new,
                )
            )
    return changes


@dataclass
class TaggingSummary:
    from_annotation: int = 0
    from_stanza: int = 0  # tagged by the StanzaTagger: Stanza, or its offline fallback (see ``taggers``)
    taggers: dict[str, str] = field(default_factory=dict)  # language -> "stanza", "hanta" or "spacy"
    untagged: int = 0
    not_selected: int = 0  # annotated pairs the selection rule leaves out
    not_found: int = 0  # annotated pairs whose distractor text is not in the task's row
    selection: SelectionRule = PAPER_SELECTION


def annotated_changes(
    data: TaskData, annotations: dict[tuple[str, str, int], Annotation], summary: TaggingSummary
) -> list[OneWordChange]:
    """The selected annotated pairs of one released direct task, with the annotators' POS ("" stays untagged)."""
    language = code_from_mteb(data.languages[1])
    changes = []
    for (row_id, note_language, slot), note in sorted(annotations.items()):
        row = data.rows.get(row_id)
        if note_language != language or row is None:
            continue
        if not summary.selection.keeps(note):
            summary.not_selected += 1
            continue
        if slot > len(row["distractors"]) or row["distractors"][slot - 1].strip() != note.distractor.strip():
            summary.not_found += 1
            continue
        position, old, new = changed_span(row["target"], note.distractor)
        change = OneWordChange(
            task=data.name,
            row_id=row_id,
            slot=slot,
            source=row["source"],
            target=row["target"],
            distractor=row["distractors"][slot - 1],
            source_language=row["source_lang"],
            target_language=row["target_lang"],
            position=position,
            original_token=old,
            new_token=new,
            pos=note.pos or None,
            pos_from="annotation" if note.pos else None,
        )
        summary.from_annotation += bool(note.pos)
        summary.untagged += not note.pos
        changes.append(change)
    return changes


def tag_with_stanza(changes: list[OneWordChange], tagger: StanzaTagger | None, summary: TaggingSummary) -> None:
    """Fill ``pos`` in place from Stanza (or its offline fallback), on T tokenised as for finding the change."""
    need_stanza: dict[str, list[OneWordChange]] = defaultdict(list)
    for change in changes:
        need_stanza[code_from_mteb(change.target_language)].append(change)
    missing: list[str] = []  # every language without a model, named in one error after the others are tagged
    for language, group in sorted(need_stanza.items()):
        if tagger is None:
            summary.untagged += len(group)
            continue
        try:
            tags = tagger.tag(language, [tokens(c.target) for c in group])
        except StanzaModelMissing:
            missing.append(language)
            continue
        source = tagger.source(language) or "stanza"
        for change, sentence_tags in zip(group, tags, strict=True):
            change.pos, change.pos_from = sentence_tags[change.position], source
        summary.from_stanza += len(group)
        summary.taggers[language] = source
    if missing and tagger is not None:
        raise StanzaModelMissing(missing, tagger.model_dir)


# --- shifts -----------------------------------------------------------------------------------------


def _language_pair(change_or_row: OneWordChange | dict) -> tuple[str, str]:
    if isinstance(change_or_row, OneWordChange):
        pair = (change_or_row.source_language, change_or_row.target_language)
    else:
        pair = (change_or_row["source_lang"], change_or_row["target_lang"])
    return tuple(sorted(pair))  # type: ignore[return-value]


def _scored_ids(results: ResultsFolder, run: ModelRun, task: str) -> set[str] | None:
    """The rows a model was scored on (its predictions), so a sliced run is analysed on its slice."""
    predictions = results.predictions(run, task)
    return None if predictions is None else set(predictions.ids)


def _direct_tasks_of(run: ModelRun, results: ResultsFolder, catalog: TaskCatalog) -> list[str]:
    """The direct tasks a model has results or predictions for and whose texts are known."""
    ran = {task for (r, task) in results.scores if r == run} | {task for (r, task) in results.prediction_paths if r == run}
    return [t for t in sorted(ran) if not is_pivot(t) and catalog.get(t) is not None]


_Pairs = dict[tuple[str, str], dict[tuple[str, str], tuple[np.ndarray, np.ndarray]]]


@dataclass
class _RunVectors:
    """One model's unit vectors per task (keyed by text), its changes per task, and its parallel pairs."""

    vectors: dict[str, dict[str, np.ndarray]] = field(default_factory=dict)
    changes: dict[str, list[OneWordChange]] = field(default_factory=dict)
    # unordered language pair -> (first-language text, second-language text) -> their vectors
    pairs: _Pairs = field(default_factory=lambda: defaultdict(dict))


def _embed_run(
    run: ModelRun,
    tasks: list[str],
    by_task: dict[str, list[OneWordChange]],
    results: ResultsFolder,
    catalog: TaskCatalog,
    store: EmbeddingStore,
) -> _RunVectors:
    """Embed, per task, the scored rows' S and T and the distractors of their changes; collect the parallel pairs.

    A pair seen in both directions of a dataset is counted once (with the vectors of the first task that has it).
    """
    found = _RunVectors()
    for task in tasks:
        data = catalog.get(task)
        assert data is not None
        scored = _scored_ids(results, run, task)
        rows = [r for row_id, r in data.rows.items() if scored is None or row_id in scored]
        found.changes[task] = [c for c in by_task.get(task, []) if scored is None or c.row_id in scored]
        texts = [r["source"] for r in rows] + [r["target"] for r in rows] + [c.distractor for c in found.changes[task]]
        vectors = found.vectors[task] = dict(zip(texts, store.embed(run, data.metadata, texts), strict=True))
        for r in rows:
            language_pair = _language_pair(r)
            first, second = (r["source"], r["target"]) if r["source_lang"] == language_pair[0] else (r["target"], r["source"])
            found.pairs[language_pair].setdefault((first, second), (vectors[first], vectors[second]))
    return found


def _gaps(pairs: _Pairs) -> dict[tuple[str, str], Gap]:
    gaps = {}
    for language_pair, found in pairs.items():
        a = np.stack([v[0] for v in found.values()])
        b = np.stack([v[1] for v in found.values()])
        gaps[language_pair] = parallel_unrelated_gap(a, b)
    return gaps


def _gap_record(model: str, language_pair: tuple[str, str], gap: Gap) -> dict:
    return {
        "model": model,
        "language_pair": " / ".join(language_pair),
        "parallel_pairs": gap.pairs,
        "mean_cos_parallel": gap.parallel,
        "mean_cos_unrelated": gap.unrelated,
        "gap": gap.value,
        "gap_reliable": gap.reliable,
    }


def _shift_record(model: str, change: OneWordChange, vectors: dict[str, np.ndarray], gap: Gap) -> dict:
    s, t, d = vectors[change.source], vectors[change.target], vectors[change.distractor]
    # An unreliable gap leaves the shifts undefined (NaN), never a huge number.
    divisor = gap.value if gap.reliable else math.nan
    return {
        "model": model,
        **asdict(change),
        "cos_source_target": float(cosine(s, t)[0]),
        "cos_source_distractor": float(cosine(s, d)[0]),
        "cos_target_distractor": float(cosine(t, d)[0]),
        "gap": gap.value,
        "cross_shift": float(cross_lingual_shift(s, t, d, divisor)[0]),
        "mono_shift": float(monolingual_shift(t, d, divisor)[0]),
    }


def compute_shifts(
    changes: list[OneWordChange],
    runs: Sequence[ModelRun],
    results: ResultsFolder,
    catalog: TaskCatalog,
    store: EmbeddingStore,
    label: dict[ModelRun, str],
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per (model, pair) shifts, and per (model, language pair) gaps.

    A model is analysed on the direct tasks it has results for, on the rows its predictions cover
    (all rows when it has no prediction file); its gap pools the parallel pairs of those rows by
    unordered language pair (both directions of a dataset hold the same pairs, counted once).
    """
    by_task: dict[str, list[OneWordChange]] = defaultdict(list)
    for change in changes:
        by_task[change.task].append(change)
    shift_records, gap_records = [], []
    for run in runs:
        tasks = _direct_tasks_of(run, results, catalog)
        if not tasks:
            continue
        found = _embed_run(run, tasks, by_task, results, catalog, store)
        gaps = _gaps(found.pairs)
        gap_records += [_gap_record(label[run], language_pair, gap) for language_pair, gap in gaps.items()]
        for task in tasks:
            for change in found.changes[task]:
                shift_records.append(_shift_record(label[run], change, found.vectors[task], gaps[_language_pair(change)]))
    return pd.DataFrame.from_records(shift_records), pd.DataFrame.from_records(gap_records)


def shift_summary(shifts: pd.DataFrame) -> pd.DataFrame:
    """Per model, target language (and all languages) and POS (and ANY): n, mean shifts, Pearson r, Spearman rho."""
    if shifts.empty:
        return pd.DataFrame(
            columns=["model", "language", "pos", "n", "cross_shift_mean", "mono_shift_mean", "pearson_r", "spearman_rho"]
        )
    records = []
    for model, by_model in shifts.groupby("model", sort=True):
        for language, by_language in [*by_model.groupby("target_language", sort=True), (ALL_LANGUAGES, by_model)]:
            groups = [(pos, g) for pos, g in by_language.dropna(subset=["pos"]).groupby("pos", sort=True)]
            for pos, group in [*groups, (ANY, by_language)]:
                records.append(
                    {
                        "model": model,
                        "language": language,
                        "pos": pos,
                        "n": len(group),
                        "cross_shift_mean": float(group["cross_shift"].mean()),
                        "cross_shift_sd": float(group["cross_shift"].std(ddof=1)) if len(group) > 1 else math.nan,
                        "mono_shift_mean": float(group["mono_shift"].mean()),
                        "mono_shift_sd": float(group["mono_shift"].std(ddof=1)) if len(group) > 1 else math.nan,
                        "pearson_r": pearson(group["mono_shift"], group["cross_shift"]),
                        "spearman_rho": spearman(group["mono_shift"], group["cross_shift"]),
                    }
                )
    return pd.DataFrame.from_records(records)


@dataclass
class ShiftAnalysis:
    changes: list[OneWordChange]
    tagging: TaggingSummary
    shifts: pd.DataFrame
    gaps: pd.DataFrame
    summary: pd.DataFrame


def analyse_one_word_changes(
    results: ResultsFolder,
    catalog: TaskCatalog,
    store: EmbeddingStore,
    *,
    annotation_dir: Path | None,
    tagger: StanzaTagger | None,
    selection: SelectionRule = PAPER_SELECTION,
) -> ShiftAnalysis:
    """The whole analysis: pairs of every direct task with texts (annotated or found), tags, embeddings, summary."""
    import clsd_mteb

    direct = [t for t in results.task_names if not is_pivot(t) and catalog.get(t) is not None]
    annotations = release_annotations(annotation_dir) if annotation_dir is not None else {}
    tagging = TaggingSummary(selection=selection)
    changes: list[OneWordChange] = []
    for task in direct:
        data = catalog.get(task)
        assert data is not None
        if annotations and task in clsd_mteb.RELEASE_TASK_NAMES:
            changes += annotated_changes(data, annotations, tagging)
        else:
            found = find_one_word_changes(data)
            tag_with_stanza(found, tagger, tagging)
            changes += found
    labels = {run: results.label(run) for run in results.runs}
    embedding_runs = [run for run in results.runs if not results.is_reranker(run)]  # a reranker gives no vectors
    shifts, gaps = compute_shifts(changes, embedding_runs, results, catalog, store, labels)
    return ShiftAnalysis(changes=changes, tagging=tagging, shifts=shifts, gaps=gaps, summary=shift_summary(shifts))
