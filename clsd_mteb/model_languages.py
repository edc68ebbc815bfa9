"""Which languages a model was trained on, and which of a task's languages it was not.

A P@1 on a language the model never saw says more about the data (numbers, names, shared words) than about the
model, so ``clsd evaluate`` warns about such a pair (:func:`untrained_warnings`) and the answer can mark the model
(:func:`untrained_languages`).

A model's training languages are what its mteb ``ModelMeta`` declares (``languages``, mteb codes such as
``heb-Hebr``): mteb's registry for a model mteb knows (all-MiniLM-L6-v2, multilingual-e5-small, whose list the
embedded 4-bit e5 reuses), the model's paper or card for one mteb lacks (the embedded multilingual USE,
:mod:`clsd_mteb.encoders.usem3`). mteb writes the ModelMeta into every results folder (``model_meta.json``), so the
analysis reads the languages there (:func:`untrained_in_results`) without loading a model. No list
(None) means nothing is known (a local folder, a served model) or nothing applies (the baselines learn no language:
``ModelSpec.no_languages``); neither is a gap to warn about.

Two codes are compared by their ISO 639 language, a macrolanguage and its member being one where langcodes is
installed (``arb-Arab`` is ``ara-Arab``). The script counts only where the model names the language in more than one
script (``zho-Hans`` and ``zho-Hant``): mteb's registry writes many languages of a model in one default script,
whatever they are written in (multilingual-e5-small's Greek is ``ell-Latn``), so one script alone says only which
language it is.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mteb.abstasks.task_metadata import TaskMetadata

from clsd_format.errors import CLSDError, DataError
from clsd_format.extras import importable
from clsd_format.json_files import read_json
from clsd_mteb.result_checks import MODEL_META_FILE, read_model_meta

if TYPE_CHECKING:
    from mteb.abstasks import AbsTask
    from mteb.models import ModelMeta


def declared_languages(model: ModelMeta | str) -> list[str] | None:
    """The training languages a model declares (mteb codes): its ``ModelMeta``'s, or by name the ``ModelMeta`` of
    mteb's registry, which holds this package's models once ``clsd_mteb`` is imported; None when nothing is known
    (a name mteb does not know, a local folder, a served model) or nothing applies (a baseline)."""
    if isinstance(model, str):
        import mteb

        try:
            model = mteb.get_model_meta(model)  # the registry only: a Hub name is not looked up over the network
        except LookupError:
            return None
    return list(model.languages) if model.languages else None


def task_languages(task: AbsTask | TaskMetadata | Iterable[str]) -> list[str]:
    """A task's languages as mteb codes, source first: its metadata's ``eval_langs``, or codes as given (the
    ``languages`` mteb writes beside each score of a result file)."""
    metadata = getattr(task, "metadata", task)
    declared: Any = getattr(metadata, "eval_langs", metadata)
    if isinstance(declared, str):
        return [declared]
    if isinstance(declared, Mapping):  # an mteb task of several subsets: every subset's languages
        declared = [code for subset in declared.values() for code in subset]
    return list(dict.fromkeys(str(code) for code in declared))


def untrained_languages(model: ModelMeta | str, task: AbsTask | TaskMetadata | Iterable[str]) -> list[str]:
    """The task's languages (mteb codes) the model declares no training in; empty when it declares none at all."""
    known = declared_languages(model)
    if known is None:
        return []
    return [code for code in task_languages(task) if not _knows(known, code)]


def _knows(known: Sequence[str], code: str) -> bool:
    """Whether ``code``'s language is among ``known``; its script too where ``known`` names the language in several."""
    language, script = _parts(code)
    scripts = {known_script for known_language, known_script in map(_parts, known) if known_language == language}
    return len(scripts) == 1 or script in scripts


def _parts(code: str) -> tuple[str, str]:
    """An mteb code's language (as :func:`_language` compares it) and script."""
    language, _, script = code.partition("-")
    return _language(language.lower()), script


