"""How often the edit typing agrees with a linguist: the release's annotated one-word changes as the reference.

The annotation files (:mod:`clsd_analysis.annotations`) say of each annotated pair which operation made it
(``Swap``, ``Addition``), the entity type and the part of speech of the changed word, and name the words
(``Details``: "Swap: 'elf' with 'zehn'", "Addition of 'nicht'"). They have no edit type, so each pair's
reference type is read from them, in this order:

* **negation**: the words the annotators name add or remove a negation word (the typing's word lists);
* **number or date**: entity type ``TIME``, or part of speech ``NUM``;
* **name**: any other entity type (``PER``, ``LOC``, ``ORG``, ``EVENT``), or part of speech ``PROPN``;
* **content word**: everything else (a swap, or the addition of one word), with the annotated part of speech.

Compared are the annotated pairs whose distractor is the text of the slot they name. All of them are
small edits, so the agreement says how well the typing sorts one-word changes; it does not test where
"several edits" ends and "rewritten" begins.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

import pandas as pd

from clsd_analysis.annotations import Annotation
from clsd_analysis.edit_typing import NEGATION_WORDS, TypedEdit, word_key
from clsd_format import edit_types

_SWAP = re.compile(r"^Swap:\s*'(?P<old>.*)'\s+with\s+'(?P<new>.*)'$")
_ADDITION = re.compile(r"^Addition of\s+'(?P<new>.*)'$")


def _negations(words: str, language: str) -> int:
    lexicon = {word_key(w) for w in NEGATION_WORDS.get(language, ())}
    return sum(word_key(w) in lexicon for w in re.findall(r"\w+['’]?", words))


def named_words(note: Annotation) -> tuple[str, str] | None:
    """(old words, new words) as the annotators name them; None when ``details`` names neither form."""
    swap, addition = _SWAP.match(note.details), _ADDITION.match(note.details)
    if swap:
        return swap["old"], swap["new"]
    return ("", addition["new"]) if addition else None


def reference_type(note: Annotation) -> TypedEdit:
    """The edit type the annotation gives a pair (see the module docstring)."""
    words = named_words(note)
    if words is not None and _negations(words[0], note.language) != _negations(words[1], note.language):
        return TypedEdit(edit_types.NEGATION)
    if note.entity_type == "TIME" or note.pos == "NUM":
        return TypedEdit(edit_types.NUMBER)
    if note.entity_type or note.pos == "PROPN":
        return TypedEdit(edit_types.NAME)
    return TypedEdit(edit_types.CONTENT_WORD, note.pos or None)


@dataclass
class Agreement:
    pairs: pd.DataFrame  # one line per compared pair: row, language, slot, reference and typed type and POS

    @property
    def compared(self) -> int:
        return len(self.pairs)

    @property
    def agreeing(self) -> int:
        return int((self.pairs["reference"] == self.pairs["typed"]).sum()) if self.compared else 0

    def pos_counts(self) -> tuple[int, int]:
        """(pairs both call a content-word change with an annotated POS, of those the same POS)."""
        both = self.pairs[
            (self.pairs["reference"] == edit_types.CONTENT_WORD)
            & (self.pairs["typed"] == edit_types.CONTENT_WORD)
            & self.pairs["reference_pos"].notna()
        ]
        return len(both), int((both["reference_pos"] == both["typed_pos"]).sum())

    def confusion(self) -> pd.DataFrame:
        """Reference types (rows) by typed types (columns), with each row's agreement in %."""
        table = pd.crosstab(self.pairs["reference"], self.pairs["typed"])
        order = [t for t in edit_types.EDIT_TYPES if t in set(table.index) | set(table.columns)]
        table = table.reindex(index=[t for t in order if t in table.index], columns=order, fill_value=0)
        table["pairs"] = table[order].sum(axis=1)
        table["agree (%)"] = [100 * table.loc[t, t] / table.loc[t, "pairs"] if t in order else 0.0 for t in table.index]
        table.index.name = "annotation says"
        return table


def typing_agreement(
    annotations: Mapping[tuple[str, str, int], Annotation],
    texts: Mapping[tuple[str, str, int], str],
    typed: Mapping[tuple[str, str, int], TypedEdit],
) -> Agreement:
    """Compare, for each annotated (row id, language, slot) whose text is the annotated one, the typing with the reference.

    ``texts`` and ``typed``: the distractor text and its typed edit, by the same keys.
    """
    records = []
    for key, note in sorted(annotations.items()):
        if key not in typed or texts.get(key, "").strip() != note.distractor.strip():
            continue
        reference, edit = reference_type(note), typed[key]
        records.append(
            {
                "id": key[0],
                "language": key[1],
                "slot": key[2],
                "details": note.details,
                "reference": reference.edit_type,
                "reference_pos": reference.pos,
                "typed": edit.edit_type,
                "typed_pos": edit.pos,
            }
        )
    columns = ["id", "language", "slot", "details", "reference", "reference_pos", "typed", "typed_pos"]
    return Agreement(pd.DataFrame.from_records(records, columns=columns))
