"""The same requests through the OpenAI Batch API: half the price, no rate limits, answers within 24 h.

One round = write every unfinished sentence's request to JSONL input files within the provider's
limits (OpenAI's: 50,000 requests and 200 MB a file; ``BatchSettings``), upload each and create its
batch, then poll each, download its output and judge each answer exactly as live mode does. Sentences with too few
valid distractors, or whose request failed inside the batch, go into the next round.

Resuming never pays twice: each upload is noted in the checkpoint before it is sent (its run-bound name, digest and
time) and its file id as soon as it is known, and the batch id right after the create, so a run killed while a batch
is running polls that batch when started again (and a run killed between the two finds its batch again by input
file). An upload whose answer was lost is looked for among the provider's newest files only, back to the time noted
(never the whole account); a provider without a file listing gets the file once more, said once.

A batch's output is read as it downloads and its answers stored ``BatchSettings.answers_per_transaction`` to a
transaction, the last with the note that the batch is collected, so memory stays bounded whatever the batch's size.
A run killed (or a download broken) while collecting reads the same output again and skips every sentence that
batch has already answered: nothing is paid twice and no answer is recorded twice.
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from tqdm.auto import tqdm

from clsd_format.declared_settings import option_name
from clsd_format.errors import CLSDError
from clsd_generation.core.checkpoint import AnswerRecord, record_answers
from clsd_generation.core.outcomes import Outcome
from clsd_generation.core.requests import custom_id, parse_custom_id
from clsd_generation.core.settings import BatchSettings, LLMSettings
from clsd_generation.core.summary import RunReport
from clsd_generation.jobs.state import JobState
from clsd_generation.llm.client import ErrorKind, batch_api_client, classify_openai_error, read_completion
from clsd_generation.llm.live import EndpointRun, chat_request_body

ENDPOINT: Final = "/v1/chat/completions"
TERMINAL = frozenset({"completed", "failed", "expired", "cancelled"})
PENDING_UPLOAD_KEY = "batch_pending_input_file"
PENDING_ROUND_KEY = "batch_pending_round"  # the round of that file: a round can be several batches
# The lookup of an upload whose answer was lost: the provider's batch files newest first, a page at a time, back to the
# time the upload was noted (less the clocks' possible difference), and never more than these pages.
LOOKUP_PAGE_SIZE: Final = 100
LOOKUP_PAGES: Final = 5
CLOCK_SKEW_SECONDS: Final = 3600
NO_ROUTE: Final = frozenset({404, 405, 501})  # what a server answers on a route it does not serve

logger = logging.getLogger(__name__)


def batch_requests_key(input_file_id: str) -> str:
    """The checkpoint's note of the ``custom_id`` of every request an uploaded input file holds."""
    return f"batch_requests:{input_file_id}"


def upload_key(name: str) -> str:
    """The checkpoint's note of an upload under the run-bound ``name``: its digest, size, time and, once known, file id."""
    return f"batch_upload:{name}"


