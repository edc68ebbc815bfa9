"""Dataset-card templates, kept as Markdown files in the repository's ``dataset_cards/`` folder."""

from __future__ import annotations

import string
from pathlib import Path

from clsd_format.errors import CLSDError

CARDS_DIR = Path(__file__).resolve().parent.parent / "dataset_cards"


def card_template(name: str) -> string.Template:
    """The template ``dataset_cards/<name>`` (``$placeholders``, filled with ``substitute``)."""
    path = CARDS_DIR / name
    if not path.is_file():
        raise CLSDError(
            f"dataset card template {path} not found: templates ship with the source checkout "
            "(install clsd-mteb with `pip install -e .` from a clone)."
        )
    return string.Template(path.read_text(encoding="utf-8"))
