"""``report.html``: the Markdown report and a row explorer in one file that opens from disk.

Self-contained so it can be mailed or archived alone: the styles and the script are inline (the files
under ``clsd_analysis/html/``), the figures are embedded as PNG data URIs, and the explorer's rows are a
gzip-compressed JSON document (:mod:`clsd_analysis.explorer_data`) in base64, which the page unpacks
with the browser's own ``DecompressionStream``. Nothing is fetched: no server, no network, no library.
The tables' CSV, LaTeX and Markdown files stay beside it, linked relatively, as in ``report.md``.
"""

from __future__ import annotations

import base64
import gzip
import html
import json
from importlib import resources
from pathlib import Path
from string import Template
from typing import Any

from markdown_it import MarkdownIt

from clsd_analysis.explorer_data import explorer_document
from clsd_analysis.report_context import ReportContext
from clsd_analysis.task_data import TaskData

ASSETS = "html"  # the package folder of template.html, report.css and explorer.js


def _asset(name: str) -> str:
    return resources.files("clsd_analysis").joinpath(ASSETS, name).read_text(encoding="utf-8")


def _data_uri(path: Path) -> str:
    return "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def markdown_to_html(markdown: str, folder: Path) -> str:
    """The report's Markdown as HTML (raw HTML in it escaped), each figure under ``folder`` embedded."""
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = md.parse(markdown)
    for token in tokens:
        for child in token.children or []:
            source = child.attrGet("src") if child.type == "image" else None
            if isinstance(source, str) and (folder / source).is_file() and source.endswith(".png"):
                child.attrSet("src", _data_uri(folder / source))
    return md.renderer.render(tokens, md.options, {})


def pack(document: Any) -> str:
    """A JSON document gzip-compressed (no timestamp, so the same document gives the same bytes) in base64."""
    raw = json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return base64.b64encode(gzip.compress(raw, compresslevel=9, mtime=0)).decode("ascii")


def write_html_report(report: ReportContext, path: Path) -> Path:
    """Write ``report.html`` from a finished report (its Markdown and figures) and its rows."""
    tasks: dict[str, TaskData] = {}
    for name in report.results.task_names:
        data = report.catalog.get(name)
        if data is not None:
            tasks[name] = data
    document = explorer_document(
        report.results, tasks, report.styles, report.focus, report.edit_types.lookup(), report.edit_types.rules()
    )
    page = Template(_asset("template.html")).substitute(
        title=html.escape(f"CLSD analysis report: {report.focus}"),
        css=_asset("report.css"),
        report=markdown_to_html(report.writer.markdown, report.writer.out),
        data=pack(document),
        script=_asset("explorer.js"),
    )
    path.write_text(page, encoding="utf-8")
    return path