@dataclass(eq=False)
class BatchGenerator(EndpointRun):
    """Asks every unfinished sentence once per Batch API round, up to ``max_attempts`` + ``batch.extra_rounds`` rounds."""

    batch: BatchSettings = BatchSettings()
    client: Any = field(init=False)
    once: Any = field(init=False)
    file_listing: bool = field(init=False, default=True)  # False once the provider answered that it lists no files

    def __post_init__(self) -> None:
        self.client = batch_api_client(self.settings)
        # What creates a paid resource is sent once per try: the client's own retries would repeat a create whose
        # answer was lost, without looking whether it arrived (``_send`` looks first).
        self.once = self.client.with_options(max_retries=0)

    def run(self, states: Sequence[JobState]) -> RunReport:
        import openai

        by_id = {state.job.key: state for state in states}
        first_round = self.checkpoint.batch_rounds()  # the round budget is this invocation's (a rerun may raise the limit)
        try:
            self._resume(by_id)
            while True:
                finished = self.checkpoint.finished()  # read once per round: per sentence, the run grew as its square
                pending = [s for s in by_id.values() if s.job.key not in finished]
                if not pending:
                    break
                if self.checkpoint.batch_rounds() - first_round >= self.max_attempts + self.batch.extra_rounds:
                    self.report.unfinished += len(pending)
                    break
                for batch_id in self._submit(pending):  # every batch of the round is sent before any is waited for
                    self._collect(batch_id, by_id)
        except openai.OpenAIError as exc:  # only the provider's own answers are the provider's: a full disk or a bug is not
            failure = classify_openai_error(exc)
            if failure.kind is not ErrorKind.TRANSIENT:
                raise CLSDError(
                    f"the Batch API refused a request ({failure.name}: {failure.message}). "
                    f"Check {option_name(LLMSettings, 'base_url')}, {option_name(LLMSettings, 'model')} and the API key."
                ) from exc
            self.report.errors[failure.name] += 1
            finished = self.checkpoint.finished()
            self.report.unfinished += sum(1 for s in by_id.values() if s.job.key not in finished)
        finally:
            self.count_limited(list(by_id.values()))
        return self.report

    def _resume(self, by_id: dict[tuple[str, str], JobState]) -> None:
        """Collect the batches an interrupted run sent, and the one whose input file was uploaded when it stopped."""
        for batch_id, _ in self.checkpoint.open_batches():
            self._collect(batch_id, by_id)
        pending_file = self.checkpoint.get_meta(PENDING_UPLOAD_KEY)
        if pending_file:
            adopted = self._find_batch_for_file(pending_file)  # created before the answer was lost, or never
            if adopted:
                round_number = self.checkpoint.get_meta(PENDING_ROUND_KEY) or self.checkpoint.batch_rounds() + 1
                self.checkpoint.add_batch(adopted, round_number, pending_file)
                self.checkpoint.set_meta(PENDING_UPLOAD_KEY, None)
                self._collect(adopted, by_id)

    def _submit(self, pending: Sequence[JobState]) -> list[str]:
        """Send one round as batches within the provider's limits (requests and bytes per input file); their ids."""
        round_number = self.checkpoint.batch_rounds() + 1
        run_id = self.checkpoint.run_id()
        batch_ids: list[str] = []
        part: list[bytes] = []
        ids: list[str] = []
        size = 0
        for state in pending:
            body = chat_request_body(self.settings, self.prompts, state)
            request_id = custom_id(run_id, state.job.pair_id, state.job.language.code, round_number, body)
            line = (
                json.dumps({"custom_id": request_id, "method": "POST", "url": ENDPOINT, "body": body}, ensure_ascii=False) + "\n"
            ).encode("utf-8")
            if len(line) > self.batch.max_bytes:
                raise CLSDError(
                    f"the request for sentence {state.job.pair_id} ({state.job.language.code}) is {len(line):,} bytes, above "
                    f"the batch input file limit of {self.batch.max_bytes:,} bytes: raise {option_name(BatchSettings, 'max_bytes')}."
                )
            if part and (len(part) >= self.batch.max_requests or size + len(line) > self.batch.max_bytes):
                batch_ids.append(self._send(b"".join(part), ids, round_number, len(batch_ids) + 1))
                part, ids, size = [], [], 0
            part.append(line)
            ids.append(request_id)
            size += len(line)
        if part:
            batch_ids.append(self._send(b"".join(part), ids, round_number, len(batch_ids) + 1))
        self.report.batches += len(batch_ids)
        self.report.batch_rounds += 1
        return batch_ids

    def _send(self, payload: bytes, ids: Sequence[str], round_number: int, part: int) -> str:
        """Upload one input file and create its batch, each id recorded before the next step; nothing paid for twice.

        The file's name carries this run's id, its round and part: an upload whose answer was lost is found by it and
        used instead of uploading again. Its requests' ids are noted before the batch is created, so its output is
        read against what it held. A create whose answer was lost is looked up by its input file before another try.
        """
        name = f"clsd-{self.checkpoint.run_id()[:12]}-round-{round_number}-part-{part}.jsonl"
        uploaded_id = self._earlier_upload(name, payload) or self._upload(name, payload)
        self.checkpoint.set_meta(batch_requests_key(uploaded_id), list(ids))
        self.checkpoint.set_meta(PENDING_UPLOAD_KEY, uploaded_id)
        self.checkpoint.set_meta(PENDING_ROUND_KEY, round_number)
        metadata = {"purpose": "clsd distractors", "round": str(round_number), "part": str(part), "input_file": uploaded_id}
        batch_id = self._create_batch(uploaded_id, metadata)
        self.checkpoint.add_batch(batch_id, round_number, uploaded_id)
        self.checkpoint.set_meta(PENDING_UPLOAD_KEY, None)
        return batch_id

    def _earlier_upload(self, name: str, payload: bytes) -> str | None:
        """The file an earlier try of this run uploaded with these very bytes, as the checkpoint noted it: its id
        checked with one request, or, when its answer was lost, looked for among the files uploaded since."""
        noted = self.checkpoint.get_meta(upload_key(name))
        if not isinstance(noted, dict) or noted.get("sha256") != hashlib.sha256(payload).hexdigest():
            return None  # never sent, or other requests under the same name (a round asked again after a resume)
        if isinstance(noted.get("file_id"), str):
            return self._still_held(noted["file_id"])
        found = self._find_uploaded(name, len(payload), float(noted.get("since", 0)))
        if found:
            self.checkpoint.set_meta(upload_key(name), noted | {"file_id": found})
        return found

    def _upload(self, name: str, payload: bytes) -> str:
        """Upload one input file, noted in the checkpoint before it is sent: each try is one request, and after a lost
        answer the provider's files since the note are read first."""
        since = time.time()
        noted = {"sha256": hashlib.sha256(payload).hexdigest(), "bytes": len(payload), "since": since, "file_id": None}
        self.checkpoint.set_meta(upload_key(name), noted)
        file_id = self._once(lambda: str(self.once.files.create(file=(name, io.BytesIO(payload)), purpose="batch").id),
                             lambda: self._find_uploaded(name, len(payload), since))  # fmt: skip
        self.checkpoint.set_meta(upload_key(name), noted | {"file_id": file_id})
        return file_id

    def _create_batch(self, input_file_id: str, metadata: dict[str, str]) -> str:
        """Create the batch of ``input_file_id``: a batch created without its answer reaching us is adopted, never
        created a second time."""

        def create() -> str:
            created = self.once.batches.create(
                input_file_id=input_file_id, endpoint=ENDPOINT, completion_window=self.batch.completion_window, metadata=metadata
            )
            return str(created.id)

        return self._once(create, lambda: self._find_batch_for_file(input_file_id))

    def _once(self, make: Callable[[], str], find: Callable[[], str | None]) -> str:
        """``make`` a paid resource, retried up to ``max_retries`` times on a lost or failed answer, each retry after
        ``find`` found no resource the lost answer made: nothing is paid for twice."""
        import openai

        for attempt in range(self.settings.max_retries + 1):
            found = find() if attempt else None
            if found:
                return found
            try:
                return make()
            except (openai.APIConnectionError, openai.APITimeoutError, openai.InternalServerError):
                if attempt == self.settings.max_retries:
                    raise
                time.sleep(min(2.0**attempt, 30.0))
        raise AssertionError("unreachable")  # the loop returns or raises

    def _still_held(self, file_id: str) -> str | None:
        """``file_id`` if the provider still holds it (one request), None if it is gone (deleted, or expired); as noted
        when the provider does not serve the route (405, 501)."""
        import openai

        try:
            return str(self.client.files.retrieve(file_id).id)
        except openai.APIStatusError as exc:
            if exc.status_code not in NO_ROUTE:
                raise
            return None if exc.status_code == 404 else file_id

    def _find_uploaded(self, name: str, size: int, since: float) -> str | None:
        """An input file this run uploaded under ``name`` (same size) at ``since`` or later, whose answer was lost.

        Only the newest files are read, a page at a time, back to ``since`` (less the clocks' possible difference) and
        at most ``LOOKUP_PAGES`` pages: an account's older files are never paged through. A provider that lists no
        files (404, 405 or 501) is said once; the file is then uploaded again, which costs no batch.
        """
        import openai

        if not self.file_listing:
            return None
        try:
            pages = self.client.files.list(purpose="batch", order="desc", limit=LOOKUP_PAGE_SIZE).iter_pages()
            for _, page in zip(range(LOOKUP_PAGES), pages, strict=False):
                for uploaded in page.data:
                    if getattr(uploaded, "filename", None) == name and getattr(uploaded, "bytes", None) == size:
                        return str(uploaded.id)
                    created = getattr(uploaded, "created_at", None)
                    if isinstance(created, int | float) and created < since - CLOCK_SKEW_SECONDS:
                        return None  # older than the upload: every file after it is older still
        except openai.APIStatusError as exc:
            if exc.status_code not in NO_ROUTE:
                raise
            self.file_listing = False
            logger.warning(
                "the Batch API at this endpoint lists no files (status %s): an upload whose answer was lost is sent "
                "once more (an input file costs no batch; no batch is created twice).",
                exc.status_code,
            )
        return None

    def _find_batch_for_file(self, input_file_id: str) -> str | None:
        for batch in self.client.batches.list(limit=100):
            if batch.input_file_id == input_file_id:
                return batch.id
        return None

    def _wait(self, batch_id: str) -> Any:
        bar = tqdm(desc=f"batch {batch_id}", unit="request", disable=not self.progress)
        try:
            while True:
                batch = self.client.batches.retrieve(batch_id)
                counts = batch.request_counts
                if counts is not None:
                    bar.total = counts.total
                    bar.n = counts.completed + counts.failed
                bar.set_postfix(status=batch.status, refresh=True)
                if batch.status in TERMINAL:
                    return batch
                time.sleep(self.batch.poll_interval)
        finally:
            bar.close()

    def _collect(self, batch_id: str, by_id: dict[tuple[str, str], JobState]) -> None:
        batch = self._wait(batch_id)
        if batch.status == "failed":
            errors = getattr(getattr(batch, "errors", None), "data", None) or []
            detail = "; ".join(f"{getattr(e, 'code', '')}: {getattr(e, 'message', '')}" for e in errors) or "no detail given"
            record_answers(self.checkpoint, [], collected_batch=batch_id)
            raise CLSDError(f"batch {batch_id} failed ({detail}). Fix the cause and run the same command again.")
        origin = f"batch:{batch_id}"
        held = self._held_requests(batch_id)
        # Settled, or answered by this batch already (a collection cut short, or a repeated line): never recorded twice.
        skip = self.checkpoint.finished() | self.checkpoint.answered_by(origin)
        records: list[AnswerRecord] = []
        for number, line in self._lines(batch.output_file_id):
            state = self._state_of(line.get("custom_id"), held, by_id, f"batch {batch_id} output file, line {number}")
            response = line.get("response")
            response = response if isinstance(response, dict) else {}
            if state is None or state.job.key in skip:
                continue  # not a request this batch held, or one settled already
            if response.get("status_code") != 200:
                self.report.errors[f"batch request status {response.get('status_code')}"] += 1
                continue  # not an answer: asked again next round
            answer, effect = self.read_answer(state, read_completion(response.get("body")), origin)
            records.append(AnswerRecord(state.job.pair_id, state.job.language.code, answer, effect.settled))
            skip.add(state.job.key)
            if len(records) >= self.batch.answers_per_transaction:  # memory bounded by a chunk, not by the batch
                self._store(records)
                records = []
        for _, line in self._lines(getattr(batch, "error_file_id", None)):
            error = line.get("error")
            self.report.errors[f"batch request error {error.get('code') if isinstance(error, dict) else None}"] += 1
        self._store(records, collected_batch=batch_id)

    def _held_requests(self, batch_id: str) -> set[str] | None:
        """The ``custom_id`` of every request the batch's input file held, as noted before it was created (None for a
        batch sent before requests were noted: its lines are matched by sentence only)."""
        input_file = self.checkpoint.batch_input_file(batch_id)
        noted = self.checkpoint.get_meta(batch_requests_key(input_file)) if input_file else None
        return set(noted) if isinstance(noted, list) else None

    def _state_of(
        self, line_id: Any, held: set[str] | None, by_id: dict[tuple[str, str], JobState], where: str
    ) -> JobState | None:
        """The sentence an output line answers, only if the batch held that very request; else the line is refused."""
        if held is not None:
            identity = parse_custom_id(line_id) if isinstance(line_id, str) and line_id in held else None
            if identity is None:
                self.report.refused_lines.append(f"{where}: custom_id {str(line_id)[:80]} is no request of this batch")
                return None
            return by_id.get(identity.key)
        try:
            pair_id, lang = json.loads(line_id)[:2] if isinstance(line_id, str) else (None, None)
        except (json.JSONDecodeError, TypeError, ValueError):
            return None
        return by_id.get((pair_id, lang)) if isinstance(pair_id, str) and isinstance(lang, str) else None

    def _store(self, records: Sequence[AnswerRecord], collected_batch: str | None = None) -> None:
        """Record a chunk of answers (the last with the batch's collected mark), then count the sentences it settled."""
        record_answers(self.checkpoint, records, collected_batch=collected_batch)
        for record in records:
            if record.settled is not None:
                self.report.count(Outcome.of(record.settled))

    def _lines(self, file_id: str | None) -> Iterator[tuple[int, dict[str, Any]]]:
        """Each line of a batch file, read as it downloads: one line in memory at a time, whatever the file's size."""
        if not file_id:
            return
        import openai

        with self.client.files.with_streaming_response.content(file_id) as response:
            http = sys.modules[type(response.http_response).__module__.partition(".")[0]]  # httpx2 (openai 3), or httpx
            try:
                yield from numbered_jsonl_records(response.iter_bytes(), f"batch output file {file_id}")
            except http.TransportError as exc:  # the download broke: what was stored stays, the next run reads it again
                raise openai.APIConnectionError(
                    message=f"the download of {file_id} broke ({exc})", request=response.http_request
                ) from exc


