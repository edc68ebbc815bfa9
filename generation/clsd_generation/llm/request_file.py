"""A round's requests as a file for any batch engine, and the engine's output file read back.

The OpenAI batch request format (one JSON line per request: ``custom_id``, ``method``, ``url``, ``body``) is read
by ``vllm run-batch``, by hosted batch services and by a Ray Data LLM job, and their output is one JSON line per
request in one format (``custom_id``, ``response`` with ``status_code`` and ``body``, ``error``). So a user with
their own engine runs ``--requests-out FILE``, hands FILE to the engine, and runs the same command with
``--answers OUTPUT`` (and ``--requests-out`` for the next round): each answer is judged exactly as a live one.

The run folder remembers the ``custom_id`` of every request the written file holds; each names the sentence and
the round and carries a digest of this run folder's id and the request's exact body
(:mod:`clsd_generation.core.requests`), so answers of another run, of another file or of an earlier round are
refused instead of stored. The
answers file is read whole before anything is recorded: a line that is not JSON, a truncated last line, an
unknown or repeated ``custom_id`` stop the run with the file and line named, and nothing is stored. Error lines
and requests without a line are counted and asked again in the next request file. The answers and the note
that the request file is answered are one transaction.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from clsd_format.declared_settings import option_name
from clsd_format.errors import CLSDError
from clsd_generation.core.checkpoint import AnswerRecord, record_answers
from clsd_generation.core.outcomes import Outcome
from clsd_generation.core.requests import custom_id
from clsd_generation.core.settings import RequestFiles
from clsd_generation.core.summary import RunReport
from clsd_generation.jobs.state import JobState
from clsd_generation.llm.client import read_completion
from clsd_generation.llm.live import EndpointRun, chat_request_body

ENDPOINT: Final = "/v1/chat/completions"
WAITING_KEY = "request_file"  # the written request file waiting for answers: {"round": n, "file": name, "ids": [...]}
ROUNDS_KEY = "request_file_rounds"
REQUEST_FILES_ENDPOINT = "a batch engine, through request files"  # what the run folder and the card name as its endpoint


@dataclass(frozen=True)
class EngineAnswer:
    """One line of an engine's output file: the request it answers, and the chat-completion body or the error."""

    line: int
    custom_id: str
    body: Any
    error: str | None  # why this line is no answer (status, error code); None for an answer


