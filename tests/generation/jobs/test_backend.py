"""The one call shape of a distractor backend (clsd_generation.jobs.backend): what a backend is handed and what its
refusal to start does. A small backend written to the protocol runs through the same entry point as the real ones."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from clsd_format.errors import CLSDError
from clsd_format.languages import FRENCH, GERMAN, Language
from clsd_generation.core.checkpoint import CHECKPOINT_FILE, Answer, Checkpoint
from clsd_generation.core.inputs import ParallelCorpus, ParallelPair
from clsd_generation.core.outcomes import Status
from clsd_generation.core.settings import ValidationBounds
from clsd_generation.core.summary import RunReport
from clsd_generation.jobs.backend import DistractorBackend, NothingToMake, RunContext
from clsd_generation.jobs.state import JobState
from clsd_generation.run.backends import LLMBackend, RuleBackend
from clsd_generation.run.loop import RunOptions, generate_distractors

BOUNDS = ValidationBounds(needed=1)
CORPUS = ParallelCorpus(
    "pairs.csv",
    ("de", "fr"),
    [ParallelPair("p1", ("Die Katze schläft auf dem Sofa.", "Le chat dort sur le canapé."))],
)
ANSWERS = {"de": "Der Hund schläft auf dem Sofa.", "fr": "Le chien dort sur le canapé."}


@dataclass
class TableBackend:
    """Answers each sentence with the one distractor of its language in :data:`ANSWERS`; ``refuse``: nothing to make."""

    refuse: bool = False
    seen: list[RunContext] = field(default_factory=list)
    name: str = "table"

    def describe(self) -> str:
        return "table"

    def check(self, languages: tuple[Language, Language]) -> None:
        if languages[0] == languages[1]:
            raise CLSDError("same language")

    def fingerprint(self, languages: tuple[Language, Language]) -> dict[str, object]:
        return {"table": sorted(ANSWERS)}

    def endpoint(self) -> str | None:
        return None

    def run(self, states: Sequence[JobState], context: RunContext) -> RunReport:
        self.seen.append(context)
        if self.refuse:
            raise NothingToMake("the table holds nothing for these sentences")
        if context.announce is not None:
            context.announce(f"table: {len(states)} sentences")
        for state in states:
            code = state.job.language.code
            effect = state.absorb([ANSWERS[code]], context.bounds, context.max_attempts, rules=["table"])
            answer = Answer(state.attempts, ANSWERS[code], [ANSWERS[code]], "rules", candidate_rules=["table"])
            rules = state.rules_of(effect.settled.distractors) if effect.settled else []
            context.checkpoint.record(state.job.pair_id, code, answer=answer, result=effect.settled, distractor_rules=rules)
            context.report.ok += effect.settled is not None
        return context.report


def test_every_backend_has_the_protocol_members() -> None:
    members = {name for name in vars(DistractorBackend) if not name.startswith("_")}
    assert members == {"name", "describe", "check", "fingerprint", "endpoint", "run"}
    for backend in (RuleBackend, LLMBackend, TableBackend):
        assert all(hasattr(backend, name) for name in members), backend


def test_a_backend_gets_its_context_and_settles_through_the_checkpoint(tmp_path: Path) -> None:
    backend, said = TableBackend(), []
    options = RunOptions(max_attempts=2, progress=False, announce=said.append)
    report = generate_distractors(CORPUS, (GERMAN, FRENCH), tmp_path, backend, BOUNDS, options)
    context = backend.seen[0]
    assert (context.pairs, context.languages, context.max_attempts, context.progress) == (
        CORPUS.pairs,
        (GERMAN, FRENCH),
        2,
        False,
    )
    assert context.bounds == BOUNDS and said == ["table: 2 sentences"]
    assert report.ok == 2 and report.backend == "table"
    with Checkpoint.existing(tmp_path) as checkpoint:
        results = {(r.lang, r.status, tuple(r.distractors), r.rules) for r in checkpoint.results()}
    assert results == {(code, Status.OK, (text,), ("table",)) for code, text in ANSWERS.items()}


def test_nothing_to_make_removes_the_checkpoint_this_run_began(tmp_path: Path) -> None:
    with pytest.raises(NothingToMake, match="the table holds nothing") as caught:
        generate_distractors(CORPUS, (GERMAN, FRENCH), tmp_path, TableBackend(refuse=True), BOUNDS, RunOptions(progress=False))
    assert isinstance(caught.value, CLSDError)
    assert not (tmp_path / CHECKPOINT_FILE).exists()


def test_a_backend_check_stops_before_the_run_folder_is_touched(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    with pytest.raises(CLSDError, match="must differ"):
        generate_distractors(CORPUS, (GERMAN, GERMAN), run_dir, TableBackend(), BOUNDS, RunOptions(progress=False))
    assert not run_dir.exists()
