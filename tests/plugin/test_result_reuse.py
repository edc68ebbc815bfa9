"""A stored result is reused only for the same data and evaluator.

The exact sequences a user runs: a cut (``limit``) or locally modified copy first, the full data
second, into the same output folder, and the reverse; on the fixture files (their own ``local-sha256-``
revision) and, marked ``release``, on the pinned release. Real encoder: the char-ngram baseline (cheap
enough for a full release task), through ``clsd_mteb.run.evaluate_tasks``, the code ``clsd evaluate`` runs.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

import clsd_mteb
from clsd_mteb.encoding import BATCH_SIZE_KEY, EXACT_KEY
from clsd_mteb.evaluator import EVALUATOR_VERSION, EVALUATOR_VERSION_KEY
from clsd_mteb.release_fetch import COMMIT
from clsd_mteb.run import SUPERSEDED_FOLDER, evaluate_tasks
from tests.conftest import write_release_slice

TASK = "CLSD-WMT21-FR-DE"  # 893 rows in the release, 20 in the fixture files


@pytest.fixture(scope="module")
def encoder():
    from clsd_mteb.baselines import CHAR_NGRAM_NAME
    from clsd_mteb.models import load_model

    return load_model(CHAR_NGRAM_NAME)


def _run(encoder, output: Path, batch_size: int = 32, **task_kwargs) -> dict:
    task = clsd_mteb.get_tasks([TASK], **task_kwargs)[0]
    result = evaluate_tasks(encoder, [task], output, batch_size=batch_size, show_progress_bar=False).task_results[0]
    (split,) = result.scores  # a trial's own split, or the task's
    assert split == task.split
    scores = {k: round(v, 6) if isinstance(v, float) else v for k, v in result.scores[split][0].items()}
    return {"revision": result.dataset_revision, "split": split, **scores}  # rounded as mteb writes them, so reused == fresh


def _recompute_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    lines = [r.getMessage() for r in caplog.records if "recomputing" in r.getMessage()]
    caplog.clear()
    return lines


def _check_full(scores: dict, request: pytest.FixtureRequest) -> str:
    """The full task's revision, after checking it and the row count against the data the test runs on."""
    if request.node.get_closest_marker("release"):
        assert scores["num_rows"] == 893 and scores["revision"] == COMMIT
    else:
        assert scores["num_rows"] == 20 and scores["revision"].startswith("local-sha256-")
    return scores["revision"]


def _stored(output: Path, encoder) -> Path:
    meta = encoder.mteb_model_meta
    return output / "results" / meta.model_name_as_path() / str(meta.revision) / f"{TASK}.json"


@pytest.mark.slow
def test_a_limited_run_never_passes_for_the_full_data_and_back(encoder, any_data_dir, tmp_path, caplog, request):
    caplog.set_level(logging.WARNING, logger="clsd_mteb.run")
    reference = _run(encoder, tmp_path / "fresh", data_dir=any_data_dir)
    full_revision = _check_full(reference, request)

    output = tmp_path / "shared-output"
    limited = _run(encoder, output, data_dir=any_data_dir, limit=10)
    assert limited["num_rows"] == 10 and limited["revision"] == f"{full_revision}-limit10"
    assert limited["split"] == "test_first_10" and reference["split"] == "test"
    assert _recompute_lines(caplog) == []

    full = _run(encoder, output, data_dir=any_data_dir)
    assert full == reference  # recomputed, not the 10-row score
    (line,) = _recompute_lines(caplog)
    assert TASK in line and f"{full_revision}-limit10" in line
    kept = list((output / SUPERSEDED_FOLDER).rglob(f"{TASK}.{full_revision}-limit10.json"))
    assert len(kept) == 1 and json.loads(kept[0].read_text())["scores"]["test_first_10"][0]["num_rows"] == 10

    again = _run(encoder, output, data_dir=any_data_dir, limit=10)  # the reverse
    assert again == limited
    (line,) = _recompute_lines(caplog)
    assert f"{full_revision}-limit10" in line and "this run reads" in line

    before = _stored(output, encoder).stat().st_mtime_ns
    assert _run(encoder, output, data_dir=any_data_dir, limit=10) == limited  # same data: reused, untouched
    assert _recompute_lines(caplog) == []
    assert _stored(output, encoder).stat().st_mtime_ns == before