@functools.cache
def _language(iso: str) -> str:
    """An ISO 639 code as CLDR writes it, a member of a macrolanguage as the macrolanguage (``arb`` -> ``ar``), where
    langcodes is installed (the plugin's base install compares the codes as written)."""
    if not importable("langcodes"):
        return iso
    import langcodes
    from langcodes.data_dicts import NORMALIZED_MACROLANGUAGES

    if langcodes.tag_is_valid(iso):
        iso = langcodes.Language.get(iso).language or iso
    return str(NORMALIZED_MACROLANGUAGES.get(iso, iso))


def language_name(code: str) -> str:
    """An mteb code's English name for a message: CLDR's (``ell-Grek`` is "Greek") where langcodes is installed,
    else mteb's own table."""
    if importable("langcodes"):
        from clsd_format.languages import parse_language

        try:
            return parse_language(code).name
        except CLSDError:
            pass  # a code CLDR cannot name: mteb's table may
    from mteb.languages import language_label

    return language_label(code)


def untrained_by_model(metas: Iterable[ModelMeta], tasks: Iterable[AbsTask | TaskMetadata]) -> dict[str, dict[str, list[str]]]:
    """By model name and task name, the task's languages the model declares no training in (only the pairs with one)."""
    tasks = list(tasks)
    found: dict[str, dict[str, list[str]]] = {}
    for meta in metas:
        for task in tasks:
            missing = untrained_languages(meta, task)
            if missing:
                found.setdefault(str(meta.name), {})[_task_name(task)] = missing
    return found


def _task_name(task: AbsTask | TaskMetadata) -> str:
    """A task's name, from the task or its metadata."""
    return str(task.name if isinstance(task, TaskMetadata) else task.metadata.name)


def untrained_warnings(metas: Iterable[ModelMeta], tasks: Iterable[AbsTask | TaskMetadata]) -> list[str]:
    """One line per model and language it declares no training in among the tasks', naming the tasks that hold it."""
    lines = []
    for model, per_task in untrained_by_model(metas, tasks).items():
        by_language: dict[str, list[str]] = {}
        for task_name, codes in per_task.items():
            for code in codes:
                by_language.setdefault(code, []).append(task_name)
        lines += [
            f"warning: {model} declares no training in {language_name(code)} ({code}); its scores on {', '.join(names)} "
            "say little about that language (they may rest on shared names, numbers and words)"
            for code, names in by_language.items()
        ]
    return lines


def untrained_in_results(roots: Path | Iterable[Path]) -> dict[str, dict[str, list[str]]]:
    """:func:`untrained_by_model` of stored results, from their files alone (no model is loaded): in each
    ``results/<model>/<revision>/`` folder, the languages the ``model_meta.json`` mteb writes there declares (as
    the model declared them when it ran) against the languages mteb writes beside each task's scores.

    A folder or file that cannot be read is passed over: the results' own reader names it
    (``clsd_analysis.results``); this only adds a mark to what it reads.
    """
    found: dict[str, dict[str, list[str]]] = {}
    for root in [roots] if isinstance(roots, Path) else roots:
        for meta_file in sorted(Path(root).glob(f"results/*/*/{MODEL_META_FILE}")):
            try:
                meta = read_model_meta(meta_file.parent)
            except DataError:
                continue
            for result_file in sorted(meta_file.parent.glob("*.json")):
                stored = _stored_languages(result_file) if result_file.name != MODEL_META_FILE else None
                missing = untrained_languages(meta, stored[1]) if stored else []
                if stored and missing:
                    found.setdefault(str(meta.name), {})[stored[0]] = missing
    return found


def score_languages(scores: object) -> list[str]:
    """The languages mteb writes beside a result's scores (every split's entries), from its ``scores`` mapping."""
    entries = (
        [entry for split in scores.values() if isinstance(split, list) for entry in split] if isinstance(scores, dict) else []
    )
    return [
        code for entry in entries if isinstance(entry, dict) for code in entry.get("languages") or [] if isinstance(code, str)
    ]


def _stored_languages(result_file: Path) -> tuple[str, list[str]] | None:
    """A result file's task name and the languages beside its scores (every split's), or None if it holds neither."""
    try:
        stored = read_json(result_file, "result file")
    except DataError:
        return None
    languages = score_languages(stored.get("scores") if isinstance(stored, dict) else None)
    name = stored.get("task_name") if isinstance(stored, dict) else None
    return (name, languages) if isinstance(name, str) and languages else None
