"""``clsd judge``: the paper's reading of each distractor, asked of a judge model, with a 95% interval.

The paper's authors read 200 distractors per language. Here a judge model (any OpenAI-compatible
endpoint) is asked the same criteria as three separate yes/no questions (:data:`QUESTIONS`, fixed and
printed in the card), one request each, temperature 0:

* ``fluent``: is the distractor fluent and grammatical in its language? (must be yes)
* ``translation``: is it a correct translation of the source sentence? (must be no: then it would be a
  second right answer)
* ``small_edit``: is it a small edit of the true translation? (must be yes: the paper's "structurally and
  lexically similar")

A distractor is judged valid when all three come out right. Verdicts are read strictly: the answer
must be "yes" or "no" (case, surrounding punctuation and a reasoning block aside), or, with
``--structured``, a JSON object ``{"answer": "yes"|"no"}``; anything else is asked again, up to the attempt
limit, then recorded as "unclear" and left out of the share; so is an answer naming another model than the judge
asked for (:func:`clsd_generation.core.reading.answered_as_asked`, ``--accept-answering-model``). Every verdict is
committed to the run's checkpoint as it arrives, so a killed judge resumes without asking a settled question twice.

The judge is only as good as its model: the human reading (``clsd check-sample`` / ``check-import``) stays
the reference, and ``clsd judge --against SHEET`` measures the judge's agreement with it.
"""

from __future__ import annotations

import json
import math
import random
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clsd_format.declared_settings import fingerprint_of, option_name
from clsd_format.errors import CLSDError
from clsd_format.languages import Language
from clsd_generation.checks.parsing import strip_reasoning
from clsd_generation.core.checkpoint import (
    JUDGE_KEY,
    JUDGE_REFUSALS_KEY,
    JUDGE_SAMPLE_KEY,
    Checkpoint,
    Judgment,
    checkpoint_writes,
)
from clsd_generation.core.languages import languages_of
from clsd_generation.core.lock import run_folder_lock
from clsd_generation.core.reading import OTHER_MODEL, read_text
from clsd_generation.core.settings import LLMSettings
from clsd_generation.llm.client import Asking, ChatRequest, ClientFactory, EndpointError, OpenAIChatClient
from clsd_generation.llm.judge_settings import JudgeSettings

QUESTIONS: dict[str, str] = {
    "fluent": "Is the following {language} sentence fluent and grammatical {language}? Answer with one word: yes or no.\n\n"
    "Sentence: {distractor}",
    "translation": "Sentence A is {source_language}, sentence B is {language}. Is sentence B a correct translation of "
    "sentence A, with the same meaning? Answer with one word: yes or no.\n\nA: {source}\nB: {distractor}",
    "small_edit": "Is sentence B a small edit of sentence A: the same structure and mostly the same words, with a few "
    "words changed? Answer with one word: yes or no.\n\nA: {target}\nB: {distractor}",
}
VALID_ANSWERS = {"fluent": "yes", "translation": "no", "small_edit": "yes"}  # the answers a valid distractor gets
ANSWER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"answer": {"type": "string", "enum": ["yes", "no"]}},
    "required": ["answer"],
    "additionalProperties": False,
}
UNCLEAR = "unclear"
Z_95 = 1.959963984540054


@dataclass(frozen=True)
class Item:
    """One distractor to judge, with the two sentences its questions need."""

    language: Language
    source_language: Language
    source: str
    target: str
    distractor: str

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.language.code, self.source, self.target, self.distractor)

    def prompt(self, question: str) -> str:
        return QUESTIONS[question].format(
            language=self.language.name,
            source_language=self.source_language.name,
            source=self.source,
            target=self.target,
            distractor=self.distractor,
        )


