"""The authors' own copy of the four direct test sets on the Hugging Face Hub, and how it maps onto the release's tasks.

``Andrianos/clsd_wmt19_21`` holds one config per direction, named source language first:
``wmt19.de.fr`` is the task ``CLSD-WMT19-DE-FR`` (German ``Source``, French ``Target`` and
distractors), ``wmt19.fr.de`` is ``CLSD-WMT19-FR-DE``, and likewise for WMT21. Each config has one
split, ``test`` (1,473 / 1,473 / 893 / 893 rows), in the parquet layout ``datasets`` writes with
``push_to_hub``, with the columns ``Source``, ``Target``, ``TargetAdv1`` .. ``TargetAdv4`` and
``lang``. There are no English-pivot sets. Its card gives the licence cc-by-4.0; the GitHub release of
the same data says AGPL-3.0, and mteb's task metadata cc-by-sa-4.0.

The direction is not taken on trust from a config's name: :func:`task_rows` checks that ``Source``
reads as the source language and ``Target`` as the target language (German and French function
words, counted over the whole config), and stops, naming the config, where they do not. ``lang`` is
not read: its values are not documented. A config with any other column (a fifth distractor, say) is refused
rather than read in part.

No mteb or ``datasets`` import here: :class:`clsd_mteb.tasks.ReleaseCLSDTask` loads the rows
(``datasets.load_dataset``, so ``HF_ENDPOINT``, ``HF_HUB_OFFLINE`` and the Hub cache apply) and this
module turns them into the project's Hub-format rows.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from clsd_format import schema
from clsd_format.errors import DataError
from clsd_format.hub import validate_rows
from clsd_format.languages import FRENCH, GERMAN, Language
from clsd_format.release import RELEASED_TASKS, ReleasedTask

REPO_ID = "Andrianos/clsd_wmt19_21"
DEFAULT_REVISION = "9627fbdb39b827ee5c066011ebe1e947cdb137bd"  # the revision mteb's CLSD tasks read
CARD_LICENSE = "cc-by-4.0"
SPLIT = "test"
SOURCE, TARGET, LANG = "Source", "Target", "lang"
DISTRACTORS = tuple(f"TargetAdv{slot}" for slot in range(1, schema.RELEASE_N_DISTRACTORS + 1))
COLUMNS = (SOURCE, TARGET, *DISTRACTORS)  # the columns read

# Frequent function words, lower case: over a few dozen sentences, the language with more of them is the one written.
FUNCTION_WORDS: dict[str, frozenset[str]] = {
    GERMAN.code: frozenset("der die das und ist nicht mit den dem ein eine zu von auf für sich des im".split()),
    FRENCH.code: frozenset("le la les et est pas avec des du un une à de pour que qui dans au".split()),
}


def is_authors_repository(repo_id: str) -> bool:
    """Whether ``repo_id`` names the authors' dataset (the Hub compares repository ids case-insensitively)."""
    return repo_id.casefold() == REPO_ID.casefold()


def config_name(released: ReleasedTask) -> str:
    """The config holding a released direct task: ``wmt19.de.fr``, source language first."""
    if released.pivot:
        raise DataError(f"{REPO_ID} holds the four direct test sets only; {released.name} is an English-pivot task.")
    return f"{released.dataset.name.lower()}.{released.source.code}.{released.target.code}"


TASK_NAMES: tuple[str, ...] = tuple(task.name for task in RELEASED_TASKS if not task.pivot)
CONFIGS: dict[str, str] = {task.name: config_name(task) for task in RELEASED_TASKS if not task.pivot}


def written_language(texts: Sequence[str], candidates: Sequence[Language] = (GERMAN, FRENCH)) -> Language | None:
    """The candidate whose function words ``texts`` use most; None on a tie (no evidence either way)."""
    words = [word for text in texts for word in re.findall(r"[^\W\d_]+", text.lower())]
    counts = {language: sum(word in FUNCTION_WORDS[language.code] for word in words) for language in candidates}
    ranked = sorted(counts.items(), key=lambda item: item[1], reverse=True)
    return ranked[0][0] if ranked[0][1] > ranked[1][1] else None


def check_direction(records: Sequence[Mapping[str, Any]], released: ReleasedTask, where: str) -> None:
    """Stop where ``Source`` does not read as the task's source language or ``Target`` as its target language."""
    for column, expected in ((SOURCE, released.source), (TARGET, released.target)):
        found = written_language([str(record[column]) for record in records])
        if found != expected:
            said = found.name if found else "neither German nor French"
            raise DataError(
                f"reads as {said}, but config {config_name(released)} should hold {expected.name} there "
                f"({released.name}): the config is not the direction its name says.",
                file=where,
                column=column,
            )


def task_rows(records: Sequence[Mapping[str, Any]], released: ReleasedTask, where: str) -> list[dict[str, Any]]:
    """One config's records as the project's Hub-format rows, its direction checked first (module docstring).

    The rows get ids ``<config>-<position>``: the authors' rows carry none, and nothing says the two
    directions of a test set list their pairs in the same order.
    """
    if not records:
        raise DataError("no rows", file=where)
    missing = [column for column in COLUMNS if column not in records[0]]
    if missing:
        raise DataError(f"missing column (the config has {sorted(records[0])})", file=where, column=missing[0])
    unknown = sorted(set(records[0]) - {*COLUMNS, LANG})
    if unknown:
        extra = [column for column in unknown if re.fullmatch(r"TargetAdv\d+", column)]
        why = (
            f"the config has {len(DISTRACTORS) + len(extra)} distractor columns, the task scores {len(DISTRACTORS)} "
            f"({DISTRACTORS[0]} .. {DISTRACTORS[-1]}): it is not read in part"
            if extra
            else f"a column this layout does not have (it has {', '.join(COLUMNS)} and {LANG})"
        )
        raise DataError(why, file=where, column=(extra or unknown)[0])
    check_direction(records, released, where)
    config = config_name(released)
    rows = [
        {
            schema.ID: f"{config}-{position}",
            schema.SOURCE: record[SOURCE],
            schema.TARGET: record[TARGET],
            schema.DISTRACTORS: [record[column] for column in DISTRACTORS],
            schema.SOURCE_LANG: released.source.mteb_code,
            schema.TARGET_LANG: released.target.mteb_code,
        }
        for position, record in enumerate(records)
    ]
    validate_rows(rows, where=where)
    return rows
