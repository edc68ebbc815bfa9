"""The same requests through the OpenAI Batch API: half the price, no rate limits, answers within 24 h.

One round = write every unfinished sentence's request to a JSONL file, upload it, create a batch,
poll it, download the output and judge each answer exactly as live mode does. Sentences with too few
valid distractors, or whose request failed inside the batch, go into the next round.

Resuming never pays twice: the uploaded file's id is stored before the batch is created and the
batch id right after, so a run killed while a batch is running polls that batch when started again
(and a run killed between the two finds its batch again by input file). A collected batch's answers
and the note that it was collected are one transaction.
"""

from __future__ import annotations

import io
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from tqdm.auto import tqdm

from clsd_format.errors import CLSDError
from clsd_generation.llm.live import RESPONSE_FORMATS, EndpointRun, chat_request_body, classify_api_error
from clsd_generation.run.checkpoint import Answer, record_collected_batch
from clsd_generation.run.jobs import FinalResult, JobState
from clsd_generation.run.settings import BatchSettings
from clsd_generation.run.summary import RunReport

ENDPOINT: Final = "/v1/chat/completions"
TERMINAL = frozenset({"completed", "failed", "expired", "cancelled"})
PENDING_UPLOAD_KEY = "batch_pending_input_file"


def custom_id(state: JobState) -> str:
    return json.dumps([state.job.pair_id, state.job.language.code], ensure_ascii=False)


@dataclass(eq=False)
class BatchGenerator(EndpointRun):
    """Asks every unfinished sentence once per Batch API round, up to ``max_attempts`` + ``batch.extra_rounds`` rounds."""

    batch: BatchSettings = BatchSettings()
    client: Any = field(init=False)

    def __post_init__(self) -> None:
        import openai

        self.client = openai.OpenAI(
            api_key=self.settings.api_key(),
            base_url=self.settings.base_url,
            timeout=self.settings.timeout,
            max_retries=self.settings.max_retries,
        )

    def run(self, states: Sequence[JobState]) -> RunReport:
        by_id = {custom_id(state): state for state in states}
        try:
            for batch_id, _ in self.checkpoint.open_batches():
                self._collect(batch_id, by_id)
            pending_file = self.checkpoint.get_meta(PENDING_UPLOAD_KEY)
            if pending_file:
                adopted = self._find_batch_for_file(pending_file)
                if adopted:
                    self.checkpoint.add_batch(adopted, self.checkpoint.batch_rounds() + 1, pending_file)
                    self.checkpoint.set_meta(PENDING_UPLOAD_KEY, None)
                    self._collect(adopted, by_id)
            while True:
                finished = self.checkpoint.finished()  # read once per round: per sentence, the run grew as its square
                pending = [s for s in by_id.values() if s.job.key not in finished]
                if not pending:
                    break
                if self.checkpoint.batch_rounds() >= self.max_attempts + self.batch.extra_rounds:
                    self.report.unfinished += len(pending)
                    break
                self._collect(self._submit(pending), by_id)
        except CLSDError:
            raise
        except Exception as exc:
            if classify_api_error(exc) == "retry":
                self.report.errors[type(exc).__name__] += 1
                finished = self.checkpoint.finished()
                self.report.unfinished += sum(1 for s in by_id.values() if s.job.key not in finished)
                return self.report
            raise CLSDError(
                f"the Batch API refused a request ({type(exc).__name__}: {exc}). Check --base-url, --model and the API key."
            ) from exc
        return self.report

    def _submit(self, pending: Sequence[JobState]) -> str:
        lines = [
            json.dumps(
                {
                    "custom_id": custom_id(s),
                    "method": "POST",
                    "url": ENDPOINT,
                    "body": chat_request_body(
                        self.settings, self.prompts, s, RESPONSE_FORMATS[0] if self.settings.structured else None
                    ),
                },
                ensure_ascii=False,
            )
            for s in pending
        ]
        round_number = self.checkpoint.batch_rounds() + 1
        payload = ("\n".join(lines) + "\n").encode("utf-8")
        uploaded = self.client.files.create(file=(f"clsd-round-{round_number}.jsonl", io.BytesIO(payload)), purpose="batch")
        self.checkpoint.set_meta(PENDING_UPLOAD_KEY, uploaded.id)
        created = self.client.batches.create(
            input_file_id=uploaded.id,
            endpoint=ENDPOINT,
            completion_window=self.batch.completion_window,
            metadata={"purpose": "clsd distractors", "round": str(round_number)},
        )
        self.checkpoint.add_batch(created.id, round_number, uploaded.id)
        self.checkpoint.set_meta(PENDING_UPLOAD_KEY, None)
        return created.id

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

    def _collect(self, batch_id: str, by_id: dict[str, JobState]) -> None:
        batch = self._wait(batch_id)
        if batch.status == "failed":
            errors = getattr(getattr(batch, "errors", None), "data", None) or []
            detail = "; ".join(f"{getattr(e, 'code', '')}: {getattr(e, 'message', '')}" for e in errors) or "no detail given"
            record_collected_batch(self.checkpoint, batch_id, [])
            raise CLSDError(f"batch {batch_id} failed ({detail}). Fix the cause and run the same command again.")
        entries: list[tuple[str, str, Answer, FinalResult | None]] = []
        finished = self.checkpoint.finished()
        for line in self._lines(batch.output_file_id):
            state = by_id.get(line.get("custom_id", ""))
            response = line.get("response") or {}
            if state is None or state.job.key in finished:
                continue  # a request of another run or one settled already: never recorded twice
            if response.get("status_code") != 200:
                self.report.errors[f"batch request status {response.get('status_code')}"] += 1
                continue  # not an answer: asked again next round
            answer, result = self.judge(state, response.get("body"), f"batch:{batch_id}")
            entries.append((state.job.pair_id, state.job.language.code, answer, result))
            if result is not None:
                finished.add(state.job.key)
                if result[0] == "ok":
                    self.report.ok += 1
                else:
                    self.report.failed += 1
        for line in self._lines(getattr(batch, "error_file_id", None)):
            self.report.errors[f"batch request error {((line.get('error') or {}).get('code'))}"] += 1
        record_collected_batch(self.checkpoint, batch_id, entries)

    def _lines(self, file_id: str | None) -> list[dict[str, Any]]:
        if not file_id:
            return []
        text = self.client.files.content(file_id).text
        lines = []
        for number, line in enumerate(text.splitlines(), start=1):
            if line.strip():
                try:
                    lines.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    raise CLSDError(f"batch output file {file_id}, line {number}: not JSON ({exc.msg}).") from exc
        return lines
