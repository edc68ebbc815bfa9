"""Read parallel sentences from CSV, TSV, JSONL, parquet, a saved ``datasets`` folder or the Hub, as the declared
:class:`CorpusInput` (the input, its columns and languages) asks.

Strict, because every later step is paid for: an empty cell, a row with the wrong number of fields,
a missing key or a repeated pair stops the run before the first request, naming the file, the row
and the column. Cells are kept as the exact strings in the file (surrounding whitespace removed);
nothing is turned into a missing value, so a sentence reading "NA" stays a sentence. Each column's words are then
checked against the script of the language named for it (:func:`check_scripts`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from clsd_format.csv_reading import read_delimited
from clsd_format.declared_settings import DeclaredSettings, option_name, setting
from clsd_format.errors import CLSDError, DataError
from clsd_format.languages import Language, parse_pair, script_name, script_share
from clsd_generation.core.settings import INPUT

MAX_PROBLEMS_LISTED = 10
# A column mostly in another script than its language's is the wrong column or the wrong code: refused. One where a
# fifth or more is said in one line (names and loanwords in another script are common). Counted in words, a
# character for a word where the script has no spaces (clsd_format.languages.script_share; docs/generation.md).
SCRIPT_REFUSED_BELOW = 0.5
SCRIPT_WARNED_BELOW = 0.8
_FILE_SUFFIXES = (".csv", ".tsv", ".jsonl", ".ndjson", ".parquet", ".json", ".txt")


@dataclass(frozen=True)
class ParallelPair:
    """One parallel pair; ``pair_id`` is the id column's value, or ``row<N>`` (N: 1-based data row)."""

    pair_id: str
    texts: tuple[str, str]


@dataclass(frozen=True)
class ParallelCorpus:
    origin: str  # what was read, as the user named it: for messages to the user, never for a card
    columns: tuple[str, str]
    pairs: list[ParallelPair]
    id_column: str | None = None
    # What a published card may say of the input: a Hub dataset's id, or a local input's name and the SHA-256 of
    # its bytes (a file) or of its sentences (a folder), never the path, which tells the builder's folders.
    public_origin: str = ""
    hub_id: str | None = None  # the Hub dataset read, for the card's source_datasets

    @property
    def fingerprint(self) -> str:
        """SHA-256 of ids and texts: a checkpoint made from other sentences is refused."""
        digest = hashlib.sha256()
        for pair in self.pairs:
            digest.update(json.dumps([pair.pair_id, *pair.texts], ensure_ascii=False).encode("utf-8"))
            digest.update(b"\n")
        return digest.hexdigest()


@dataclass(frozen=True)
class _Record:
    row: int  # 1-based data row
    line: int | None  # line in a text file, for the message
    values: Mapping[str, Any]
    mismatch: str | None = None  # why a CSV/TSV row could not become a mapping (its field count)

    @property
    def name(self) -> int | str:
        """The row as messages name it."""
        return self.row if self.line is None else f"{self.row} (line {self.line})"


_Problem = tuple[str, int | str | None, str | None]  # message, row, column


