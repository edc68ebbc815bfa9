"""A report section is one module: a toy section is added from a package of its own and appears in the report.

The toy section (``tests/data/toy_section``) is installed the way a third-party package would add one: a module
defining a :class:`~clsd_analysis.sections.Section` and an entry point in the group ``clsd_analysis.sections``; no
file of clsd-mteb changes.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from clsd_analysis import sections
from clsd_analysis.report import AnalysisOptions, build_report
from clsd_analysis.sections import BUILT_IN, Comparison, default_sections
from clsd_analysis.task_data import TaskCatalog
from clsd_format.errors import CLSDError
from tests.analysis.test_report_html import _write_predictions

TOY = Path(__file__).resolve().parents[1] / "data" / "toy_section"


@pytest.fixture
def toy_installed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The toy package on the path, as ``pip install`` would put it; the registry read afresh before and after."""
    monkeypatch.syspath_prepend(str(TOY))
    sections.read_entries.cache_clear()
    yield
    sections.read_entries.cache_clear()
    sys.modules.pop("toy_section", None)


def test_without_plugins_the_report_has_the_built_in_sections_in_order() -> None:
    sections.read_entries.cache_clear()
    assert tuple(type(section) for section in default_sections()) == BUILT_IN


@pytest.mark.slow
@pytest.mark.usefixtures("toy_installed")
def test_a_toy_section_from_its_own_package_is_numbered_after_the_built_in_ones(small_release: Path, tmp_path: Path) -> None:
    found = default_sections()
    assert len(found) == len(BUILT_IN) + 1 and type(found[-1]).__module__ == "toy_section"
    results = _write_predictions(tmp_path / "results", TaskCatalog(small_release))
    chosen = [section for section in found if isinstance(section, Comparison) or section is found[-1]]
    options = AnalysisOptions(data_dir=small_release, sections=chosen, html=False)
    report = build_report(results, tmp_path / "report", options).read_text(encoding="utf-8")
    assert "## 2. Rows per task\n" in report
    assert "- CLSD-WMT19-DE-FR: 24 rows" in report and "- CLSD-WMT21-FR-DE: 20 rows" in report


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
