"""Dataset-card templates: Markdown files in ``clsd_format/card_templates/``, shipped as package data."""

from __future__ import annotations

import string
from pathlib import Path

from clsd_format.errors import CLSDError

CARDS_DIR = Path(__file__).resolve().parent / "card_templates"


def card_template(name: str) -> string.Template:
    """The template ``card_templates/<name>`` (``$placeholders``, filled with ``substitute``)."""
    path = CARDS_DIR / name
    if not path.is_file():
        raise CLSDError(f"dataset card template {path} not found: the clsd-mteb installation is incomplete (reinstall it).")
    return string.Template(path.read_text(encoding="utf-8"))
