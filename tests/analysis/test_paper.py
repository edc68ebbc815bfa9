"""The paper's analyses on synthetic prediction files over the fixture texts (tests/data/clsd-mini):
successful-distractor rules, bins, examples, the annotation selection rules and both correlation
coefficients. No model is loaded. The selection counts of the release are checked under ``release``."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from clsd_analysis import pos_shift
from clsd_analysis.annotations import SELECTIONS, one_word_replaced, release_annotations, select
from clsd_analysis.edit_distance import TIES_OR_BEATS, TOP, bin_summary, distractor_table
from clsd_analysis.examples import successful_examples
from clsd_analysis.results import load_results
from clsd_analysis.task_data import TaskCatalog
from clsd_format.text_measures import edit_similarity, similarity_bin

TASK = "CLSD-WMT19-DE-FR"
# cos(S,T) first, then the four distractors. Row 0: slots 1 and 3 beat T, slot 3 is the strongest.
# Row 1: slot 1 ties T (a miss). Row 2: right. Row 3: slots 2 and 4 share the top cosine (the first is taken).
COSINES = {
    "model-a": [[0.90, 0.95, 0.50, 0.96, 0.10], [0.90, 0.90, 0.20, 0.20, 0.20], [0.90, 0.10, 0.20, 0.30, 0.40],
                [0.50, 0.10, 0.70, 0.20, 0.70]],
    "model-b": [[0.90, 0.10, 0.20, 0.30, 0.40], [0.90, 0.10, 0.20, 0.30, 0.40], [0.90, 0.10, 0.20, 0.30, 0.40],
                [0.50, 0.10, 0.70, 0.20, 0.70]],
}  # fmt: skip


def write_predictions(root: Path, ids: list[str]) -> Path:
    for model, rows in COSINES.items():
        folder = root / "predictions" / model / "rev1"
        folder.mkdir(parents=True)
        records = [{"id": i, "cosines": c, "rank": 1 + sum(x >= c[0] for x in c[1:])} for i, c in zip(ids, rows, strict=True)]
        (folder / f"{TASK}_predictions.json").write_text(json.dumps({"default": {"test": records}}), encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def setup(small_release: Path, tmp_path_factory: pytest.TempPathFactory):
    catalog = TaskCatalog(small_release)
    ids = list(catalog.get(TASK).rows)[:4]
    results = load_results(write_predictions(tmp_path_factory.mktemp("synthetic"), ids))
    return results, catalog, ids


def test_successful_distractors_under_both_rules(setup) -> None:
    results, catalog, ids = setup
    table = distractor_table(results, catalog)
    a = table[table["model"] == "model-a"].set_index(["id", "slot"])
    assert sorted(a.index[a[TOP]]) == sorted([(ids[0], 3), (ids[1], 1), (ids[3], 2)])
    assert sorted(a.index[a[TIES_OR_BEATS]]) == sorted([(ids[0], 1), (ids[0], 3), (ids[1], 1), (ids[3], 2), (ids[3], 4)])
    rows = catalog.get(TASK).rows
    expected = Counter(
        similarity_bin(edit_similarity(rows[i]["target"], rows[i]["distractors"][s - 1])) for i, s in a.index[a[TOP]]
    )
    for rule, n in ((TOP, 3), (TIES_OR_BEATS, 5)):
        summary = bin_summary(table, rule)
        block = summary[summary["model"] == "model-a"]
        assert block["successful"].sum() == n and block["share_of_successful"].sum() == pytest.approx(1.0)
        assert block["bin_size"].sum() == 16  # four rows, four distractors: every distractor is in one bin
    top = bin_summary(table, TOP)
    top_a = top[top["model"] == "model-a"].set_index("bin")
    assert {b: int(top_a.loc[b, "successful"]) for b in expected} == dict(expected)
    with pytest.raises(ValueError, match="unknown rule"):
        bin_summary(table, "best")


def test_examples_are_seeded_marked_and_name_the_models(setup) -> None:
    results, catalog, ids = setup
    first = successful_examples(results, catalog, n=2, seed=3)
    assert first.equals(successful_examples(results, catalog, n=2, seed=3)) and len(first) == 2
    every = successful_examples(results, catalog, n=10, seed=0)
    assert len(every) == 3  # three distinct (row, slot) pairs tricked someone under the paper's rule
    shared = every[every["id"] == ids[3]].iloc[0]
    assert shared["models tricked"] == "model-a, model-b" and shared["tricked"] == 2
    assert all("**" in text for text in every["distractor (changes marked)"])


def _selection_counts(data_dir: Path) -> dict[str, Counter]:
    notes = list(release_annotations(data_dir).values())
    return {name: Counter(n.language for n in select(notes, rule)) for name, rule in SELECTIONS.items()}


def test_selection_rules_and_their_counts(small_release: Path) -> None:
    counts = _selection_counts(small_release)
    # of 90 / 62 annotations: 2 / 2 not swaps or annotated equivalent, 6 / 7 more with a named entity or not one word
    assert counts["paper"] == {"de": 82, "fr": 53}
    assert counts["swaps"] == {"de": 88, "fr": 60}
    assert counts["all"] == {"de": 90, "fr": 62}
    assert one_word_replaced("Die SPD hat 15 Sitze.", "Die CDU hat 15 Sitze.")
    assert not one_word_replaced("Die SPD hat 15 Sitze.", "Die SPD hat nicht 15 Sitze.")


@pytest.mark.release
def test_selection_rules_and_their_counts_on_the_release(release_dir: Path) -> None:
    counts = _selection_counts(release_dir)
    assert counts["paper"] == {"de": 528, "fr": 326}  # the paper: 523 / 324; no rule over the annotations gives both
    assert counts["swaps"] == {"de": 600, "fr": 351}
    assert counts["all"] == {"de": 631, "fr": 364}


def test_spearman_is_pearson_of_ranks() -> None:
    x, y = [1.0, 2.0, 3.0, 4.0], [1.0, 4.0, 9.0, 100.0]
    assert pos_shift.spearman(x, y) == pytest.approx(1.0) and pos_shift.pearson(x, y) < 0.99
    assert pos_shift.spearman([1.0, 2.0, 2.0, 3.0], [3.0, 1.0, 1.0, 0.0]) == pytest.approx(
        float(np.corrcoef([1, 2.5, 2.5, 4], [4, 2.5, 2.5, 1])[0, 1])
    )
    assert math.isnan(pos_shift.spearman([1.0, 2.0], [2.0, 1.0]))