def read_verdict(answer: str, structured: bool = False) -> str:
    """ "yes", "no", or :data:`UNCLEAR` for anything else ("Yes." is yes; "Yes, but ..." is unclear)."""
    text = strip_reasoning(answer).strip()
    if structured:
        try:
            loaded = json.loads(text)
        except (ValueError, RecursionError):  # not JSON, or nested past the parser's depth: not a verdict
            loaded = None
        if isinstance(loaded, dict) and isinstance(loaded.get("answer"), str):
            text = loaded["answer"]
    word = re.sub(r"^[\W_]+|[\W_]+$", "", text).casefold()
    return word if word in ("yes", "no") else UNCLEAR


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a binomial share (95% by default); (0, 1) for no trials."""
    if trials == 0:
        return (0.0, 1.0)
    share = successes / trials
    denominator = 1 + z * z / trials
    centre = (share + z * z / (2 * trials)) / denominator
    half = z / denominator * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials))
    return (max(0.0, centre - half), min(1.0, centre + half))


def verdict_of(answers: dict[str, str]) -> str | None:
    """ "valid" or "invalid" from the three questions' answers; None while any is missing or unclear."""
    if any(answers.get(question) not in ("yes", "no") for question in QUESTIONS):
        return None
    return "valid" if all(answers[q] == VALID_ANSWERS[q] for q in QUESTIONS) else "invalid"


def run_items(checkpoint: Checkpoint) -> list[Item]:
    """Every kept distractor of the run, in a fixed order (language, pair, slot)."""
    languages = languages_of(checkpoint)
    pairs = {pair.pair_id: pair for pair in checkpoint.pairs()}
    items = []
    for result in sorted(checkpoint.results(), key=lambda r: (r.lang, r.pair_id)):
        if result.status != "ok":
            continue
        side = 0 if result.lang == languages[0].code else 1
        pair = pairs[result.pair_id]
        for distractor in result.distractors:
            items.append(Item(languages[side], languages[1 - side], pair.texts[1 - side], pair.texts[side], distractor))
    return items


def sample_items(items: Sequence[Item], per_language: int | None, seed: int) -> list[Item]:
    """All ``items``, or a seeded sample of ``per_language`` of each language (the same seed, the same sample)."""
    if per_language is None:
        return list(items)
    chosen: list[Item] = []
    for code in sorted({item.language.code for item in items}):
        population = [item for item in items if item.language.code == code]
        chosen += random.Random(f"{seed}|{code}").sample(population, min(per_language, len(population)))
    return chosen


@dataclass(eq=False)
class Judge:
    """Asks every unsettled question of ``items``, ``concurrency`` at a time, committing each verdict."""

    checkpoint: Checkpoint
    settings: JudgeSettings
    progress: bool = True
    client_factory: ClientFactory = OpenAIChatClient
    asked: int = 0
    refused: Counter[str] = field(default_factory=Counter)  # answers the reader of every LLM answer refused, by reason
    verdicts: Counter[str] = field(default_factory=Counter)  # questions settled this run: "yes", "no" or "unclear"
    _asking: Asking = field(init=False)

    def run(self, items: Sequence[Item]) -> None:
        """Ask every unsettled question; a run that settles questions but keeps no yes or no among them fails, with its
        counts (as a run whose first answers all name another model stops: :mod:`clsd_generation.llm.first_answers`)."""
        settled = self.checkpoint.judged_questions()
        todo = [(item, q) for item in items for q in QUESTIONS if (*item.key, q) not in settled]
        self._asking = Asking(self.settings.llm, "judge", "question", self.client_factory, self.progress)
        self._asking.run(todo, self._settle)
        if self.verdicts and not (self.verdicts["yes"] or self.verdicts["no"]):
            refused = ", ".join(f"{reason} {n}" for reason, n in self.refused.most_common()) or "none"
            raise CLSDError(
                f"no verdict kept: all {self.verdicts[UNCLEAR]} question(s) settled this run came out {UNCLEAR} "
                f"({self.asked} answer(s) to {self._asking.requests} request(s) sent; answers refused by reason: {refused}; "
                f"the others neither yes nor no). Check {option_name(LLMSettings, 'model')} and "
                f"{option_name(LLMSettings, 'base_url')}, or try {option_name(LLMSettings, 'structured')}."
            )

    async def _settle(self, task: tuple[Item, str]) -> None:
        item, question = task
        llm = self.settings.llm
        schema = ANSWER_SCHEMA if llm.structured else None
        request = ChatRequest(item.prompt(question), llm.max_tokens, schema=schema, schema_name="verdict")
        for attempt in range(1, self.settings.max_attempts + 1):
            try:
                completion = await self._asking.ask(request)
            except EndpointError:
                return  # no answer after the client's retries: unsettled, asked by the next run
            self.asked += 1
            reading = read_text(completion.text, llm.max_tokens)
            refusal = reading.refusal if self._asking.as_asked(completion) else OTHER_MODEL
            if refusal is not None:
                self.refused[refusal] += 1
            verdict = UNCLEAR if refusal else read_verdict(reading.text, llm.structured)
            if verdict != UNCLEAR or attempt == self.settings.max_attempts:
                self.checkpoint.add_judgment(Judgment(*item.key, question, verdict, reading.text, attempt))
                self.verdicts[verdict] += 1
                return


