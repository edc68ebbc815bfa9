"""The ``clsd`` command answers at once and speaks with one voice.

- ``--help`` of the command and of every subcommand imports no heavy library (the time itself is
  measured by ``benchmarks/cli_startup.py``, not asserted here);
- every error a command raises goes through the one handler of :mod:`clsd_format.console`: one line,
  exit status 2, a traceback and library warnings only with ``--debug`` or ``CLSD_DEBUG=1``;
- a resumed ``clsd generate`` says first how much was done and how much remains.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("mteb", "torch", "sklearn", "datasets", "transformers", "sentence_transformers", "pandas", "matplotlib", "scipy")
ROWS = [
    ("Am Montag hat Merkel in Berlin 12 neue Schulen eröffnet.", "Lundi, Merkel a inauguré 12 nouvelles écoles à Berlin."),
    ("Im Mai 2019 ist der Preis für Brot in Paris gestiegen.", "En mai 2019, le prix du pain a augmenté à Paris."),
    ("Der Minister Müller war am Freitag nicht in Hamburg.", "Le ministre Müller n'était pas à Hambourg vendredi."),
]


def python(code: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ, **(env or {})})


def test_help_of_every_command_imports_no_heavy_library() -> None:
    code = f"""
import json, sys
from clsd_cli.app import app, main
names = [None] + [c.name or c.callback.__name__.replace("_", "-") for c in app.registered_commands]
for name in names:
    try:
        main([name, "--help"] if name else ["--help"])
    except SystemExit as exc:
        assert exc.code == 0, (name, exc.code)
print(json.dumps({{"commands": names[1:], "heavy": [m for m in {HEAVY!r} if m in sys.modules]}}))
"""
    done = python(code)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert {"evaluate", "export-release", "generate", "build", "analyze"} <= set(report["commands"])
    assert report["heavy"] == []


FAILING_APP = """
import logging, warnings, typer
from clsd_format.console import run_cli
from clsd_format.errors import DataError
app = typer.Typer()
@app.command()
def fail(kind: str) -> None:
    warnings.warn("`embed_dim=model.get_sentence_embedding_dimension()` is deprecated", FutureWarning)
    logging.getLogger("transformers.modeling_utils").warning("some weights were not initialised")
    if kind == "user":
        raise DataError("no column 'German'", file="in.csv", row=3)
    raise RuntimeError("a bug")
@app.command()
def other() -> None:
    pass
run_cli(app, prog_name="demo")
"""


def _run_failing(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", FAILING_APP, *args],
        capture_output=True,
        text=True,
        env={**{k: v for k, v in os.environ.items() if k not in ("CLSD_DEBUG", "PYTHONWARNINGS")}, **(env or {})},
    )


def test_a_user_error_is_one_line_with_status_2_and_no_library_noise() -> None:
    done = _run_failing("fail", "user")
    assert done.returncode == 2
    assert done.stderr == "error: file in.csv, row 3: no column 'German'\n"
    assert done.stdout == ""


def test_an_unexpected_error_names_its_type_without_a_traceback() -> None:
    done = _run_failing("fail", "bug")
    assert (done.returncode, done.stderr) == (2, "error: RuntimeError: a bug\n")


@pytest.mark.parametrize("how", ["flag", "environment"])
def test_debug_brings_back_tracebacks_and_library_warnings(how: str) -> None:
    done = _run_failing("fail", "user", "--debug") if how == "flag" else _run_failing("fail", "user", env={"CLSD_DEBUG": "1"})
    assert done.returncode == 1  # the exception propagates
    assert "Traceback" in done.stderr and "DataError" in done.stderr
    assert "FutureWarning" in done.stderr and "embed_dim=" in done.stderr
    assert "some weights were not initialised" in done.stderr


def test_usage_errors_keep_click_s_message() -> None:
    done = _run_failing("fail")
    assert done.returncode == 2 and "Missing argument 'kind'" in done.stderr.replace("KIND", "kind")


@pytest.mark.slow
def test_a_resumed_generate_says_first_what_is_done_and_what_remains(tmp_path: Path) -> None:
    corpus = tmp_path / "parallel.csv"
    corpus.write_text("German,French\n" + "".join(f'"{a}","{b}"\n' for a, b in ROWS), encoding="utf-8")
    run_dir = tmp_path / "run"
    command = [
        sys.executable,
        "-m",
        "clsd_cli",
        "generate",
        str(corpus),
        "--run-dir",
        str(run_dir),
        "--backend",
        "rules",
        "--source-column",
        "German",
        "--target-column",
        "French",
        "--source-lang",
        "de",
        "--target-lang",
        "fr",
        "--quiet",
    ]
    first = subprocess.run(command, capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    assert "Resuming" not in first.stdout  # a new run folder: nothing to resume
    with sqlite3.connect(run_dir / "checkpoint.sqlite") as db:  # as if killed before two sentences were stored
        db.execute("DELETE FROM results WHERE rowid IN (SELECT rowid FROM results ORDER BY pair_id, lang LIMIT 2)")
    again = subprocess.run(command, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    total = 2 * len(ROWS)  # each pair gives a German and a French sentence
    assert again.stdout.splitlines()[0] == f"Resuming {run_dir}: {total - 2} of {total} sentences already finished, 2 remain."
