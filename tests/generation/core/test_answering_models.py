"""Which model answered: the rule that reads the model an answer names, and how the checkpoint keeps it per attempt.

The runs against a server (live, Batch API, request files, the card) are in tests/generation/llm/test_answering_models.py.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from clsd_format.errors import CLSDError
from clsd_generation.core.checkpoint import SCHEMA_VERSION, Answer, Checkpoint, ModelAnswers
from clsd_generation.core.reading import OTHER_MODEL, answered_as_asked, model_shown
from clsd_generation.core.settings import LLMSettings
from clsd_generation.core.summary import RunReport

SAME_MODEL = [
    ("gpt-4o", "gpt-4o"),
    ("gpt-4o", "gpt-4o-2024-08-06"),  # OpenAI names the snapshot behind an alias
    ("gpt-4", "gpt-4-0613"),
    ("claude-3-5-sonnet", "claude-3-5-sonnet-20241022"),
    ("mistral-large", "mistral-large-2407"),
    ("smollm2", None),  # the answer names no model: nothing says another one wrote it
    ("fake-model", ""),  # nor does an empty name (a server that fills the field with nothing)
    ("fake-model", "  "),
    ("gpt-4o", "openai/gpt-4o"),  # OpenRouter names the vendor before the model
    ("openai/gpt-4o", "gpt-4o"),  # and the reverse: the vendor's name asked for, the bare name answered
    ("gpt-4o", "openai/gpt-4o-2024-08-06"),
    ("meta-llama/Llama-3.1-8B-Instruct", "Llama-3.1-8B-Instruct"),
]
OTHER_MODELS = [
    ("gpt-4o", "gpt-4o-mini"),
    ("gpt-4", "gpt-4o"),
    ("gpt-4", "gpt-4-turbo-2024-04-09"),
    ("gpt-4o", "gpt-4o-2024-08-06-extra"),
    ("gpt-4o", "gpt-4o-20240806x"),
    ("gpt-4o", "xgpt-4o"),
    ("gpt-4o", "GPT-4o"),
    ("gpt-4o", "gpt-4o-123"),
    ("gpt-4o", "gpt-4o-٢٠٢٤"),  # digits of another script are no version a provider writes
    ("smollm2", "/models/SmolLM2-135M-Instruct-Q8_0.gguf"),  # llama.cpp's server may name the file
    ("my-gpt4o", "gpt-4o-2024-11-20"),  # an Azure deployment answers with the model behind it
    ("gpt-4o", "openai/gpt-4o-mini"),  # a prefix on another name is another model
    ("openai/gpt-4o", "azure/gpt-4o"),  # two vendors' prefixes: two names (a prefix is stripped on one side only)
    ("gpt-4o", "gpt-4o/other"),
]


@pytest.mark.parametrize(("asked", "answered"), SAME_MODEL)
def test_the_model_asked_for_a_snapshot_of_it_a_vendor_s_prefix_or_no_name_is_the_same_model(
    asked: str, answered: str | None
) -> None:
    assert answered_as_asked(asked, answered)


@pytest.mark.parametrize(("asked", "answered"), OTHER_MODELS)
def test_any_other_name_is_another_model_unless_allowed_by_name(asked: str, answered: str) -> None:
    assert not answered_as_asked(asked, answered)
    assert answered_as_asked(asked, answered, accepted=(answered,))
    assert not answered_as_asked(asked, answered, accepted=(answered + "x",))


def test_an_empty_name_to_allow_is_refused_in_one_line() -> None:
    with pytest.raises(CLSDError, match="--accept-answering-model needs a model name"):
        LLMSettings(model="m", accepted_models=(" ",))


def test_a_model_name_is_shown_redacted_and_on_one_line() -> None:
    assert model_shown("gpt-4o") == "gpt-4o" and model_shown(None) == "(no model named)"
    assert model_shown("m\x1b[2J\nx") == "m\\x1b[2J\\nx"
    assert "sk-abcdefghijklmnopqrstuvwxyz" not in model_shown("sk-abcdefghijklmnopqrstuvwxyz0123")


def test_the_run_summary_names_every_answering_model_and_the_option_that_allows_a_refused_one() -> None:
    report = RunReport("llm", 3, 0)
    for answered, refused in [("gpt-4o-2024-08-06", False)] * 2 + [(None, False), ("other model", True)]:
        report.count_model("gpt-4o", answered, refused=refused)
    assert report.lines()[-1] == (
        "answers by model this run (asked for gpt-4o): gpt-4o-2024-08-06 2, (no model named) 1, other model 1 refused as "
        "another model's (allow it: --accept-answering-model 'other model')"
    )


def test_each_attempt_keeps_the_model_asked_for_and_the_one_that_answered(tmp_path: Path) -> None:
    with Checkpoint.in_folder(tmp_path) as checkpoint:
        checkpoint.record("r1", "de", answer=Answer(1, "a", ["a"], "live:x", asked_model="m", answered_model="m-2024-01-01"))
        checkpoint.record("r1", "de", answer=Answer(2, "b", [], "live:x", rejections=[OTHER_MODEL], asked_model="m",
                                                    answered_model="x", finish_reason="length"))  # fmt: skip
        checkpoint.record("r2", "de", answer=Answer(1, "c", ["c"], "rules"))
        assert sorted(checkpoint.answering_models(), key=lambda m: str(m.answered)) == [
            ModelAnswers("m-2024-01-01", "m", 1, 0, frozenset({("r1", "de")})),
            ModelAnswers("x", "m", 1, 1, frozenset()),
        ]
        # Another model's cut answer spent its attempt when it was read: resumed, it is no cut answer either.
        assert [stored.cut for stored in checkpoint.stored_answers()[("r1", "de")]] == [False, False]


def _version_3_checkpoint(path: Path, generation: dict[str, str], origins: list[str]) -> None:
    """A checkpoint as version 3 wrote it: attempts without the models' columns."""
    with sqlite3.connect(path) as db:
        db.executescript(
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
            "CREATE TABLE attempts (pair_id TEXT NOT NULL, lang TEXT NOT NULL, attempt INTEGER NOT NULL, answer TEXT NOT NULL,"
            " candidates TEXT NOT NULL, origin TEXT NOT NULL, prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER NOT NULL,"
            " created TEXT NOT NULL, candidate_rules TEXT NOT NULL DEFAULT '[]', finish_reason TEXT,"
            " rejections TEXT NOT NULL DEFAULT '[]', PRIMARY KEY (pair_id, lang, attempt));"
            "INSERT INTO meta VALUES ('schema_version', '3');"
        )
        db.execute("INSERT INTO meta VALUES ('generation', ?)", (json.dumps(generation),))
        db.executemany(
            "INSERT INTO attempts (pair_id, lang, attempt, answer, candidates, origin, prompt_tokens, completion_tokens, "
            "created) VALUES (?, 'de', 1, 'x', '[\"x\"]', ?, 1, 1, '2026-01-01')",
            [(f"r{n}", origin) for n, origin in enumerate(origins)],
        )