@pytest.mark.slow
def test_a_local_modified_copy_never_passes_for_the_full_data_and_back(encoder, any_data_dir, tmp_path, caplog, request):
    caplog.set_level(logging.WARNING, logger="clsd_mteb.run")
    local = write_release_slice(any_data_dir, tmp_path / "local-copy", rows=10)
    output = tmp_path / "shared-output"
    copy = _run(encoder, output, data_dir=local)
    assert copy["num_rows"] == 10 and copy["revision"].startswith("local-sha256-")

    full = _run(encoder, output, data_dir=any_data_dir)
    assert _check_full(full, request) != copy["revision"]
    assert len(_recompute_lines(caplog)) == 1

    assert _run(encoder, output, data_dir=local) == copy  # the reverse
    (line,) = _recompute_lines(caplog)
    assert "local-sha256-" in line


def test_a_result_of_another_evaluator_version_is_recomputed(encoder, small_release, tmp_path, caplog):
    caplog.set_level(logging.WARNING, logger="clsd_mteb.run")
    first = _run(encoder, tmp_path, data_dir=small_release, limit=5)
    assert first[EVALUATOR_VERSION_KEY] == EVALUATOR_VERSION
    path = _stored(tmp_path, encoder)
    stored = json.loads(path.read_text())
    for entry in stored["scores"]["test_first_5"]:
        entry.pop(EVALUATOR_VERSION_KEY)  # as written by the first release of the evaluator
        entry["precision_at_1"] = entry["main_score"] = 0.123
    path.write_text(json.dumps(stored))
    second = _run(encoder, tmp_path, data_dir=small_release, limit=5)
    assert second == first
    (line,) = _recompute_lines(caplog)
    assert "evaluator version none recorded" in line


def test_a_result_is_reused_only_for_the_same_encoding(encoder, small_release, tmp_path, caplog):
    """Exact results serve exact runs at any batch size; batched results only the same batch size."""
    caplog.set_level(logging.WARNING, logger="clsd_mteb.run")
    path = _stored(tmp_path, encoder)
    batched = _run(encoder, tmp_path, batch_size=16, data_dir=small_release, limit=5)
    assert (batched[EXACT_KEY], batched[BATCH_SIZE_KEY]) == (0, 16)
    stored_at = path.stat().st_mtime_ns
    assert _run(encoder, tmp_path, batch_size=16, data_dir=small_release, limit=5) == batched
    assert _recompute_lines(caplog) == [] and path.stat().st_mtime_ns == stored_at

    other_size = _run(encoder, tmp_path, batch_size=64, data_dir=small_release, limit=5)
    assert other_size[BATCH_SIZE_KEY] == 64
    (line,) = _recompute_lines(caplog)
    assert "batches of 16" in line and "batches of 64" in line

    exact = _run(encoder, tmp_path, batch_size=64, data_dir=small_release, limit=5, exact=True)
    assert exact[EXACT_KEY] == 1
    (line,) = _recompute_lines(caplog)
    assert "batches of 64" in line and "exact encoding" in line
    stored_at = path.stat().st_mtime_ns
    assert _run(encoder, tmp_path, batch_size=7, data_dir=small_release, limit=5, exact=True) == exact
    assert _recompute_lines(caplog) == [] and path.stat().st_mtime_ns == stored_at

    assert _run(encoder, tmp_path, batch_size=7, data_dir=small_release, limit=5) != exact  # back to batched
    assert "exact encoding" in _recompute_lines(caplog)[0]
    assert len(list((tmp_path / SUPERSEDED_FOLDER).rglob(f"{TASK}.*.json"))) == 3
