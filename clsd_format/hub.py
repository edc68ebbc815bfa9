"""The project's Hub format: write it, read it, validate it (spec: ``dataset_cards/FORMAT.md``).

A CLSD dataset folder (= a Hugging Face dataset repository) holds one config per evaluation
direction, each a single ``test`` split in ``<config>/test.parquet``, and a ``README.md`` whose YAML
front matter lists the configs (``configs:``, which the Hub and ``datasets`` read) and, under
``clsd:``, the task each config defines (name and languages), so a task can be built without
reading any data. No mteb or torch import here: the generation module writes this format too.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import yaml

from clsd_format import schema
from clsd_format.errors import DataError

CARD_FILE = "README.md"
MANIFEST_KEY = "clsd"


@dataclass(frozen=True)
class DirectionSpec:
    """One config of a CLSD dataset, i.e. one MTEB task."""

    config: str  # folder and config name, e.g. "wmt19-de-fr"
    task_name: str  # e.g. "CLSD-WMT19-DE-FR"
    source_lang: str  # mteb code of the language the model sees for S, e.g. "deu-Latn"
    target_lang: str  # ... for T and the distractors
    pivot: bool = False  # texts were machine-translated into one pivot language

    @property
    def languages(self) -> list[str]:
        return list(dict.fromkeys([self.source_lang, self.target_lang]))


def parquet_path(folder: Path, config: str) -> Path:
    return Path(folder) / config / f"{schema.HUB_SPLIT}.parquet"


def validate_rows(rows: Sequence[Mapping[str, Any]], where: str) -> None:
    """Stop at the first row that is not a well-formed CLSD row, naming file, row and column."""
    seen_ids: dict[str, int] = {}
    for number, row in enumerate(rows):
        missing = [c for c in schema.HUB_COLUMNS if c not in row]
        if missing:
            raise DataError("missing column", file=where, row=number, column=missing[0])
        for column in (schema.ID, schema.SOURCE, schema.TARGET, schema.SOURCE_LANG, schema.TARGET_LANG):
            value = row[column]
            if not isinstance(value, str) or not value.strip():
                raise DataError(f"empty or non-text value {value!r}", file=where, row=number, column=column)
        distractors = row[schema.DISTRACTORS]
        if isinstance(distractors, str) or not isinstance(distractors, Sequence) or len(distractors) < 1:
            raise DataError("needs a list of at least one distractor", file=where, row=number, column=schema.DISTRACTORS)
        for slot, text in enumerate(distractors, start=1):
            if not isinstance(text, str) or not text.strip():
                raise DataError(f"distractor {slot} is empty", file=where, row=number, column=schema.DISTRACTORS)
        if row[schema.ID] in seen_ids:
            raise DataError(
                f"duplicate id {row[schema.ID]!r} (first at row {seen_ids[row[schema.ID]]})",
                file=where,
                row=number,
                column=schema.ID,
            )
        seen_ids[row[schema.ID]] = number


def write_config(folder: Path, spec: DirectionSpec, rows: Sequence[Mapping[str, Any]], *, overwrite: bool = False) -> Path:
    """Write one config's parquet file atomically. An existing file is never replaced silently."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = parquet_path(folder, spec.config)
    validate_rows(rows, where=str(path))
    if path.exists() and not overwrite:
        raise DataError("already exists; refusing to overwrite finished work (choose another folder).", file=str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    table = pa.Table.from_pylist(
        [{c: row[c] if c != schema.DISTRACTORS else list(row[c]) for c in schema.HUB_COLUMNS} for row in rows],
        schema=pa.schema(
            [
                (schema.ID, pa.string()),
                (schema.SOURCE, pa.string()),
                (schema.TARGET, pa.string()),
                (schema.DISTRACTORS, pa.list_(pa.string())),
                (schema.SOURCE_LANG, pa.string()),
                (schema.TARGET_LANG, pa.string()),
            ]
        ),
    )
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".parquet.tmp")
    os.close(fd)
    pq.write_table(table, tmp)
    Path(tmp).replace(path)
    return path


def front_matter(specs: Iterable[DirectionSpec], **fields: Any) -> dict[str, Any]:
    """The YAML header of a CLSD dataset card: Hub fields, ``configs`` and the ``clsd`` manifest."""
    specs = list(specs)
    header: dict[str, Any] = dict(fields)
    header["configs"] = [
        {
            "config_name": spec.config,
            "data_files": [{"split": schema.HUB_SPLIT, "path": f"{spec.config}/{schema.HUB_SPLIT}.parquet"}],
        }
        for spec in specs
    ]
    header[MANIFEST_KEY] = {"format_version": 1, "tasks": [asdict(spec) for spec in specs]}
    return header


def render_card(header: Mapping[str, Any], body: str) -> str:
    return "---\n" + yaml.safe_dump(dict(header), sort_keys=False, allow_unicode=True) + "---\n" + body


def parse_front_matter(text: str, where: str) -> dict[str, Any]:
    if not text.startswith("---"):
        raise DataError("dataset card has no YAML front matter (--- ... ---).", file=where)
    try:
        _, header, _ = text.split("---", 2)
        parsed = yaml.safe_load(header) or {}
    except (ValueError, yaml.YAMLError) as exc:
        raise DataError(f"cannot parse the YAML front matter: {exc}", file=where) from exc
    if not isinstance(parsed, dict):
        raise DataError("YAML front matter is not a mapping.", file=where)
    return parsed


def read_front_matter(folder: Path) -> dict[str, Any]:
    card = Path(folder) / CARD_FILE
    if not card.is_file():
        raise DataError("no dataset card; a CLSD Hub-format folder needs README.md with a YAML header.", file=str(card))
    return parse_front_matter(card.read_text(encoding="utf-8"), where=str(card))


def read_manifest_from_header(header: Mapping[str, Any], where: str) -> list[DirectionSpec]:
    manifest = header.get(MANIFEST_KEY)
    if not isinstance(manifest, dict) or not isinstance(manifest.get("tasks"), list):
        raise DataError(f"YAML front matter has no '{MANIFEST_KEY}: tasks:' list.", file=where, column=MANIFEST_KEY)
    specs = []
    for number, entry in enumerate(manifest["tasks"]):
        try:
            specs.append(DirectionSpec(**entry))
        except TypeError as exc:
            raise DataError(f"bad task entry {entry!r}: {exc}", file=where, row=number, column=MANIFEST_KEY) from exc
    return specs


def read_manifest(folder: Path) -> list[DirectionSpec]:
    """The tasks a Hub-format folder defines, read from its card only."""
    return read_manifest_from_header(read_front_matter(folder), where=str(Path(folder) / CARD_FILE))


def is_hub_folder(folder: Path) -> bool:
    try:
        read_manifest(folder)
    except DataError:
        return False
    return True


def read_config(folder: Path, config: str) -> list[dict[str, Any]]:
    """Read and validate one config's rows from a local Hub-format folder."""
    import pyarrow.parquet as pq

    path = parquet_path(folder, config)
    if not path.is_file():
        raise DataError(f"config {config!r} has no data file.", file=str(path))
    try:
        table = pq.read_table(path)
    except Exception as exc:  # pyarrow raises several unrelated types for a bad file
        raise DataError(f"not a readable parquet file: {exc}", file=str(path)) from exc
    missing = [c for c in schema.HUB_COLUMNS if c not in table.column_names]
    if missing:
        raise DataError("missing column", file=str(path), column=missing[0])
    rows = table.select(list(schema.HUB_COLUMNS)).to_pylist()
    validate_rows(rows, where=str(path))
    return rows
