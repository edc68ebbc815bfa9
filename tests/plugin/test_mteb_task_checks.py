"""mteb's own task checks, run against the eight CLSD tasks.

Adapted from the tests of the mteb repository (read at commit a905523d0, ``git describe`` 2.20.0-7;
run here against the installed mteb 2.26.24), parametrised over the CLSD tasks instead of mteb's:

* ``tests/test_tasks/test_metadata.py::test_all_metadata_is_filled_and_valid``: metadata valid and
  filled, no remote code, a simplified task type, descriptive statistics present, ``n_samples``.
* ``tests/test_validate_metadata/test_citation_formatting.py::test_task_bibtex`` and
  ``test_benchmark_bibtex`` (with its ``format_bibtex``): the citation is exactly what bibtexparser
  writes back (field order, indent, trailing comma).
* ``tests/test_get_tasks.py::test_get_task``, ``test_no_duplicate_citations_with_different_ids``
  (with ``_parse_bibtex_entries``, ``_normalize_title_for_comparison``).
* ``tests/test_filter_tasks.py::test_filter_tasks``.
* ``tests/test_abstasks/test_task_metadata.py::check_descriptive_stats``: computed statistics equal the
  stored ones; here without its file write, which for CLSD must never happen.
"""

from __future__ import annotations

import re
from pathlib import Path

import bibtexparser
import mteb
import pytest
from bibtexparser.bwriter import BibTexWriter
from mteb.filter_tasks import filter_tasks

import clsd_mteb
from clsd_mteb.task_statistics import STATS_DIR

TASK_NAMES = list(clsd_mteb.RELEASE_TASK_NAMES)


def format_bibtex(bibtex_str: str) -> str | None:
    """mteb's ``format_bibtex`` (test_citation_formatting.py), unchanged."""
    parser = bibtexparser.bparser.BibTexParser(common_strings=True, ignore_nonstandard_types=False, interpolate_strings=False)
    bib_database = bibtexparser.loads(bibtex_str, parser)
    if not bib_database.entries:
        return None
    writer = BibTexWriter()
    writer.indent = "  "
    writer.comma_first = False
    writer.add_trailing_comma = True
    return writer.write(bib_database).strip()


@pytest.mark.parametrize("name", TASK_NAMES)
def test_all_metadata_is_filled_and_valid(name):
    task = mteb.get_task(name)
    task.metadata._validate_metadata()
    assert task.metadata.is_filled()
    assert task.metadata.dataset.get("trust_remote_code", False) is False
    assert isinstance(task.metadata.simplified_task_type, str)
    assert not task.is_aggregate
    assert task.metadata.descriptive_stats is not None, "no shipped descriptive statistics"
    assert task.metadata.n_samples is not None and task.metadata.n_samples["test"] > 0
    assert task.metadata.prompt is None or isinstance(task.metadata.prompt, str)


@pytest.mark.parametrize("name", TASK_NAMES)
def test_task_bibtex(name):
    citation = mteb.get_task(name).metadata.bibtex_citation.strip()
    assert format_bibtex(citation) == citation


def test_benchmark_bibtex():
    citation = clsd_mteb.CLSD_BENCHMARK.citation.strip()
    assert format_bibtex(citation) == citation


@pytest.mark.parametrize("name", TASK_NAMES)
@pytest.mark.parametrize("eval_splits", [["test"], None])
def test_get_task(name, eval_splits):
    task = mteb.get_task(name, eval_splits=eval_splits)
    assert isinstance(task, mteb.AbsTask) and isinstance(task, clsd_mteb.AbsTaskCLSD)
    assert task.metadata.name == name
    assert task.eval_splits == (eval_splits or task.metadata.eval_splits)


def _parse_bibtex_entries(bibtex_str: str) -> list[tuple[str, str]]:
    """(citation id, title) of each entry: mteb's helper (test_get_tasks.py), condensed."""
    entries = []
    for key_match in re.finditer(r"@\w+\s*\{([^,]+)", bibtex_str or "", re.IGNORECASE):
        next_at = bibtex_str.find("@", key_match.end())
        block = bibtex_str[key_match.start() : next_at if next_at != -1 else None]
        title_match = re.search(r"\btitle\s*=\s*\{", block, re.IGNORECASE)
        if not title_match:
            continue
        depth, i = 1, title_match.end()
        while i < len(block) and depth > 0:
            depth += {"{": 1, "}": -1}.get(block[i], 0)
            i += 1
        if depth == 0:
            entries.append((key_match.group(1).strip(), " ".join(block[title_match.end() : i - 1].split())))
    return entries


def _normalize_title_for_comparison(title: str) -> str:
    return " ".join(title.lower().strip().split())


@pytest.mark.slow
def test_no_duplicate_citations_with_different_ids():
    """The CLSD paper is cited under one id, whichever mteb task, model or benchmark cites it too."""
    ids_by_title: dict[str, set[str]] = {}
    citations = [t.metadata.bibtex_citation for t in mteb.get_tasks()]
    citations += [m.citation for m in mteb.get_model_metas()] + [b.citation for b in mteb.get_benchmarks()]
    for citation in citations:
        for cid, title in _parse_bibtex_entries(citation or ""):
            ids_by_title.setdefault(_normalize_title_for_comparison(title), set()).add(cid)
    (ours,) = _parse_bibtex_entries(clsd_mteb.CITATION)
    assert ids_by_title[_normalize_title_for_comparison(ours[1])] == {ours[0]}


