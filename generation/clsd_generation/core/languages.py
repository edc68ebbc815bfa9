"""The languages of a generation run as its checkpoint records them.

The user names them as :func:`clsd_format.languages.parse_language` reads any language (shared with the plugin and
the analyses): an ISO 639-1 or 639-3 code, a BCP 47 tag with a script, or ``code:Name:mteb-code``.
"""

from __future__ import annotations

from clsd_format.errors import CLSDError
from clsd_format.languages import Language
from clsd_generation.core.checkpoint import GENERATION_KEY, Checkpoint


def languages_of(checkpoint: Checkpoint) -> tuple[Language, Language]:
    """The two languages a run generated for, as ``clsd generate`` recorded them (``asdict`` of each)."""
    generation = checkpoint.get_meta(GENERATION_KEY)
    if not generation:
        raise CLSDError(f"checkpoint {checkpoint.path} holds no generation run; run `clsd generate` first.")
    first, second = (Language(**spec) for spec in generation["languages"])
    return first, second