@dataclass
class JudgedShare:
    """Per language: distractors with a verdict, those judged valid, those left unclear."""

    judged: Counter[str] = field(default_factory=Counter)
    valid: Counter[str] = field(default_factory=Counter)
    unclear: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)  # answers refused unread this run, by reason (asked again)

    def lines(self, model: str) -> list[str]:
        out = []
        for code in sorted(self.judged | self.unclear):
            n, k = self.judged[code], self.valid[code]
            low, high = wilson_interval(k, n)
            share = f"{k / n:.1%}" if n else "n/a"
            out.append(
                f"{code}: {k} of {n} judged valid ({share}; 95% Wilson interval {low:.1%}-{high:.1%})"
                + (f", {self.unclear[code]} unclear" if self.unclear[code] else "")
                + f" [judge: {model}]"
            )
        if self.refused:
            out.append("answers refused (asked again): " + ", ".join(f"{r} {n}" for r, n in self.refused.most_common()))
        return out


def judged_share(checkpoint: Checkpoint, items: Sequence[Item]) -> JudgedShare:
    """The verdicts of ``items`` as stored: each distractor valid, invalid or unclear."""
    answers = checkpoint.judgments()
    share = JudgedShare()
    for item in items:
        verdict = verdict_of(answers.get(item.key, {}))
        code = item.language.code
        if verdict is None:
            share.unclear[code] += 1 if len(answers.get(item.key, {})) == len(QUESTIONS) else 0
            continue
        share.judged[code] += 1
        share.valid[code] += verdict == "valid"
    return share


def bind_judge(checkpoint: Checkpoint, settings: JudgeSettings) -> None:
    """Record the judge's model and questions on first use; a different judge on the same run is refused."""
    checkpoint.bind(JUDGE_KEY, {**fingerprint_of(settings), "questions": QUESTIONS})  # the declared fingerprint, the questions


def judge_run(
    run_dir: Path,
    settings: JudgeSettings,
    *,
    per_language: int | None = None,
    seed: int = 0,
    progress: bool = True,
    client_factory: ClientFactory = OpenAIChatClient,
) -> tuple[JudgedShare, int, int]:
    """Judge a run's kept distractors (or a seeded sample); the shares, questions asked now, and questions left unsettled.

    ``client_factory``: the provider (an OpenAI-compatible endpoint by default; see :mod:`clsd_generation.llm.client`).
    """
    with checkpoint_writes(run_dir), run_folder_lock(run_dir, create=False), Checkpoint.existing(run_dir) as checkpoint:
        bind_judge(checkpoint, settings)
        items = sample_items(run_items(checkpoint), per_language, seed)
        if not items:
            raise CLSDError(f"{run_dir} has no kept distractors to judge; run `clsd generate` first.")
        checkpoint.set_meta(JUDGE_SAMPLE_KEY, {"sample_per_language": per_language, "seed": seed})
        judge = Judge(checkpoint, settings, progress, client_factory)
        try:
            judge.run(items)
        finally:
            record_refusals(checkpoint, judge.refused)
        settled = checkpoint.judged_questions()
        left = sum((*item.key, question) not in settled for item in items for question in QUESTIONS)
        share = judged_share(checkpoint, items)
        share.refused.update(judge.refused)
        return share, judge.asked, left


