"""The project's Hub format: write it, read it, validate it (spec: ``dataset_cards/FORMAT.md``).

A CLSD dataset folder (= a Hugging Face dataset repository) holds one config per evaluation
direction, each a single ``test`` split in ``<config>/test.parquet``, and a ``README.md`` whose YAML
front matter lists the configs (``configs:``, which the Hub and ``datasets`` read) and, under
``clsd:``, the task each config defines (name and languages), so a task can be built without
reading any data. No mteb or torch import here: the generation module writes this format too. The
header is read and written with ``huggingface_hub``'s repocard API, so this package and the Hub agree on
where it ends (:func:`read_card_header`, :func:`render_card`).

The ``clsd:`` block also records each data file's SHA-256 and row count (``files:``), written once the
files are (:func:`file_records`). Readers check the files against it (:func:`check_files`,
:func:`read_config`) and stop at a file changed since, naming it; a card without the record (older
exports, hand-made folders) is read unchecked.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import yaml

from clsd_format import schema
from clsd_format.errors import CLSDError, DataError
from clsd_format.files import new_temp_file

CARD_FILE = "README.md"
EVAL_FILE = "eval.yaml"  # the Hub's evaluation config (mteb's format), written beside the card by the plugin
MANIFEST_KEY = "clsd"
FILES_KEY = "files"  # under MANIFEST_KEY: data file -> {sha256, rows}
# under MANIFEST_KEY: direct task name -> why its English pivot config was not built (its translations were refused)
PIVOT_NOT_BUILT_KEY = "pivot_not_built"
# under MANIFEST_KEY: who made the distractors: {backend: llm or rules, model: the LLM asked, answered_by: [names]}
DISTRACTORS_KEY = "distractors"
BACKENDS = ("llm", "rules")


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


def data_file(config: str) -> str:
    """A config's data file, relative to the dataset folder (as ``configs:`` and ``files:`` name it)."""
    return f"{config}/{schema.HUB_SPLIT}.parquet"


def parquet_path(folder: Path, config: str) -> Path:
    return Path(folder) / data_file(config)


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with Path(path).open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


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
        for column in schema.OPTIONAL_HUB_COLUMNS:
            labels = row.get(column)
            if labels is not None and (
                isinstance(labels, str) or len(labels) != len(distractors) or not all(isinstance(v, str) for v in labels)
            ):
                raise DataError(f"needs one label per distractor ({len(distractors)})", file=where, row=number, column=column)
        if row[schema.ID] in seen_ids:
            raise DataError(
                f"duplicate id {row[schema.ID]!r} (first at row {seen_ids[row[schema.ID]]})",
                file=where,
                row=number,
                column=schema.ID,
            )
        seen_ids[row[schema.ID]] = number


def refuse_unknown_columns(columns: Iterable[str], where: str) -> None:
    """Stop at a column the Hub format does not have: data read in part is never scored as if it were whole."""
    unknown = sorted(set(columns) - {*schema.HUB_COLUMNS, *schema.OPTIONAL_HUB_COLUMNS})
    if unknown:
        known = ", ".join((*schema.HUB_COLUMNS, *schema.OPTIONAL_HUB_COLUMNS))
        raise DataError(
            f"a column the CLSD Hub format does not have (it has {known}); not read in part", file=where, column=unknown[0]
        )


