"""A built dataset holds no invisible character (default-ignorable, bidi control) in a distractor where its target has
none, and keeps the ZWNJ a Persian target writes.

An English-Persian corpus (the project's own sentences) goes through `clsd generate` with the stand-in LLM on 127.0.0.1,
whose every answer swaps one real word of the sentence for another of its language and writes a right-to-left mark, an
isolate, an embedding or a zero-width space after the first word (tests/helpers/fake_openai.py, ``invisible``), and
through `clsd build`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from clsd_format import hub, schema
from clsd_format.invisible import INVISIBLE
from clsd_generation.core.checkpoint import Checkpoint
from tests.helpers.cli_runner import invoke
from tests.helpers.corpora import script_sentences, write_parallel_csv
from tests.helpers.fake_openai import INVISIBLE_MARKS, FakeOpenAI, every_text

pytestmark = pytest.mark.slow  # generates and builds a dataset through the CLI

ZWNJ = "\u200c"
# The English sentences of tests/data/scripts in Persian; all but the fourth write a ZWNJ ("بچه‌ها", "می‌کنند").
PERSIAN = [
    "بچه\u200cها هر صبح در پارک بازی می\u200cکنند.",
    "برادرم هفته\u200cی گذشته یک ماشین نو خرید.",
    "قطار شهر ساعت هشت صبح حرکت می\u200cکند.",
    "ما برای شام نان تازه و پنیر خوردیم.",
    "معلم یک کتاب بلند برای دانش\u200cآموزان می\u200cخواند.",
    "دیروز در کوه\u200cها باران شدیدی بارید.",
]


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The run folder of the English-Persian run, built into ``ds`` beside it."""
    folder = tmp_path_factory.mktemp("invisible")
    english = script_sentences()["en"]
    corpus = write_parallel_csv(folder / "pairs.csv", list(zip(english, PERSIAN, strict=True)))
    swaps = {"English": ("en", english), "Persian": ("fa", PERSIAN)}
    options = ("--source-column", "de", "--target-column", "fr", "--source-lang", "en", "--target-lang", "fa")
    with pytest.MonkeyPatch.context() as patch, FakeOpenAI(every_text("invisible"), swaps=swaps) as fake:
        patch.setenv("OPENAI_API_KEY", "test-key")
        invoke(
            "generate", str(corpus), "--run-dir", str(folder / "run"), *options,
            "--backend", "llm", "--model", "fake-model", "--base-url", fake.base_url, "--quiet",
        )  # fmt: skip
    build = ("--name", "Unseen", "--no-score", "--allow-incomplete")
    invoke("build", "--run-dir", str(folder / "run"), "--out", str(folder / "ds"), *build)
    return folder / "run"


@pytest.fixture(scope="module")
def rows(run_dir: Path) -> list[dict[str, Any]]:
    """Every row of both directions of the built dataset."""
    built = run_dir.parent / "ds"
    return [row for spec in hub.read_manifest(built) for row in hub.read_config(built, spec.config)]


def test_the_checkpoint_keeps_answers_as_read_with_their_invisible_characters(run_dir: Path, rows: list[dict[str, Any]]) -> None:
    with Checkpoint.existing(run_dir) as checkpoint:
        kept = [d for result in checkpoint.results() if result.status == "ok" for d in result.distractors]
    assert {mark for mark in INVISIBLE_MARKS if any(mark in d for d in kept)} == set(INVISIBLE_MARKS)
    assert {row[schema.TARGET_LANG] for row in rows} == {"eng-Latn", "fas-Arab"}


def test_no_distractor_holds_an_invisible_character_its_target_does_not_use(rows: list[dict[str, Any]]) -> None:
    for row in rows:
        used = set(INVISIBLE.findall(row[schema.TARGET]))
        for distractor in row[schema.DISTRACTORS]:
            assert set(INVISIBLE.findall(distractor)) <= used, (row[schema.ID], distractor)


def test_a_persian_target_that_writes_zwnj_keeps_it_in_its_distractors(rows: list[dict[str, Any]]) -> None:
    persian = [row for row in rows if row[schema.TARGET_LANG] == "fas-Arab" and ZWNJ in row[schema.TARGET]]
    assert persian, "no Persian row with a ZWNJ was built"
    for row in persian:
        assert any(ZWNJ in distractor for distractor in row[schema.DISTRACTORS]), row