def record_refusals(checkpoint: Checkpoint, refused: Counter[str]) -> None:
    """Add this run's refused answers (by reason) to the run's count, which the card prints."""
    if refused:
        checkpoint.set_meta(JUDGE_REFUSALS_KEY, dict(Counter(checkpoint.get_meta(JUDGE_REFUSALS_KEY) or {}) + refused))


def judged_items(checkpoint: Checkpoint) -> list[Item]:
    """The distractors the latest ``clsd judge`` covered (all kept ones, or its seeded sample)."""
    sample = checkpoint.get_meta(JUDGE_SAMPLE_KEY) or {}
    return sample_items(run_items(checkpoint), sample.get("sample_per_language"), sample.get("seed", 0))


def judged_record(checkpoint: Checkpoint) -> dict[str, Any] | None:
    """The judge's reading as the card's manifest records it (:class:`clsd_format.hub.DistractorOrigin`): the judge
    model and, per language, the distractors judged and those judged valid; None when the run was not judged."""
    binding = checkpoint.get_meta(JUDGE_KEY)
    if not binding:
        return None
    share = judged_share(checkpoint, judged_items(checkpoint))
    languages = {code: {"valid": share.valid[code], "judged": share.judged[code]} for code in sorted(share.judged)}
    return {"model": binding["model"], "languages": languages}


def judge_card_section(checkpoint: Checkpoint, dropped: int | None) -> str:
    """The card's section on the judge's reading; empty when the run was not judged.

    ``dropped``: sentences left out of the build for a judged-invalid distractor (``--drop-invalid``), or None.
    """
    binding = checkpoint.get_meta(JUDGE_KEY)
    if not binding:
        return ""
    sample = checkpoint.get_meta(JUDGE_SAMPLE_KEY) or {}
    covered = (
        f"a seeded sample of {sample['sample_per_language']} per language (seed {sample.get('seed', 0)})"
        if sample.get("sample_per_language")
        else "every kept distractor"
    )
    share = judged_share(checkpoint, judged_items(checkpoint))
    share.refused.update(checkpoint.get_meta(JUDGE_REFUSALS_KEY) or {})
    lines = "\n".join(f"- {line}" for line in share.lines(binding["model"]))
    questions = "\n".join(
        f"  - `{name}` (valid: {VALID_ANSWERS[name]}): `{text.replace(chr(10), ' ')}`" for name, text in QUESTIONS.items()
    )
    return (
        f"\n## Judged validity\n\nThe judge model `{binding['model']}` read {covered}, one question per request, "
        f"temperature 0:\n\n{questions}\n\n{lines}\n\nA distractor is valid when all three answers are the valid ones; "
        "an answer other than yes or no was asked again and otherwise counted as unclear. The judge is only as good as its "
        "model; a human reading (`clsd check-sample`, `clsd check-import`) stays the reference."
        + (f" {dropped} sentence(s) with a judged-invalid distractor were left out of this build." if dropped is not None else "")
        + "\n"
    )


def invalid_sentences(checkpoint: Checkpoint) -> set[tuple[str, str]]:
    """(pair id, language) of every kept sentence with at least one distractor the judge found invalid."""
    answers = checkpoint.judgments()
    languages = languages_of(checkpoint)
    pairs = {pair.pair_id: pair for pair in checkpoint.pairs()}
    invalid = set()
    for result in checkpoint.results():
        if result.status != "ok":
            continue
        side = 0 if result.lang == languages[0].code else 1
        texts = pairs[result.pair_id].texts
        if any(
            verdict_of(answers.get((result.lang, texts[1 - side], texts[side], d), {})) == "invalid" for d in result.distractors
        ):
            invalid.add((result.pair_id, result.lang))
    return invalid