def write_config(folder: Path, spec: DirectionSpec, rows: Sequence[Mapping[str, Any]], *, overwrite: bool = False) -> Path:
    """Write one config's parquet file atomically. An existing file is never replaced silently."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = parquet_path(folder, spec.config)
    validate_rows(rows, where=str(path))
    if path.exists() and not overwrite:
        raise DataError("already exists; refusing to overwrite finished work (choose another folder).", file=str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    # An optional column is written when every row has it (rule-made data: the rule behind each distractor).
    optional = [c for c in schema.OPTIONAL_HUB_COLUMNS if rows and all(row.get(c) is not None for row in rows)]
    lists = {schema.DISTRACTORS, *optional}
    table = pa.Table.from_pylist(
        [{c: list(row[c]) if c in lists else row[c] for c in (*schema.HUB_COLUMNS, *optional)} for row in rows],
        schema=pa.schema(
            [
                (schema.ID, pa.string()),
                (schema.SOURCE, pa.string()),
                (schema.TARGET, pa.string()),
                (schema.DISTRACTORS, pa.list_(pa.string())),
                (schema.SOURCE_LANG, pa.string()),
                (schema.TARGET_LANG, pa.string()),
                *((column, pa.list_(pa.string())) for column in optional),
            ]
        ),
    )
    tmp = new_temp_file(path.parent, ".parquet.tmp")  # the user's umask, as the card gets (mkstemp's is 0600)
    try:
        pq.write_table(table, str(tmp))
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def front_matter(specs: Iterable[DirectionSpec], **fields: Any) -> dict[str, Any]:
    """The YAML header of a CLSD dataset card: Hub fields, ``configs`` and the ``clsd`` manifest."""
    specs = list(specs)
    header: dict[str, Any] = dict(fields)
    header["configs"] = [
        {
            "config_name": spec.config,
            "data_files": [{"split": schema.HUB_SPLIT, "path": data_file(spec.config)}],
        }
        for spec in specs
    ]
    header[MANIFEST_KEY] = {"format_version": 1, "tasks": [asdict(spec) for spec in specs]}
    return header


def render_card(header: Mapping[str, Any], body: str) -> str:
    """The card's text: ``header`` as its YAML block, keys in their order, then ``body``.

    The YAML is written by ``huggingface_hub``'s repocard API (``DatasetCardData.to_yaml``), as the Hub's
    own tools write a card, and framed as its documentation shows.
    """
    from huggingface_hub import DatasetCardData

    return f"---\n{DatasetCardData(**dict(header)).to_yaml(original_order=list(header))}\n---\n{body}"


def read_card_header(card: Path, where: str | None = None) -> dict[str, Any]:
    """The YAML header of the dataset card in file ``card`` (``where``: how errors name it; default: its path).

    Read by ``huggingface_hub``'s repocard reader (``metadata_load``), so the header ends where the Hub
    ends it: at a line that is ``---``, never at a ``---`` inside a value.
    """
    from huggingface_hub import metadata_load

    where = where or str(card)
    try:
        header = metadata_load(card)
    except (ValueError, yaml.YAMLError) as exc:  # ValueError: a header that is not a mapping, or not UTF-8
        raise DataError(f"cannot parse the YAML front matter: {exc}", file=where) from exc
    if header is None:
        raise DataError("dataset card has no YAML front matter (--- ... ---).", file=where)
    return header


def read_front_matter(folder: Path) -> dict[str, Any]:
    card = Path(folder) / CARD_FILE
    if not card.is_file():
        raise DataError("no dataset card; a CLSD Hub-format folder needs README.md with a YAML header.", file=str(card))
    return read_card_header(card)


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


def pivot_not_built(header: Mapping[str, Any], where: str) -> dict[str, str]:
    """Direct task name -> why its English pivot config was not built (most translations refused), from a card's
    header; empty when the card says nothing of it. Read strictly: the answer repeats it."""
    manifest = header.get(MANIFEST_KEY)
    found = manifest.get(PIVOT_NOT_BUILT_KEY) if isinstance(manifest, dict) else None
    if found is None:
        return {}
    if not isinstance(found, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in found.items()):
        raise DataError(f"'{PIVOT_NOT_BUILT_KEY}' must map task names to reasons.", file=where, column=MANIFEST_KEY)
    return dict(found)


@dataclass(frozen=True)
class DistractorOrigin:
    """Who made a generated set's distractors, as ``clsd build`` records it in the card: the backend, the LLM asked
    for, and the other names its kept answers gave their model (a deployment answers as the model behind it)."""

    backend: str  # one of BACKENDS
    model: str | None = None
    answered_by: tuple[str, ...] = ()
    judged_by: str | None = None  # the judge model of `clsd judge`, when the set was judged
    judged: tuple[tuple[str, int, int], ...] = ()  # per language: (code, judged valid, judged)

    def describe(self) -> str:
        """ "the LLM gpt-4o" (answering as ...), or "rules (no LLM)"."""
        if self.backend == "rules":
            return "rules (no LLM)"
        answered = f", answering as {', '.join(self.answered_by)}" if self.answered_by else ""
        return f"the LLM {self.model or '(no model named)'}{answered}"


def distractor_origin(header: Mapping[str, Any], where: str) -> DistractorOrigin | None:
    """Who made the distractors, from a card's header; None when the card does not say (the release, an older set).
    Read strictly: every answer over the set opens with it."""
    manifest = header.get(MANIFEST_KEY)
    found = manifest.get(DISTRACTORS_KEY) if isinstance(manifest, dict) else None
    if found is None:
        return None
    names = found.get("answered_by", []) if isinstance(found, dict) else None
    judged = _judged(found.get("judged") if isinstance(found, dict) else None, where)
    if (
        not isinstance(found, dict)
        or set(found) - {"backend", "model", "answered_by", "judged"}
        or found.get("backend") not in BACKENDS
        or not isinstance(found.get("model", ""), str | None)
        or not isinstance(names, list)
        or not all(isinstance(name, str) for name in names)
    ):
        raise DataError(
            f"'{DISTRACTORS_KEY}' must be backend ({' or '.join(BACKENDS)}), model (a name) and answered_by (a list of "
            f"names); got {found!r}",
            file=where,
            column=MANIFEST_KEY,
        )
    return DistractorOrigin(found["backend"], found.get("model"), tuple(names), *judged)


def _judged(found: object, where: str) -> tuple[str | None, tuple[tuple[str, int, int], ...]]:
    """The judge model and its counts per language, from the origin's ``judged`` entry (absent: not judged)."""
    if found is None:
        return None, ()
    languages = found.get("languages") if isinstance(found, dict) else None
    counts = [
        (code, entry.get("valid"), entry.get("judged"))
        for code, entry in (languages.items() if isinstance(languages, dict) else ())
        if isinstance(entry, dict)
    ]
    good = all(isinstance(code, str) and isinstance(k, int) and isinstance(n, int) and 0 <= k <= n for code, k, n in counts)
    if not isinstance(found, dict) or not isinstance(found.get("model"), str) or not isinstance(languages, dict) or not good:
        raise DataError(
            f"'{DISTRACTORS_KEY}: judged' must be model (a name) and languages (code -> valid and judged counts, "
            f"0 <= valid <= judged); got {found!r}",
            file=where,
            column=MANIFEST_KEY,
        )
    return found["model"], tuple((code, int(k), int(n)) for code, k, n in counts)  # type: ignore[arg-type]


