"""The job of one sentence and how answers settle it (clsd_generation.jobs.state), the same for every backend."""

from __future__ import annotations

from pathlib import Path

from clsd_format.languages import FRENCH, GERMAN
from clsd_generation.core.checkpoint import Answer, Checkpoint
from clsd_generation.core.inputs import ParallelPair
from clsd_generation.core.outcomes import Settled, Status
from clsd_generation.core.settings import ValidationBounds
from clsd_generation.jobs.state import CUT_BY_LIMIT, Job, JobState, make_jobs, pending_states

BOUNDS = ValidationBounds(needed=2)
SENTENCE = "Der alte Mann kaufte gestern drei rote Äpfel auf dem Markt."
FOUR = "Der alte Mann kaufte gestern vier rote Äpfel auf dem Markt."
SOLD = "Der alte Mann verkaufte gestern drei rote Äpfel auf dem Markt."
PAIRS = [
    ParallelPair("p1", (SENTENCE, "Le vieil homme a acheté hier trois pommes rouges au marché.")),
    ParallelPair("p2", ("Die Katze schläft auf dem Sofa.", "Le chat dort sur le canapé.")),
]


def _state() -> JobState:
    return JobState(Job("p1", GERMAN, SENTENCE))


def test_make_jobs_is_language_major_with_one_lexicon_per_language() -> None:
    jobs = make_jobs(PAIRS, (GERMAN, FRENCH))
    assert [job.key for job in jobs] == [("p1", "de"), ("p2", "de"), ("p1", "fr"), ("p2", "fr")]
    assert jobs[2].sentence == PAIRS[0].texts[1]
    assert jobs[0].corpus is jobs[1].corpus and jobs[0].corpus is not jobs[2].corpus
    assert jobs[0].corpus is not None and jobs[0].corpus.texts == (SENTENCE, PAIRS[1].texts[0])


def test_a_rule_answer_settles_with_the_rule_of_each_distractor() -> None:
    state = _state()
    effect = state.absorb([SENTENCE, f" {FOUR} ", FOUR, SOLD], BOUNDS, max_attempts=3, rules=["r0", "number", "dup", "verb"])
    assert effect.settled == Settled.ok([FOUR, SOLD], 1)
    assert len(effect.refused) == 2  # the original itself, and the repeated candidate
    assert state.rules_of([FOUR, SOLD]) == ["number", "verb"]
    assert state.rules_of([FOUR, "unknown text"]) == []


def test_rules_that_find_too_few_fail_after_their_attempts() -> None:
    state = _state()
    assert state.absorb([FOUR], BOUNDS, max_attempts=2, rules=["number"]).settled is None
    settled = state.absorb([], BOUNDS, max_attempts=2, rules=[]).settled
    assert settled is not None and settled.status is Status.FAILED and settled.attempts == 2
    assert settled.reason == "the rules found only 1 of 2 distractors"


def test_cut_answers_leave_the_sentence_unfinished_not_failed() -> None:
    state = _state()
    first = state.absorb([FOUR, SOLD], BOUNDS, max_attempts=2, cut=True)
    assert first.settled is None and not state.limited and state.verdict.kept == []
    assert state.verdict.rejected == [("", CUT_BY_LIMIT)]
    second = state.absorb([FOUR, SOLD], BOUNDS, max_attempts=2, cut=True)
    assert second.settled is None and state.limited and state.attempts == 2 and state.cut_now == 2


def test_release_and_reject() -> None:
    state = _state()
    state.absorb([FOUR], BOUNDS, max_attempts=3, rules=["number"])
    state.release()
    assert state.verdict.kept == [] and state.rule_of == {}
    assert state.reject("refused by the endpoint") == Settled(Status.FAILED, [], "refused by the endpoint", 1)


def test_pending_states_rebuild_unfinished_sentences_from_stored_answers(tmp_path: Path) -> None:
    jobs = make_jobs(PAIRS, (GERMAN, FRENCH))
    with Checkpoint.in_folder(tmp_path) as checkpoint:
        checkpoint.record("p1", "de", answer=Answer(1, "", [FOUR, SENTENCE], "rules", candidate_rules=["number", "x"]))
        checkpoint.record("p2", "de", result=Settled.failed("no rule applies to this sentence", 1))
        checkpoint.record("p1", "fr", answer=Answer(1, "…", ["Le vieil"], "live:m", finish_reason="length"))
        states, finished_before = pending_states(jobs, checkpoint, BOUNDS)
    assert finished_before == 1
    assert [state.job.key for state in states] == [("p1", "de"), ("p1", "fr"), ("p2", "fr")]
    first, cut, fresh = states
    assert (first.attempts, first.verdict.kept, first.rule_of[FOUR]) == (1, [FOUR], "number")
    assert len(first.verdict.rejected) == 1
    assert (cut.attempts, cut.cut_before, cut.verdict.rejected) == (1, 1, [("", CUT_BY_LIMIT)])
    assert (fresh.attempts, fresh.verdict.kept) == (0, [])
