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

A run the rules would make nothing of should not take its hours to say so: where no sampled sentence of a language
would be settled with distractors (and no earlier invocation settled one), that language's direction could give no
row, so the run stops there (:func:`refuse_barren`), naming for each such language what each rule found in its
sample, unless the user runs it anyway.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from clsd_format.declared_settings import option_name
from clsd_format.languages import Language
from clsd_generation.core.outcomes import Status
from clsd_generation.core.settings import ValidationBounds
from clsd_generation.jobs.backend import NothingToMake
from clsd_generation.jobs.state import JobState
from clsd_generation.rules import RuleGenerator, rule_plan
from clsd_generation.rules.choices import RuleChoices
from clsd_generation.rules.registry import RULE_BY_NAME

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
    proposed: frozenset[str] = frozenset()  # the rules that proposed an edit, kept by the checks or not


@dataclass
class Sample:
    """What the estimate saw in one language's first sentences still to do: how many the run would settle with
    distractors, and what each rule found there (the reason a barren run gives when it stops)."""

    language: Language
    measured: int
    settled: int = 0
    running: tuple[str, ...] = ()  # the rules that run for the language
    found: Counter[str] = field(default_factory=Counter)  # rule -> sentences of the sample where it proposed an edit
    checks: Counter[tuple[str, str]] = field(default_factory=Counter)  # (rule, "kept" or why dropped) -> candidates

    def why_none(self) -> str:
        """Rule by rule, what it found: "numbers: no number in 49 sentences; months: 3 candidate(s) in 2 of 49
        sentences, none kept (duplicate 3)"; a rule that kept candidates kept too few in any one sentence."""
        if not self.running:
            return "no rule runs for it"
        return "; ".join(f"{rule}: {self._found_by(rule)}" for rule in self.running)

    def _found_by(self, rule: str) -> str:
        sentences, measured = self.found[rule], f"{self.measured} sentence{'s' if self.measured > 1 else ''}"
        if not sentences:
            return f"no {RULE_BY_NAME[rule].finds} in {measured}"
        kept = self.checks[(rule, "kept")]
        drops = Counter({reason: n for (r, reason), n in self.checks.items() if r == rule and reason != "kept"})
        where = f"in {sentences} of {measured}"
        if kept:
            return f"{kept} candidate(s) kept {where}"
        detail = ", ".join(f"{reason} {n}" for reason, n in sorted(drops.items(), key=lambda kv: (-kv[1], kv[0])))
        return f"{sum(drops.values())} candidate(s) {where}, none kept" + (f" ({detail})" if detail else "")


def draw(generator: RuleGenerator, state: JobState) -> Drawn:
    """The candidates of ``state``'s next attempt and the rule behind each one."""
    attempt = state.attempts + 1
    candidates = generator.candidates(state.job.sentence, attempt=attempt)
    return Drawn(attempt, candidates, [generator.rule_of[text] for text in candidates], generator.proposed)


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
) -> tuple[dict[int, list[Drawn]], list[Sample]]:
    """Tell, one line per language as soon as it is measured, the share of its first ``sample`` sentences still to do
    that the run will settle with distractors; return the attempts drawn for them, by the index of their state in
    ``states``, for the run to use, and what was seen in each language's sample."""
    drawn: dict[int, list[Drawn]] = {}
    samples = []
    for language in languages:
        chosen = [i for i, state in enumerate(states) if state.job.language.code == language.code][:sample]
        if not chosen:
            continue
        generator = generators[language.code]
        seen = Sample(language, len(chosen), running=tuple(generator.rule_names))
        for index in chosen:
            ok, drawn[index] = settle_ahead(generator, states[index], bounds, max_attempts)
            seen.settled += ok
            seen.found.update({rule for attempt in drawn[index] for rule in attempt.proposed})
        seen.checks.update(generator.outcomes)  # a generator of its own per language: its sample's candidates so far
        samples.append(seen)
        tell(_coverage_line(language, seen.settled, seen.measured))
    return drawn, samples


def refuse_barren(samples: Sequence[Sample], made_before: Mapping[str, int], needed: int) -> None:
    """Stop a run the rules would make nothing of: some language none of whose sampled sentences the rules would
    settle with distractors, and none of whose sentences an earlier invocation did. A direction needs distractors in
    its target language, so such a run could build no dataset; the reason is said per language, rule by rule."""
    barren = [seen for seen in samples if not seen.settled and not made_before.get(seen.language.code)]
    if not barren:
        return
    names = [f"{seen.language.name} ({seen.language.code})" for seen in barren]
    reasons = " ".join(f"{name}: {seen.why_none()}." for name, seen in zip(names, barren, strict=True))
    raise NothingToMake(
        f"nothing was generated: the rules would give no {' and no '.join(names)} sentence its {needed} distractors "
        f"(measured on the first sentences still to do), and a dataset needs them in both languages. {reasons} "
        f"Add {option_name(RuleChoices, 'run_anyway')} to run the rules on every sentence all the same."
    )


def _coverage_line(language: Language, settled: int, measured: int) -> str:
    share = settled / measured
    shown = f"{share:.0%}" if share >= 0.1 or share == 0 else f"{share:.1%}"
    where = f"measured on the first {measured}" if measured > 1 else "measured on the first one"
    if settled == measured:
        return f"rules likely cover all {language.name} sentences ({where})"
    return f"rules likely cover ~{shown} of {language.name} sentences ({where}): the others will fail; an LLM backend covers more"
