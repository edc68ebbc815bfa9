"""The CLSD tasks: the eight released ones, tasks from any CLSD dataset, and :func:`get_tasks`, which makes them.

Task names: ``CLSD-<WMT19|WMT21>-<SRC>-<TGT>`` (direct cross-lingual) and the same with
``-PivotEN`` (every text machine-translated to English by M2M-100 1.2B, scored monolingually).
Direction X-Y: source in X, true translation and distractors in Y. The names, files and dates of the
released tasks are written once, in :mod:`clsd_format.release`; the classes here are built from them.
"""

from __future__ import annotations

import datetime
import functools
import logging
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict, cast

from mteb.abstasks.task_metadata import TaskMetadata
from typing_extensions import Unpack

if TYPE_CHECKING:
    from mteb.abstasks.task_metadata import AnnotatorType, MetadataDatasetDict, SampleCreationMethod, TaskDomain

from clsd_format import authors_hub, hub, schema
from clsd_format.data_source import DataSource, choose_tasks, hub_repository_source, resolve_data_source
from clsd_format.declared_settings import option_name
from clsd_format.errors import DataError, DataSourceUnavailable
from clsd_format.evaluation_settings import DataChoice
from clsd_format.hub import DirectionSpec
from clsd_format.release import (
    COMMIT,
    PIVOT_LANGUAGE,
    RELEASED_TASKS,
    REPOSITORY,
    ReleasedTask,
)
from clsd_mteb import release_fetch
from clsd_mteb.abstask import AbsTaskCLSD
from clsd_mteb.release_csv import release_direction_rows
from clsd_mteb.task_statistics import CLSDTaskMetadata

logger = logging.getLogger(__name__)

PAPER_URL = "https://arxiv.org/abs/2502.08638"
AGPL_URL = "https://www.gnu.org/licenses/agpl-3.0.html"
# In the form mteb's citation test requires (bibtexparser's writer: fields in alphabetical order,
# two-space indent, trailing comma); tests/plugin/test_mteb_task_checks.py runs that check.
CITATION = r"""@inproceedings{michail-etal-2025-examining,
  author = {Michail, Andrianos and Clematide, Simon and Sennrich, Rico},
  booktitle = {Findings of the Association for Computational Linguistics: EMNLP 2025},
  title = {Examining Multilingual Embedding Models Cross-Lingually Through {LLM}-Generated Adversarial Examples},
  url = {https://arxiv.org/abs/2502.08638},
  year = {2025},
}"""


class TaskFields(TypedDict, total=False):
    """TaskMetadata fields a CLSD task may set beyond its name, languages, data and dates (else the defaults here)."""

    description: str  # default: "CLSD task <name>"
    sample_creation: str  # default: "LM-generated and verified"
    reference: str  # default: the paper
    bibtex_citation: str  # default: the paper's
    license: str  # default: the release's AGPL-3.0
    domains: list[str] | None  # default: News, Written
    annotations_creators: str  # default: "LM-generated and reviewed"


def clsd_metadata(
    *, name: str, dataset: dict[str, str], eval_langs: list[str], date: tuple[str, str], **fields: Unpack[TaskFields]
) -> TaskMetadata:
    """A complete ``TaskMetadata`` for a CLSD task; the constants every CLSD task shares live here.

    ``type`` is "Reranking": each source has its own small candidate list to order, and mteb has no
    CLSD type (its list of types is closed). The class finds the descriptive statistics shipped in
    this package (:mod:`clsd_mteb.task_statistics`).
    """
    return CLSDTaskMetadata(
        name=name,
        description=fields.get("description", f"CLSD task {name}"),
        reference=fields.get("reference", PAPER_URL),
        # Plain strings from cards and callers; mteb's pydantic model validates them at run time.
        dataset=cast("MetadataDatasetDict", dataset),
        type="Reranking",
        category="t2t",
        modalities=["text"],
        eval_splits=[schema.HUB_SPLIT],
        eval_langs=eval_langs,
        main_score="precision_at_1",
        date=date,
        domains=cast("list[TaskDomain]", fields.get("domains") or ["News", "Written"]),
        task_subtypes=["Cross-Lingual Semantic Discrimination"],
        license=fields.get("license", AGPL_URL),
        annotations_creators=cast("AnnotatorType", fields.get("annotations_creators", "LM-generated and reviewed")),
        dialect=[],
        sample_creation=cast("SampleCreationMethod", fields.get("sample_creation", "LM-generated and verified")),
        bibtex_citation=fields.get("bibtex_citation", CITATION),
    )