def jsonl_records(chunks: Iterable[bytes], name: str) -> Iterator[dict[str, Any]]:
    """The JSON object of each non-blank line of a JSON Lines stream, given in chunks of any size (see below)."""
    for _, record in numbered_jsonl_records(chunks, name):
        yield record


def numbered_jsonl_records(chunks: Iterable[bytes], name: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """The line number and JSON object of each non-blank line of a JSON Lines stream, given in chunks of any size.

    Lines end at ``\\n`` only (a JSON text holds no raw newline, but may hold U+2028 and other characters that
    ``str.splitlines`` would split at). A line that is not JSON or not UTF-8 stops the reading with ``name`` and
    the line's number.
    """
    number, rest = 0, b""
    for chunk in chunks:
        *complete, rest = (rest + chunk).split(b"\n")
        for raw in complete:
            number += 1
            if raw.strip():
                yield number, _record(raw, number, name)
    if rest.strip():
        yield number + 1, _record(rest, number + 1, name)


def _record(raw: bytes, number: int, name: str) -> dict[str, Any]:
    try:
        record = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise CLSDError(f"{name}, line {number}: not UTF-8 ({exc.reason} at byte {exc.start}).") from exc
    except json.JSONDecodeError as exc:
        raise CLSDError(f"{name}, line {number}: not JSON ({exc.msg}).") from exc
    if not isinstance(record, dict):
        raise CLSDError(f"{name}, line {number}: not a JSON object.")
    return record
