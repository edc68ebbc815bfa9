"""The card's examples name each text's language and direction: Arabic and Hebrew right to left, with a Latin name and a
number inside in their order, wherever the card's Markdown is shown as HTML (the Hub passes such inline HTML through).

An Arabic-Hebrew corpus goes through `clsd generate` (the stand-in LLM on 127.0.0.1 swaps one real word of each
sentence for another of its language) and `clsd build`; the card is rendered as CommonMark with inline HTML, parsed
(html.parser) and opened in headless Chromium.
"""

from __future__ import annotations

import unicodedata
from html.parser import HTMLParser
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from tests.helpers.browser import Chromium
from tests.helpers.cli_runner import invoke
from tests.helpers.corpora import script_sentences, write_parallel_csv
from tests.helpers.fake_openai import FakeOpenAI

pytestmark = pytest.mark.slow  # generates and builds a dataset through the CLI

FIRST = ("تعمل شركة Siemens في القاهرة منذ 1990 مع 45 مهندسا.", "חברת Siemens פועלת בקהיר מאז 1990 עם 45 מהנדסים.")


@pytest.fixture(scope="module")
def card(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The card of an Arabic-Hebrew dataset whose first sentence holds a Latin name and numbers."""
    folder = tmp_path_factory.mktemp("card-rtl")
    sentences = script_sentences()
    rows = [FIRST, *zip(sentences["ar"], sentences["he"], strict=True)]
    corpus = write_parallel_csv(folder / "pairs.csv", rows)
    swaps = {"Arabic": ("ar", [r[0] for r in rows]), "Hebrew": ("he", [r[1] for r in rows])}
    options = ("--source-column", "de", "--target-column", "fr", "--source-lang", "ar", "--target-lang", "he")
    with pytest.MonkeyPatch.context() as patch, FakeOpenAI(swaps=swaps) as fake:
        patch.setenv("OPENAI_API_KEY", "test-key")
        invoke(
            "generate", str(corpus), "--run-dir", str(folder / "run"), *options,
            "--backend", "llm", "--model", "fake-model", "--base-url", fake.base_url, "--quiet",
        )  # fmt: skip
    build = ("--name", "RTL", "--no-score", "--allow-incomplete")
    invoke("build", "--run-dir", str(folder / "run"), "--out", str(folder / "ds"), *build)
    return (folder / "ds" / "README.md").read_text(encoding="utf-8")


def _examples(card: str) -> str:
    assert "\n## Examples\n" in card, "the card shows no example"
    return card.split("\n## Examples\n", 1)[1].split("\n## ", 1)[0]


def _rendered(card: str) -> str:
    """The card's examples as HTML, as a Markdown renderer that passes inline HTML through shows them."""
    return MarkdownIt("commonmark", {"html": True}).render(_examples(card))


class _Texts(HTMLParser):
    """Each text node with the nearest element naming a language (None: none does)."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[dict[str, str | None]] = []
        self.found: list[tuple[str, dict[str, str | None] | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack.append(dict(attrs))

    def handle_endtag(self, tag: str) -> None:
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        if data.strip():
            self.found.append((data, next((a for a in reversed(self.stack) if "lang" in a), None)))


def _right_to_left(text: str) -> bool:
    return any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in text)


def test_every_example_text_names_its_language_and_direction(card: str) -> None:
    examples = _examples(card)
    assert examples.count('<span lang="ar" dir="rtl">') == examples.count('<span lang="he" dir="rtl">') == 6  # S, T, 4 d
    parser = _Texts()
    parser.feed(_rendered(card))
    texts = [(text, named) for text, named in parser.found if _right_to_left(text)]
    assert len(texts) == 12, parser.found
    for text, named in texts:
        language = "ar" if any("ARABIC" in unicodedata.name(ch, "") for ch in text) else "he"
        assert named is not None and named.get("lang") == language and named.get("dir") == "rtl", (text, named)
    assert "Siemens" in examples and "1990" in examples


_LAYOUT = """
[...document.querySelectorAll('[lang]:not(html)')].map(el => {
  const node = el.firstChild, where = {};
  for (const word of ['Siemens', '1990', '45', node.data.split(' ')[0]]) {
    const at = node.data.indexOf(word);
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + word.length);
    where[word] = range.getBoundingClientRect().left;
  }
  return {lang: el.lang, direction: getComputedStyle(el).direction, first: node.data.split(' ')[0], where};
})
"""


@pytest.mark.browser
def test_a_browser_shows_the_examples_right_to_left(card: str, tmp_path: Path) -> None:
    page = tmp_path / "card.html"
    page.write_text(
        f'<!DOCTYPE html><html lang="en"><meta charset="utf-8"><body>{_rendered(card)}</body></html>', encoding="utf-8"
    )
    with Chromium() as browser:
        browser.open(page)
        found = browser.evaluate(_LAYOUT)
    assert len(found) == 12 and {item["lang"] for item in found} == {"ar", "he"}
    assert all(item["direction"] == "rtl" for item in found), found
    for item in found:
        where = item["where"]
        assert where[item["first"]] == max(where.values()), item  # the word read first stands at the right end
    sources = [item["where"] for item in found if "Siemens" in item["where"] and "1990" in item["where"]]
    assert sources and all(w["Siemens"] > w["1990"] > w["45"] for w in sources)  # name and numbers in reading order, to the left
