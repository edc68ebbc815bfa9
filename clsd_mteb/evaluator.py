"""CLSD evaluator: encode each distinct text once, score candidates by cosine, compute P@1 and friends.

Metric definitions (all from the cosine matrix, plain numpy):

* rank of T = 1 + number of distractors d with cos(S, d) >= cos(S, T). A tie therefore ranks T below
  the distractor: ties count as misses, as in the authors' code.
* ``precision_at_1`` = share of rows with rank 1; ``mrr`` = mean of 1 / rank;
  ``mean_rank`` = mean rank of T; ``mean_margin`` = mean of cos(S, T) - max_d cos(S, d);
  ``distractor_<i>_win_rate`` = share of rows (having slot i) where distractor i ties or beats T;
  ``num_rows``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from clsd_format import schema
from clsd_format.errors import EmbeddingError

if TYPE_CHECKING:
    from datasets import Dataset
    from mteb.abstasks.task_metadata import TaskMetadata
    from mteb.models import EncoderProtocol
    from mteb.timing import TimingStack
    from mteb.types import EncodeKwargs

logger = logging.getLogger(__name__)


@dataclass
class CLSDPredictions:
    """Per-row cosines: column 0 is cos(S, T), columns 1.. the distractor slots (NaN where a row has fewer)."""

    ids: list[str]
    cosines: np.ndarray

    @property
    def ranks(self) -> np.ndarray:
        return target_ranks(self.cosines)

    def to_records(self) -> list[dict[str, Any]]:
        """JSON-ready rows for mteb's prediction file: id, the cosines (T first) and the rank of T."""
        ranks = self.ranks
        return [
            {
                "id": row_id,
                "cosines": [float(c) for c in row if not np.isnan(c)],
                "rank": int(rank),
            }
            for row_id, row, rank in zip(self.ids, self.cosines, ranks, strict=True)
        ]


def target_ranks(cosines: np.ndarray) -> np.ndarray:
    """Rank of T per row, ties counted against T (NaN slots never beat anything)."""
    target = cosines[:, :1]
    with np.errstate(invalid="ignore"):
        beaten_by = np.nan_to_num(cosines[:, 1:], nan=-np.inf) >= target
    return 1 + beaten_by.sum(axis=1)


def clsd_metrics(cosines: np.ndarray) -> dict[str, float]:
    """All CLSD metrics from an (n_rows, 1 + n_slots) cosine matrix; see the module docstring."""
    if cosines.ndim != 2 or cosines.shape[1] < 2 or cosines.shape[0] == 0:
        raise ValueError(f"expected an (n_rows >= 1, 1 + n_distractors >= 2) matrix, got shape {cosines.shape}")
    ranks = target_ranks(cosines)
    distractors = cosines[:, 1:]
    present = ~np.isnan(distractors)
    scores: dict[str, float] = {
        "precision_at_1": float(np.mean(ranks == 1)),
        "mrr": float(np.mean(1.0 / ranks)),
        "mean_rank": float(np.mean(ranks)),
        "mean_margin": float(np.mean(cosines[:, 0] - np.nanmax(distractors, axis=1))),
    }
    with np.errstate(invalid="ignore"):
        wins = np.nan_to_num(distractors, nan=-np.inf) >= cosines[:, :1]
    for slot in range(distractors.shape[1]):
        scores[f"distractor_{slot + 1}_win_rate"] = float(wins[present[:, slot], slot].mean())
    scores["num_rows"] = int(cosines.shape[0])
    return scores


def _normalise(embeddings: np.ndarray, texts: Sequence[str], where: str) -> np.ndarray:
    """Unit rows; ``embeddings`` is already (len(texts), dim), checked by the caller."""
    finite = np.isfinite(embeddings).all(axis=1)
    if not finite.all():
        bad = int(np.flatnonzero(~finite)[0])
        raise EmbeddingError(
            f"{where}: model returned NaN or inf for {int((~finite).sum())} of {len(texts)} texts, "
            f"e.g. {texts[bad]!r}; refusing to score."
        )
    norms = np.linalg.norm(embeddings, axis=1)
    zero = norms == 0
    if zero.any():
        bad = int(np.flatnonzero(zero)[0])
        raise EmbeddingError(
            f"{where}: model returned an all-zero vector for {int(zero.sum())} of {len(texts)} texts, "
            f"e.g. {texts[bad]!r}; cosine is undefined, refusing to score."
        )
    return embeddings / norms[:, None]


