"""The options of ``clsd analyze``, declared once: where the results are, where the report goes, and the sections'.

Each group is a frozen dataclass whose fields declare their option (:mod:`clsd_format.declared_settings`);
``clsd analyze`` is made from them (:mod:`clsd_cli.declared`). Kept free of the analysis's heavy imports, so that
``clsd analyze --help`` answers at once; the choices of ``--success-rule`` and ``--pos-selection`` are checked when
the command runs, against the lists the sections declare.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from clsd_format.declared_settings import setting
from clsd_format.folders import folder_callback
from clsd_format.release import DATA_DIR_ENV

OPTIONS = "Options"


@dataclass(frozen=True)
class ReportSources:
    """The results read, the data their rows come from, where the report goes, and whom it is about."""

    results_dir: tuple[Path, ...] = setting(
        help="Folder(s) written by `clsd evaluate --output` (each holds results/ and predictions/); several are read as one.",
        panel=OPTIONS,
        argument=True,
        check=folder_callback("results folder"),
    )
    out: Path = setting(
        help="Report folder to write (report.md, tables/, figures/).",
        panel=OPTIONS,
        flag="--out",
        check=folder_callback("report folder", may_be_missing=True),
    )
    data_dir: Path | None = setting(
        None,
        help="Folder with the release CSV/TSV files (or a Hub-format export). Default: the release as `clsd evaluate` fetches it.",
        panel=OPTIONS,
        flag="--data-dir",
        envvar=DATA_DIR_ENV,
        check=folder_callback("data folder"),
    )
    dataset: tuple[Path, ...] = setting(
        (),
        help="Hub-format dataset folder of other CLSD tasks (repeatable).",
        panel=OPTIONS,
        flag="--dataset",
        check=folder_callback("dataset folder"),
    )
    overwrite: bool = setting(False, help="Replace an existing report in --out.", panel=OPTIONS, flag="--overwrite")
    skip_failing_sections: bool = setting(
        False,
        help="Write the report without a section that fails (a package's that raises or cannot be loaded): its "
        "heading and the notes say which and why. Without it, a failing section stops the report and nothing is written.",
        panel=OPTIONS,
        flag="--skip-failing-sections",
    )


@dataclass(frozen=True)
class PosShiftOptions:
    """The one-word-change analysis: whether it runs, the models' local copies, Stanza, the embedding cache."""

    model: tuple[str, ...] = setting(
        (), help="NAME=PATH: a local copy of a model in the results (repeatable).", panel=OPTIONS, flag="--model"
    )
    pos_shift: bool = setting(
        True, help="Run the one-word-change analysis (needs the models).", panel=OPTIONS, flag="--pos-shift/--no-pos-shift"
    )
    stanza_dir: Path | None = setting(
        None,
        help="Folder with Stanza models (datasets without annotation files).",
        panel=OPTIONS,
        flag="--stanza-dir",
        check=folder_callback("folder of Stanza models", may_be_missing=True),
    )
    stanza_download: bool = setting(False, help="Let Stanza download missing models.", panel=OPTIONS, flag="--stanza-download")
    cache_dir: Path | None = setting(
        None,
        help="Embedding cache (default: $CLSD_CACHE_DIR/embeddings or ~/.cache/clsd_mteb/embeddings).",
        panel=OPTIONS,
        flag="--cache-dir",
        check=folder_callback("cache folder", may_be_missing=True),
    )
    batch_size: int = setting(32, help="Texts per encoding batch.", panel=OPTIONS, flag="--batch-size", minimum=1)


@dataclass(frozen=True)
class ExampleOptions:
    """Table 1's alignment marks, the successful-distractor examples, and the model the report is about."""

    alignment: Path | None = setting(
        None,
        help="CSV of Table 1's alignment marks: model,cross_lingual,paraphrase,retrieval[,source] (yes/no/empty).",
        panel=OPTIONS,
        flag="--alignment",
    )
    success_rule: str = setting(
        "top",
        help="Successful distractors in the examples: 'top' (the paper's) or 'ties-or-beats'.",
        panel=OPTIONS,
        flag="--success-rule",
    )
    pos_selection: str = setting(
        "paper",
        help="Annotated one-word pairs used: 'paper' (closest to the paper's counts), 'swaps' or 'all'.",
        panel=OPTIONS,
        flag="--pos-selection",
    )
    examples: int = setting(10, help="Successful-distractor examples to sample.", panel=OPTIONS, flag="--examples", minimum=0)
    seed: int = setting(0, help="Seed of the example sample.", panel=OPTIONS, flag="--seed")
    focus: str | None = setting(
        None,
        help="The model the report is about (its examples first). Default: the highest mean direct P@1.",
        panel=OPTIONS,
        flag="--focus",
    )


__all__ = ["ExampleOptions", "PosShiftOptions", "ReportSources"]
