"""The one tokeniser, Jaccard and edit similarity (clsd_format.text_measures), checked against the paper's numbers.

Fast: no model. The release numbers are the paper's, as docs/analysis.md states them;
those tests are marked ``release``, the tokeniser check runs on the fixture files as well.
"""

from __future__ import annotations

import csv
import math
import unicodedata
from pathlib import Path

import pytest

from clsd_analysis.distractor_stats import POOLED, distractor_statistics
from clsd_analysis.edit_distance import bin_totals
from clsd_analysis.task_data import TaskCatalog
from clsd_format.text_measures import (
    LOW_BIN_LABEL,
    PAPER_BIN_LABELS,
    bin_labels,
    edit_similarity,
    jaccard,
    mean_jaccard_to_others,
    similarity_bin,
    word_set,
)
from clsd_generation.dataset.statistics import similarity_stats

DIRECT_CSVS = ("CLSD_wmt2019_adversarial_dataset.csv", "CLSD_wmt2021_adversarial_dataset.csv")
DIRECT_TASKS = ["CLSD-WMT19-DE-FR", "CLSD-WMT19-FR-DE", "CLSD-WMT21-DE-FR", "CLSD-WMT21-FR-DE"]


def release_groups(release_dir: Path) -> list[tuple[str, str, list[str]]]:
    """(language, original, its four distractors) for every sentence of the direct sets."""
    groups = []
    for name in DIRECT_CSVS:
        with (release_dir / name).open(encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle):
                for language, column in (("de", "German"), ("fr", "French")):
                    groups.append((language, row[column], [row[f"{language}_adv{i}"] for i in range(1, 5)]))
    return groups


def test_words_are_countvectorizer_tokens_on_every_text(any_data_dir: Path, request: pytest.FixtureRequest) -> None:
    from sklearn.feature_extraction.text import CountVectorizer

    analyzer = CountVectorizer(binary=True).build_analyzer()
    texts = [text for _, original, distractors in release_groups(any_data_dir) for text in [original, *distractors]]
    pairs = 2366 if request.node.get_closest_marker("release") else 24 + 20  # the release's, the fixture files'
    assert len(texts) == pairs * 2 * 5
    mismatched = [t for t in texts if set(analyzer(t)) != word_set(t)]
    # Only where accents stand apart from their letters (one distractor of the release is decomposed, NFD):
    # scikit-learn's re cuts "pe\u0301rtinente" at the accent, clsd_format reads the composed text, as CountVectorizer
    # reads the same text typed composed.
    assert all(not unicodedata.is_normalized("NFC", t) for t in mismatched)
    assert all(set(analyzer(unicodedata.normalize("NFC", t))) == word_set(t) for t in mismatched)
    assert len(mismatched) == (1 if request.node.get_closest_marker("release") else 0)


def test_jaccard_is_the_notebooks_countvectorizer_jaccard() -> None:
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.metrics import jaccard_score

    pairs = [("Le chat dort à la maison.", "le chien dort à l'hôtel"), ("Der Hund, 3 Katzen.", "Drei Hunde und 3 Katzen")]
    for a, b in pairs:
        matrix = CountVectorizer(binary=True).fit_transform([a, b]).toarray()
        assert jaccard(a, b) == pytest.approx(jaccard_score(matrix[0], matrix[1]))
    assert jaccard("a b", "c d") == 1.0  # one-letter words are not words: both texts are empty
    assert mean_jaccard_to_others(["aa bb", "aa cc", "aa bb"]) == pytest.approx([(1 / 3 + 1) / 2, 1 / 3, (1 + 1 / 3) / 2])


def test_edit_similarity_is_the_indel_ratio_and_bins_cover_everything_once() -> None:
    assert edit_similarity("kitten", "sitting") == pytest.approx(1 - 5 / 13)  # python-Levenshtein's ratio, not 1 - 3/7
    assert [similarity_bin(x) for x in (1.0, 0.9, 0.8999, 0.6, 0.3, 0.2999, 0.0)] == [
        "0.9-1.0", "0.9-1.0", "0.8-0.9", "0.6-0.7", "0.3-0.6", LOW_BIN_LABEL, LOW_BIN_LABEL,
    ]  # fmt: skip
    assert bin_labels(["0.9-1.0"]) == list(PAPER_BIN_LABELS) and bin_labels([LOW_BIN_LABEL])[-1] == LOW_BIN_LABEL
    with pytest.raises(ValueError):
        similarity_bin(math.nan)


@pytest.mark.slow  # the whole release, through the task loaders
@pytest.mark.release
def test_release_bin_totals_and_jaccard_as_the_paper_measures_them(release_dir: Path) -> None:
    catalog = TaskCatalog(release_dir)
    totals = bin_totals(DIRECT_TASKS, catalog)
    assert list(totals.columns) == [*PAPER_BIN_LABELS, "all"]  # no distractor below 0.3: no such bin
    assert totals.loc["fr", list(PAPER_BIN_LABELS)].tolist() == [1130, 2175, 2913, 2392, 854]
    assert totals.loc["de", list(PAPER_BIN_LABELS)].tolist() == [1535, 2587, 2856, 1891, 595]
    pooled = distractor_statistics(DIRECT_TASKS, catalog).loc[POOLED]
    assert pooled["distractors"] == 18_928
    assert round(pooled["jaccard_intra_distractor_mean"], 3) == 0.471 and round(pooled["jaccard_intra_distractor_sd"], 3) == 0.172
    assert round(pooled["jaccard_original_distractor_mean"], 3) == 0.516
    assert round(pooled["jaccard_original_distractor_sd"], 3) == 0.190


@pytest.mark.slow  # the whole release
@pytest.mark.release
def test_generation_card_statistics_use_the_same_measures(release_dir: Path) -> None:
    groups = release_groups(release_dir)
    stats = similarity_stats((original, distractors) for _, original, distractors in groups)
    assert stats.pairs == 18_928
    assert round(stats.intra_jaccard_mean, 3) == 0.471 and round(stats.jaccard_mean, 3) == 0.516
    french = similarity_stats((o, d) for language, o, d in groups if language == "fr")
    assert [n for _, n, _ in french.levenshtein_histogram] == [1130, 2175, 2913, 2392, 854]