class ReleaseCLSDTask(AbsTaskCLSD):
    """A task over the authors' release: the CSVs (fetched, or local), or a Hub-format export of them."""

    released: ReleasedTask  # which test set, direction and setting (clsd_format.release)

    @classmethod
    def hub_config(cls) -> str:
        """Config name of this task in a Hub-format export of the release."""
        return cls.released.hub_config

    def _rows_from_csv(self, path: Path) -> list[dict[str, Any]]:
        released = self.released
        return release_direction_rows(
            path,
            dataset=released.dataset.name.lower(),
            source=released.source,
            target=released.target,
            pivot_lang=PIVOT_LANGUAGE.mteb_code if released.pivot else None,
        )

    def load_rows(self) -> list[dict[str, Any]]:
        source = self.data_source
        if source.kind == "fetched-release":
            return self._rows_from_csv(release_fetch.fetch(self.released.file))
        if source.kind == "release-csv-folder":
            return self._rows_from_csv_folder(source.folder)
        if source.kind == "hub-folder":
            return self._rows_from_export(source)
        if source.kind == "authors-hub":
            return self._rows_from_authors_hub(str(source.location), str(source.revision))
        raise DataError(f"{self.metadata.name} reads the release, not {source.describe()}.")

    def _rows_from_csv_folder(self, folder: Path) -> list[dict[str, Any]]:
        """The release CSV in a local folder; one that differs from the release is filed under its own revision."""
        csv_path = folder / self.released.file
        if not csv_path.is_file():
            raise DataError(f"holds other release CSVs but not {self.released.file}.", file=str(folder))
        if not release_fetch.is_pristine(csv_path):
            digest = release_fetch.sha256_of(csv_path)
            _warn_once(
                f"{csv_path} differs from the release at {COMMIT} (SHA-256 {digest}): results are filed under a local dataset revision."
            )
            self._use_local_revision(f"local-sha256-{digest[:16]}")
        return self._rows_from_csv(csv_path)

    def _rows_from_export(self, source: DataSource) -> list[dict[str, Any]]:
        """This task's config of a Hub-format export of the release, by the card read when the source was resolved."""
        configs = {spec.task_name: spec.config for spec in source.configs}
        if self.metadata.name not in configs:
            raise DataError(f"this Hub-format folder defines no task {self.metadata.name}.", file=source.card_file)
        config = configs[self.metadata.name]
        record = hub.recorded_file(source.card, config, where=source.card_file)
        digest = record["sha256"] if record else release_fetch.sha256_of(hub.parquet_path(source.folder, config))
        self._use_local_revision(f"local-sha256-{digest[:16]}")
        return hub.read_config(source.folder, config, record)  # checked against the card's record, when it has one

    def _rows_from_authors_hub(self, repo_id: str, revision: str) -> list[dict[str, Any]]:
        """This task's config of the authors' Hub dataset, read by ``datasets``; results filed under that repository and revision."""
        config = authors_hub.config_name(self.released)
        where = f"{repo_id}@{revision}/{config}"
        records = load_hub_rows(repo_id, config, revision, authors_hub.SPLIT)
        self.metadata = _authors_hub_metadata(self.metadata, repo_id, revision)
        return authors_hub.task_rows(records, self.released, where)

    def _use_local_revision(self, revision: str) -> None:
        """Record the data actually read, so results never claim the pinned release when they used other bytes."""
        self.metadata = self.metadata.model_copy(update={"dataset": {**self.metadata.dataset, "revision": revision}})


def load_hub_rows(repo_id: str, config: str, revision: str, split: str) -> list[dict[str, Any]]:
    """One config's split of a Hub dataset as records, read by ``datasets`` (``HF_ENDPOINT``, offline mode, the cache apply).

    A file that is not what its name says (an HTML error page or a truncated file served as parquet) is a
    :class:`DataError` naming the repository, revision and config; a Hub that cannot be reached is
    :class:`DataSourceUnavailable`. Neither is an internal error.
    """
    from datasets import load_dataset

    where = f"{repo_id}@{revision}/{config}"
    try:
        return load_dataset(repo_id, config, revision=revision, split=split).to_list()
    except Exception as exc:  # offline, missing-revision and HTTP errors come in several types
        unreadable = _unreadable_data(exc)
        if unreadable is not None:  # the files came, but are not readable data
            raise DataError(
                f"a data file is not a readable parquet file ({type(unreadable).__name__}: {str(unreadable)[:200]}); "
                "the repository serves something else under that name (an error page, a truncated upload).",
                file=f"{where} (repository {repo_id})",
            ) from exc
        raise DataSourceUnavailable(
            f"could not load {where} from the Hugging Face Hub ({type(exc).__name__}: {exc}). "
            f"Without network access, evaluate the release instead ({option_name(DataChoice, 'data_dir')}, or the fetched "
            "release)."
        ) from exc


