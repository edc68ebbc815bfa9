"""What one ``clsd generate`` invocation did, whatever the backend: the lines it prints at the end."""

from __future__ import annotations

import shlex
from collections import Counter
from dataclasses import dataclass, field

from clsd_format.declared_settings import option_name
from clsd_generation.core.checkpoint import Usage
from clsd_generation.core.outcomes import AnswerEffect, Outcome
from clsd_generation.core.reading import model_shown
from clsd_generation.core.settings import LLMSettings

SHOWN_REFUSED_LINES = 5  # refused output lines named one by one in the summary; the rest are counted
SHOWN_FAILURE_REASONS = 5  # kinds of failure named per language in the summary; the rest are counted


@dataclass
class RunReport:
    """What one invocation did; ``unfinished`` sentences are picked up by running again."""

    backend: str
    total: int
    done_before: int
    ok: int = 0
    failed: int = 0
    unfinished: int = 0
    reasked: int = 0  # LLM answers that could not settle their sentence, so it was asked again
    usage: Usage = field(default_factory=Usage)
    errors: Counter[str] = field(default_factory=Counter)
    # Rule backend: (rule, "kept" or the reason its candidate was dropped) -> candidates, this run.
    rule_checks: Counter[tuple[str, str]] = field(default_factory=Counter)
    # Rule backend: rule -> distractors it made in the sentences this run finished (the output's rule mix).
    rule_output: Counter[str] = field(default_factory=Counter)
    # LLM answers: ("refused" or "kept", kind of markup) -> candidates this run (clsd_generation.checks.candidates.MARKUP).
    markup: Counter[tuple[str, str]] = field(default_factory=Counter)
    # LLM answers: candidates refused this run by reason kind (validated), and kept items an answer check would
    # refuse (paper protocol); answers cut by the token limit (asked again).
    rejections: Counter[str] = field(default_factory=Counter)
    unchecked: Counter[str] = field(default_factory=Counter)
    cut: int = 0
    refused_answers: Counter[str] = field(default_factory=Counter)  # whole answers refused unread, by reason (asked again)
    limited: int = 0  # sentences left unfinished because the token limit cut every answer of this run
    token_limit: int | None = None  # --max-tokens of this run (LLM backends)
    batches: int = 0  # Batch API: batches sent this run (a round above the provider's limits is several)
    batch_rounds: int = 0
    # Request files: requests written this run for an engine to answer, and requests its answers file left out.
    requests_written: int = 0
    requests_file: str = ""
    request_round: int = 0
    answers_missing: int = 0
    # The checks that are off for a language of the run, one line each (clsd_generation.checks.coverage), said once.
    checks_off: list[str] = field(default_factory=list)
    # Lines of an output file refused unstored because they answer no request this run wrote there (file and line named).
    refused_lines: list[str] = field(default_factory=list)
    # The whole run folder, this run and earlier ones, by language ("Greek (el)"): sentences settled with distractors,
    # and failed sentences by reason. Empty where nobody counted them (a backend run on its own).
    made: dict[str, int] = field(default_factory=dict)
    failures: dict[str, Counter[str]] = field(default_factory=dict)
    # LLM answers this run by (model asked for, model the answer names or None, refused as another model's).
    answering_models: Counter[tuple[str, str | None, bool]] = field(default_factory=Counter)
    requests: int = 0  # live requests sent this run, each one paid for whatever became of its answer
    stopped: str = ""  # why the run stopped before sending more requests (its first answers named another model)

    def count(self, outcome: Outcome) -> None:
        """One sentence's asking ended this run."""
        if outcome is Outcome.OK:
            self.ok += 1
        elif outcome is Outcome.FAILED:
            self.failed += 1
        else:
            self.unfinished += 1

    def count_answer(self, effect: AnswerEffect) -> None:
        """What one LLM answer refused or flagged, by kind."""
        self.markup.update(effect.markup)
        self.rejections.update(effect.refused)
        self.unchecked.update(effect.unchecked)

    def count_model(self, asked: str, answered: str | None, *, refused: bool) -> None:
        """One LLM answer: the model it was asked of, the one it names, and whether it was refused as another's."""
        self.answering_models[(asked, answered, refused)] += 1

    def model_lines(self) -> list[str]:
        """Every model that answered this run, with its answers, per model asked for; another model's answers refused,
        with the option that allows that model."""
        out = []
        for asked in sorted({asked for asked, _, _ in self.answering_models}):
            counts = {(answered, refused): n for (a, answered, refused), n in self.answering_models.items() if a == asked}
            ordered = sorted(counts.items(), key=lambda kv: (kv[0][1], -kv[1], kv[0][0] or ""))
            parts = [_model_count(answered, refused, n) for (answered, refused), n in ordered]
            out.append(f"answers by model this run (asked for {model_shown(asked)}): " + ", ".join(parts))
        return out

    def lines(self) -> list[str]:
        out = [
            f"backend: {self.backend}",
            f"sentences: {self.total} ({self.done_before} finished before this run)",
            f"this run: {self.ok} with distractors, {self.failed} failed validation, {self.unfinished} unfinished",
        ]
        out.extend(self.failure_lines())
        out += [f"check off: {line}" for line in self.checks_off]
        out += _shown(
            (self.reasked, f"asked again: {self.reasked} answer(s) could not settle their sentence"),
            (self.batches, f"Batch API: {self.batches} batch(es) sent this run, in {self.batch_rounds} round(s)"),
            (
                self.answers_missing,
                f"answers missing: {self.answers_missing} request(s) had no line in the answers file; asked again",
            ),
            (
                self.requests_written,
                f"requests written: {self.requests_written} to {self.requests_file} (round {self.request_round})",
            ),
        )
        out.extend(self.model_lines())
        usage = self.usage
        out += _shown(
            (self.requests, f"requests sent this run: {self.requests}"),
            (
                usage.total,
                f"tokens this run: {usage.prompt_tokens} prompt + {usage.completion_tokens} completion = {usage.total}",
            ),
            (self.errors, "errors after retries: " + ", ".join(f"{k} x{v}" for k, v in self.errors.most_common())),
        )
        out += [f"refused, nothing stored: {where}" for where in self.refused_lines[:SHOWN_REFUSED_LINES]]
        more_refused = len(self.refused_lines) - SHOWN_REFUSED_LINES
        out += _shown(
            (more_refused > 0, f"refused, nothing stored: {more_refused} more such line(s)"),
            (self.cut, f"cut by the token limit: {self.cut} answer(s), asked again"),
            (self.limited, f"left unfinished by the token limit: {self.limited} sentence(s), every answer cut"),
            (self.refused_answers, "answers refused this run (asked again): " + _by_count(self.refused_answers)),
            (self.rejections, "candidates refused this run: " + _by_count(self.rejections)),
            (self.unchecked, "kept unchecked (paper protocol), an answer check would refuse: " + _by_count(self.unchecked)),
        )
        out.extend(self.markup_lines())
        out.extend(self.rule_check_lines())
        return out

    def failure_lines(self) -> list[str]:
        """Why sentences failed, per language, over the whole run folder: a finished folder's summary (the same
        command run again) is where the failure reasons are read. Reasons are counted by kind (their detail dropped)."""
        return [
            f"failed in this run folder, {language} ({sum(reasons.values())} sentence(s)): {_failure_kinds(reasons)}"
            for language, reasons in self.failures.items()
        ]

    def without_distractors(self) -> list[str]:
        """The languages of which no sentence of the run folder has distractors: a dataset needs each one."""
        return [language for language, n in self.made.items() if not n]

    def nothing_made(self) -> str:
        """Why the run folder holds nothing to build, in one line (a run ending so fails): the languages with no sentence
        with distractors, their failed sentences by reason, this run's refused answers by reason and requests sent."""
        empty = self.without_distractors()
        why = [
            f"{language} {sum(self.failures[language].values())} ({_failure_kinds(self.failures[language])})"
            for language in empty
            if self.failures.get(language)
        ]
        return (
            f"nothing to build: no {' and no '.join(empty)} sentence has distractors"
            + (f"; failed sentences by reason: {'; '.join(why)}" if why else "")
            + (f"; answers refused this run: {_by_count(self.refused_answers)}" if self.refused_answers else "")
            + (f"; requests sent this run: {self.requests}" if self.requests else "")
            + " (the lines above say more)."
        )

    def markup_lines(self) -> list[str]:
        """Candidates that were markup, not text: refused (validated protocol) or kept unchecked (paper), by kind."""
        out = []
        for action, label in (("refused", "refused, asked again"), ("kept", "kept unchecked, paper protocol")):
            kinds = {kind: n for (a, kind), n in self.markup.items() if a == action}
            if kinds:
                detail = ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0])))
                out.append(f"markup in answers ({label}): {sum(kinds.values())} candidate(s): {detail}")
        return out

    def rule_check_lines(self) -> list[str]:
        """One line per rule: candidates that passed the automatic checks, and the drops by reason."""
        rules = sorted({rule for rule, _ in self.rule_checks})
        if not rules:
            return []
        out = ["rule checks (candidates this run: kept / dropped by reason):"]
        for rule in rules:
            drops = {reason: n for (r, reason), n in self.rule_checks.items() if r == rule and reason != "kept"}
            detail = ", ".join(f"{n} {reason}" for reason, n in sorted(drops.items(), key=lambda kv: (-kv[1], kv[0])))
            out.append(
                f"  {rule}: {self.rule_checks[(rule, 'kept')]} kept, {sum(drops.values())} dropped"
                + (f" ({detail})" if detail else "")
            )
        total = sum(self.rule_output.values())
        if total:
            mix = ", ".join(f"{rule} {n} ({100 * n / total:.1f}%)" for rule, n in self.rule_output.most_common())
            out.append(f"distractors this run by rule: {mix}")
        return out