def encode_texts(
    model: EncoderProtocol,
    texts: Sequence[str],
    *,
    task_metadata: TaskMetadata,
    hf_split: str = schema.HUB_SPLIT,
    hf_subset: str = "default",
    encode_kwargs: EncodeKwargs | None = None,
    num_proc: int | None = None,
) -> np.ndarray:
    """Unit-length embeddings of ``texts`` (distinct), all encoded with the ``query`` prompt type.

    The one encoding path of the project: the evaluator and the analyses both use it, so a model
    sees exactly the same input in both. Raises :class:`EmbeddingError` on NaN, inf or zero vectors.
    """
    from datasets import Dataset
    from mteb.types import PromptType
    from torch.utils.data import DataLoader

    encode_kwargs = dict(encode_kwargs or {})
    encode_kwargs.setdefault("batch_size", 32)
    # Longest first: an encoder that takes the loader batch by batch then pads each batch to similar
    # lengths (sentence-transformers sorts by length itself; others may not).
    order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
    # Plain text batches ({"text": [...]}), the loader mteb's create_dataloader builds for a text
    # column; the prompt type reaches the model through encode(), where encoders apply prompts.
    loader = DataLoader(
        Dataset.from_dict({"text": [texts[i] for i in order]}),
        batch_size=encode_kwargs["batch_size"],
        num_workers=num_proc if num_proc is not None and num_proc > 1 else 0,
    )
    embeddings = model.encode(
        loader,
        task_metadata=task_metadata,
        hf_split=hf_split,
        hf_subset=hf_subset,
        prompt_type=PromptType.query,
        **encode_kwargs,
    )
    sorted_embeddings = np.asarray(_to_numpy(embeddings), dtype=np.float64)
    if sorted_embeddings.ndim != 2 or sorted_embeddings.shape[0] != len(texts):
        raise EmbeddingError(f"{task_metadata.name}: model returned shape {sorted_embeddings.shape} for {len(texts)} texts")
    embeddings = np.empty_like(sorted_embeddings)
    embeddings[order] = sorted_embeddings
    return _normalise(embeddings, texts, f"{task_metadata.name} ({hf_subset}/{hf_split})")


class CLSDEvaluator:
    """Scores one split of a CLSD dataset with one model.

    Every distinct text of the split is encoded once, all with the ``query`` prompt type: source,
    target and distractors play symmetric roles, so a model with asymmetric prompts (e5's
    ``query: `` / ``passage: ``) must see the same prompt on every sentence, as in the paper.
    """

    def __init__(
        self,
        dataset: Dataset,
        *,
        task_metadata: TaskMetadata,
        hf_split: str,
        hf_subset: str,
        timer: TimingStack | None = None,
    ) -> None:
        self.dataset = dataset
        self.task_metadata = task_metadata
        self.hf_split = hf_split
        self.hf_subset = hf_subset
        self.timer = timer

    def __call__(
        self,
        model: EncoderProtocol,
        *,
        encode_kwargs: EncodeKwargs,
        num_proc: int | None = None,
    ) -> CLSDPredictions:
        from mteb.timing import TimingStack

        timer = self.timer or TimingStack()
        sources = self.dataset[schema.SOURCE]
        targets = self.dataset[schema.TARGET]
        distractor_lists = self.dataset[schema.DISTRACTORS]
        unique = list(dict.fromkeys([*sources, *targets, *(d for ds in distractor_lists for d in ds)]))
        position = {text: i for i, text in enumerate(unique)}

        with timer(
            "Encoding",
            split=self.hf_split,
            subset=self.hf_subset,
            log_message=f"CLSD: encoding {len(unique)} distinct texts",
        ):
            unit = encode_texts(
                model,
                unique,
                task_metadata=self.task_metadata,
                hf_split=self.hf_split,
                hf_subset=self.hf_subset,
                encode_kwargs=encode_kwargs,
                num_proc=num_proc,
            )

        with timer("Scoring", split=self.hf_split, subset=self.hf_subset):
            n_slots = max(len(ds) for ds in distractor_lists)
            cosines = np.full((len(sources), 1 + n_slots), np.nan)
            source_vectors = unit[[position[s] for s in sources]]
            cosines[:, 0] = np.einsum("ij,ij->i", source_vectors, unit[[position[t] for t in targets]])
            for row, (vector, ds) in enumerate(zip(source_vectors, distractor_lists, strict=True)):
                cosines[row, 1 : 1 + len(ds)] = unit[[position[d] for d in ds]] @ vector
            np.clip(cosines, -1.0, 1.0, out=cosines)
        return CLSDPredictions(ids=list(self.dataset[schema.ID]), cosines=cosines)


def _to_numpy(embeddings: Any) -> np.ndarray:
    if hasattr(embeddings, "detach"):  # torch tensor, without importing torch here
        embeddings = embeddings.detach().float().cpu().numpy()
    return np.asarray(embeddings)
