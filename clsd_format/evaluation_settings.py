"""The settings of an evaluation, declared once: the model, the data, how it is run, how Table 1 is printed.

``clsd evaluate`` is made from these dataclasses (:mod:`clsd_cli.declared`), and :func:`clsd_mteb.evaluation.evaluate`
takes the same :class:`EvaluationSettings`. They live here, below the plugin, so that ``clsd evaluate --help`` and a
mistake in the options answer without importing mteb.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from clsd_format import authors_hub, defaults
from clsd_format.declared_settings import DeclaredSettings, option_name, setting
from clsd_format.errors import CLSDError
from clsd_format.folders import folder_callback
from clsd_format.model_choice import ModelChoice, ServedSettings
from clsd_format.release import DATA_DIR_ENV

DEFAULT_OUTPUT = Path("clsd-results")
TableFormat = Literal["markdown", "latex", "csv"]


@dataclass(frozen=True)
class ModelOptions(DeclaredSettings):
    """The model as ``clsd evaluate`` names it: ``--model``, or an embeddings endpoint by URL and name, with the settings
    of a served model. :meth:`choice` resolves it once into a :class:`~clsd_format.model_choice.ModelChoice`."""

    model: tuple[str, ...] = setting(
        (),
        help=f"Model: an embedded one ({', '.join(defaults.EMBEDDED_MODELS)}), a clsd baseline "
        f"({', '.join(defaults.BASELINE_MODELS)}), a local sentence-transformers folder, any name mteb.get_model "
        "knows, endpoint:MODEL@BASE_URL (an embeddings endpoint) or rerank:MODEL@BASE_URL (a rerank server); repeated, "
        "several models compared in one answer. Default: the embedded multilingual USE v3, shown beside the character "
        "n-gram baseline.",
        metavar="NAME",
    )
    device: str | None = setting(
        None, help="torch device, e.g. cpu or cuda. Default: chosen by sentence-transformers.", metavar="DEVICE"
    )
    endpoint_url: str | None = setting(
        None,
        help="An OpenAI-compatible embeddings endpoint to evaluate instead of {--model}, e.g. http://127.0.0.1:8000/v1.",
        metavar="URL",
    )
    endpoint_model: str | None = setting(
        None, help="The model name the endpoint serves (needed with {--endpoint_url}).", metavar="NAME"
    )
    served: ServedSettings = ServedSettings()  # its fields are options of their own (--endpoint-key-env, ...)

    def check(self) -> None:
        """An endpoint given apart is named by its URL and its model together, and instead of a model by name."""
        url, served = self.endpoint_url, self.endpoint_model
        if (url or served) and (self.model or not (url and served)):
            named = [option_name(ModelOptions, name) for name in ("endpoint_url", "endpoint_model", "model")]
            raise CLSDError("an endpoint needs both {} and {}, and no {}".format(*named))

    def choices(self) -> list[ModelChoice]:
        """Each model resolved once, in the order given (none: the default); a served-model setting given for another
        kind of model is refused here."""
        return [
            ModelChoice.parse(
                name, endpoint_url=self.endpoint_url, endpoint_model=self.endpoint_model, served=self.served, device=self.device
            )
            for name in self.model or (None,)
        ]


@dataclass(frozen=True)
class DataChoice(DeclaredSettings):
    """Which tasks, from which data."""

    tasks: tuple[str, ...] = setting(
        (),
        help="Task names, comma-separated or repeated (the release's are listed below). Default: every task of the data source.",
        flag="--tasks,-t",
        metavar="NAME[,NAME...]",
    )
    data_dir: Path | None = setting(
        None,
        help="Local data: the release CSVs, a Hub-format export, or a generated CLSD dataset folder. "
        f"Default: ${DATA_DIR_ENV}, else the release fetched from GitHub.",
        metavar="DIR",
        check=folder_callback("data folder"),
    )
    hub_dataset: str | None = setting(
        None,
        help="A CLSD dataset on the Hugging Face Hub at a pinned revision: one in the clsd-mteb Hub format, or the "
        f"authors' {authors_hub.REPO_ID} (the four direct tasks; revision default {authors_hub.DEFAULT_REVISION[:12]}, "
        "the one mteb pinned).",
        metavar="REPO_ID@REVISION",
    )

    def task_names(self) -> list[str] | None:
        return split_names(self.tasks)


def split_names(values: Sequence[str] | None) -> list[str] | None:
    """Task names as given (comma-separated, repeated) as one list of names; None when none were given."""
    names = [name.strip() for value in values or () for name in value.split(",") if name.strip()]
    return names or None


@dataclass(frozen=True)
class EvaluationSettings(DeclaredSettings):
    """How a run evaluates: the results folder, the encoding (batch size, exact), reuse, a trial's first rows."""

    output: Path = setting(
        DEFAULT_OUTPUT,
        help="Results folder: results/<model>/<revision>/<task>.json (mteb's layout) and predictions/<model>/<revision>/.",
        metavar="DIR",
        check=folder_callback("results folder", may_be_missing=True),
    )
    batch_size: int = setting(
        defaults.BATCH_SIZE, help="Texts per encoding batch (on a GPU, larger is faster).", metavar="N", minimum=1
    )
    exact: bool = setting(
        False,
        help="Encode each text in a batch of its own, so that no score depends on the batch size, even in the "
        "last bits (slower; models that declare batch-invariant outputs are batched anyway).",
        flag="--exact",
    )
    overwrite: bool = setting(False, help="Re-run tasks whose results already exist (default: reuse them).", flag="--overwrite")
    limit: int | None = setting(None, help="Evaluate only the first N rows of each task (a trial run).", metavar="N", minimum=1)

    def check(self) -> None:
        object.__setattr__(self, "output", Path(self.output))  # a str from Python is a folder as a Path is


@dataclass(frozen=True)
class TableChoice:
    """How ``clsd evaluate`` prints Table 1."""

    table_format: TableFormat | None = setting(
        None,
        help="How Table 1 is printed. Default: a table drawn for the terminal, Markdown when the output is not a "
        "terminal. With {--table_format} only the table goes to stdout; the progress lines go to stderr.",
        flag="--format",
        metavar="markdown|latex|csv",
    )


__all__ = ["DEFAULT_OUTPUT", "DataChoice", "EvaluationSettings", "ModelOptions", "TableChoice", "TableFormat", "split_names"]