def _unreadable_data(exc: BaseException) -> BaseException | None:
    """The error in ``exc``'s chain that says a downloaded file is not readable data (pyarrow's, ``datasets``'), or None."""
    import pyarrow as pa
    from datasets.exceptions import DatasetGenerationError

    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, (pa.ArrowException, DatasetGenerationError)):
            return current.__cause__ if isinstance(current, DatasetGenerationError) and current.__cause__ else current
        current = current.__cause__ or current.__context__
    return None


def _authors_hub_metadata(metadata: TaskMetadata, repo_id: str, revision: str) -> TaskMetadata:
    """A released task's metadata as read from the authors' Hub dataset: that repository and revision, and the licence its card gives."""
    return metadata.model_copy(update={"dataset": {"path": repo_id, "revision": revision}, "license": authors_hub.CARD_LICENSE})


@functools.cache
def _warn_once(message: str) -> None:
    logger.warning(message)


def _release_task_class(released: ReleasedTask) -> type[ReleaseCLSDTask]:
    ds, source, target, name = released.dataset, released.source, released.target, released.name
    direction = f"{source.release_column} to {target.release_column}"
    if released.pivot:
        description = (
            f"CLSD on the {ds.name} German-French news test set, {direction}, English-pivot setting: the source and all "
            "five candidates were machine-translated to English with M2M-100 1.2B and are compared monolingually. "
            "Precision@1 of the true translation against four LLM-generated distractors; ties count as misses."
        )
        eval_langs, creation = [PIVOT_LANGUAGE.mteb_code], "machine-translated"
    else:
        description = (
            f"Cross-Lingual Semantic Discrimination on the {ds.name} German-French news test set, {direction}: rank the "
            "true translation of a source sentence above four GPT-4-generated distractors that look alike but differ "
            "in meaning. Precision@1 by cosine similarity; ties count as misses."
        )
        eval_langs, creation = [source.mteb_code, target.mteb_code], "LM-generated and verified"
    metadata = clsd_metadata(
        name=name,
        description=description,
        dataset={"path": REPOSITORY, "revision": COMMIT},
        eval_langs=eval_langs,
        date=ds.date,
        sample_creation=creation,
    )
    class_name = name.replace("-", "")
    return type(
        class_name,
        (ReleaseCLSDTask,),
        {
            "metadata": metadata,
            "released": released,
            "__module__": __name__,
            "__doc__": description,
        },
    )


RELEASE_TASKS: tuple[type[ReleaseCLSDTask], ...] = tuple(_release_task_class(released) for released in RELEASED_TASKS)


class HubCLSDTask(AbsTaskCLSD):
    """A task over one config of a Hub-format CLSD dataset (local folder or Hub repository)."""

    source: str  # local folder or Hub repo id
    config: str
    file_record: Mapping[str, Any] | None = None  # a local folder's card's record of the data file (SHA-256, rows)

    @property
    def data_source(self) -> DataSource:
        """The source the task was made over (:func:`get_tasks` passes it), else its own folder or Hub repository at
        its revision, resolved once: never the release a task without a source would otherwise stand for."""
        if self._source is None:
            folder = Path(self.source)
            revision = self.metadata.dataset["revision"]
            self._source = (
                resolve_data_source(folder) if folder.is_dir() else resolve_data_source(None, f"{self.source}@{revision}")
            )
        return self._source

    def load_rows(self) -> list[dict[str, Any]]:
        folder = Path(self.source)
        if folder.is_dir():
            return hub.read_config(folder, self.config, self.file_record)
        revision = self.metadata.dataset["revision"]
        rows = load_hub_rows(self.source, self.config, revision, schema.HUB_SPLIT)
        where = f"{self.source}@{revision}/{self.config}"
        hub.refuse_unknown_columns(rows[0] if rows else (), where)
        hub.validate_rows(rows, where=where)
        return rows


