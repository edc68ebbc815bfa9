"""The rows behind the HTML report's explorer: every scored row's texts, marks, edit types and cosines, compactly.

One JSON document (``explorer.js`` reads it)::

    {"types": [edit type, ...],                       # the vocabulary; distractors refer to it by index
     "texts": [text, ...],                            # every text once; rows refer to them by index
     "models": [{"label", "short", "colour", "unit"}, ...],  # in the report's order; unit: "cosine", or
                                                      # "score" for a reranker (its own relevance scores)
     "focus": index of the report's model,
     "tasks": [{"name", "short", "setting",
                "lang": [S's BCP 47 tag, T's], "dir": [S's writing direction, T's],   # "ltr" or "rtl"
                "rows": [[id, S, T, [d, ...], [[start, end, ...] per d], [type index per d], [POS or "" per d],
                          [rule or "" per d]], ...],          # S, T and each d: an index into "texts"
                "cos": [per model: null, or per row null / [cos(S,T), cos(S,d1), ...] x 10^4 as integers;
                        a reranker's scores of (S,T), (S,d1), ... in their place],
                "beat": [per model: null, or per row null / bit k set when distractor k+1 ties or beats T],
                "top": [per model: null, or per row null / the strongest distractor's 0-based slot],
                "p1": [per model: null, or [P@1, 95% low, 95% high] in percent (Wilson, from the rows' hits)]}]}

Rows are in the data's order (stable from run to run); a task's rows are those some model was scored on.
Each text is stored once (the two directions of a dataset share their sentence pairs), which keeps the
report about a seventh smaller.
Character offsets of the marked (changed) words are in UTF-16 code units, as JavaScript indexes strings; the
words are those of the target language (:mod:`clsd_format.words`: a Chinese or Thai word is marked alone, a
Hindi word with its vowel signs). Each task's languages and writing directions let the explorer set ``lang``
and ``dir`` on its texts, so Arabic and Hebrew read right to left.
Cosines keep four decimals (what the explorer shows and sorts by); whether a distractor beats T comes from
the full-precision cosines, so a tie is a miss exactly as in scoring. A reranker (cross-encoder) gives no
cosines: its five scores per row are stored the same way, and ``unit`` tells the explorer to call them and
their margin the model's own scores, not cosines.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from clsd_analysis.changed_words import changed_spans
from clsd_analysis.edit_typing import TypedEdit
from clsd_analysis.model_style import ModelStyle
from clsd_analysis.results import ResultsFolder, TaskPredictions
from clsd_analysis.task_data import TaskData
from clsd_format import edit_types
from clsd_format.errors import CLSDError
from clsd_format.languages import parse_language, script_direction
from clsd_mteb.confidence import hit_interval
from clsd_mteb.naming import setting_of, short_task

COSINE_SCALE = 10_000
COSINE_UNIT, SCORE_UNIT = "cosine", "score"  # what a model's numbers are: cosines, or a reranker's own scores


def utf16_offset(text: str, index: int) -> int:
    """A code-point index of ``text`` as a UTF-16 code-unit index (they differ after a character beyond U+FFFF)."""
    return len(text[:index].encode("utf-16-le")) // 2


def _marks(target: str, distractor: str, language: str | None) -> list[int]:
    return [utf16_offset(distractor, i) for span in changed_spans(target, distractor, language) for i in span]


def language_tag(mteb_code: str) -> str:
    """The BCP 47 tag of an mteb code for a ``lang`` attribute ("zho-Hant" -> "zh-Hant"); "" where none is known."""
    try:
        return parse_language(mteb_code).code
    except CLSDError:
        return ""


def _languages(data: TaskData) -> dict[str, list[str]]:
    """A task's ``lang`` and ``dir`` entries: source, target."""
    codes = list(data.languages)
    return {"lang": [language_tag(code) for code in codes], "dir": [script_direction(code.split("-")[-1]) for code in codes]}


def _p1(pred: TaskPredictions | None) -> list[float] | None:
    """P@1 and its Wilson interval in percent, one decimal, from the prediction file's per-row hits."""
    if pred is None:
        return None
    hits = pred.ranks == 1
    interval = hit_interval(hits).scaled(100)
    return [round(100 * float(hits.mean()), 1), round(interval.low, 1), round(interval.high, 1)]