@dataclass(eq=False)
class RequestFileRun(EndpointRun):
    """Reads the answers to the waiting request file (``files.answers``), then writes the next one (``files.requests_out``)."""

    files: RequestFiles = field(default_factory=RequestFiles)

    def run(self, states: Sequence[JobState]) -> RunReport:
        by_key = {s.job.key: s for s in states}
        if self.files.answers is not None:
            self._read_answers(self.files.answers, by_key)
        finished = self.checkpoint.finished()
        pending = [s for s in states if s.job.key not in finished]
        if self.files.requests_out is not None and pending:
            self._write_requests(self.files.requests_out, pending)
        else:
            self.report.unfinished += len(pending)
        self.count_limited(states)
        return self.report

    def _write_requests(self, path: Path, pending: Sequence[JobState]) -> None:
        """Write the requests of ``pending`` (atomically), then remember which sentences the file holds."""
        waiting = self.checkpoint.get_meta(WAITING_KEY)
        # A file written but not yet answered is written again for the same round (same custom_ids).
        round_number = waiting["round"] if waiting else (self.checkpoint.get_meta(ROUNDS_KEY) or 0) + 1
        run_id = self.checkpoint.run_id()
        ids: list[str] = []
        partial = path.with_name(path.name + ".partial")
        with open(partial, "w", encoding="utf-8") as handle:
            for state in pending:
                body = chat_request_body(self.settings, self.prompts, state)
                ids.append(custom_id(run_id, state.job.pair_id, state.job.language.code, round_number, body))
                request = {"custom_id": ids[-1], "method": "POST", "url": ENDPOINT, "body": body}
                handle.write(json.dumps(request, ensure_ascii=False) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(partial, path)
        self.checkpoint.set_meta(WAITING_KEY, {"round": round_number, "file": path.name, "ids": ids})
        self.checkpoint.set_meta(ROUNDS_KEY, round_number)
        self.report.requests_written, self.report.requests_file, self.report.request_round = len(ids), str(path), round_number

    def _read_answers(self, path: Path, by_key: dict[tuple[str, str], JobState]) -> None:
        """Judge every answer of the engine's output file and record them with the note that the file is answered."""
        waiting = self.checkpoint.get_meta(WAITING_KEY)
        if not waiting:
            raise CLSDError(
                f"{path}: this run folder has no request file waiting for answers (were these answers read already?). "
                f"Write one with {option_name(RequestFiles, 'requests_out')} FILE first."
            )
        lines = read_engine_output(path, set(waiting["ids"]), waiting)
        records: list[AnswerRecord] = []
        for line in lines:
            pair_id, lang = json.loads(line.custom_id)[:2]  # one of the waiting file's own ids (read_engine_output)
            state = by_key.get((pair_id, lang))
            if state is None:
                continue  # settled already (another run in this folder): never recorded twice
            if line.error is not None:
                self.report.errors[f"answers file: {line.error}"] += 1
                continue  # not an answer: asked again in the next request file
            completion = read_completion(line.body)
            answer, effect = self.read_answer(state, completion, f"file:{completion.model or self.settings.model}")
            records.append(AnswerRecord(pair_id, lang, answer, effect.settled))
            if effect.settled is None:
                self.report.reasked += 1
            else:
                self.report.count(Outcome.of(effect.settled))
        self.report.answers_missing += len(waiting["ids"]) - len(lines)
        record_answers(self.checkpoint, records, answered_key=WAITING_KEY)


def read_engine_output(path: Path, expected: set[str], waiting: dict[str, Any]) -> list[EngineAnswer]:
    """Every line of an engine's output file, checked whole before anything is recorded."""
    if not path.is_file():
        raise CLSDError(f"answers file {path} does not exist.")
    data = path.read_bytes()
    rows = data.split(b"\n")  # JSON Lines end at "\n" only: a JSON string may hold U+2028 or U+0085
    if rows and not rows[-1]:
        rows.pop()
    seen: dict[str, int] = {}
    answers = []
    for number, raw in enumerate(rows, start=1):
        if not raw.strip():
            continue
        try:
            line = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise CLSDError(
                f"answers file {path}, line {number}: not UTF-8 ({exc.reason} at byte {exc.start}). Nothing was recorded."
            ) from exc
        except json.JSONDecodeError as exc:
            if number == len(rows) and not data.endswith(b"\n"):
                raise CLSDError(
                    f"answers file {path}, line {number}: the file ends midway through this line (truncated: was the "
                    "engine still writing it?). Nothing was recorded; pass the complete file."
                ) from exc
            raise CLSDError(f"answers file {path}, line {number}: not JSON ({exc.msg}). Nothing was recorded.") from exc
        line_id = line.get("custom_id") if isinstance(line, dict) else None
        if not isinstance(line_id, str):
            raise CLSDError(f"answers file {path}, line {number}: no custom_id. Nothing was recorded.")
        if line_id not in expected:
            raise CLSDError(
                f"answers file {path}, line {number}: custom_id {line_id} is not a request of the waiting request file "
                f"({waiting['file']}, round {waiting['round']}): is this the output of another file or of another run? Nothing was recorded."
            )
        if line_id in seen:
            raise CLSDError(
                f"answers file {path}, line {number}: custom_id {line_id} again (first on line {seen[line_id]}). "
                "Nothing was recorded."
            )
        seen[line_id] = number
        answers.append(EngineAnswer(number, line_id, *_answer_or_error(line)))
    return answers


def _answer_or_error(line: dict[str, Any]) -> tuple[Any, str | None]:
    """The chat-completion body of an output line, or why the line holds none (its error code or HTTP status)."""
    error = line.get("error")
    response = line.get("response")
    response = response if isinstance(response, dict) else {}
    if error:
        code = error.get("code") if isinstance(error, dict) else None
        return None, f"error {code or 'without code'}"
    if response.get("status_code") != 200:
        return None, f"status {response.get('status_code')}"
    return response.get("body"), None
