"""The edit types of a distractor: one vocabulary for rule-made, LLM-made and released distractors.

A rule-made distractor's type is declared by the rule that made it (``clsd_generation.rules``); any other
distractor is typed from its difference to T by the analysis (``clsd_analysis``). Both read the names here,
so a table grouped by edit type means the same whatever made the data.
"""

from __future__ import annotations

NUMBER = "number or date"  # a number, year, month or weekday changed
NAME = "name"  # a name replaced by another
NEGATION = "negation"  # a negation added or removed
CONTENT_WORD = "content word"  # one content word replaced (the analysis adds its part of speech)
WORD_ORDER = "word order"  # the same words in another order (two names exchanged, say)
SEVERAL = "several edits"  # more than one of the above
REWRITTEN = "rewritten"  # little of T left in place

EDIT_TYPES: tuple[str, ...] = (NUMBER, NAME, NEGATION, CONTENT_WORD, WORD_ORDER, SEVERAL, REWRITTEN)
