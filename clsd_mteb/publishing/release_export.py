"""Export the released tasks to the Hub format (``clsd export-release``).

Why: the Hub format is what the eight tasks can also read (``CLSD_DATA_DIR=<export>``), what the
generation module writes, and what can be uploaded to the Hub as one dataset with eight configs (with the
``eval.yaml`` that declares them for the Hub's leaderboards).
"""

from __future__ import annotations

from pathlib import Path

from clsd_format import hub
from clsd_format.cards import card_template
from clsd_format.data_source import resolve_data_source
from clsd_format.errors import DataError
from clsd_format.publishing_settings import ReleaseExportSettings
from clsd_format.release import COMMIT, FILES, RELEASE_DATASETS, REPOSITORY
from clsd_mteb import release_fetch
from clsd_mteb.publishing.hub_eval import write_eval_config
from clsd_mteb.tasks import AGPL_URL, CITATION, PAPER_URL, RELEASE_TASKS, release_direction_specs


def export_release(settings: ReleaseExportSettings) -> Path:
    """Write the eight released tasks to ``settings.out`` in the Hub format, read from ``settings.data_dir`` (None:
    ``$CLSD_DATA_DIR``, else the release fetched); ``settings.out`` must not exist yet."""
    out, data_dir = Path(settings.out), settings.data_dir
    if out.exists() and any(out.iterdir()):
        raise DataError("exists and is not empty; refusing to overwrite (choose a new folder).", file=str(out))
    specs = {spec.task_name: spec for spec in release_direction_specs()}
    source = resolve_data_source(data_dir)
    counts = {}
    for task_class in RELEASE_TASKS:
        task = task_class(source=source)
        rows = task.load_rows()
        hub.write_config(out, specs[task.metadata.name], rows)
        counts[task.metadata.name] = len(rows)
    header = hub.front_matter(
        specs.values(),
        pretty_name="CLSD WMT19/21 German-French (release export)",
        license="agpl-3.0",
        language=["de", "fr", "en"],
        task_categories=["sentence-similarity"],
        size_categories=["1K<n<10K"],
    )
    header[hub.MANIFEST_KEY].update(
        date=["2018-01-01", "2021-12-31"],
        license=AGPL_URL,
        domains=["News", "Written"],
        reference=PAPER_URL,
        citation=CITATION,
        sample_creation="LM-generated and verified",
    )
    header[hub.MANIFEST_KEY][hub.FILES_KEY] = hub.file_records(out, specs.values())  # what readers check the files against
    files = sorted({f for ds in RELEASE_DATASETS for f in (ds.direct_file, ds.pivot_file)})
    folder = source.folder if source.kind == "release-csv-folder" else None
    lines = []
    for name in files:
        path = folder / name if folder is not None and (folder / name).is_file() else release_fetch.cache_dir() / name
        digest = release_fetch.sha256_of(path) if path.is_file() else "(not a local file)"
        pristine = "" if digest == FILES[name][1] else " — differs from the release"
        lines.append(f"  - `{name}`: `{digest}`{pristine}")
    body = card_template("clsd_release.md").substitute(
        repository=REPOSITORY,
        commit=COMMIT,
        source_files="\n".join(lines),
        config_table="\n".join(
            ["| config | task | rows |", "| --- | --- | --- |"]
            + [f"| `{spec.config}` | {name} | {counts[name]} |" for name, spec in specs.items()]
        ),
        citation=CITATION,
    )
    (out / hub.CARD_FILE).write_text(hub.render_card(header, body), encoding="utf-8")
    write_eval_config(out)  # the Hub's leaderboard config, once the card it reads is there
    return out
