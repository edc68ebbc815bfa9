"""A model name that is nothing here: said at once, with the two reasons it can have and the near names.

``clsd evaluate --model NAME`` hands a name it does not load itself (an embedded model, a served model, a folder) to
mteb, which looks for it on the Hugging Face Hub. A mistyped name (``intfloat/multilingual-e5-smal``) is then not
told from a missing network: offline, the load fails on the network after the Hub library's waits; online, mteb
builds an empty description of a model that does not exist and fails later still. :func:`check_findable` looks
first, where it can tell without waiting: a name mteb's registry holds, or one in the Hub cache, goes on to mteb;
offline, or where the Hub cannot be reached within the Hub library's own metadata timeout, the error names both
reasons (a typo, or no network); a name the Hub answers it does not have is a typo (or a private model). Each names
the nearest models mteb and this package know (:func:`near_names`).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from pathlib import Path

from clsd_format import defaults
from clsd_format.errors import CLSDError

MAX_NEAR = 3  # near names offered in one error line
CUTOFF = 0.8  # difflib's similarity, 0-1: a letter or two off in a name of twenty


def known_names() -> list[str]:
    """Every model name mteb's registry holds (with this package's models, registered by ``import clsd_mteb``) and
    the embedded models and baselines, by the name they load under."""
    import mteb

    return sorted(
        {meta.name for meta in mteb.get_model_metas() if meta.name} | {*defaults.EMBEDDED_MODELS, *defaults.BASELINE_MODELS}
    )


def near_names(name: str, known: Iterable[str], n: int = MAX_NEAR) -> list[str]:
    """The known names nearest ``name``: the whole name compared, then the model's part alone (``labse`` for
    ``sentence-transformers/LaBSE``), letter case ignored; at most ``n``."""
    by_lower = {k.lower(): k for k in known}
    by_short: dict[str, list[str]] = {}
    for lower, original in by_lower.items():
        by_short.setdefault(lower.rsplit("/", 1)[-1], []).append(original)
    found = [by_lower[hit] for hit in difflib.get_close_matches(name.lower(), by_lower, n, CUTOFF)]
    for hit in difflib.get_close_matches(name.lower().rsplit("/", 1)[-1], by_short, n, CUTOFF):
        found += by_short[hit]
    return list(dict.fromkeys(found))[:n]


def _hint(name: str) -> str:
    near = [repr(k) for k in near_names(name, known_names())]
    return f" (did you mean {' or '.join([', '.join(near[:-1]), near[-1]] if len(near) > 1 else near)}?)" if near else ""


def _in_hub_cache(name: str) -> bool:
    """Whether the Hub cache holds a download of ``name`` (a model fetched once loads offline from there)."""
    from huggingface_hub import constants
    from huggingface_hub.file_download import repo_folder_name

    snapshots = Path(constants.HF_HUB_CACHE) / repo_folder_name(repo_id=name, repo_type="model") / "snapshots"
    return snapshots.is_dir() and any(snapshots.iterdir())


def check_findable(name: str) -> None:
    """Return where mteb can load ``name`` or fetch it; otherwise one line naming every reason it cannot, at once.

    Called for a name that is no folder, no embedded model and no served model. The only request is one look at the
    Hub's model page, bounded by ``HF_HUB_ETAG_TIMEOUT`` (the Hub library's timeout for metadata, 10 s by default).
    """
    import mteb
    from huggingface_hub import constants
    from huggingface_hub.errors import HFValidationError
    from huggingface_hub.utils import validate_repo_id

    try:
        mteb.get_model_meta(name)  # the registry alone, renamed models included: never the Hub
        return
    except (KeyError, ValueError):
        pass
    nothing_here = f"model {name!r} is no local folder, no model mteb or clsd-mteb knows and not in the Hugging Face cache"
    try:
        validate_repo_id(name)
    except HFValidationError:
        raise CLSDError(f"{nothing_here}, nor a Hub name (OWNER/NAME){_hint(name)}.") from None
    if _in_hub_cache(name):
        return
    if constants.HF_HUB_OFFLINE:
        raise CLSDError(
            f"{nothing_here}, and HF_HUB_OFFLINE is set: either the name is mistyped{_hint(name)}, or the model must "
            "first be downloaded once with network access."
        )
    _look_on_the_hub(name, nothing_here)


def _look_on_the_hub(name: str, nothing_here: str) -> None:
    from huggingface_hub import HfApi, constants
    from huggingface_hub.errors import GatedRepoError, HfHubHTTPError, RepositoryNotFoundError

    try:
        HfApi().model_info(name, timeout=constants.HF_HUB_ETAG_TIMEOUT)
    except GatedRepoError:
        return  # it exists; the download says what access it needs
    except RepositoryNotFoundError:
        raise CLSDError(
            f"{nothing_here}, and the Hugging Face Hub has no model of that name: the name is mistyped{_hint(name)}, "
            "or the model is private (set HF_TOKEN to a token that may read it)."
        ) from None
    except HfHubHTTPError:
        return  # the Hub answered (a bad token, a rate limit): mteb's own attempt says what
    except Exception as exc:  # no network, a proxy, a timeout: the Hub library raises many types
        raise CLSDError(
            f"{nothing_here}, and the Hugging Face Hub cannot be reached to look for it ({type(exc).__name__}): either "
            f"the name is mistyped{_hint(name)}, or there is no network (a model downloaded once loads offline)."
        ) from None
