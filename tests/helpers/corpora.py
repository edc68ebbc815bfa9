"""Small German-French parallel files on disk, and the `clsd generate` options that read them."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

# Columns "de" and "fr" of a file written by write_parallel_csv, as German and French.
DE_FR_OPTIONS = ("--source-column", "de", "--target-column", "fr", "--source-lang", "de", "--target-lang", "fr")


def write_parallel_csv(path: Path, rows: Sequence[tuple[str, str]]) -> Path:
    """A CSV with the columns de and fr, every field quoted (sentences may hold commas)."""
    path.write_text("de,fr\n" + "".join(f'"{a}","{b}"\n' for a, b in rows), encoding="utf-8")
    return path
