"""A rule is one object in one registry, and the rule behind each distractor is stored, not guessed.

The registry (:mod:`clsd_generation.rules.registry`) is what the generator, the ``--rules`` help, the run
summary, the checkpoint, ``clsd build`` and the sample sheet read.
"""

from __future__ import annotations

import csv
import json
import sqlite3
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from clsd_format import edit_types, schema
from clsd_generation.core.checkpoint import Checkpoint
from clsd_generation.rules import make_generators
from clsd_generation.rules.registry import ALL_RULES, DEFAULT_RULES, OPT_IN_RULES, RULE_BY_NAME, RULES
from tests.helpers.cli_runner import invoke
from tests.helpers.corpora import DE_FR_OPTIONS, write_parallel_csv

ROWS = [
    ("Am Montag hat Merkel in Berlin 12 neue Schulen eröffnet.", "Lundi, Merkel a inauguré 12 nouvelles écoles à Berlin."),
    ("Im Mai 2019 ist der Preis für Brot in Paris gestiegen.", "En mai 2019, le prix du pain a augmenté à Paris."),
    ("Der Minister Müller war am Freitag in Hamburg.", "Le ministre Müller était à Hambourg vendredi."),
    ("Im Januar 2020 hat die Regierung 300 neue Stellen geschaffen.", "En janvier 2020, le gouvernement a créé 300 postes."),
    ("Am Dienstag kamen 45 Abgeordnete nach Straßburg.", "Mardi, 45 députés sont venus à Strasbourg."),
]


def test_every_rule_is_declared_once_with_a_known_edit_type() -> None:
    assert len(ALL_RULES) == len(RULES) == len(set(ALL_RULES))
    assert set(DEFAULT_RULES) | set(OPT_IN_RULES) == set(ALL_RULES) and not set(DEFAULT_RULES) & set(OPT_IN_RULES)
    assert all(rule.edit_type in edit_types.EDIT_TYPES and rule.description for rule in RULES)


def test_the_rules_help_is_read_from_the_registry() -> None:
    help_text = " ".join(invoke("generate", "--help").split())
    for rule in RULES:
        assert f"{rule.name} ({rule.description})" in help_text


@pytest.fixture(scope="module")
def rule_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("registry")
    corpus = write_parallel_csv(folder / "parallel.csv", ROWS)
    invoke("generate", str(corpus), "--run-dir", str(folder / "run"), *DE_FR_OPTIONS, "--seed", "3", "--quiet")
    return folder / "run"


@pytest.mark.slow
def test_the_checkpoint_stores_the_rule_the_generator_used(rule_run: Path) -> None:
    with Checkpoint.existing(rule_run) as checkpoint:
        results = [r for r in checkpoint.results() if r.status == "ok"]
        pairs = {p.pair_id: p for p in checkpoint.pairs()}
    assert results
    generators = make_generators({"de": [a for a, _ in ROWS], "fr": [b for _, b in ROWS]}, seed=3)
    for result in results:
        assert len(result.rules) == len(result.distractors) and set(result.rules) <= set(DEFAULT_RULES)
        side = 0 if result.lang == "de" else 1
        made = generators[result.lang]
        rule_of: dict[str, str] = {}  # the job keeps the first rule that made a text, over all attempts
        for attempt in range(1, result.attempts + 1):
            made.candidates(pairs[result.pair_id].texts[side], attempt)  # the same seeded candidates again
            for text, rule in made.rule_of.items():
                rule_of.setdefault(text, rule)
        assert [rule_of[d] for d in result.distractors] == list(result.rules)


@pytest.mark.slow
def test_build_keeps_each_distractors_rule_and_edit_type(rule_run: Path, tmp_path: Path) -> None:
    invoke("build", "--run-dir", str(rule_run), "--out", str(tmp_path / "data"), "--name", "Registry")
    for path in (tmp_path / "data").glob("*/test.parquet"):
        for row in pq.read_table(path).to_pylist():
            rules, types = row[schema.DISTRACTOR_RULES], row[schema.DISTRACTOR_EDIT_TYPES]
            assert len(rules) == len(types) == len(row[schema.DISTRACTORS])
            assert types == [RULE_BY_NAME[rule].edit_type for rule in rules]


