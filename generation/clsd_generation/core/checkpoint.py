"""The run's durable state: one SQLite file in WAL mode, written before anything depends on it.

Why SQLite: each answer is one small transaction, committed before the next step uses it, so a run
killed at any moment (``kill -9`` included) loses at most the requests in flight, never a recorded
answer; primary keys make a duplicate impossible rather than unlikely; and ``clsd build`` can read
everything back without the input file. WAL with ``synchronous=NORMAL`` is durable against a
crashed or killed process (the commit is in the operating system's hands once ``COMMIT`` returns);
pass ``durable_against_power_loss=True`` for ``synchronous=FULL`` (an fsync per answer).

The checkpoint remembers what produced it (input, languages, backend, model, prompts, parameters,
validation bounds): opening it with anything else is refused, so results are never mixed.

Every text a server sent (answers, candidates, distractors, failure reasons, verdict answers, translations) is
stored redacted with the rules of what is printed (:func:`clsd_format.redaction.redact`): a server that echoes
the API key in its answer gets it replaced by ``[redacted]`` before it reaches the disk.
"""

from __future__ import annotations

import datetime
import errno
import json
import secrets
import sqlite3
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import astuple, dataclass, replace
from pathlib import Path
from typing import Any

from clsd_format.declared_settings import option_name
from clsd_format.errors import CLSDError
from clsd_format.redaction import redact
from clsd_generation.core.inputs import ParallelCorpus, ParallelPair
from clsd_generation.core.outcomes import Settled, Status
from clsd_generation.core.reading import OTHER_MODEL, storable
from clsd_generation.core.run_folder import RunFolder

