"""A model's CLSD results on the Hugging Face Hub (``clsd push-results``), pushed by mteb itself.

mteb publishes a model's results with ``ModelMeta.push_eval_results``: one YAML file per task in the model
repository's ``.eval_results/`` (mteb's ``HFEvalResults``). Each value names its dataset by the task's
``dataset["path"]`` and revision, and its evaluation by the ids a dataset's ``eval.yaml`` declares
(:mod:`clsd_mteb.publishing.hub_eval`); the Hub shows it on that dataset's leaderboard. So a result can go only where its
data is on the Hub: a dataset published with ``clsd push-dataset`` and evaluated with ``--hub-dataset REPO@COMMIT``, or
the release's four direct tasks read from the authors' Hub dataset. A result computed on the GitHub release,
on local files or on a slice is left out with the reason, as ``clsd export-results`` does, and so is a file
holding a score no evaluation can produce (:mod:`clsd_mteb.result_checks`, the check ``clsd analyze`` applies).

mteb finds each result's task by name (``mteb.get_task``). The registered released tasks name the GitHub
release; during the push the tasks of the Hub source stand in for them (:func:`clsd_mteb.task_registry.tasks_standing_in`),
so mteb names the repository and revision the results were computed on. ``--dry-run`` writes the files mteb
would upload, made by the same mteb calls.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from clsd_format.data_source import DataSource, resolve_data_source
from clsd_format.declared_settings import option_name
from clsd_format.errors import CLSDError, DataError
from clsd_format.hub import check_repo_id, hub_token
from clsd_format.publishing_settings import ResultsPushSettings
from clsd_mteb.abstask import AbsTaskCLSD
from clsd_mteb.publishing.results_export import result_files
from clsd_mteb.result_checks import MODEL_META_FILE, ResultCheck, read_model_meta
from clsd_mteb.task_registry import tasks_standing_in
from clsd_mteb.tasks import hub_task_classes

if TYPE_CHECKING:
    from mteb.models import ModelMeta

EVAL_RESULTS_FOLDER = ".eval_results"  # where mteb puts them in the model repository


@dataclass
class ResultsPush:
    """What ``clsd push-results`` publishes: one model revision's results on one Hub dataset, and what it leaves out."""

    results_dir: Path
    source: DataSource
    model: ModelMeta
    task_classes: list[type[AbsTaskCLSD]]  # the Hub source's tasks whose results go
    scores: dict[str, float]  # their main scores (P@1, %)
    skipped: list[tuple[Path, str]] = field(default_factory=list)

    @property
    def repo_id(self) -> str:
        """The model repository mteb uploads to: the model's name."""
        return str(self.model.name)

    @property
    def dataset(self) -> str:
        return f"{self.source.location}@{self.source.revision}"


def _on_source(source: DataSource) -> Callable[[str], str | None]:
    """Why a result's dataset revision is not ``source``'s (then its numbers are not about the Hub dataset), or None."""

    def problem(dataset_revision: str) -> str | None:
        if dataset_revision == source.revision:
            return None
        return f"computed on other data (dataset revision {dataset_revision}), not on {source.location}@{source.revision}"

    return problem


def _matches(meta: ModelMeta, model: str | None) -> bool:
    """Whether ``meta`` is the model asked for (``NAME`` or ``NAME@REVISION``; no choice: every model)."""
    if model is None:
        return True
    name, _, revision = model.partition("@")
    return meta.name == name and (not revision or meta.revision == revision)


