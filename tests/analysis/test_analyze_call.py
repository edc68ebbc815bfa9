"""``clsd_analysis.analyze`` is the call behind ``clsd analyze``: runs or folders in, a :class:`Report` out.

The Python block of docs/analysis.md runs as written (read from the page, never copied here) in a fresh interpreter
over the project's small copy of the release (``CLSD_DATA_DIR``): two baselines evaluated, their run analysed. The
report's answer is the run's own (``CLSDRun.answer``, the lines ``clsd evaluate`` prints), line for line, and
``clsd analyze`` over the run's folder prints those lines and the report's path. A library call prints nothing.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from clsd_analysis import AnalysisOptions, Report, analyze
from clsd_analysis.report_writer import REPORT_FILE
from clsd_analysis.sections import with_options
from clsd_analysis.sections.pos_shift import PosShift
from clsd_analysis.task_data import TaskCatalog
from tests.analysis.test_report_html import _write_predictions

DOCS = Path(__file__).resolve().parents[2] / "docs" / "analysis.md"
CHECKS = """
import json
assert report.answer == tuple(run.answer()), (report.answer, run.answer())
assert report.markdown in report.files and report.markdown.parent / "report.html" in report.files
print(json.dumps({"answer": list(report.answer), "table1": list(report.tables["comparison"].index)}))
"""


def analyze_example() -> str:
    """The page's Python block that calls ``analyze``."""
    blocks = re.findall(r"```python\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.DOTALL)
    (code,) = [block for block in blocks if "from clsd_analysis import analyze" in block]
    return code


@pytest.mark.slow  # two baselines evaluated and a whole report, in a fresh interpreter
def test_the_docs_example_reports_the_runs_own_answer_and_the_command_prints_it(small_release: Path, tmp_path: Path) -> None:
    import json

    env = {**os.environ, "CLSD_DATA_DIR": str(small_release), "HF_HUB_OFFLINE": "1"}
    run = [sys.executable, "-c", analyze_example() + CHECKS]
    done = subprocess.run(run, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    answer = found["answer"]
    assert answer and answer[0].startswith("Data: ") and any(line.startswith("WMT19 DE→FR, direct (24 rows") for line in answer)
    assert set(found["table1"]) == {"clsd-baselines/char-ngram-tf", "clsd-baselines/random"}
    assert "\n".join(answer) in done.stdout  # printed by the block itself
    assert "CLSD report" in done.stderr  # the bar over the sections, on stderr

    command = [sys.executable, "-m", "clsd_cli", "analyze", "clsd-results", "--out", "again", "--no-pos-shift"]
    printed = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert printed.returncode == 0, printed.stderr[-3000:]
    assert [f"- {line}" for line in answer] == [line for line in printed.stdout.splitlines() if line.startswith("- ")]
    assert printed.stdout.rstrip().endswith(f"wrote {Path('again') / REPORT_FILE}")
    markdown = (tmp_path / "again" / REPORT_FILE).read_text(encoding="utf-8")
    assert "\n".join(f"- {line}" for line in answer) in markdown  # the terminal and report.md say the same lines


@pytest.mark.slow
def test_a_library_call_prints_nothing_and_returns_what_it_wrote(
    small_release: Path, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    results = _write_predictions(tmp_path / "results", TaskCatalog(small_release))
    options = AnalysisOptions(data_dir=small_release, sections=with_options(PosShift(enabled=False)))
    report = analyze([results], tmp_path / "report", options, show_progress_bar=False)
    out, err = capfd.readouterr()
    assert out == "" and "CLSD report" not in err
    assert isinstance(report, Report) and report.folder == tmp_path / "report"
    assert set(report.files) == {path for path in (tmp_path / "report").rglob("*") if path.is_file()}
    table1 = report.tables["comparison"]
    assert (tmp_path / "report" / "tables" / "comparison.csv").is_file() and not table1.empty
    assert report.lines()[-1] == f"wrote {tmp_path / 'report' / REPORT_FILE}"