def _model_cells(pred: TaskPredictions | None, ids: list[str]) -> dict[str, list | None]:
    """Per row of ``ids``: scaled cosines, beat mask and strongest slot; None for a row the model was not scored on."""
    cells: dict[str, list | None] = {"cos": None, "beat": None, "top": None}
    if pred is None:
        return cells
    position = {row_id: i for i, row_id in enumerate(pred.ids)}
    cosines: list = []
    beats: list = []
    tops: list = []
    for row_id in ids:
        i = position.get(row_id)
        if i is None:
            cosines.append(None)
            beats.append(None)
            tops.append(None)
            continue
        values = pred.cosines[i]
        cosines.append([None if math.isnan(c) else round(float(c) * COSINE_SCALE) for c in values])
        beats.append(int(sum(1 << int(k) for k in np.flatnonzero(pred.wins[i]))))
        tops.append(int(np.nanargmax(values[1:])))  # the first slot among equal cosines, as the paper's rule takes it
    return {"cos": cosines, "beat": beats, "top": tops}


class TextTable(dict[str, int]):
    """Texts by first appearance: each text's index in the document's ``texts``."""

    def index(self, text: str) -> int:
        return self.setdefault(text, len(self))


def task_record(
    name: str,
    data: TaskData,
    results: ResultsFolder,
    types: Mapping[tuple[str, str, int], TypedEdit],
    rules: Mapping[tuple[str, str, int], str],
    texts: TextTable,
) -> dict[str, Any] | None:
    """One task's part of the document; None when no model was scored on it."""
    predictions = [results.predictions(run, name) for run in results.runs]
    scored = {row_id for pred in predictions if pred is not None for row_id in pred.ids}
    ids = [row_id for row_id in data.rows if row_id in scored]
    if not ids:
        return None
    index = {t: i for i, t in enumerate(edit_types.EDIT_TYPES)}
    target_language = data.languages[1]
    rows = []
    for row_id in ids:
        row = data.rows[row_id]
        keys = [(name, row_id, slot) for slot in range(1, len(row["distractors"]) + 1)]
        typed = [types.get(key) for key in keys]
        rows.append(
            [
                row_id,
                texts.index(row["source"]),
                texts.index(row["target"]),
                [texts.index(d) for d in row["distractors"]],
                [_marks(row["target"], d, target_language) for d in row["distractors"]],
                [index.get(t.edit_type, -1) if t is not None else -1 for t in typed],
                [(t.pos or "") if t is not None else "" for t in typed],
                [rules.get(key, "") for key in keys],
            ]
        )
    cells = [_model_cells(pred, ids) for pred in predictions]
    return {
        "name": name,
        "short": short_task(name),
        "setting": setting_of(name),
        **_languages(data),
        "rows": rows,
        **{key: [c[key] for c in cells] for key in ("cos", "beat", "top")},
        "p1": [_p1(pred) for pred in predictions],
    }


def explorer_document(
    results: ResultsFolder,
    tasks: Mapping[str, TaskData],
    styles: Mapping[str, ModelStyle],
    focus: str,
    types: Mapping[tuple[str, str, int], TypedEdit],
    rules: Mapping[tuple[str, str, int], str],
) -> dict[str, Any]:
    """The whole document: ``tasks`` (name -> texts) in the results' task order."""
    labels = [results.label(run) for run in results.runs]
    units = [SCORE_UNIT if results.is_reranker(run) else COSINE_UNIT for run in results.runs]
    texts = TextTable()
    records = [task_record(name, tasks[name], results, types, rules, texts) for name in results.task_names if name in tasks]
    return {
        "types": list(edit_types.EDIT_TYPES),
        "texts": list(texts),
        "models": [
            {"label": label, "short": styles[label].short, "colour": styles[label].colour, "unit": unit}
            for label, unit in zip(labels, units, strict=True)
        ],
        "focus": labels.index(focus),
        "tasks": [record for record in records if record is not None],
    }