def test_a_version_3_checkpoint_learns_its_answering_models_from_what_it_recorded(tmp_path: Path) -> None:
    path = tmp_path / "checkpoint.sqlite"
    _version_3_checkpoint(path, {"backend": "llm", "model": "gpt-4o"}, ["file:other-model", "live:gpt-4o", "batch:b1"])
    with Checkpoint(path) as checkpoint:
        assert checkpoint.get_meta("schema_version") == SCHEMA_VERSION == 4
        models = {(m.answered, m.asked): (m.answers, m.sentences) for m in checkpoint.answering_models()}
    assert models == {
        ("other-model", "gpt-4o"): (1, {("r0", "de")}),  # the answer's own name, as its origin kept it
        ("gpt-4o", "gpt-4o"): (1, {("r1", "de")}),
        (None, "gpt-4o"): (1, {("r2", "de")}),  # a Batch API answer's origin names its batch only: unknown
    }


def test_a_rule_run_of_version_3_has_no_answering_models_and_a_newer_checkpoint_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "checkpoint.sqlite"
    _version_3_checkpoint(path, {"backend": "rules"}, ["rules"])
    with Checkpoint(path) as checkpoint:
        assert checkpoint.answering_models() == []
        checkpoint.set_meta("schema_version", SCHEMA_VERSION + 1)
    with pytest.raises(CLSDError, match=f"has schema version {SCHEMA_VERSION + 1}; this clsd-mteb reads version 4"):
        Checkpoint(path)
