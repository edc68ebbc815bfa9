"""``report.html``: the Markdown report and a row explorer in one file that opens from disk.

Self-contained so it can be mailed or archived alone: the styles and the script are inline (the files
under ``clsd_analysis/html/``), the figures are embedded as PNG data URIs, and the explorer's rows are a
gzip-compressed JSON document (:mod:`clsd_analysis.explorer_data`) in base64, which the page unpacks
with the browser's own ``DecompressionStream``. Nothing is fetched: no server, no network, no library.
The tables' CSV, LaTeX and Markdown files stay beside it, linked relatively, as in ``report.md``.

Inert whatever the data holds: texts of a dataset or a result reach the Markdown (examples, model names), so
the Markdown-to-HTML step keeps only what the report itself made. Raw HTML is escaped, but for the spans that give
each text of the data its ``lang`` and ``dir`` (:mod:`clsd_format.html_text`: Arabic and Hebrew read right to left in
the static page, with no script; a table cell that is one such text carries them itself); an image becomes an
element only when it is one of the report's own PNG figures (embedded), a link only when it points to one of the
report's own files by a relative path; any other image or link (``![x](https://...)``, ``<https://...>``) shows
as its text. And the page carries a Content-Security-Policy (:data:`CONTENT_SECURITY_POLICY`) that forbids every
network request and every script but the explorer's own, should anything slip through.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import html
import json
from importlib import resources
from pathlib import Path
from string import Template
from typing import Any
from urllib.parse import unquote, urlsplit

from markdown_it import MarkdownIt
from markdown_it.token import Token

from clsd_analysis.explorer_data import explorer_document
from clsd_analysis.report_context import ReportContext
from clsd_analysis.task_data import TaskData
from clsd_format.html_text import CLOSE_SPAN, OWN_SPAN

ASSETS = "html"  # the package folder of template.html, report.css and explorer.js


def _asset(name: str) -> str:
    return resources.files("clsd_analysis").joinpath(ASSETS, name).read_text(encoding="utf-8")


def _data_uri(path: Path) -> str:
    return "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode("ascii")


# Nothing may be fetched: no connection, image, font, frame, form target or base URL from anywhere; styles inline; the
# only script is the explorer's, named by its hash (an injected script would not run). Images: the embedded figures.
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src '{script}'; "
    "connect-src 'none'; font-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'"
)


def _own_file(folder: Path, reference: object) -> Path | None:
    """The report's own file a Markdown link or image names (a relative path inside ``folder``), or None."""
    if not isinstance(reference, str):
        return None
    parts = urlsplit(reference)
    if parts.scheme or parts.netloc or parts.query or not parts.path or parts.path.startswith("/"):
        return None
    path = (folder / unquote(parts.path)).resolve()
    return path if path.is_relative_to(folder.resolve()) and path.is_file() else None


def _inert(children: list[Token], folder: Path) -> list[Token]:
    """Inline tokens with every image and link the report did not make replaced by its text."""
    kept: list[Token] = []
    opened: list[bool] = []  # for each open link: kept or not
    for child in children:
        if child.type == "image":
            figure = _own_file(folder, child.attrGet("src"))
            if figure is not None and figure.suffix == ".png":
                child.attrSet("src", _data_uri(figure))
                kept.append(child)
            else:
                kept.append(Token("text", "", 0, content=f"[image: {child.content}]" if child.content else "[image]"))
        elif child.type == "link_open":
            own = _own_file(folder, child.attrGet("href")) is not None
            opened.append(own)  # a link dropped here loses its closing token too
            if own:
                kept.append(child)
        elif child.type == "link_close":
            if opened.pop() if opened else False:
                kept.append(child)
        else:
            kept.append(child)
    return kept


def _own_spans(children: list[Token]) -> list[Token]:
    """Inline tokens with each raw HTML tag as text, but for the spans :func:`clsd_format.html_text.in_language` wrote.

    Such a span (``lang`` and ``dir``, nothing else) is rebuilt from what it says, a ``</span>`` kept only where it
    closes one, and a span left open closed at the end: the HTML stays well formed whatever the texts hold.
    """
    kept: list[Token] = []
    depth = 0
    for child in children:
        if child.type != "html_inline":
            kept.append(child)
            continue
        own = OWN_SPAN.fullmatch(child.content)
        if own is not None:
            depth += 1
            lang, direction = own.groups()
            tag = f'<span lang="{lang}" dir="{direction}">'
            kept.append(Token("html_inline", "", 1, content=tag, meta={"lang": lang, "dir": direction}))
        elif child.content == CLOSE_SPAN and depth:
            depth -= 1
            kept.append(Token("html_inline", "", -1, content=CLOSE_SPAN))
        else:
            kept.append(Token("text", "", 0, content=child.content))  # shown as written, escaped
    kept += [Token("html_inline", "", -1, content=CLOSE_SPAN) for _ in range(depth)]
    return kept


def _whole_cell_language(cell: Token, children: list[Token]) -> list[Token]:
    """A table cell that is one text in its language: ``lang`` and ``dir`` go onto the cell, which then reads (and
    aligns) in the text's direction; any other cell keeps its spans."""
    if len(children) < 2 or children[0].nesting != 1 or children[-1].nesting != -1:
        return children
    depth = 0
    for child in children[:-1]:
        depth += child.nesting if child.type == "html_inline" else 0
        if depth == 0:
            return children  # the first span closes before the cell ends: more than one text, or text beside it
    cell.attrSet("lang", children[0].meta["lang"])
    cell.attrSet("dir", children[0].meta["dir"])
    return children[1:-1]


def markdown_to_html(markdown: str, folder: Path) -> str:
    """The report's Markdown as HTML: raw HTML escaped but for the spans naming a text's language and direction,
    its figures embedded, no image or link it did not make."""
    md = MarkdownIt("commonmark", {"html": True}).enable("table").disable("html_block")  # raw HTML inline only, sifted
    tokens = md.parse(markdown)
    for position, token in enumerate(tokens):
        if token.children:
            token.children = _own_spans(_inert(token.children, folder))
            if position and tokens[position - 1].type in ("td_open", "th_open"):
                token.children = _whole_cell_language(tokens[position - 1], token.children)
    return md.renderer.render(tokens, md.options, {})


def content_security_policy(script: str) -> str:
    """The page's policy, allowing the one inline ``script`` by its SHA-256."""
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    return CONTENT_SECURITY_POLICY.format(script=f"sha256-{digest}")


def render_page(title: str, markdown: str, folder: Path, document: Any) -> str:
    """The page: the Markdown report (its figures and files under ``folder``) and the explorer over ``document``."""
    script = _asset("explorer.js")
    return Template(_asset("template.html")).substitute(
        csp=html.escape(content_security_policy(f"\n{script}\n")),
        title=html.escape(title),
        css=_asset("report.css"),
        report=markdown_to_html(markdown, folder),
        data=pack(document),
        script=script,
    )


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
    page = render_page(f"CLSD analysis report: {report.focus}", report.writer.markdown, report.writer.out, document)
    path.write_text(page, encoding="utf-8")
    return path
