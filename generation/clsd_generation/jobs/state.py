"""Work items shared by every backend: one job per (pair, language), and how answers settle it.

Both LLM modes (live and Batch API) and the rule backend feed candidates through
:meth:`JobState.absorb`, so a sentence is judged the same way whichever produced its candidates,
and a resumed run re-judges the answers it already stored instead of paying for them again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from clsd_format.languages import Language
from clsd_generation.checks.candidates import Verdict, check_candidates, reason_kind
from clsd_generation.checks.lexicon import CorpusLexicon
from clsd_generation.core.checkpoint import Checkpoint
from clsd_generation.core.inputs import ParallelPair
from clsd_generation.core.outcomes import AnswerEffect, Settled
from clsd_generation.core.settings import ValidationBounds

CUT_BY_LIMIT = "answer cut by the token limit"


@dataclass(frozen=True)
class Job:
    pair_id: str
    language: Language
    sentence: str
    # The words of the input's sentences in this language, one lexicon shared by the language's jobs (make_jobs)
    corpus: CorpusLexicon | None = field(default=None, compare=False, repr=False)

    @property
    def key(self) -> tuple[str, str]:
        return (self.pair_id, self.language.code)


@dataclass
class JobState:
    job: Job
    verdict: Verdict = field(default_factory=Verdict)
    attempts: int = 0
    rule_of: dict[str, str] = field(default_factory=dict)  # candidate text -> the rule that made it (rule backend)
    cut_before: int = 0  # stored answers cut by the token limit (of an earlier run, perhaps with a smaller limit)
    cut_now: int = 0  # answers of this run cut by the token limit
    limited: bool = False  # this run's limit cut max_attempts answers: left unfinished, to resume with a larger one

    def absorb(
        self,
        candidates: Sequence[str],
        bounds: ValidationBounds,
        max_attempts: int,
        rules: Sequence[str] | None = None,
        cut: bool = False,
    ) -> AnswerEffect:
        """Count one answer (``rules``: the rule behind each candidate, when the rule backend made them; ``cut``: an
        LLM answer stopped by the token limit) and say what it did: the sentence's result once settled, else None
        (ask again), and what of this answer was refused or flagged.

        A cut answer does not use up an attempt: the limit, not the sentence, is at fault. When this run's limit has cut
        ``max_attempts`` answers, the sentence is left unfinished (:attr:`limited`), never failed for good: a run with a
        larger ``--max-tokens`` continues it.
        """
        verdict = self.verdict
        refused_before, markup_before, unchecked_before = (
            len(verdict.rejected),
            Counter(verdict.markup),
            Counter(verdict.unchecked),
        )
        self.attempts += 1
        self.cut_now += cut
        self.remember_rules(candidates, rules or ())
        self.read(candidates, bounds, by_llm=rules is None, cut=cut)
        settled = self._settle(bounds, max_attempts, deterministic=rules is not None)
        if settled is not None:
            self.limited = False
        return AnswerEffect(
            settled,
            refused=[reason_kind(reason) for _, reason in verdict.rejected[refused_before:]],
            markup=verdict.markup - markup_before,
            unchecked=verdict.unchecked - unchecked_before,
        )

    def _settle(self, bounds: ValidationBounds, max_attempts: int, *, deterministic: bool) -> Settled | None:
        if self.verdict.complete(bounds):
            return Settled.ok(self.verdict.kept[: bounds.needed], self.attempts)
        if self.cut_now >= max_attempts:
            self.limited = True
            return None
        if self.attempts - self.cut_before - self.cut_now >= max_attempts:
            return Settled.failed(self.verdict.failure_reason(bounds, self.attempts, deterministic), self.attempts)
        return None

    def read(self, candidates: Sequence[str], bounds: ValidationBounds, *, by_llm: bool, cut: bool = False) -> None:
        """Judge one answer's candidates into the verdict; an LLM's are read by the answer checks too.

        A cut answer's candidates are not used: its last item is a sentence stopped midway, which the surface checks
        could take for a shorter sentence of another meaning.
        """
        if cut:
            self.verdict.rejected.append(("", CUT_BY_LIMIT))
            return
        check_candidates(
            self.job.sentence,
            candidates,
            bounds,
            self.verdict,
            self.job.language.code if by_llm else None,
            self.job.language.code,
            self.job.corpus,
        )

    def remember_rules(self, candidates: Sequence[str], rules: Sequence[str]) -> None:
        for candidate, rule in zip(candidates, rules, strict=False):
            self.rule_of.setdefault(candidate.strip(), rule)  # validation keeps the stripped text

    def rules_of(self, distractors: Sequence[str]) -> list[str]:
        """The rule behind each distractor; empty unless a rule made every one of them."""
        rules = [self.rule_of.get(text) for text in distractors]
        return [rule for rule in rules if rule] if all(rules) else []

    def release(self) -> None:
        """Drop what a settled sentence's answers left here: they are in the checkpoint, and on a large corpus every
        answer kept in memory to the end of the run would make memory grow with the answers, not the input."""
        self.verdict = Verdict()
        self.rule_of = {}

    def reject(self, reason: str) -> Settled:
        """Settle as failed without an answer (the endpoint refused this request)."""
        return Settled.failed(reason, self.attempts)


def make_jobs(pairs: Sequence[ParallelPair], languages: tuple[Language, Language]) -> list[Job]:
    """Every sentence of both languages; language-major order keeps one prompt template warm. Each language's jobs
    share one corpus lexicon of all its sentences, read the first time an answer is (a rule run never reads it)."""
    jobs = []
    for side, language in enumerate(languages):
        corpus = CorpusLexicon.of(language.code, (pair.texts[side] for pair in pairs))
        jobs += [Job(pair.pair_id, language, pair.texts[side], corpus) for pair in pairs]
    return jobs


def pending_states(jobs: Sequence[Job], checkpoint: Checkpoint, bounds: ValidationBounds) -> tuple[list[JobState], int]:
    """States of the unfinished jobs, rebuilt from stored answers; and how many were finished before."""
    finished = checkpoint.finished()
    stored = checkpoint.stored_answers()
    states = []
    for job in jobs:
        if job.key in finished:
            continue
        answers = stored.get(job.key, [])
        state = JobState(job, Verdict(), len(answers), cut_before=sum(answer.cut for answer in answers))
        for answer in answers:
            state.remember_rules(answer.candidates, answer.rules)
            state.read(answer.candidates, bounds, by_llm=answer.by_llm, cut=answer.cut)
        states.append(state)
    return states, len(jobs) - len(states)