def read_manifest(folder: Path) -> list[DirectionSpec]:
    """The tasks a Hub-format folder defines, read from its card only."""
    return read_manifest_from_header(read_front_matter(folder), where=str(Path(folder) / CARD_FILE))


def is_hub_folder(folder: Path) -> bool:
    try:
        read_manifest(folder)
    except DataError:
        return False
    return True


def _parquet_rows(path: Path) -> int | None:
    """Rows of a parquet file from its footer (no data read), or None when it is not readable as parquet."""
    import pyarrow.parquet as pq

    try:
        return int(pq.ParquetFile(path).metadata.num_rows)
    except Exception:  # pyarrow raises several unrelated types for a bad file
        return None


def file_records(folder: Path, specs: Iterable[DirectionSpec]) -> dict[str, dict[str, Any]]:
    """The ``clsd: files:`` record of the configs' data files as written: SHA-256 and row count of each."""
    records: dict[str, dict[str, Any]] = {}
    for spec in specs:
        path = parquet_path(folder, spec.config)
        rows = _parquet_rows(path)
        if rows is None:
            raise DataError("not a readable parquet file.", file=str(path))
        records[data_file(spec.config)] = {"sha256": sha256_of(path), "rows": rows}
    return records


def recorded_files(header: Mapping[str, Any], where: str) -> dict[str, dict[str, Any]] | None:
    """The card's record of its data files (``clsd: files:``), or None when it has none."""
    manifest = header.get(MANIFEST_KEY)
    recorded = manifest.get(FILES_KEY) if isinstance(manifest, Mapping) else None
    if recorded is None:
        return None
    if not isinstance(recorded, Mapping) or not all(
        isinstance(entry, Mapping) and isinstance(entry.get("sha256"), str) and isinstance(entry.get("rows"), int)
        for entry in recorded.values()
    ):
        raise DataError(
            f"'{MANIFEST_KEY}: {FILES_KEY}:' must map each data file to its sha256 and rows.", file=where, column=MANIFEST_KEY
        )
    return {str(name): dict(entry) for name, entry in recorded.items()}