def read_parallel(
    source: str | Path,
    columns: tuple[str, str],
    *,
    id_column: str | None = None,
    split: str = "train",
    hub_config: str | None = None,
    limit: int | None = None,
) -> ParallelCorpus:
    """Read and check a parallel corpus; ``limit`` keeps the first rows (trial runs)."""
    if columns[0] == columns[1]:
        raise CLSDError(f"the two language columns must differ (both are {columns[0]!r}).")
    path = Path(source).expanduser()
    where, hub_id = str(path), None
    if path.is_file():
        suffix = path.suffix.lower()
        if suffix in (".csv", ".tsv"):
            records: Iterable[_Record] = _read_delimited(path, "\t" if suffix == ".tsv" else ",")
        elif suffix in (".jsonl", ".ndjson"):
            records = _read_jsonl(path)
        elif suffix == ".parquet":
            records = _read_table_rows(_parquet_rows(path))
        else:
            raise DataError("unknown file type; use .csv, .tsv, .jsonl, .parquet or a saved datasets folder.", file=where)
    elif path.is_dir():
        records = _read_table_rows(_folder_rows(path, split))
    elif path.exists():
        raise DataError("neither a file nor a folder.", file=where)
    elif "/" in str(source) and not str(source).startswith((".", "/", "~")) and path.suffix.lower() not in _FILE_SUFFIXES:
        where, hub_id = f"{source} (Hub dataset, config {hub_config}, split {split})", str(source)
        records = _read_table_rows(_hub_rows(str(source), hub_config, split))
    else:
        raise DataError("no such file or folder (a Hub dataset is named owner/name).", file=where)
    pairs = _check(records, where, columns, id_column, limit)
    corpus = ParallelCorpus(origin=str(source), columns=columns, pairs=pairs, id_column=id_column, hub_id=hub_id)
    return replace(corpus, public_origin=_public_origin(corpus, path, hub_config, split))


def _public_origin(corpus: ParallelCorpus, path: Path, hub_config: str | None, split: str) -> str:
    """The input as a card names it: ``owner/name`` (config, split), or a local name with a SHA-256 to check it by."""
    if corpus.hub_id is not None:
        return f"{corpus.hub_id} (Hub dataset" + (f", config {hub_config}" if hub_config else "") + f", split {split})"
    if path.is_file():
        digest = hashlib.sha256()
        with path.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        return f"{path.name} (a local file, SHA-256 {digest.hexdigest()})"
    return f"{path.name} (a local datasets folder, split {split}; SHA-256 of its sentences {corpus.fingerprint})"


def _read_delimited(path: Path, delimiter: str) -> Iterator[_Record]:
    # A blank line is a row with no sentence in it: reported like any empty row.
    header, records = read_delimited(path, delimiter=delimiter, blank_lines_are_rows=True)
    for record in records:
        if not record.fields:
            yield _Record(record.row, record.line, {})
        elif len(record.fields) != len(header):
            yield _Record(record.row, record.line, {}, mismatch=f"{len(record.fields)} fields where the header has {len(header)}")
        else:
            yield _Record(record.row, record.line, dict(zip(header, record.fields, strict=True)))


def _read_jsonl(path: Path) -> Iterator[_Record]:
    with path.open(encoding="utf-8-sig") as handle:
        row = 0
        for line_number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            row += 1
            try:
                value = json.loads(line)
            except json.JSONDecodeError as exc:
                raise DataError(f"not JSON on line {line_number}: {exc.msg}", file=str(path), row=row) from exc
            if not isinstance(value, dict):
                raise DataError(f"line {line_number} holds a JSON {type(value).__name__}, not an object", file=str(path), row=row)
            yield _Record(row, line_number, value)


def _read_table_rows(rows: Iterable[Mapping[str, Any]]) -> Iterator[_Record]:
    for number, values in enumerate(rows, start=1):
        yield _Record(number, None, values)


def _parquet_rows(path: Path) -> Iterator[Mapping[str, Any]]:
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
    except Exception as exc:  # pyarrow raises several unrelated types for a bad file
        raise DataError(f"not a readable parquet file: {exc}", file=str(path)) from exc
    yield from table.to_pylist()


def _folder_rows(path: Path, split: str) -> Iterator[Mapping[str, Any]]:
    """A folder written by ``Dataset.save_to_disk`` / ``DatasetDict.save_to_disk``, or of parquet files."""
    import datasets

    if (path / "dataset_dict.json").is_file() or (path / "state.json").is_file():
        loaded = datasets.load_from_disk(str(path))
        if isinstance(loaded, datasets.DatasetDict):
            if split not in loaded:
                choose = option_name(CorpusInput, "split")
                raise DataError(
                    f"no split {split!r}; the folder holds {list(loaded)} (choose one with {choose}).", file=str(path)
                )
            loaded = loaded[split]
        yield from loaded
        return
    files = sorted(path.rglob("*.parquet"))
    if not files:
        raise DataError(
            "neither a saved datasets folder (state.json / dataset_dict.json) nor a folder of parquet files.", file=str(path)
        )
    for file in files:
        yield from _parquet_rows(file)


