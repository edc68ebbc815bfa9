"""Which distractors count as successful: the two named rules (:mod:`clsd_analysis.edit_distance` applies them).

Apart from the tables that apply them, so that a section declares its ``--success-rule`` option and checks its value
without importing the analysis (``clsd analyze --help`` stays fast).
"""

from __future__ import annotations

TOP = "top"
TIES_OR_BEATS = "ties-or-beats"
SUCCESS_RULES = {
    TOP: "the highest-cosine distractor of each row the model gets wrong (the paper's rule)",
    TIES_OR_BEATS: "every distractor whose cosine ties or beats the true translation's",
}

__all__ = ["SUCCESS_RULES", "TIES_OR_BEATS", "TOP"]