def make_clsd_task(
    source: str | Path,
    *,
    config: str,
    name: str,
    languages: list[str],
    revision: str | None = None,
    date: tuple[str, str],
    file_record: Mapping[str, Any] | None = None,
    **metadata_fields: Unpack[TaskFields],
) -> type[HubCLSDTask]:
    """Build a CLSD task class from a Hub repo id + revision, or from a local Hub-format folder.

    A local folder's dataset revision is ``local-sha256-`` and the start of its data file's SHA-256:
    the one its card records (``file_record``, the card's ``clsd: files:`` entry of the config), against
    which the file is checked when the task reads it, else the file's own.

    The class is not registered with mteb; pass an instance to ``mteb.evaluate`` directly, or call
    :func:`clsd_mteb.register_tasks` to make ``mteb.get_task(name)`` find it.
    """
    local = Path(source).is_dir()
    if revision is None:
        if not local:
            raise ValueError("a Hub dataset needs an explicit revision (commit hash), so results are reproducible")
        digest = file_record["sha256"] if file_record else release_fetch.sha256_of(hub.parquet_path(Path(source), config))
        revision = "local-sha256-" + digest[:16]
    metadata_fields.setdefault("description", f"CLSD task on config {config!r} of {source}.")
    metadata = clsd_metadata(
        name=name, dataset={"path": str(source), "revision": revision}, eval_langs=languages, date=date, **metadata_fields
    )
    return type(
        name.replace("-", "_"),
        (HubCLSDTask,),
        {"metadata": metadata, "source": str(source), "config": config, "file_record": file_record, "__module__": __name__},
    )


def _hub_task_classes(source: DataSource, default_date: str) -> list[type[HubCLSDTask]]:
    """Task classes for every config a Hub-format source's manifest lists; optional ``clsd:`` keys fill the metadata.

    Optional keys: ``date`` (pair of ISO dates; default: ``default_date``), ``domains``, ``license``,
    ``reference``, ``citation``, ``sample_creation`` (direct configs; pivot configs are
    "machine-translated"). A local folder has no revision; ``files`` records each data file's SHA-256,
    which names the data and is checked when a task reads it.
    """
    extra = source.card.get(hub.MANIFEST_KEY) or {}
    local = source.kind == "hub-folder"
    return [
        make_clsd_task(
            source.folder if local else str(source.location),
            config=spec.config,
            name=spec.task_name,
            languages=spec.languages,
            revision=None if local else source.revision,
            description=f"CLSD task {spec.task_name} from {source.card.get('pretty_name') or source.location} (config {spec.config}).",
            date=tuple(extra.get("date") or (default_date, default_date)),
            sample_creation="machine-translated" if spec.pivot else extra.get("sample_creation", "LM-generated and verified"),
            domains=extra.get("domains"),
            license=extra.get("license") or "not specified",
            reference=extra.get("reference") or PAPER_URL,
            bibtex_citation=extra.get("citation") or CITATION,
            file_record=hub.recorded_file(source.card, spec.config, source.card_file) if local else None,
        )
        for spec in source.configs
    ]


def tasks_from_source(source: DataSource) -> list[type[HubCLSDTask]]:
    """One task class per config of a resolved Hub-format source, a local folder or a Hub repository.

    Made from the card read when the source was resolved; nothing is read again. A Hub repository's
    card must give the tasks' dates (``clsd: date:``); a folder's default to the day its card was written.
    """
    if source.kind == "hub-folder":
        written = datetime.date.fromtimestamp((source.folder / hub.CARD_FILE).stat().st_mtime).isoformat()
        return _hub_task_classes(source, written)
    if source.kind != "hub-repository":
        raise DataError(f"{source.describe()} is not a Hub-format dataset (a {hub.CARD_FILE} with a 'clsd' manifest).")
    dates = (source.card.get(hub.MANIFEST_KEY) or {}).get("date")
    if not dates:
        raise DataError(
            "the card's 'clsd:' block has no 'date' (pair of ISO dates) for the task metadata.", file=source.card_file
        )
    return _hub_task_classes(source, str(dates[0]))


def tasks_from_folder(folder: str | Path) -> list[type[HubCLSDTask]]:
    """One task class per config listed in a local Hub-format folder's card.

    The data files are checked at once against the checksums the card records
    (:func:`clsd_format.data_source.check_hub_folder`); each task checks its own file again when it reads it.
    """
    return tasks_from_source(resolve_data_source(folder))