CHECKPOINT_FILE = "checkpoint.sqlite"
# 2: the rule behind each candidate and distractor; 3: each answer's finish reason and the rejections it caused, and the
# judge's verdicts; 4: the model each answer was asked of and the one it names. An older file gains the new columns and
# tables when opened (empty, except what its records tell: see Checkpoint._upgrade); a newer one is refused.
SCHEMA_VERSION = 4
GENERATION_KEY = "generation"
TRANSLATION_KEY = "translation"
JUDGE_KEY = "judge"  # the judge's model, questions and how it is asked (clsd judge)
JUDGE_SAMPLE_KEY = "judge_sample"  # which distractors the latest judge run covered: all, or a seeded sample
TRANSLATOR_KEY = "translator"  # an LLM translator as the card names it (model, endpoint, prompt)
JUDGE_REFUSALS_KEY = "judge_refusals"  # the judge's answers refused unread: reason -> count, over every run
PIVOT_REFUSALS_KEY = "pivot_refusals"  # an LLM translator's answers refused: language -> reason -> count, over every run
CHECKS_OFF_KEY = "checks_off"  # the checks off for the run's languages, one line each (the card names them)
RUN_ID_KEY = "run_id"  # the run folder's own random id, which binds the requests it writes (core.requests)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS pairs (
    position INTEGER PRIMARY KEY, pair_id TEXT NOT NULL UNIQUE, text_a TEXT NOT NULL, text_b TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS attempts (
    pair_id TEXT NOT NULL, lang TEXT NOT NULL, attempt INTEGER NOT NULL,
    answer TEXT NOT NULL, candidates TEXT NOT NULL, origin TEXT NOT NULL,
    prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER NOT NULL, created TEXT NOT NULL,
    candidate_rules TEXT NOT NULL DEFAULT '[]',
    finish_reason TEXT, rejections TEXT NOT NULL DEFAULT '[]',
    asked_model TEXT, answered_model TEXT,
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
CREATE TABLE IF NOT EXISTS judgments (
    lang TEXT NOT NULL, source TEXT NOT NULL, target TEXT NOT NULL, distractor TEXT NOT NULL, question TEXT NOT NULL,
    verdict TEXT NOT NULL, answer TEXT NOT NULL, asked INTEGER NOT NULL, created TEXT NOT NULL,
    PRIMARY KEY (lang, source, target, distractor, question));
"""


def _missing_columns(db: sqlite3.Connection) -> list[tuple[str, str, str]]:
    """(table, column, declaration) of each column the schema declares that ``db``'s tables lack (a file of an older
    version), in the schema's order: read from the schema itself, so that a column is declared once, in ``_SCHEMA``.

    A column added to a table that exists must take NULL or have a default (SQLite's ``ADD COLUMN``), as every column
    added since version 1 does."""
    declared = sqlite3.connect(":memory:")
    try:
        declared.executescript(_SCHEMA)
        tables = [row[0] for row in declared.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid")]
        missing = []
        for table in tables:
            present = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
            for _, column, kind, not_null, default, _ in declared.execute(f"PRAGMA table_info({table})"):
                if column not in present:
                    declaration = kind + " NOT NULL" * not_null + ("" if default is None else f" DEFAULT {default}")
                    missing.append((table, column, declaration))
        return missing
    finally:
        declared.close()


# SQLite's result codes of a write the file system refused: no space left, or the disk (a file-size limit, a quota, a
# failing device) refused the write. The user's to fix, not a bug.
_DISK_FULL = "SQLITE_FULL"
_DISK_REFUSED = ("SQLITE_IOERR", "SQLITE_CANTOPEN")


def disk_refusal(exc: sqlite3.Error) -> str | None:
    """Why the disk refused a SQLite write (no space, a file-size limit, a quota, a failing device); None for other errors."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    if name == _DISK_FULL or "disk is full" in str(exc):
        return "No space left on device"
    if name.startswith(_DISK_REFUSED):
        return f"the disk refused a write ({exc}: a file-size limit, a quota or a failing device)"
    return None


@contextmanager
def checkpoint_writes(run_dir: Path) -> Iterator[None]:
    """Inside, a checkpoint write the disk refuses becomes one :class:`CLSDError` line naming the run folder.

    A full disk is the user's to fix, not a bug. Every answer is its own committed transaction, so what
    was recorded before the disk filled stays intact and the same command resumes once there is space
    (or from a copy of the folder elsewhere).
    """
    try:
        yield
    except (sqlite3.OperationalError, OSError) as exc:
        if isinstance(exc, OSError):
            reason = exc.strerror if exc.errno in (errno.ENOSPC, errno.EDQUOT) else None
        else:
            reason = disk_refusal(exc)
        if reason is None:
            raise
        raise CLSDError(
            f"cannot write in the run folder {run_dir}: {reason}. What was recorded is intact: make room "
            "(or copy the folder elsewhere) and run the same command again to resume."
        ) from exc


def now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


@dataclass(frozen=True)
class Result:
    pair_id: str
    lang: str
    status: Status
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
    origin: str = "rules"  # "rules", "live:<model>", "batch:<id>": an LLM's answer is read by the answer checks too
    cut: bool = False  # the answer stopped at the token limit: its candidates are not used

    @property
    def by_llm(self) -> bool:
        return self.origin != "rules"


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
class Judgment:
    """The judge's settled answer to one question about one distractor (``verdict``: yes, no or unclear)."""

    lang: str
    source: str
    target: str
    distractor: str
    question: str
    verdict: str
    answer: str  # the judge's text as it came
    asked: int  # requests it took


@dataclass(frozen=True)
class Answer:
    """One answer as stored: the attempt it answers, its raw text, the candidates parsed from it and what made it."""

    attempt: int
    text: str
    candidates: Sequence[str]
    origin: str  # "rules", "live:<served model>", "batch:<batch id>"
    usage: Usage = Usage()
    candidate_rules: Sequence[str] = ()  # the rule behind each candidate (rule backend)
    finish_reason: str | None = None  # as the endpoint said ("stop", "length"); None for the rules
    rejections: Sequence[str] = ()  # the kind of each rejection (or, paper protocol, flag) this answer caused
    asked_model: str | None = None  # the model the request named; None for the rules
    answered_model: str | None = None  # the model the answer names; None for the rules, or an answer that names none


@dataclass(frozen=True)
class ModelAnswers:
    """The answers of one model, as they name it, to the requests for one model: what the card and the summary count."""

    answered: str | None  # None: the answers named no model (or were recorded before answering models were kept)
    asked: str | None
    answers: int
    refused: int  # of them refused as another model's (core.reading.OTHER_MODEL)
    sentences: frozenset[tuple[str, str]]  # (pair id, language) of every sentence holding one of its answers, read


@dataclass(frozen=True)
class AnswerRecord:
    """One answer to store with the result it settled, if any (the Batch API and request files store them in chunks)."""

    pair_id: str
    lang: str
    answer: Answer
    settled: Settled | None


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
            if disk_refusal(exc) is not None:
                raise  # the disk's fault, not the file's: see checkpoint_writes
            raise CLSDError(f"checkpoint {self.path}: not a usable SQLite file ({exc}).") from exc
        version = self.get_meta("schema_version")
        if version in (1, 2, 3):
            self._upgrade()
        elif version is None:
            self.set_meta("schema_version", SCHEMA_VERSION)
        elif version != SCHEMA_VERSION:
            raise CLSDError(
                f"checkpoint {self.path} has schema version {version}; this clsd-mteb reads version {SCHEMA_VERSION}."
            )

    def _upgrade(self) -> None:
        """Add the columns later versions store, empty where an older run did not record them, in one transaction.

        The models of an older run's LLM answers are what its records tell: each was asked of the run's model, and a
        live or request-file answer's origin (``live:<model>``, ``file:<model>``) names the model its answer named (the
        one asked for when the answer named none); a Batch API answer's origin names its batch only, so its answering
        model stays unknown (None) and the card says so.
        """
        generation = self.get_meta(GENERATION_KEY)
        asked = generation.get("model") if isinstance(generation, dict) and generation.get("backend") == "llm" else None
        with self.transaction() as db:
            added = set()
            for table, column, declaration in _missing_columns(db):
                db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {declaration}")
                added.add(column)
            if "answered_model" in added:
                db.execute("UPDATE attempts SET asked_model = ? WHERE origin != 'rules'", (asked,))
                db.execute(
                    "UPDATE attempts SET answered_model = substr(origin, 6) WHERE origin LIKE 'live:_%' OR origin LIKE 'file:_%'"
                )
            db.execute("INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", (json.dumps(SCHEMA_VERSION),))

    @classmethod
    def in_folder(cls, run_dir: Path, **kwargs: Any) -> Checkpoint:
        return cls(Path(run_dir) / CHECKPOINT_FILE, **kwargs)

    @classmethod
    def existing(cls, run_dir: Path) -> Checkpoint:
        path = Path(run_dir) / CHECKPOINT_FILE
        if not path.is_file():
            folder = option_name(RunFolder, "run_dir")
            raise CLSDError(f"{run_dir} holds no {CHECKPOINT_FILE}; run `clsd generate` with {folder} {run_dir} first.")
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

    def bind(self, key: str, settings: Mapping[str, Any], *, may_grow: tuple[str, ...] = ()) -> None:
        """Record ``settings`` under ``key`` on first use; afterwards refuse any that differ.

        ``may_grow``: numeric settings that a resumed run may raise (the token limit: a larger one only lets answers
        finish that a smaller one cut); the larger value is recorded.
        """
        settings = json.loads(json.dumps(settings, ensure_ascii=False))  # tuples -> lists, as stored
        stored = self.get_meta(key)
        if stored is None:
            self.set_meta(key, settings)
            return
        grown = {
            k for k in may_grow if isinstance(stored.get(k), int) and isinstance(settings.get(k), int) and settings[k] > stored[k]
        }
        differing = sorted(k for k in set(stored) | set(settings) if stored.get(k) != settings.get(k) and k not in grown)
        if differing:  # one setting a line, a nested one by its path: a line of them all is unreadable
            shown = "".join(f"\n  {line}" for key in differing for line in _differences(key, stored.get(key), settings.get(key)))
            raise CLSDError(
                f"checkpoint {self.path} was made with different settings; results would be mixed:{shown}\n"
                f"Use another {option_name(RunFolder, 'run_dir')} for the new settings, or repeat the original command to resume."
            )
        if grown:
            self.set_meta(key, {**stored, **{k: settings[k] for k in grown}})

    def run_id(self) -> str:
        """This run folder's own random id, made once and kept: the requests it writes are bound to it
        (:mod:`clsd_generation.core.requests`), so no other folder's answers match them."""
        value = self.get_meta(RUN_ID_KEY)
        if not isinstance(value, str):
            value = secrets.token_hex(16)
            self.set_meta(RUN_ID_KEY, value)
        return value

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
        result: Settled | None = None,
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
        for pair_id, lang, candidates, rules, origin, finish_reason, rejections in self._db.execute(
            "SELECT a.pair_id, a.lang, a.candidates, a.candidate_rules, a.origin, a.finish_reason, a.rejections FROM attempts a "
            "LEFT JOIN results r ON a.pair_id = r.pair_id AND a.lang = r.lang WHERE r.pair_id IS NULL "
            "ORDER BY a.pair_id, a.lang, a.attempt"
        ):
            # Another model's answer spent its attempt, cut or not (as when it was read: llm.live.EndpointRun).
            cut = finish_reason == "length" and OTHER_MODEL not in json.loads(rejections)
            stored = StoredAnswer(json.loads(candidates), json.loads(rules), origin, cut)
            answers.setdefault((pair_id, lang), []).append(stored)
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
            Result(pid, lang, Status(status), json.loads(distractors), reason, attempts, finished, tuple(json.loads(rules)))
            for pid, lang, status, distractors, reason, attempts, finished, rules in self._db.execute(
                "SELECT pair_id, lang, status, distractors, reason, attempts, finished, distractor_rules FROM results"
            )
        ]

    def complete_by_language(self) -> Counter[str]:
        """Sentences settled with distractors, by language code, over the whole run (counted, not read)."""
        return Counter(dict(self._db.execute("SELECT lang, COUNT(*) FROM results WHERE status = 'ok' GROUP BY lang")))

    def failure_reasons(self) -> dict[str, Counter[str]]:
        """Per language, the failed sentences by their reason, over the whole run."""
        counts: dict[str, Counter[str]] = {}
        for lang, reason, n in self._db.execute(
            "SELECT lang, reason, COUNT(*) FROM results WHERE status = 'failed' GROUP BY lang, reason"
        ):
            counts.setdefault(lang, Counter())[reason or "no reason recorded"] += n
        return counts

    def rejections(self) -> dict[str, Counter[str]]:
        """Per language, every answer's rejections (or paper-protocol flags) by kind, over the whole run."""
        counts: dict[str, Counter[str]] = {}
        for lang, rejections in self._db.execute("SELECT lang, rejections FROM attempts"):
            counts.setdefault(lang, Counter()).update(json.loads(rejections))
        return counts

    def answering_models(self) -> list[ModelAnswers]:
        """Every model that answered an LLM request of this run, as its answers name it, with what became of them."""
        found: dict[tuple[str | None, str | None], tuple[int, int, set[tuple[str, str]]]] = {}
        for pair_id, lang, asked, answered, rejections in self._db.execute(
            "SELECT pair_id, lang, asked_model, answered_model, rejections FROM attempts WHERE origin != 'rules' "
            "ORDER BY answered_model, asked_model"
        ):
            answers, refused, sentences = found.get((answered, asked), (0, 0, set()))
            other = OTHER_MODEL in json.loads(rejections)
            if not other:
                sentences.add((pair_id, lang))
            found[(answered, asked)] = (answers + 1, refused + other, sentences)
        return [
            ModelAnswers(answered, asked, n, refused, frozenset(keys)) for (answered, asked), (n, refused, keys) in found.items()
        ]

    def cut_answers(self) -> int:
        """Answers that stopped at the token limit (asked again)."""
        return int(self._db.execute("SELECT COUNT(*) FROM attempts WHERE finish_reason = 'length'").fetchone()[0])

    def usage(self) -> Usage:
        prompt, completion = self._db.execute(
            "SELECT COALESCE(SUM(prompt_tokens), 0), COALESCE(SUM(completion_tokens), 0) FROM attempts"
        ).fetchone()
        return Usage(prompt, completion)

    def time_span(self) -> tuple[str, str] | None:
        first, last = self._db.execute("SELECT MIN(created), MAX(created) FROM attempts").fetchone()
        return (first, last) if first else None

    # --- the judge ------------------------------------------------------------------------------
    def add_judgment(self, judgment: Judgment) -> None:
        self._db.execute(
            "INSERT INTO judgments VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (*astuple(replace(judgment, answer=_stored(judgment.answer))), now()),
        )

    def judged_questions(self) -> set[tuple[str, str, str, str, str]]:
        """(lang, source, target, distractor, question) of every settled question."""
        return set(self._db.execute("SELECT lang, source, target, distractor, question FROM judgments"))

    def judgments(self) -> dict[tuple[str, str, str, str], dict[str, str]]:
        """(lang, source, target, distractor) -> question -> verdict."""
        verdicts: dict[tuple[str, str, str, str], dict[str, str]] = {}
        for lang, source, target, distractor, question, verdict in self._db.execute(
            "SELECT lang, source, target, distractor, question, verdict FROM judgments"
        ):
            verdicts.setdefault((lang, source, target, distractor), {})[question] = verdict
        return verdicts

    # --- Batch API ----------------------------------------------------------------------------
    def add_batch(self, batch_id: str, round_number: int, input_file_id: str) -> None:
        self._db.execute("INSERT INTO batches VALUES (?, ?, ?, ?, 0)", (batch_id, round_number, input_file_id, now()))

    def batch_input_file(self, batch_id: str) -> str | None:
        """The input file this run uploaded for ``batch_id`` (None for a batch this run did not create)."""
        row = self._db.execute("SELECT input_file_id FROM batches WHERE batch_id = ?", (batch_id,)).fetchone()
        return str(row[0]) if row else None

    def open_batches(self) -> list[tuple[str, int]]:
        return list(self._db.execute("SELECT batch_id, round FROM batches WHERE collected = 0 ORDER BY round"))

    def batch_rounds(self) -> int:
        """Rounds sent so far (a round larger than the provider's limits is several batches)."""
        return int(self._db.execute("SELECT COALESCE(MAX(round), 0) FROM batches").fetchone()[0])

    def answered_by(self, origin: str) -> set[tuple[str, str]]:
        """The sentences holding an answer from ``origin`` ("batch:<id>"): what a collection cut short stored already."""
        return set(self._db.execute("SELECT pair_id, lang FROM attempts WHERE origin = ?", (origin,)))

    def batch_count(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM batches").fetchone()[0])

    # --- English pivot ------------------------------------------------------------------------
    def translations(self, lang: str) -> dict[str, str]:
        return dict(self._db.execute("SELECT text, translation FROM translations WHERE lang = ?", (lang,)))

    def add_translations(self, lang: str, pairs: Iterable[tuple[str, str]]) -> None:
        with self.transaction() as db:
            db.executemany("INSERT OR IGNORE INTO translations VALUES (?, ?, ?)", ((lang, t, _stored(tr)) for t, tr in pairs))


def _short(value: Any, limit: int = 80) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _differences(path: str, stored: Any, now: Any) -> list[str]:
    """``path: checkpoint has X, this run has Y`` for each setting under ``path`` that differs, a nested one by its
    dotted path (``validation.min_jaccard``), so that what differs is shown rather than cut off inside a long value."""
    if isinstance(stored, dict) and isinstance(now, dict):
        keys = sorted(k for k in set(stored) | set(now) if stored.get(k) != now.get(k))
        return [line for k in keys for line in _differences(f"{path}.{k}", stored.get(k), now.get(k))]
    return [f"{path}: checkpoint has {_short(stored)}, this run has {_short(now)}"]


def _stored(text: str) -> str:
    """A server's text as stored: redacted, and writable as UTF-8 (a lone surrogate escaped)."""
    return storable(redact(text))


def _redacted_json(texts: Sequence[str]) -> str:
    """A list of server texts as stored: JSON, each text redacted and writable."""
    return json.dumps([_stored(text) for text in texts], ensure_ascii=False)


def record_answers(
    checkpoint: Checkpoint,
    records: Iterable[AnswerRecord],
    *,
    collected_batch: str | None = None,
    answered_key: str | None = None,
) -> None:
    """Store answers and the results they settle in one transaction, with the note of what they complete, if any.

    ``collected_batch``: the Batch API batch whose output they end, marked collected; ``answered_key``: the meta key
    of the request file they answer, forgotten. All of it or none.
    """
    with checkpoint.transaction() as db:
        for record in records:
            _insert_attempt(db, record.pair_id, record.lang, record.answer)
            if record.settled is not None:
                _insert_result(db, record.pair_id, record.lang, record.settled)
        if collected_batch is not None:
            db.execute("UPDATE batches SET collected = 1 WHERE batch_id = ?", (collected_batch,))
        if answered_key is not None:
            db.execute("DELETE FROM meta WHERE key = ?", (answered_key,))


def _insert_attempt(db: sqlite3.Connection, pair_id: str, lang: str, answer: Answer) -> None:
    db.execute(
        "INSERT INTO attempts (pair_id, lang, attempt, answer, candidates, origin, prompt_tokens, completion_tokens, created, "
        "candidate_rules, finish_reason, rejections, asked_model, answered_model) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            pair_id,
            lang,
            answer.attempt,
            _stored(answer.text),
            _redacted_json(answer.candidates),
            answer.origin,
            answer.usage.prompt_tokens,
            answer.usage.completion_tokens,
            now(),
            json.dumps(list(answer.candidate_rules), ensure_ascii=False),
            answer.finish_reason,
            json.dumps(list(answer.rejections), ensure_ascii=False),
            answer.asked_model,
            None if answer.answered_model is None else _stored(answer.answered_model),
        ),
    )


def _insert_result(
    db: sqlite3.Connection,
    pair_id: str,
    lang: str,
    result: Settled,
    distractor_rules: Sequence[str] = (),
) -> None:
    db.execute(
        "INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            pair_id,
            lang,
            result.status.value,
            _redacted_json(result.distractors),
            None if result.reason is None else _stored(result.reason),
            result.attempts,
            now(),
            json.dumps(list(distractor_rules), ensure_ascii=False),
        ),
    )
