"""An answer check is one module and one entry point: a toy check from a package of its own is seen everywhere.

The toy check (``tests/data/toy_check``) is installed the way a third-party package would add one: a module defining
``CHECK`` (an :class:`~clsd_generation.checks.registry.AnswerCheck` with its own declared settings) and an entry point
in the group ``clsd_generation.answer_checks``; no file of clsd-mteb changes. It is then an option of
``clsd generate``, counted in the run summary, bound in the checkpoint's fingerprint, named on the card and measured
by ``scripts/measure_answer_checks.py``. The checks clsd-mteb ships are entry points of its own ``pyproject.toml``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from clsd_generation.checks.registry import ENTRY_POINT_GROUP, answer_checks, with_checks
from clsd_generation.core.settings import ReadingChecks
from tests.helpers.corpora import llm_generate_args, write_parallel_csv
from tests.helpers.fake_openai import FakeOpenAI

ROOT = Path(__file__).resolve().parents[3]
TOY = ROOT / "tests" / "data" / "toy_check"
PAIRS = [
    ("Die Regierung baut nächstes Jahr eine neue Straße in dem Dorf.", "Le gouvernement construira une route dans ce village."),
    ("Der Zug nach Berlin fährt morgen früh um acht Uhr ab.", "Le train pour Berlin part demain matin à huit heures."),
]


def _with_toy() -> dict[str, str]:
    """The environment of a process in which the toy package is installed (on the path, its metadata beside it)."""
    path = os.pathsep.join(filter(None, [str(TOY), str(ROOT), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path, "OPENAI_API_KEY": "test-key"}


def _clsd(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "clsd_cli", *args], capture_output=True, text=True, env=_with_toy(), cwd=cwd)


def test_the_shipped_checks_are_the_entry_points_of_their_group_in_the_order_they_are_asked() -> None:
    declared = {entry.name for entry in entry_points(group=ENTRY_POINT_GROUP) if entry.value.startswith("clsd_generation.")}
    assert declared == {"language", "near-copy", "invented-words"}
    assert [check.name for check in answer_checks()][:3] == ["language", "near-copy", "invented-words"]


def test_switching_checks_off_by_name() -> None:
    off = with_checks(ReadingChecks(), ())
    assert (off.language, off.near_copy_edits, off.max_unknown_share, off.max_unknown_lowercase) == (False, 0, 2.0, 0)
    only = with_checks(ReadingChecks(), {"near-copy"})
    assert only.near_copy_edits == ReadingChecks().near_copy_edits and not only.language


def test_the_toy_check_is_an_option_and_is_measured(tmp_path: Path) -> None:
    help_text = _clsd("generate", "--help", cwd=tmp_path)
    assert help_text.returncode == 0, help_text.stderr
    assert "--max-shouted-words" in help_text.stdout and "new words in capitals only" in help_text.stdout
    code = "import sys; sys.path.insert(0, 'scripts'); import measure_answer_checks as m; print(list(m.one_at_a_time(m.ReadingChecks())))"
    measured = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_with_toy(), cwd=ROOT)
    assert measured.returncode == 0, measured.stderr
    assert measured.stdout.strip() == str(["language", "near-copy", "invented-words", "toy-shouting"])


@pytest.mark.slow
def test_the_toy_check_refuses_in_a_run_and_is_named_in_the_summary_fingerprint_and_card(tmp_path: Path) -> None:
    corpus = write_parallel_csv(tmp_path / "pairs.csv", PAIRS)
    with FakeOpenAI({"": ["shouting"]}) as fake:
        done = _clsd(*llm_generate_args(corpus, tmp_path / "run", fake.base_url, "--quiet"), cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "candidates refused this run:" in done.stdout and "shouting 4" in done.stdout  # one per sentence and language
    code = (
        "import json, sys; from clsd_generation.core.checkpoint import GENERATION_KEY, Checkpoint\n"
        "with Checkpoint.existing(sys.argv[1]) as c: print(json.dumps(c.get_meta(GENERATION_KEY)['validation']['reading']))"
    )
    stored = subprocess.run([sys.executable, "-c", code, str(tmp_path / "run")], capture_output=True, text=True, env=_with_toy())
    assert json.loads(stored.stdout)["plugins"] == {"toy-shouting": {"max_shouted_words": 0}}, stored.stderr
    built = _clsd("build", "--run-dir", str(tmp_path / "run"), "--out", str(tmp_path / "data"), "--name", "Toy", cwd=tmp_path)
    assert built.returncode == 0, built.stdout + built.stderr
    card = (tmp_path / "data" / "README.md").read_text(encoding="utf-8")
    assert "no more than 0 new words in capitals only" in card and "in the target language (py3langid)" in card


def test_without_checks_from_other_packages_the_fingerprint_is_what_it_was(tmp_path: Path) -> None:
    """A run folder made before the checks were a registry resumes: its answer checks' settings are bound as they were."""
    from clsd_format.languages import parse_pair
    from clsd_generation.core.inputs import read_parallel
    from clsd_generation.core.settings import LLMSettings, ValidationBounds
    from clsd_generation.run.backends import LLMBackend
    from clsd_generation.run.loop import generation_fingerprint

    corpus = read_parallel(write_parallel_csv(tmp_path / "pairs.csv", PAIRS), ("de", "fr"))
    fingerprint = generation_fingerprint(corpus, parse_pair("de", "fr"), LLMBackend(LLMSettings(model="m")), ValidationBounds())
    reading = fingerprint["validation"]["reading"]  # type: ignore[index]
    assert reading == {"language": True, "near_copy_edits": 2, "max_unknown_share": 0.15, "max_unknown_lowercase": 2}


def test_the_docs_table_of_answer_checks_is_the_registry() -> None:
    """docs/generation.md lists every check clsd-mteb ships, in the order asked, with its refusal and its options."""
    from clsd_format.declared_settings import declared_fields

    text = (ROOT / "docs" / "generation.md").read_text(encoding="utf-8")
    table = text.split("| check | refused as | options |", 1)[1].split("\n\n", 1)[0]
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in table.strip().splitlines()[1:]]
    flags = {item.path[-1]: item.declared.flag or "--" + item.name.replace("_", "-") for item in declared_fields(ReadingChecks)}
    shipped = [check for check in answer_checks() if check.settings is None]
    expected = [[f"`{c.name}`", c.reason, ", ".join(f"`{flags[key]}`" for key in c.off)] for c in shipped]
    assert rows == expected