def tasks_from_hub(repo_id: str, revision: str) -> list[type[HubCLSDTask]]:
    """One task class per config of a Hub-format CLSD dataset on the Hugging Face Hub.

    Only the card is fetched here (``huggingface_hub``); rows are fetched by ``datasets`` when a
    task loads its data. Offline, the error says so.
    """
    return tasks_from_source(hub_repository_source(repo_id, revision))


def hub_task_classes(source: DataSource) -> list[tuple[type[AbsTaskCLSD], str]]:
    """The tasks of a source on the Hugging Face Hub, each with its config there.

    Their metadata names that repository and revision, as results computed on it are filed: a Hub-format
    repository's configs, or the four direct released tasks as the authors' Hub dataset holds them. mteb's
    Hub files (``eval.yaml``, a model's ``.eval_results/``) name the data by these (:mod:`clsd_mteb.publishing.hub_eval`).
    """
    if source.kind == "hub-repository":
        return [(cls, cls.config) for cls in tasks_from_source(source)]
    if source.kind != "authors-hub":
        raise DataError(f"{source.describe()} is not a dataset on the Hugging Face Hub.")
    repo_id, revision = str(source.location), str(source.revision)
    classes: list[tuple[type[AbsTaskCLSD], str]] = []
    for cls in RELEASE_TASKS:
        if cls.metadata.name in authors_hub.TASK_NAMES:
            metadata = _authors_hub_metadata(cls.metadata, repo_id, revision)
            hub_class = type(cls.__name__, (cls,), {"metadata": metadata, "__module__": __name__})
            classes.append((hub_class, authors_hub.config_name(cls.released)))
    return classes


def _eval_langs(task: type[ReleaseCLSDTask]) -> list[str]:
    """A released task's languages, source first (its metadata declares a list, never a per-subset dict)."""
    langs = task.metadata.eval_langs
    if not isinstance(langs, list):
        raise TypeError(f"{task.metadata.name}: expected eval_langs as a list, got {langs!r}")
    return langs


def release_direction_specs() -> list[DirectionSpec]:
    """The Hub-format config of each released task (for exporting the release)."""
    return [
        DirectionSpec(
            config=task.hub_config(),
            task_name=task.metadata.name,
            source_lang=_eval_langs(task)[0],
            target_lang=_eval_langs(task)[-1],
            pivot=task.released.pivot,
        )
        for task in RELEASE_TASKS
    ]


def get_tasks(
    names: Sequence[str] | None = None,
    *,
    data_dir: str | os.PathLike[str] | None = None,
    hub_dataset: str | None = None,
    source: DataSource | None = None,
    limit: int | None = None,
    exact: bool = False,
) -> list[AbsTaskCLSD]:
    """CLSD tasks over one data source: every task it defines (the eight released ones by default), or ``names``.

    The source is decided once, by :func:`clsd_format.data_source.resolve_data_source`: ``hub_dataset``
    (``REPO_ID@REVISION``), else the folder ``data_dir`` (the release CSVs, a Hub-format export of them,
    or a generated dataset), else ``$CLSD_DATA_DIR``, else the release fetched from GitHub. A caller that
    has resolved it already passes it as ``source`` instead; every task gets it, so nothing is decided
    or read twice. A name the source does not define raises :class:`clsd_format.errors.UnknownTaskError`
    (also a ``KeyError``), listing the names it does.

    ``limit`` keeps the first rows of each task; ``exact`` encodes one text per batch, so that no
    score depends on the batch size (see :class:`AbsTaskCLSD`).
    """
    if source is None:
        source = resolve_data_source(data_dir, hub_dataset)
    elif data_dir is not None or hub_dataset is not None:
        raise ValueError("give the data as data_dir or hub_dataset, or as a resolved source, not both")
    if source.holds_release:  # the release's own classes, reading the source given
        by_name: dict[str, type[AbsTaskCLSD]] = {cls.metadata.name: cls for cls in RELEASE_TASKS}
        return [by_name[name](source=source, limit=limit, exact=exact) for name in choose_tasks(names, source.task_names())]
    by_name = {cls.metadata.name: cls for cls in tasks_from_source(source)}
    return [by_name[name](source=source, limit=limit, exact=exact) for name in choose_tasks(names, list(by_name))]
