"""Column names: the one place each of them is written down (languages: :mod:`clsd_format.languages`).

Two formats exist. The *release* format is the authors' CSV files as published (one wide row per
parallel pair, both directions side by side). The *Hub* format is this project's own: one parquet
table per direction, one row per source sentence, described in ``dataset_cards/FORMAT.md``.
"""

from __future__ import annotations

# --- Hub format (one row per source sentence) -------------------------------------------------
ID = "id"
SOURCE = "source"
TARGET = "target"
DISTRACTORS = "distractors"
SOURCE_LANG = "source_lang"
TARGET_LANG = "target_lang"
HUB_COLUMNS: tuple[str, ...] = (ID, SOURCE, TARGET, DISTRACTORS, SOURCE_LANG, TARGET_LANG)
# Optional, written by `clsd build` for rule-made data, each a list in the order of DISTRACTORS: the rule that
# made each distractor, and that rule's edit type (a name of clsd_format.edit_types), which the analysis groups by.
DISTRACTOR_RULES = "distractor_rules"
DISTRACTOR_EDIT_TYPES = "distractor_edit_types"
OPTIONAL_HUB_COLUMNS: tuple[str, ...] = (DISTRACTOR_RULES, DISTRACTOR_EDIT_TYPES)
HUB_SPLIT = "test"

# --- Release format (the authors' CSV files) --------------------------------------------------
RELEASE_INDEX = "Index"
RELEASE_N_DISTRACTORS = 4  # distractor columns per language (``de_adv1`` .. ``de_adv4``)