def _failure_kinds(reasons: Counter[str]) -> str:
    """Failure reasons counted by kind (their detail in parentheses dropped), the most frequent named, the rest counted."""
    kinds = Counter[str]()
    for reason, n in reasons.items():
        kinds[reason.split(" (")[0]] += n
    ordered = sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))
    shown = ", ".join(f"{kind} {n}" for kind, n in ordered[:SHOWN_FAILURE_REASONS])
    rest = ordered[SHOWN_FAILURE_REASONS:]
    return shown + (f", {len(rest)} other reason(s) {sum(n for _, n in rest)}" if rest else "")


def _shown(*lines: tuple[object, str]) -> list[str]:
    """Each line whose count (or condition) is not zero: a summary names only what happened."""
    return [line for count, line in lines if count]


def _by_count(counts: Counter[str]) -> str:
    """``kind n`` pairs, most frequent first: "Jaccard out of bounds 12, wrong language 3"."""
    return ", ".join(f"{kind} {n}" for kind, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def _model_count(answered: str | None, refused: bool, answers: int) -> str:
    """ "gpt-4o-2024-08-06 12", or for another model's answers, refused, the option that would have read them."""
    if not refused or answered is None:
        return f"{model_shown(answered)} {answers}"
    name = model_shown(answered)
    option = option_name(LLMSettings, "accepted_models")
    return f"{name} {answers} refused as another model's (allow it: {option} {shlex.quote(name)})"
