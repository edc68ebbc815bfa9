"""`clsd generate --backend rules` on a text the rules can change nothing in: it stops before the run, saying why.

The corpus is Greek-Hebrew prose with no number, month or weekday, the only rules that run for these languages
(no tagger, no name lexicon): the estimate of the first sentences finds none the rules would complete, so the run
stops with exit status 2 and, per language, what each rule found; `--run-anyway` runs it all the same, and fails
(exit status 2, the failures by reason) when nothing was made; and `clsd build`'s refusal names a command whose
output shows the reasons.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clsd_generation.core.checkpoint import CHECKPOINT_FILE
from tests.helpers.cli_runner import exits_two, invoke

GREEK_HEBREW = [
    ("Η βιβλιοθήκη της πόλης ανοίγει νωρίς το πρωί.", "הספרייה העירונית נפתחת מוקדם בבוקר."),
    ("Οι μαθητές διάβασαν το ποίημα δυνατά στην τάξη.", "התלמידים קראו את השיר בקול רם בכיתה."),
    ("Ο κήπος γέμισε λουλούδια μετά τη βροχή.", "הגן התמלא פרחים אחרי הגשם."),
    ("Η γιαγιά μου μαγειρεύει φακές κάθε χειμώνα.", "סבתא שלי מבשלת עדשים בכל חורף."),
    ("Το τρένο καθυστέρησε λόγω της κακοκαιρίας.", "הרכבת התעכבה בגלל מזג האוויר הסוער."),
    ("Οι γείτονες φύτεψαν ελιές στην αυλή τους.", "השכנים נטעו עצי זית בחצר שלהם."),
]
# Greek sentences with a year or a count: the rules complete these, so only the Hebrew side is barren.
GREEK_WITH_NUMBERS = [
    "Το μουσείο ξαναάνοιξε το 1998 μετά από μεγάλη ανακαίνιση.",
    "Η γέφυρα χτίστηκε το 1932 από ντόπιους τεχνίτες.",
    "Το χωριό είχε 450 κατοίκους πριν από τον πόλεμο.",
    "Η ομάδα κέρδισε το πρωτάθλημα το 2004 για πρώτη φορά.",
    "Η εκκλησία γιορτάζει φέτος 250 χρόνια από την ίδρυσή της.",
    "Ο σταθμός δέχτηκε 1200 επιβάτες την περασμένη εβδομάδα.",
]
BARREN = "numbers: no number in 6 sentences; months: no month name in 6 sentences; weekdays: no weekday name in 6 sentences"


def _generate_args(tmp_path: Path, rows: list[tuple[str, str]]) -> list[str]:
    corpus = tmp_path / "el-he.csv"
    corpus.write_text("el,he\n" + "".join(f'"{el}","{he}"\n' for el, he in rows), encoding="utf-8")
    languages = ["--source-column", "el", "--target-column", "he", "--source-lang", "el", "--target-lang", "he"]
    return ["generate", str(corpus), "--run-dir", str(tmp_path / "run"), *languages, "--quiet"]


def test_a_text_the_rules_change_nothing_in_stops_before_the_run_naming_what_each_rule_found(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, error = exits_two(_generate_args(tmp_path, GREEK_HEBREW), capsys)
    assert error.startswith("error: nothing was generated: the rules would give no Greek (el) and no Hebrew (he) sentence")
    assert f"Greek (el): {BARREN}. Hebrew (he): {BARREN}." in error and "--run-anyway" in error
    assert error.rstrip().endswith("Or use --backend llm.")
    assert "rules likely cover ~0% of Greek sentences (measured on the first 6)" in out
    # Stopped after the estimate: no sentence run, nothing recorded, the folder free for other settings.
    assert "backend: rules" not in out and "next:" not in out
    assert not (tmp_path / "run" / CHECKPOINT_FILE).exists()
    invoke(*_generate_args(tmp_path, GREEK_HEBREW), "--backend", "llm", "--model", "m", "--requests-out", str(tmp_path / "r"))


def test_only_the_language_the_rules_cannot_serve_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = [(greek, hebrew) for greek, (_, hebrew) in zip(GREEK_WITH_NUMBERS, GREEK_HEBREW, strict=True)]
    out, error = exits_two(_generate_args(tmp_path, rows), capsys)
    assert "rules likely cover all Greek sentences" in out
    assert "no Hebrew (he) sentence its 4 distractors" in error and f"Hebrew (he): {BARREN}." in error
    assert "Greek (el):" not in error


NOTHING_TO_BUILD = (
    "error: nothing to build: no Greek (el) and no Hebrew (he) sentence has distractors; failed sentences by reason: "
    "Greek (el) 6 (no rule applies to this sentence 6); Hebrew (he) 6 (no rule applies to this sentence 6) (the lines "
    "above say more)."
)


def test_run_anyway_goes_on_and_fails_saying_there_is_nothing_to_build(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, error = exits_two([*_generate_args(tmp_path, GREEK_HEBREW), "--run-anyway"], capsys)
    lines = out.splitlines()
    assert "this run: 0 with distractors, 12 failed validation, 0 unfinished" in lines
    assert not [line for line in lines if line.startswith("next:")]
    assert "failed in this run folder, Greek (el) (6 sentence(s)): no rule applies to this sentence 6" in lines
    assert error == NOTHING_TO_BUILD


@pytest.mark.slow  # `clsd build` imports the plugin
def test_builds_advice_names_a_command_whose_output_shows_the_failure_reasons(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    command = _generate_args(tmp_path, GREEK_HEBREW)
    exits_two([*command, "--run-anyway"], capsys)
    with pytest.raises(Exception, match="nothing was built") as refused:
        invoke("build", "--run-dir", str(tmp_path / "run"), "--out", str(tmp_path / "ds"), "--name", "T", "--no-score")
    advice = str(refused.value)
    assert f"run the `clsd generate` command of {tmp_path / 'run'} again" in advice
    shown = advice.split("in its lines `", 1)[1].split("...`", 1)[0]  # what the advice says to look for
    out, error = exits_two(command, capsys)  # the same command, as the advice says: asks nothing more, fails again
    again = out.splitlines()
    assert error == NOTHING_TO_BUILD
    assert "this run: 0 with distractors, 0 failed validation, 0 unfinished" in again
    reasons = [line for line in again if line.startswith(shown)]
    assert reasons == [
        "failed in this run folder, Greek (el) (6 sentence(s)): no rule applies to this sentence 6",
        "failed in this run folder, Hebrew (he) (6 sentence(s)): no rule applies to this sentence 6",
    ]
