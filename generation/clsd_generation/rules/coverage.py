"""What the rule backend says before its run: which rules run for each language, and how many sentences they will cover.

The rules cover few sentences of some corpora (a sentence needs four distractors, and many have no number,
month, weekday or known name), and a user should learn that within seconds, not at the end of the run. So before
the run the backend prints, for each language, one line naming the rules that run there and why the others are
off (:func:`plan_line`), and, once the corpus is tagged, one line with the share of its first sentences still to
do that the rules will settle with distractors (:func:`estimate`): the run's own asking of the generator (re-asks
included) and its own validation, on a copy of each sentence's state. The candidates drawn for the estimate are the
ones the run would draw for those sentences (a seeded draw per sentence and attempt), so the run takes them from
here instead of drawing again (:class:`Drawn`): the estimate costs nothing but its order, and the output is the
same as without it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from clsd_format.languages import Language
from clsd_generation.core.outcomes import Status
from clsd_generation.core.settings import ValidationBounds
from clsd_generation.jobs.state import JobState
from clsd_generation.rules import RuleGenerator, rule_plan

SAMPLE = 200  # sentences of each language the estimate draws for: a few seconds, and a share within a few points


def plan_line(language: Language, rule_names: Sequence[str]) -> str:
    """ "rules for Hindi (hi): numbers, months, weekdays; off: names (no name lexicon), roles, negation, ... (no tagger)"."""
    running, off = rule_plan(language.code, rule_names)
    line = f"rules for {language.name} ({language.code}): {', '.join(running) or 'none'}"
    if not off:
        return line
    groups: list[tuple[list[str], str]] = []  # consecutive rules off for one reason, named once
    for rule, reason in off.items():
        if groups and groups[-1][1] == reason:
            groups[-1][0].append(rule)
        else:
            groups.append(([rule], reason))
    return f"{line}; off: " + ", ".join(f"{', '.join(rules)} ({reason})" for rules, reason in groups)


@dataclass(frozen=True)
class Drawn:
    """The candidates of one attempt at a sentence, drawn ahead by the estimate: the run uses them as they are."""

    attempt: int
    candidates: list[str]
    rules: list[str]


def draw(generator: RuleGenerator, state: JobState) -> Drawn:
    """The candidates of ``state``'s next attempt and the rule behind each one."""
    attempt = state.attempts + 1
    candidates = generator.candidates(state.job.sentence, attempt=attempt)
    return Drawn(attempt, candidates, [generator.rule_of[text] for text in candidates])


def settle_ahead(
    generator: RuleGenerator, state: JobState, bounds: ValidationBounds, max_attempts: int
) -> tuple[bool, list[Drawn]]:
    """Whether the run will settle ``state`` with distractors, and every attempt it will draw for it: the run's own
    asking (re-asks included, each a new seeded draw), on a copy of the state."""
    probe = JobState(state.job, copy.deepcopy(state.verdict), state.attempts, dict(state.rule_of), state.cut_before)
    attempts = []
    settled = None
    while settled is None:
        attempts.append(draw(generator, probe))
        settled = probe.absorb(attempts[-1].candidates, bounds, max_attempts, attempts[-1].rules).settled
    return settled.status is Status.OK, attempts


def estimate(
    states: Sequence[JobState],
    generators: Mapping[str, RuleGenerator],
    languages: Sequence[Language],
    tell: Callable[[str], None],
    bounds: ValidationBounds,
    max_attempts: int,
    sample: int = SAMPLE,
) -> dict[int, list[Drawn]]:
    """Tell, one line per language as soon as it is measured, the share of its first ``sample`` sentences still to do
    that the run will settle with distractors; return the attempts drawn for them, by the index of their state in
    ``states``, for the run to use."""
    drawn: dict[int, list[Drawn]] = {}
    for language in languages:
        chosen = [i for i, state in enumerate(states) if state.job.language.code == language.code][:sample]
        if not chosen:
            continue
        settled = 0
        for index in chosen:
            ok, drawn[index] = settle_ahead(generators[language.code], states[index], bounds, max_attempts)
            settled += ok
        tell(_coverage_line(language, settled, len(chosen)))
    return drawn


def _coverage_line(language: Language, settled: int, measured: int) -> str:
    share = settled / measured
    shown = f"{share:.0%}" if share >= 0.1 or share == 0 else f"{share:.1%}"
    where = f"measured on the first {measured}" if measured > 1 else "measured on the first one"
    if settled == measured:
        return f"rules likely cover all {language.name} sentences ({where})"
    return f"rules likely cover ~{shown} of {language.name} sentences ({where}): the others will fail; an LLM backend covers more"
