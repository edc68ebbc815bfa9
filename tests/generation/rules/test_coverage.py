"""The stop before a barren rule run: what it says of each rule, and where a resumed run stops or goes on.

A run stops where the estimate finds no sentence of a language the rules would complete and no earlier invocation
completed one; a run folder that already holds distractors in every language goes on whatever its remaining
sentences are, and a resumed folder that stops keeps its checkpoint (only a checkpoint the stopped run began is
removed).
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from clsd_format.languages import parse_language
from clsd_generation.core.checkpoint import CHECKPOINT_FILE, Checkpoint
from clsd_generation.core.inputs import read_parallel
from clsd_generation.jobs.backend import NothingToMake
from clsd_generation.rules.coverage import Sample, refuse_barren
from clsd_generation.run.backends import RuleBackend
from clsd_generation.run.loop import RunOptions, generate_distractors

GREEK_HEBREW_WITH_NUMBERS = [
    ("Το μουσείο ξαναάνοιξε το 1998 μετά από μεγάλη ανακαίνιση.", "המוזיאון נפתח מחדש בשנת 1998 לאחר שיפוץ גדול."),
    (
        "Η γέφυρα έχει 340 μέτρα μήκος και χτίστηκε από ντόπιους τεχνίτες.",
        "אורך הגשר 340 מטרים והוא נבנה בידי בעלי מלאכה מקומיים.",
    ),
    ("Το χωριό είχε 450 κατοίκους πριν από τον πόλεμο.", "בכפר היו 450 תושבים לפני המלחמה."),
]
GREEK_HEBREW_PROSE = [
    ("Η βιβλιοθήκη της πόλης ανοίγει νωρίς το πρωί.", "הספרייה העירונית נפתחת מוקדם בבוקר."),
    ("Οι μαθητές διάβασαν το ποίημα δυνατά στην τάξη.", "התלמידים קראו את השיר בקול רם בכיתה."),
    ("Ο κήπος γέμισε λουλούδια μετά τη βροχή.", "הגן התמלא פרחים אחרי הגשם."),
]
LANGUAGES = (parse_language("el"), parse_language("he"))


def _run(tmp_path: Path, rows: list[tuple[str, str]], *, run_anyway: bool = False) -> list[str]:
    """A rule run of ``rows`` in tmp_path/run, as `clsd generate` starts it (with someone to tell); what it said."""
    path = tmp_path / "el-he.csv"
    path.write_text("el,he\n" + "".join(f'"{el}","{he}"\n' for el, he in rows), encoding="utf-8")
    heard: list[str] = []
    options = RunOptions(progress=False, announce=heard.append)
    generate_distractors(
        read_parallel(path, ("el", "he")), LANGUAGES, tmp_path / "run", RuleBackend(run_anyway=run_anyway), options=options
    )
    return heard


def _forget_failed(run_dir: Path) -> int:
    """Remove the failed sentences' records, as if the run had been stopped before it reached them."""
    with sqlite3.connect(run_dir / CHECKPOINT_FILE) as db:
        failed = [row for row in db.execute("SELECT pair_id, lang FROM results WHERE status = 'failed'")]
        db.executemany("DELETE FROM results WHERE pair_id = ? AND lang = ?", failed)
        db.executemany("DELETE FROM attempts WHERE pair_id = ? AND lang = ?", failed)
    return len(failed)


def test_a_run_folder_with_distractors_in_both_languages_goes_on_whatever_remains(tmp_path: Path) -> None:
    _run(tmp_path, GREEK_HEBREW_WITH_NUMBERS + GREEK_HEBREW_PROSE)
    assert _forget_failed(tmp_path / "run") == 6
    heard = _run(tmp_path, GREEK_HEBREW_WITH_NUMBERS + GREEK_HEBREW_PROSE)  # what remains: prose only, none completed
    assert any(line.startswith("rules likely cover ~0% of Greek sentences (measured on the first 3)") for line in heard)
    with Checkpoint.existing(tmp_path / "run") as checkpoint:
        assert checkpoint.complete_by_language() == Counter({"el": 3, "he": 3})
        assert {lang: sum(reasons.values()) for lang, reasons in checkpoint.failure_reasons().items()} == {"el": 3, "he": 3}


def test_a_resumed_run_folder_with_nothing_made_stops_and_keeps_its_checkpoint(tmp_path: Path) -> None:
    _run(tmp_path, GREEK_HEBREW_PROSE, run_anyway=True)
    assert _forget_failed(tmp_path / "run") == 6
    with pytest.raises(NothingToMake, match=r"no Greek \(el\) and no Hebrew \(he\) sentence its 4 distractors"):
        _run(tmp_path, GREEK_HEBREW_PROSE)
    assert (tmp_path / "run" / CHECKPOINT_FILE).exists()  # its settings were bound by an earlier invocation


def test_each_rule_says_what_it_found_in_the_sample() -> None:
    hebrew = LANGUAGES[1]
    seen = Sample(hebrew, 40, running=("numbers", "months", "weekdays"))
    seen.found.update({"numbers": 3, "months": 2})
    seen.checks.update({("numbers", "same as original"): 4, ("numbers", "duplicate"): 1, ("months", "kept"): 2})
    assert seen.why_none() == (
        "numbers: 5 candidate(s) in 3 of 40 sentences, none kept (same as original 4, duplicate 1); "
        "months: 2 candidate(s) kept in 2 of 40 sentences; weekdays: no weekday name in 40 sentences"
    )
    assert Sample(hebrew, 1).why_none() == "no rule runs for it"
    refuse_barren([seen], {"he": 1}, 4)  # an earlier invocation completed a Hebrew sentence: no stop
    with pytest.raises(NothingToMake, match="weekdays: no weekday name in 40 sentences"):
        refuse_barren([seen], {"el": 5}, 4)