def _hub_rows(name: str, config: str | None, split: str) -> Iterator[Mapping[str, Any]]:
    import datasets

    try:
        data = datasets.load_dataset(name, config, split=split)
    except Exception as exc:  # offline, unknown repo, gated, bad split: all end here
        raise DataError(
            f"cannot load Hub dataset ({type(exc).__name__}: {exc}). It needs network access or a filled HF cache; "
            "a local file or folder works offline.",
            file=name,
        ) from exc
    yield from data


def _check(
    records: Iterable[_Record],
    where: str,
    columns: tuple[str, str],
    id_column: str | None,
    limit: int | None,
) -> list[ParallelPair]:
    """Every pair, or one error listing the bad rows: a run is paid for, so all of them are named at once."""
    checker = _PairChecker(where, columns, id_column)
    for record in records:
        if limit is not None and len(checker.pairs) + len(checker.problems) >= limit:
            break
        checker.add(record)
    if checker.problems:
        raise _problems_error(checker.problems, where)
    if not checker.pairs:
        raise DataError("no parallel pairs in the input.", file=where)
    return checker.pairs


class _PairChecker:
    """Turns records into pairs one at a time, noting each bad row instead of stopping at the first."""

    def __init__(self, where: str, columns: tuple[str, str], id_column: str | None) -> None:
        self.where, self.columns, self.id_column = where, columns, id_column
        self.pairs: list[ParallelPair] = []
        self.problems: list[_Problem] = []
        self._first_row_of_pair: dict[tuple[str, str], int] = {}
        self._first_row_of_id: dict[str, int] = {}
        self._columns_checked = False

    def add(self, record: _Record) -> None:
        if record.mismatch is not None:
            self.problems.append((f"mismatched row: {record.mismatch}", record.name, None))
            return
        self._check_columns_once(record)
        texts = self._texts(record)
        if texts is None:
            return
        pair_id = self._pair_id(record)
        if pair_id is None:
            return
        if texts in self._first_row_of_pair:
            self.problems.append((f"duplicate pair (same sentences as row {self._first_row_of_pair[texts]})", record.name, None))
            return
        self._first_row_of_pair[texts] = record.row
        self.pairs.append(ParallelPair(pair_id, texts))

    def _check_columns_once(self, record: _Record) -> None:
        """A column absent from the first non-empty row is a wrong name, not a bad row: stop at once."""
        if self._columns_checked or not record.values:
            return
        wanted = [*self.columns, *([self.id_column] if self.id_column else [])]
        absent = [c for c in wanted if c not in record.values]
        if absent:
            raise DataError(f"no such column; the input has {sorted(record.values)}", file=self.where, column=absent[0])
        self._columns_checked = True

    def _texts(self, record: _Record) -> tuple[str, str] | None:
        texts = []
        for column in self.columns:
            value = record.values.get(column)
            if column not in record.values:
                self.problems.append(("missing value (the row lacks this column)", record.name, column))
            elif not isinstance(value, str):
                self.problems.append((f"not text: {value!r}", record.name, column))
            elif not value.strip():
                self.problems.append(("empty sentence", record.name, column))
            else:
                texts.append(value.strip())
        return (texts[0], texts[1]) if len(texts) == 2 else None

    def _pair_id(self, record: _Record) -> str | None:
        if not self.id_column:
            return f"row{record.row}"
        raw_id = record.values.get(self.id_column)
        pair_id = str(raw_id).strip() if raw_id is not None else ""
        if not pair_id:
            self.problems.append(("empty id", record.name, self.id_column))
            return None
        if pair_id in self._first_row_of_id:
            self.problems.append(
                (f"duplicate id {pair_id!r} (first in row {self._first_row_of_id[pair_id]})", record.name, self.id_column)
            )
            return None
        self._first_row_of_id[pair_id] = record.row
        return pair_id


