"""The run's durable state: one SQLite file in WAL mode, written before anything depends on it.

Why SQLite: each answer is one small transaction, committed before the next step uses it, so a run
killed at any moment (``kill -9`` included) loses at most the requests in flight, never a recorded
answer; primary keys make a duplicate impossible rather than unlikely; and ``clsd build`` can read
everything back without the input file. WAL with ``synchronous=NORMAL`` is durable against a
crashed or killed process (the commit is in the operating system's hands once ``COMMIT`` returns);
pass ``durable_against_power_loss=True`` for ``synchronous=FULL`` (an fsync per answer).

The checkpoint remembers what produced it (input, languages, backend, model, prompts, parameters,
validation bounds): opening it with anything else is refused, so results are never mixed.
"""

from __future__ import annotations

import datetime
import json
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clsd_format.errors import CLSDError
from clsd_generation.inputs import ParallelCorpus, ParallelPair

CHECKPOINT_FILE = "checkpoint.sqlite"
SCHEMA_VERSION = 2  # 2: the rule behind each candidate and distractor (a version-1 file gains the columns, empty)
GENERATION_KEY = "generation"
TRANSLATION_KEY = "translation"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS pairs (
    position INTEGER PRIMARY KEY, pair_id TEXT NOT NULL UNIQUE, text_a TEXT NOT NULL, text_b TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS attempts (
    pair_id TEXT NOT NULL, lang TEXT NOT NULL, attempt INTEGER NOT NULL,
    answer TEXT NOT NULL, candidates TEXT NOT NULL, origin TEXT NOT NULL,
    prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER NOT NULL, created TEXT NOT NULL,
    candidate_rules TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (pair_id, lang, attempt));
CREATE TABLE IF NOT EXISTS results (
    pair_id TEXT NOT NULL, lang TEXT NOT NULL, status TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
    distractors TEXT NOT NULL, reason TEXT, attempts INTEGER NOT NULL, finished TEXT NOT NULL,
    distractor_rules TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (pair_id, lang));
CREATE TABLE IF NOT EXISTS batches (
    batch_id TEXT PRIMARY KEY, round INTEGER NOT NULL, input_file_id TEXT NOT NULL,
    submitted TEXT NOT NULL, collected INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS translations (
    lang TEXT NOT NULL, text TEXT NOT NULL, translation TEXT NOT NULL, PRIMARY KEY (lang, text));
"""


def now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


@dataclass(frozen=True)
class Result:
    pair_id: str
    lang: str
    status: str  # "ok" or "failed"
    distractors: list[str]
    reason: str | None
    attempts: int
    finished: str
    rules: tuple[str, ...] = ()  # the rule behind each distractor (rule backend); empty for LLM answers


@dataclass(frozen=True)
class StoredAnswer:
    """One stored answer of an unfinished sentence: its candidates and, from the rule backend, the rule of each."""

    candidates: list[str]
    rules: list[str]


@dataclass(frozen=True)
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def total(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def __add__(self, other: Usage) -> Usage:
        return Usage(self.prompt_tokens + other.prompt_tokens, self.completion_tokens + other.completion_tokens)


@dataclass(frozen=True)
class Answer:
    """One answer as stored: the attempt it answers, its raw text, the candidates parsed from it and what made it."""

    attempt: int
    text: str
    candidates: Sequence[str]
    origin: str  # "rules", "live:<served model>", "batch:<batch id>"
    usage: Usage = Usage()
    candidate_rules: Sequence[str] = ()  # the rule behind each candidate (rule backend)


class Checkpoint:
    """One run folder's state. Use from one thread; every write is its own committed transaction."""

    def __init__(self, path: Path, *, durable_against_power_loss: bool = False) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, timeout=30.0)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={'FULL' if durable_against_power_loss else 'NORMAL'}")
            self._db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise CLSDError(f"checkpoint {self.path}: not a usable SQLite file ({exc}).") from exc
        version = self.get_meta("schema_version")
        if version == 1:
            self._upgrade_from_version_1()
        elif version is None:
            self.set_meta("schema_version", SCHEMA_VERSION)
        elif version != SCHEMA_VERSION:
            raise CLSDError(
                f"checkpoint {self.path} has schema version {version}; this clsd-mteb reads version {SCHEMA_VERSION}."
            )

    def _upgrade_from_version_1(self) -> None:
        """Add the rules columns (empty: a version-1 run did not store its rules); nothing else changed."""
        with self.transaction() as db:
            for table, column in (("attempts", "candidate_rules"), ("results", "distractor_rules")):
                if column not in {row[1] for row in db.execute(f"PRAGMA table_info({table})")}:
                    db.execute(f"ALTER TABLE {table} ADD COLUMN {column} TEXT NOT NULL DEFAULT '[]'")
            db.execute("INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", (json.dumps(SCHEMA_VERSION),))

    @classmethod
    def in_folder(cls, run_dir: Path, **kwargs: Any) -> Checkpoint:
        return cls(Path(run_dir) / CHECKPOINT_FILE, **kwargs)

    @classmethod
    def existing(cls, run_dir: Path) -> Checkpoint:
        path = Path(run_dir) / CHECKPOINT_FILE
        if not path.is_file():
            raise CLSDError(f"{run_dir} holds no {CHECKPOINT_FILE}; run `clsd generate` with --run-dir {run_dir} first.")
        return cls(path)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Checkpoint:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    # --- what produced this run ---------------------------------------------------------------
    def get_meta(self, key: str) -> Any:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def set_meta(self, key: str, value: Any) -> None:
        self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, json.dumps(value, ensure_ascii=False)))

    def bind(self, key: str, settings: Mapping[str, Any]) -> None:
        """Record ``settings`` under ``key`` on first use; afterwards refuse any that differ."""
        settings = json.loads(json.dumps(settings, ensure_ascii=False))  # tuples -> lists, as stored
        stored = self.get_meta(key)
        if stored is None:
            self.set_meta(key, settings)
            return
        differing = sorted(k for k in set(stored) | set(settings) if stored.get(k) != settings.get(k))
        if differing:
            shown = "; ".join(
                f"{k}: checkpoint has {_short(stored.get(k))}, this run has {_short(settings.get(k))}" for k in differing
            )
            raise CLSDError(
                f"checkpoint {self.path} was made with different settings ({shown}). Results would be mixed: "
                "use another --run-dir for the new settings, or repeat the original command to resume."
            )

    # --- input --------------------------------------------------------------------------------
    def store_pairs(self, corpus: ParallelCorpus) -> None:
        if self._db.execute("SELECT COUNT(*) FROM pairs").fetchone()[0]:
            return  # bound to the same input fingerprint by bind(); stored on the first run
        with self.transaction() as db:
            db.executemany(
                "INSERT INTO pairs VALUES (?, ?, ?, ?)",
                ((n, p.pair_id, p.texts[0], p.texts[1]) for n, p in enumerate(corpus.pairs)),
            )

    def pairs(self) -> list[ParallelPair]:
        return [
            ParallelPair(pid, (a, b))
            for pid, a, b in self._db.execute("SELECT pair_id, text_a, text_b FROM pairs ORDER BY position")
        ]

    # --- answers and results ------------------------------------------------------------------
    def record(
        self,
        pair_id: str,
        lang: str,
        *,
        answer: Answer | None = None,
        result: tuple[str, list[str], str | None, int] | None = None,
        distractor_rules: Sequence[str] = (),
    ) -> None:
        """Store one answer and/or the sentence's final result, in one transaction.

        ``distractor_rules`` names the rule behind each distractor of the result (the rule backend; an LLM has none).
        """
        with self.transaction() as db:
            if answer is not None:
                _insert_attempt(db, pair_id, lang, answer)
            if result is not None:
                _insert_result(db, pair_id, lang, result, distractor_rules)

    def finished(self) -> set[tuple[str, str]]:
        return set(self._db.execute("SELECT pair_id, lang FROM results"))

    def stored_answers(self) -> dict[tuple[str, str], list[StoredAnswer]]:
        """Every stored answer of every unfinished sentence, in attempt order."""
        answers: dict[tuple[str, str], list[StoredAnswer]] = {}
        for pair_id, lang, candidates, rules in self._db.execute(
            "SELECT a.pair_id, a.lang, a.candidates, a.candidate_rules FROM attempts a LEFT JOIN results r "
            "ON a.pair_id = r.pair_id AND a.lang = r.lang WHERE r.pair_id IS NULL ORDER BY a.pair_id, a.lang, a.attempt"
        ):
            answers.setdefault((pair_id, lang), []).append(StoredAnswer(json.loads(candidates), json.loads(rules)))
        return answers

    def attempt_numbers(self) -> dict[tuple[str, str], list[int]]:
        """The stored attempt numbers of every sentence, in order: a resumed run continues the count (1, 2, 3 ...)."""
        numbers: dict[tuple[str, str], list[int]] = {}
        for pair_id, lang, attempt in self._db.execute(
            "SELECT pair_id, lang, attempt FROM attempts ORDER BY pair_id, lang, attempt"
        ):
            numbers.setdefault((pair_id, lang), []).append(attempt)
        return numbers

    def results(self) -> list[Result]:
        return [
            Result(pid, lang, status, json.loads(distractors), reason, attempts, finished, tuple(json.loads(rules)))
            for pid, lang, status, distractors, reason, attempts, finished, rules in self._db.execute(
                "SELECT pair_id, lang, status, distractors, reason, attempts, finished, distractor_rules FROM results"
            )
        ]

    def usage(self) -> Usage:
        prompt, completion = self._db.execute(
            "SELECT COALESCE(SUM(prompt_tokens), 0), COALESCE(SUM(completion_tokens), 0) FROM attempts"
        ).fetchone()
        return Usage(prompt, completion)

    def time_span(self) -> tuple[str, str] | None:
        first, last = self._db.execute("SELECT MIN(created), MAX(created) FROM attempts").fetchone()
        return (first, last) if first else None

    # --- Batch API ----------------------------------------------------------------------------
    def add_batch(self, batch_id: str, round_number: int, input_file_id: str) -> None:
        self._db.execute("INSERT INTO batches VALUES (?, ?, ?, ?, 0)", (batch_id, round_number, input_file_id, now()))

    def open_batches(self) -> list[tuple[str, int]]:
        return list(self._db.execute("SELECT batch_id, round FROM batches WHERE collected = 0 ORDER BY round"))

    def batch_rounds(self) -> int:
        return self._db.execute("SELECT COUNT(*) FROM batches").fetchone()[0]

    # --- English pivot ------------------------------------------------------------------------
    def translations(self, lang: str) -> dict[str, str]:
        return dict(self._db.execute("SELECT text, translation FROM translations WHERE lang = ?", (lang,)))

    def add_translations(self, lang: str, pairs: Iterable[tuple[str, str]]) -> None:
        with self.transaction() as db:
            db.executemany("INSERT OR IGNORE INTO translations VALUES (?, ?, ?)", ((lang, t, tr) for t, tr in pairs))