@pytest.mark.slow
def test_the_sample_sheet_names_the_stored_rule(rule_run: Path, tmp_path: Path) -> None:
    """The sheet's rule column is the checkpoint's: a stored rule that differs from the change shows as stored."""
    run = tmp_path / "run"
    run.mkdir()
    (run / "checkpoint.sqlite").write_bytes((rule_run / "checkpoint.sqlite").read_bytes())
    with sqlite3.connect(run / "checkpoint.sqlite") as db:
        db.execute("UPDATE results SET distractor_rules = ? WHERE status = 'ok' AND lang = 'de'", (json.dumps(["nouns"] * 4),))
    sheet = tmp_path / "sheet.csv"
    invoke("check-sample", "--run-dir", str(run), "--sheet", str(sheet), "--per-language", "50")
    with sheet.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert {r["rule"] for r in rows if r["language"] == "de"} == {"nouns"}
    assert {r["rule"] for r in rows if r["language"] == "fr"} <= set(DEFAULT_RULES)


def test_a_version_1_checkpoint_gains_the_later_columns_empty(tmp_path: Path) -> None:
    from clsd_generation.core.checkpoint import SCHEMA_VERSION, Answer

    path = tmp_path / "checkpoint.sqlite"
    with sqlite3.connect(path) as db:
        db.executescript(
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
            "CREATE TABLE results (pair_id TEXT NOT NULL, lang TEXT NOT NULL, status TEXT NOT NULL, distractors TEXT NOT NULL,"
            " reason TEXT, attempts INTEGER NOT NULL, finished TEXT NOT NULL, PRIMARY KEY (pair_id, lang));"
            "CREATE TABLE attempts (pair_id TEXT NOT NULL, lang TEXT NOT NULL, attempt INTEGER NOT NULL, answer TEXT NOT NULL,"
            " candidates TEXT NOT NULL, origin TEXT NOT NULL, prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER NOT NULL,"
            " created TEXT NOT NULL, PRIMARY KEY (pair_id, lang, attempt));"
            "INSERT INTO meta VALUES ('schema_version', '1');"
            "INSERT INTO results VALUES ('r1', 'de', 'ok', '[\"a\", \"b\"]', NULL, 1, '2026-01-01');"
            "INSERT INTO attempts VALUES ('r2', 'de', 1, 'x', '[\"x\"]', 'live:m', 1, 1, '2026-01-01');"
        )
    with Checkpoint(path) as checkpoint:
        (result,) = checkpoint.results()
        assert result.distractors == ["a", "b"] and result.rules == ()
        assert checkpoint.get_meta("schema_version") == SCHEMA_VERSION == 4
        (stored,) = checkpoint.stored_answers()[("r2", "de")]
        assert stored.candidates == ["x"] and stored.by_llm and not stored.cut
        checkpoint.record("r2", "de", answer=Answer(2, "y", ["y"], "live:m", finish_reason="length", rejections=["empty"]))
        assert checkpoint.cut_answers() == 1 and checkpoint.rejections() == {"de": Counter({"empty": 1})}


def test_a_failure_says_why_in_words_and_a_rule_run_counts_no_attempts() -> None:
    from clsd_generation.checks.candidates import check_candidates
    from clsd_generation.core.settings import ValidationBounds

    bounds = ValidationBounds()
    verdict = check_candidates("Der Hund beißt den Mann.", ["Der Hund beißt den Mann!", "Der Hund beißt die Frau."], bounds)
    llm = verdict.failure_reason(bounds, attempts=3)
    assert llm == "only 1 of 4 valid distractors in 3 answers (candidates refused, same as original: 1)"
    rules = verdict.failure_reason(bounds, attempts=3, deterministic=True)
    assert rules == "the rules found only 1 of 4 distractors (candidates refused by validation, same as original: 1)"
    assert (
        check_candidates("Ein Satz.", [], bounds).failure_reason(bounds, 1, deterministic=True)
        == "no rule applies to this sentence"
    )
