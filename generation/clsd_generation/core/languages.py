"""The languages of a generation run: as the user names them, and as a run's checkpoint records them.

The table itself is :mod:`clsd_format.languages` (shared with the plugin and the analyses). A
language missing from it is given in full as ``code:Name:mteb-code`` (e.g. ``gsw:Swiss German:gsw-Latn``).
"""

from __future__ import annotations

from clsd_format.errors import CLSDError
from clsd_format.languages import KNOWN_LANGUAGES, Language
from clsd_generation.core.checkpoint import GENERATION_KEY, Checkpoint


def parse_language(text: str) -> Language:
    """A known short code (``de``) or a full ``code:Name:mteb-code`` triple."""
    text = text.strip()
    if ":" in text:
        parts = [p.strip() for p in text.split(":")]
        if len(parts) != 3 or not all(parts) or "-" not in parts[2]:
            raise CLSDError(f"language {text!r}: write a full language as code:Name:mteb-code, e.g. 'gsw:Swiss German:gsw-Latn'.")
        return Language(*parts)
    spec = KNOWN_LANGUAGES.get(text.lower())
    if spec is None:
        raise CLSDError(
            f"unknown language code {text!r}; known: {', '.join(sorted(KNOWN_LANGUAGES))}. "
            "For another language write code:Name:mteb-code, e.g. 'gsw:Swiss German:gsw-Latn'."
        )
    return spec


def languages_of(checkpoint: Checkpoint) -> tuple[Language, Language]:
    """The two languages a run generated for, as ``clsd generate`` recorded them (``asdict`` of each)."""
    generation = checkpoint.get_meta(GENERATION_KEY)
    if not generation:
        raise CLSDError(f"checkpoint {checkpoint.path} holds no generation run; run `clsd generate` first.")
    first, second = (Language(**spec) for spec in generation["languages"])
    return first, second
