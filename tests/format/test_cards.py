"""Dataset-card templates shipped as package data (clsd_format.cards)."""

from __future__ import annotations

import pytest

from clsd_format.cards import CARDS_DIR, card_template
from clsd_format.errors import CLSDError


def test_every_shipped_template_loads() -> None:
    names = sorted(path.name for path in CARDS_DIR.glob("*.md"))
    assert names, "no card templates shipped"
    for name in names:
        assert card_template(name).template == (CARDS_DIR / name).read_text(encoding="utf-8")


def test_a_missing_template_says_the_installation_is_incomplete() -> None:
    with pytest.raises(CLSDError, match=r"dataset card template .*no-such-card\.md not found: .*reinstall it"):
        card_template("no-such-card.md")