def plan_results_push(settings: ResultsPushSettings) -> ResultsPush:
    """Choose what goes: the results in ``settings.results_dir`` computed on ``settings.hub_dataset``
    (``REPO_ID@REVISION``), of one model.

    Raises :class:`DataError` when none qualifies (naming each file and why) and :class:`CLSDError` when
    several models' results do and ``settings.model`` does not choose one.
    """
    results_dir, hub_dataset, model = Path(settings.results_dir), settings.hub_dataset, settings.model
    source = resolve_data_source(hub_dataset=hub_dataset)
    tasks = {cls.metadata.name: cls for cls, _ in hub_task_classes(source)}
    check = ResultCheck({name: cls() for name, cls in tasks.items()}, f"a task of {source.location}", _on_source(source))
    skipped: list[tuple[Path, str]] = []
    accepted: dict[Path, dict[str, float]] = {}
    metas: dict[Path, ModelMeta] = {}  # each model folder's model_meta.json, read once
    for path in result_files(results_dir):
        if not (path.parent / MODEL_META_FILE).is_file():
            skipped.append((path, f"no {MODEL_META_FILE} beside it (mteb names the model repository from it)"))
            continue
        if path.parent not in metas:
            metas[path.parent] = read_model_meta(path.parent)
        if not _matches(metas[path.parent], model):
            continue
        checked = check(path)
        if isinstance(checked, str):
            skipped.append((path, checked))
        else:
            accepted.setdefault(path.parent, {})[checked.task_name] = 100 * checked.get_score()
    if not accepted:
        why = "; ".join(f"{path}: {reason}" for path, reason in skipped) or "no CLSD result files" + (
            f" of {model}" if model else ""
        )
        raise DataError(f"no result can go to the Hub as computed on {hub_dataset} ({why}).", file=str(results_dir))
    if len(accepted) > 1:
        found = ", ".join(f"{metas[folder].name}@{metas[folder].revision}" for folder in sorted(accepted))
        raise CLSDError(
            f"results of several models qualify ({found}); choose one with {option_name(ResultsPushSettings, 'model')} NAME or NAME@REVISION."
        )
    ((folder, found_scores),) = accepted.items()
    check_repo_id(str(metas[folder].name), what="the model name")  # mteb uploads to the repository of that name
    names = sorted(found_scores)
    return ResultsPush(
        results_dir, source, metas[folder], [tasks[n] for n in names], {n: found_scores[n] for n in names}, skipped
    )


def eval_results_files(plan: ResultsPush, user: str | None = None) -> dict[str, str]:
    """The files mteb's push uploads (path in the model repository -> text), made by the calls it makes.

    ``ModelMeta.push_eval_results`` loads the results with ``ResultCache.load_results(models=[meta], tasks=...)``,
    then writes ``TaskResult._to_hf_benchmark_result(user)`` of each into ``.eval_results/<task>.yaml``.
    """
    from mteb.cache import ResultCache

    with tasks_standing_in(plan.task_classes):
        loaded = ResultCache(plan.results_dir).load_results(models=[plan.model], tasks=[cls() for cls in plan.task_classes])
        (model_result,) = loaded.model_results
        return {
            f"{EVAL_RESULTS_FOLDER}/{result.task_name}.yaml": result._to_hf_benchmark_result(user).to_yaml()
            for result in model_result.task_results
        }


def write_dry_run(plan: ResultsPush, out: Path, user: str | None = None) -> list[Path]:
    """Write the files the push would upload under ``out`` (new or empty), as they would lie in the model repository."""
    out = Path(out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise DataError("exists and is not empty; refusing to overwrite (choose a new folder).", file=str(out))
    written = []
    for relative, text in eval_results_files(plan, user).items():
        path = out / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def push_results(plan: ResultsPush, user: str | None = None, *, create_pr: bool = False) -> None:
    """Upload through mteb's ``ModelMeta.push_eval_results`` into the model repository's ``.eval_results/``."""
    from mteb.cache import ResultCache

    hub_token(
        f"an upload to {plan.repo_id}", option_name(ResultsPushSettings, "dry_run")
    )  # mteb's upload reads it from the environment itself
    with tasks_standing_in(plan.task_classes):
        try:
            plan.model.push_eval_results(
                user, tasks=[cls() for cls in plan.task_classes], cache=ResultCache(plan.results_dir), create_pr=create_pr
            )
        except Exception as exc:  # network and Hub errors come in many types
            raise CLSDError(f"upload of results to {plan.repo_id} failed ({type(exc).__name__}: {exc}).") from exc
