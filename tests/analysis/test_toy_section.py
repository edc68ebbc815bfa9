"""A report section is one module: a toy section is added from a package of its own and appears in the report.

The toy section (``tests/data/toy_section``) is installed the way a third-party package would add one: a module
defining a :class:`~clsd_analysis.sections.Section` and an entry point in the group ``clsd_analysis.sections``; no
file of clsd-mteb changes. Its option, a field declared with ``setting``, is an option of ``clsd analyze``. The
built-in sections are found the same way, through clsd-mteb's own entry points.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from clsd_analysis import sections
from clsd_analysis.report import AnalysisOptions, analyze
from clsd_analysis.sections import default_sections, registered
from clsd_analysis.sections.comparison import Comparison
from clsd_analysis.task_data import TaskCatalog
from clsd_format.errors import CLSDError
from clsd_format.plugins import DISTRIBUTION
from tests.analysis.test_report_html import HEADINGS, _write_predictions

TOY = Path(__file__).resolve().parents[1] / "data" / "toy_section"


@pytest.fixture
def toy_installed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The toy package on the path, as ``pip install`` would put it; the registry read afresh before and after."""
    monkeypatch.syspath_prepend(str(TOY))
    sections.read_entries.cache_clear()
    yield
    sections.read_entries.cache_clear()
    sys.modules.pop("toy_section", None)


def test_the_built_in_sections_are_clsd_mtebs_entry_points_in_report_order() -> None:
    sections.read_entries.cache_clear()
    read = sections.read_entries()
    assert {origin.distribution for origin in read.origins.values()} == {DISTRIBUTION}
    assert [section.title for section in registered()] == HEADINGS


@pytest.mark.slow
@pytest.mark.usefixtures("toy_installed")
def test_a_toy_section_from_its_own_package_is_numbered_after_the_built_in_ones(small_release: Path, tmp_path: Path) -> None:
    found = default_sections()
    assert len(found) == len(HEADINGS) + 1 and type(found[-1]).__module__ == "toy_section"
    results = _write_predictions(tmp_path / "results", TaskCatalog(small_release))
    chosen = [section for section in found if isinstance(section, Comparison) or section is found[-1]]
    options = AnalysisOptions(data_dir=small_release, sections=chosen, html=False)
    report = analyze(results, tmp_path / "report", options, show_progress_bar=False).markdown.read_text(encoding="utf-8")
    assert "## 2. Rows per task\n" in report
    assert "- CLSD-WMT19-DE-FR: 24 rows" in report and "- CLSD-WMT21-FR-DE: 20 rows" in report


def _clsd(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join(filter(None, [str(TOY), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": path, "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "clsd_cli", *args], capture_output=True, text=True, env=env, cwd=cwd)


@pytest.mark.slow
def test_the_toy_sections_option_is_an_option_of_clsd_analyze(small_release: Path, tmp_path: Path) -> None:
    helped = _clsd("analyze", "--help", cwd=tmp_path)
    assert helped.returncode == 0, helped.stderr
    assert "--toy-unit" in helped.stdout and "The word the toy section counts in." in helped.stdout
    results = _write_predictions(tmp_path / "results", TaskCatalog(small_release))
    args = ["analyze", str(results), "--out", str(tmp_path / "report"), "--data-dir", str(small_release), "--no-pos-shift"]
    done = _clsd(*args, "--toy-unit", "lines", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    report = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    assert "## 8. Rows per task\n" in report and "- CLSD-WMT19-DE-FR: 24 lines" in report
    assert "--toy-unit lines" in report  # quoted with the command, as every option that changes the report


def test_an_entry_point_that_names_no_section_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "bad_section"
    package.mkdir()
    (package / "__init__.py").write_text("NOT_A_SECTION = 3\n", encoding="utf-8")
    info = tmp_path / "bad_section-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: bad-section\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[clsd_analysis.sections]\nbad = bad_section:NOT_A_SECTION\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    sections.read_entries.cache_clear()
    try:
        with pytest.raises(CLSDError, match=r"'bad' = 'bad_section:NOT_A_SECTION' of group clsd_analysis.sections"):
            default_sections()
    finally:
        sections.read_entries.cache_clear()
        sys.modules.pop("bad_section", None)


def test_every_built_in_section_loads_without_the_analysis_extra() -> None:
    """``clsd analyze --help`` shows every built-in section's options in the base install: no section module imports
    a module of the analysis extra at its top."""
    code = (
        "import sys\nfrom clsd_format.extras import EXTRA_MODULES\n"
        "for name in {m for ms in EXTRA_MODULES.values() for m in ms}:\n    sys.modules[name] = None\n"
        "from clsd_analysis.sections import read_entries\nread = read_entries()\n"
        "print(sorted(read.found), [str(why) for why in read.refused.values()])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("[]") and "pos-shift" in done.stdout, done.stdout
