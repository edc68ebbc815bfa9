"""The languages of a generation run: as the user names them, and as a run's checkpoint records them.

The language facts come from :func:`clsd_format.languages.parse_language` (shared with the plugin and the
analyses): any ISO 639-1 or 639-3 code, or a BCP 47 tag with a script, read through a library of language data; a
language no library knows is given in full as ``code:Name:mteb-code`` (e.g. ``gsw:Swiss German:gsw-Latn``).
"""

from __future__ import annotations

from clsd_format.errors import CLSDError
from clsd_format.languages import Language
from clsd_format.languages import parse_language as read_language
from clsd_generation.core.checkpoint import GENERATION_KEY, Checkpoint


def parse_language(text: str) -> Language:
    """The language the user named (``de``, ``deu``, ``sr-Latn``, or ``code:Name:mteb-code``); one line for a code no
    library knows."""
    return read_language(text)


def languages_of(checkpoint: Checkpoint) -> tuple[Language, Language]:
    """The two languages a run generated for, as ``clsd generate`` recorded them (``asdict`` of each)."""
    generation = checkpoint.get_meta(GENERATION_KEY)
    if not generation:
        raise CLSDError(f"checkpoint {checkpoint.path} holds no generation run; run `clsd generate` first.")
    first, second = (Language(**spec) for spec in generation["languages"])
    return first, second