def recorded_file(header: Mapping[str, Any], config: str, where: str) -> dict[str, Any] | None:
    """The card's record of one config's data file; None when the card records no files at all.

    A card that records other files but not this config's was edited after it was written: refused.
    """
    recorded = recorded_files(header, where)
    if recorded is None:
        return None
    if data_file(config) not in recorded:
        raise DataError(
            f"'{MANIFEST_KEY}: {FILES_KEY}:' records other data files but not {data_file(config)}.",
            file=where,
            column=MANIFEST_KEY,
        )
    return recorded[data_file(config)]


def check_file(path: Path, record: Mapping[str, Any]) -> None:
    """Stop, naming the file, when a data file is not the one the card recorded (SHA-256 and row count)."""
    if not path.is_file():
        raise DataError("data file listed by the dataset card is missing.", file=str(path))
    digest, rows = sha256_of(path), _parquet_rows(path)
    if digest != record["sha256"] or rows != record["rows"]:
        raise DataError(
            f"changed since the dataset card was written: SHA-256 {digest[:16]}…, {'unreadable' if rows is None else rows} rows; "
            f"the card records {record['sha256'][:16]}…, {record['rows']} rows. Restore the file or build the folder again.",
            file=str(path),
        )


def check_files(folder: Path, header: Mapping[str, Any]) -> bool:
    """Check every config's data file against the card's record; False when the card records none (nothing checked)."""
    where = str(Path(folder) / CARD_FILE)
    if recorded_files(header, where) is None:
        return False
    for spec in read_manifest_from_header(header, where):
        record = recorded_file(header, spec.config, where)
        if record is not None:
            check_file(parquet_path(folder, spec.config), record)
    return True


def read_config(folder: Path, config: str, record: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """Read and validate one config's rows from a local Hub-format folder (first checked against ``record``, if given)."""
    import pyarrow.parquet as pq

    path = parquet_path(folder, config)
    if not path.is_file():
        raise DataError(f"config {config!r} has no data file.", file=str(path))
    if record is not None:
        check_file(path, record)
    try:
        table = pq.read_table(path)
    except Exception as exc:  # pyarrow raises several unrelated types for a bad file
        raise DataError(f"not a readable parquet file: {exc}", file=str(path)) from exc
    missing = [c for c in schema.HUB_COLUMNS if c not in table.column_names]
    if missing:
        raise DataError("missing column", file=str(path), column=missing[0])
    refuse_unknown_columns(table.column_names, str(path))
    optional = [c for c in schema.OPTIONAL_HUB_COLUMNS if c in table.column_names]
    rows = table.select([*schema.HUB_COLUMNS, *optional]).to_pylist()
    validate_rows(rows, where=str(path))
    return rows


TOKEN_ENV_VARS = ("HF_TOKEN", "HUGGING_FACE_HUB_TOKEN")


def check_repo_id(repo_id: str, what: str = "repository id") -> None:
    """``owner/name``, spelled as the Hub accepts it (``huggingface_hub``'s own check: no spaces, no ``..``).

    ``what``: how the message names the value (a dataset's repository id, a model name mteb uploads to).
    """
    from huggingface_hub.utils import HFValidationError, validate_repo_id

    if repo_id.count("/") != 1 or not all(repo_id.split("/")):
        raise CLSDError(f"{what} {repo_id!r}: write it as owner/name.")
    try:
        validate_repo_id(repo_id)
    except HFValidationError as exc:
        raise CLSDError(f"{what} {repo_id!r} is not valid on the Hub: {exc}") from exc


def hub_token(what: str, dry_run: str) -> str:
    """The Hugging Face token for an upload, from the environment (registered for redaction); else a clear error.

    ``what`` names the upload in the message, which also offers ``dry_run``, the calling command's option that does
    without one (each push command declares its own).
    """
    import os

    from clsd_format.errors import CLSDError
    from clsd_format.redaction import register_secret

    token = next((os.environ[name] for name in TOKEN_ENV_VARS if os.environ.get(name)), None)
    if token is None:
        raise CLSDError(
            f"no Hugging Face token for {what}: set {TOKEN_ENV_VARS[0]} (a token with write access), or use {dry_run}."
        )
    register_secret(token)  # an upload error that echoes it is redacted
    return token