@pytest.mark.parametrize("languages", [["eng", "deu"], ["fra"], None])
@pytest.mark.parametrize("domains", [["News"], ["Legal"], None])
@pytest.mark.parametrize("task_types", [["Reranking"], ["Classification"], None])
def test_filter_tasks(languages, domains, task_types):
    all_tasks = mteb.get_tasks(TASK_NAMES)
    tasks = filter_tasks(all_tasks, languages=languages, script=["Latn"], domains=domains, task_types=task_types)
    for task in tasks:
        if languages:
            assert set(languages) & set(task.metadata.languages)
        if domains:
            assert set(domains) & set(task.metadata.domains or [])
        if task_types:
            assert task.metadata.type in task_types
    expected = [
        t.metadata.name
        for t in all_tasks
        if (not languages or set(languages) & set(t.metadata.languages))
        and (not domains or "News" in domains)
        and (not task_types or "Reranking" in task_types)
    ]
    assert [t.metadata.name for t in tasks] == expected


def _files_under(folder: Path) -> dict[Path, int]:
    return {p: p.stat().st_mtime_ns for p in folder.rglob("*") if p.is_file()}


@pytest.mark.release
@pytest.mark.parametrize("name", TASK_NAMES)
def test_shipped_statistics_equal_the_computed_ones_and_nothing_is_written(name, release_dir):
    """mteb's check_descriptive_stats, and no write into mteb or this package (site-packages once installed)."""
    mteb_dir, package_dir = Path(mteb.__file__).parent, STATS_DIR.parent
    before = _files_under(mteb_dir / "descriptive_stats"), _files_under(package_dir)
    task = clsd_mteb.get_tasks([name], data_dir=release_dir)[0]
    shipped = task.metadata.descriptive_stats
    assert task.metadata.descriptive_stat_path.is_relative_to(STATS_DIR)
    computed = task.calculate_descriptive_statistics(overwrite_results=True)
    assert computed == shipped
    assert task.calculate_descriptive_statistics() == shipped
    stats = computed["test"]
    if name.endswith("-PivotEN"):
        assert stats["rows_with_distractor_identical_to_target"] > 0 and stats["rows_repeating_a_distractor"] > 0
    else:
        assert stats["rows_with_distractor_identical_to_target"] == stats["rows_repeating_a_distractor"] == 0
    assert (_files_under(mteb_dir / "descriptive_stats"), _files_under(package_dir)) == before


@pytest.mark.parametrize("name", TASK_NAMES)
def test_statistics_of_other_data_are_computed_and_count_its_ties(name, small_release):
    """Data that is not the pinned release (here the fixture files) gets computed statistics, never the shipped ones."""
    mteb_dir = Path(mteb.__file__).parent
    before = _files_under(mteb_dir / "descriptive_stats"), _files_under(STATS_DIR)
    task = clsd_mteb.get_tasks([name], data_dir=small_release)[0]
    stats = task.calculate_descriptive_statistics()["test"]
    assert stats["num_samples"] == {"WMT19": 24, "WMT21": 20}[name.split("-")[1]]
    # the fixture's pivot sets: WMT19 rows 2 and 9 and WMT21 row 5 tie with T, WMT19 row 6 and WMT21 row 11 repeat one
    ties = {"WMT19": 2, "WMT21": 1}[name.split("-")[1]] if name.endswith("-PivotEN") else 0
    assert (stats["rows_with_distractor_identical_to_target"], stats["rows_repeating_a_distractor"]) == (ties, int(ties > 0))
    assert (_files_under(mteb_dir / "descriptive_stats"), _files_under(STATS_DIR)) == before


@pytest.mark.release
def test_a_cut_task_gets_computed_statistics_not_the_release_ones(release_dir):
    mteb_dir = Path(mteb.__file__).parent
    before = _files_under(mteb_dir / "descriptive_stats"), _files_under(STATS_DIR)
    task = clsd_mteb.get_tasks(["CLSD-WMT19-FR-DE-PivotEN"], data_dir=release_dir, limit=10)[0]
    stats = task.calculate_descriptive_statistics()
    assert list(stats) == ["test_first_10"] and stats["test_first_10"]["num_samples"] == 10
    assert (_files_under(mteb_dir / "descriptive_stats"), _files_under(STATS_DIR)) == before


def test_statistics_are_written_only_where_asked_and_never_replace_a_file(small_release, tmp_path):
    from clsd_mteb.task_statistics import write_statistics

    task = clsd_mteb.get_tasks(["CLSD-WMT21-DE-FR"], data_dir=small_release)[0]
    path = write_statistics(task, tmp_path)
    assert path.parent.parent == tmp_path and path.parent.name.startswith("local-sha256-")
    with pytest.raises(FileExistsError):
        write_statistics(task, tmp_path)