def _short(value: Any, limit: int = 80) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def record_collected_batch(
    checkpoint: Checkpoint,
    batch_id: str,
    entries: Sequence[tuple[str, str, Answer, tuple[str, list[str], str | None, int] | None]],
) -> None:
    """Store a whole Batch API output and mark the batch collected, atomically: all of it or none."""
    with checkpoint.transaction() as db:
        for pair_id, lang, answer, result in entries:
            _insert_attempt(db, pair_id, lang, answer)
            if result is not None:
                _insert_result(db, pair_id, lang, result)
        db.execute("UPDATE batches SET collected = 1 WHERE batch_id = ?", (batch_id,))


def _insert_attempt(db: sqlite3.Connection, pair_id: str, lang: str, answer: Answer) -> None:
    db.execute(
        "INSERT INTO attempts VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            pair_id,
            lang,
            answer.attempt,
            answer.text,
            json.dumps(list(answer.candidates), ensure_ascii=False),
            answer.origin,
            answer.usage.prompt_tokens,
            answer.usage.completion_tokens,
            now(),
            json.dumps(list(answer.candidate_rules), ensure_ascii=False),
        ),
    )


def _insert_result(
    db: sqlite3.Connection,
    pair_id: str,
    lang: str,
    result: tuple[str, list[str], str | None, int],
    distractor_rules: Sequence[str] = (),
) -> None:
    status, distractors, reason, attempts = result
    db.execute(
        "INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            pair_id,
            lang,
            status,
            json.dumps(distractors, ensure_ascii=False),
            reason,
            attempts,
            now(),
            json.dumps(list(distractor_rules), ensure_ascii=False),
        ),
    )
