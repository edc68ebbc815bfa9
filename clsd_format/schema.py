"""Column names and language codes: the one place each of these facts is written down.

Two formats exist. The *release* format is the authors' CSV files as published (one wide row per
parallel pair, both directions side by side). The *Hub* format is this project's own: one parquet
table per direction, one row per source sentence, described in ``dataset_cards/FORMAT.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

# --- Hub format (one row per source sentence) -------------------------------------------------
ID = "id"
SOURCE = "source"
TARGET = "target"
DISTRACTORS = "distractors"
SOURCE_LANG = "source_lang"
TARGET_LANG = "target_lang"
HUB_COLUMNS: tuple[str, ...] = (ID, SOURCE, TARGET, DISTRACTORS, SOURCE_LANG, TARGET_LANG)
HUB_SPLIT = "test"

# --- Release format (the authors' CSV files) --------------------------------------------------
RELEASE_INDEX = "Index"
RELEASE_N_DISTRACTORS = 4


@dataclass(frozen=True)
class Language:
    """A language as the release names it, as ISO 639-1, and as mteb's BCP-47 style code."""

    release_column: str  # "German": the column holding the original sentences
    iso1: str  # "de": prefix of the distractor columns and of task names
    mteb_code: str  # "deu-Latn"

    def distractor_columns(self, n: int = RELEASE_N_DISTRACTORS) -> list[str]:
        """The release columns holding distractors *in* this language (``de_adv1`` ...)."""
        return [f"{self.iso1}_adv{i}" for i in range(1, n + 1)]


GERMAN = Language("German", "de", "deu-Latn")
FRENCH = Language("French", "fr", "fra-Latn")
ENGLISH_MTEB_CODE = "eng-Latn"

RELEASE_LANGUAGES = (GERMAN, FRENCH)


def release_columns() -> list[str]:
    """Every column a direct-language release CSV must have, in release order."""
    return [
        RELEASE_INDEX,
        FRENCH.release_column,
        GERMAN.release_column,
        *GERMAN.distractor_columns(),
        *FRENCH.distractor_columns(),
    ]
