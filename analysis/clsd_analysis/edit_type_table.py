"""What fooled the model, by edit type: per model and setting, how often a distractor of each type beats T.

A distractor *beats* T when its cosine to the source ties or beats T's (a tie is a miss, as in scoring:
the ``ties-or-beats`` rule of :mod:`clsd_analysis.edit_distance`). For each model, setting (direct, pivot)
and edit type: the distractors of that type the model was scored on, how many beat T, that rate, and the
type's share of all the model's distractors in that setting; ``top`` counts, in addition, the paper's
successful distractors (the strongest distractor of each row the model gets wrong).
"""

from __future__ import annotations

import math

import pandas as pd

from clsd_analysis.edit_distance import TIES_OR_BEATS, TOP
from clsd_format import edit_types

SUMMARY_COLUMNS = ["model", "setting", "edit_type", "distractors", "share", "beats_t", "beat_rate", "top"]


def typed_distractors(distractors: pd.DataFrame, types: pd.DataFrame) -> pd.DataFrame:
    """:func:`clsd_analysis.edit_distance.distractor_table` with each distractor's edit type and POS (inner join)."""
    keys = ["task", "id", "slot"]
    return distractors.merge(types[[*keys, "edit_type", "pos", "rule", "declared"]], on=keys, how="inner")


def type_order(present: pd.Series) -> list[str]:
    """The vocabulary's order, types present only; a type outside it (none, normally) last."""
    seen = set(present)
    return [t for t in edit_types.EDIT_TYPES if t in seen] + sorted(seen - set(edit_types.EDIT_TYPES))


def edit_type_summary(typed: pd.DataFrame) -> pd.DataFrame:
    """One line per model, setting and edit type (see the module docstring)."""
    records = []
    for (model, setting), group in typed.groupby(["model", "setting"], sort=True):
        for edit_type in type_order(group["edit_type"]):
            of_type = group[group["edit_type"] == edit_type]
            n, wins = len(of_type), int(of_type[TIES_OR_BEATS].sum())
            records.append(
                {
                    "model": model,
                    "setting": setting,
                    "edit_type": edit_type,
                    "distractors": n,
                    "share": n / len(group),
                    "beats_t": wins,
                    "beat_rate": wins / n if n else math.nan,
                    "top": int(of_type[TOP].sum()),
                }
            )
    return pd.DataFrame.from_records(records, columns=SUMMARY_COLUMNS)


def _pct(value: float) -> str:
    return "—" if math.isnan(value) else f"{100 * value:.1f}"


def rates_wide(summary: pd.DataFrame) -> pd.DataFrame:
    """Index "model · setting", one column per edit type: "rate % (beat T / distractors)"."""
    order = type_order(summary["edit_type"])
    wide: dict[str, dict[str, str]] = {}
    for (model, setting), group in summary.groupby(["model", "setting"], sort=True):
        cells = group.set_index("edit_type")
        wide[f"{model} · {setting}"] = {
            t: f"{_pct(cells.loc[t, 'beat_rate'])} ({int(cells.loc[t, 'beats_t'])}/{int(cells.loc[t, 'distractors'])})"
            for t in order
            if t in cells.index
        }
    return pd.DataFrame.from_dict(wide, orient="index").reindex(columns=order).fillna("—")


def shares_wide(types: pd.DataFrame) -> pd.DataFrame:
    """Index task, one column per edit type: "count (share %)" of the task's distractors; the data, not a model."""
    order = type_order(types["edit_type"])
    wide: dict[str, dict[str, str]] = {}
    for task, group in types.groupby("task", sort=True):
        counts = group["edit_type"].value_counts()
        wide[task] = {t: f"{int(counts.get(t, 0))} ({100 * counts.get(t, 0) / len(group):.1f})" for t in order}
        wide[task]["distractors"] = str(len(group))
    return pd.DataFrame.from_dict(wide, orient="index")
