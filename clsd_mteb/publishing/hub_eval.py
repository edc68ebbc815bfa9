"""A CLSD dataset's ``eval.yaml``: what the Hugging Face Hub reads to show a leaderboard on the dataset's page.

The Hub lists a model's score on a dataset when the dataset repository's ``eval.yaml`` declares an evaluation
task id and the model repository's ``.eval_results/`` reports a value for that id (:mod:`clsd_mteb.publishing.hub_results`).
mteb writes both files with its own pydantic models (``HFEvalMeta`` here) and names the ids itself
(``AbsTask._create_task_hf_config``): the task name (its score over every subset and split) and
``<task>_<subset>_<split>``; the results it pushes use the same ids. This module takes mteb's ids as they
are and only says where the data of each lies: a CLSD dataset holds one task per config (direction and
setting), so every id names its task's config and the split ``test`` (mteb would name the subset,
``default``, which is no config of a CLSD dataset).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from clsd_format import hub, schema
from clsd_format.data_source import resolve_data_source
from clsd_format.errors import DataError
from clsd_mteb.abstask import AbsTaskCLSD
from clsd_mteb.tasks import RELEASE_TASKS, tasks_from_source

if TYPE_CHECKING:
    from mteb._hf_integration.eval_model import HFEvalMeta

EVAL_FILE = hub.EVAL_FILE
DESCRIPTION = (
    "Cross-Lingual Semantic Discrimination (CLSD): rank the true translation of a source sentence above "
    "distractors that look alike but differ in meaning, by cosine similarity of the embeddings. "
    "Score: Precision@1 (%); a tie between the translation and a distractor is a miss. One task per config "
    "(direction and setting); evaluate with clsd-mteb (pip install clsd-mteb), which registers the tasks with mteb."
)


def eval_config(tasks: Sequence[tuple[type[AbsTaskCLSD], str]], name: str, description: str = DESCRIPTION) -> HFEvalMeta:
    """The ``eval.yaml`` of a dataset holding ``tasks`` (each with its config), with mteb's ids for them."""
    from mteb._hf_integration.eval_model import HFEvalMeta

    config = HFEvalMeta(name=name, description=description, tasks=[])
    for task_class, hub_config in tasks:
        own = task_class()._create_task_hf_config()  # mteb's ids, as its results name them
        located = [entry.model_copy(update={"config": hub_config, "split": schema.HUB_SPLIT}) for entry in own.tasks]
        config = config.merge(HFEvalMeta(name=name, description=description, tasks=located))
    return config


def folder_eval_config(folder: Path) -> HFEvalMeta:
    """The ``eval.yaml`` of a Hub-format folder (a built dataset or an export of the release), from its card."""
    source = resolve_data_source(folder)
    configs = {spec.task_name: spec.config for spec in source.configs}
    if source.holds_release:
        tasks: list[tuple[type[AbsTaskCLSD], str]] = [
            (cls, configs[cls.metadata.name]) for cls in RELEASE_TASKS if cls.metadata.name in configs
        ]
    else:
        tasks = [(cls, cls.config) for cls in tasks_from_source(source)]
    return eval_config(tasks, name=str(source.card.get("pretty_name") or folder.name))


def write_eval_config(folder: Path) -> Path:
    """Write ``folder/eval.yaml`` for a Hub-format folder; one already there is kept, once mteb's model reads it."""
    path = Path(folder) / EVAL_FILE
    if path.exists():
        read_eval_config(path)
        return path
    path.write_text(folder_eval_config(Path(folder)).to_yaml(), encoding="utf-8")
    return path


def read_eval_config(path: Path) -> HFEvalMeta:
    """An ``eval.yaml`` read with mteb's model (a clear error naming the file when it does not validate)."""
    from mteb._hf_integration.eval_model import HFEvalMeta
    from pydantic import ValidationError

    try:
        return HFEvalMeta.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
    except (yaml.YAMLError, ValidationError) as exc:
        raise DataError(f"is not an eval.yaml the Hub reads ({type(exc).__name__}: {exc}).", file=str(path)) from exc