def _problems_error(problems: list[_Problem], where: str) -> DataError:
    """The first problem as the error's row and column; up to MAX_PROBLEMS_LISTED more in the message."""
    listed = "; ".join(
        f"row {row}" + (f" column {column!r}" if column else "") + f": {message}"
        for message, row, column in problems[1 : 1 + MAX_PROBLEMS_LISTED]
    )
    more = len(problems) - 1 - MAX_PROBLEMS_LISTED
    extra = f" Also: {listed}" + (f" (and {more} more)" if more > 0 else "") if listed else ""
    message, row, column = problems[0]
    return DataError(
        f"{message}. {len(problems)} bad row(s) in all; fix the input, nothing was generated.{extra}",
        file=where,
        row=row,
        column=column,
    )


def check_scripts(corpus: ParallelCorpus, languages: tuple[Language, Language]) -> list[str]:
    """Each column against the script its language is written in (a script subtag, else the language's usual one),
    counted in words (a character where the script puts no spaces between words, so that Chinese news naming an
    "iPhone 15 Pro Max" is Chinese): refused when under half are in it, one warning line each where under four
    fifths are.

    Read before anything is asked of a backend, so that ``--target-lang sr-Latn`` on Cyrillic text (or swapped
    columns) costs nothing.
    """
    warnings = []
    for side, language in enumerate(languages):
        measured = script_share((pair.texts[side] for pair in corpus.pairs), language)
        if measured is None or measured.share is None or measured.share >= SCRIPT_WARNED_BELOW:
            continue
        column, other = corpus.columns[side], measured.other
        said = (
            f"{language.name} ({language.code}) is written in {script_name(measured.script)}, but "
            f"{1 - measured.share:.0%} of the words of column {column!r} are not"
            + (f", most of them {script_name(other)}" if other else "")
        )
        if measured.share < SCRIPT_REFUSED_BELOW:
            base = language.code.split("-")[0]
            raise DataError(
                f"{said}. Name the language with the script of its text (e.g. '{base}-{other}'), or choose the other column.",
                file=corpus.origin,
                column=column,
            )
        warnings.append(f"warning: {said}.")
    return warnings


@dataclass(frozen=True)
class CorpusInput(DeclaredSettings):
    """The parallel sentences and their two languages."""

    PANEL = INPUT

    input: str = setting(
        help="Parallel sentences: a .csv/.tsv/.jsonl/.parquet file, a saved `datasets` folder, or a Hub dataset id (owner/name).",
        argument=True,
    )
    source_column: str = setting(help="Column holding the first language's sentences.")
    target_column: str = setting(help="Column holding the second language's sentences.")
    source_lang: str = setting(
        help="First language: a code (de, fr, en, ...) or code:Name:mteb-code, e.g. 'gsw:Swiss German:gsw-Latn'."
    )
    target_lang: str = setting(help="Second language, as {--source_lang}.")
    id_column: str | None = setting(None, help="Column with a unique id per pair (default: row<N>, the data row number).")
    split: str = setting("train", help="Split of a datasets folder or Hub dataset.")
    hub_config: str | None = setting(None, help="Config of a Hub dataset.")
    limit: int | None = setting(None, help="Use only the first N rows (a trial run; part of the input fingerprint).", minimum=1)

    def languages(self) -> tuple[Language, Language]:
        """Both codes checked as they are read (two codes of one language refused), before the input or an endpoint."""
        return parse_pair(self.source_lang, self.target_lang)

    def read(self) -> ParallelCorpus:
        columns = (self.source_column, self.target_column)
        return read_parallel(
            self.input, columns, id_column=self.id_column, split=self.split, hub_config=self.hub_config, limit=self.limit
        )
