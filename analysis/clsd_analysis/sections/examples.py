"""Section 4: examples of successful distractors, the changed words marked, the report's model first."""

from __future__ import annotations

from dataclasses import dataclass

from clsd_analysis.edit_distance import SUCCESS_RULES, TOP
from clsd_analysis.examples import successful_examples
from clsd_analysis.report_context import ReportContext
from clsd_analysis.sections.base import Section


@dataclass(frozen=True)
class Examples(Section):
    title = "Examples of successful distractors"
    n: int = 10  # pairs sampled
    seed: int = 0  # seed of that sample
    rule: str = TOP  # which distractors count as successful

    def write(self, report: ReportContext) -> None:
        examples = successful_examples(
            report.results,
            report.catalog,
            n=self.n,
            seed=self.seed,
            rule=self.rule,
            distractors=report.distractors,
            focus=report.focus,
            types=report.edit_types.lookup() if self.n else None,
        )
        if examples.empty:
            report.writer.add("No direct-task distractor tricked any model (or no predictions with texts).\n")
            return
        report.writer.add(
            f"A random sample (seed {self.seed}) of original/distractor pairs that tricked `{report.focus}`, the model this "
            f"report is about, filled up with pairs that tricked other models where it has fewer (successful = "
            f"{SUCCESS_RULES[self.rule]}); the words that differ from the original are in bold, and the edit type says "
            "what kind of change the distractor makes (section 7).\n"
        )
        report.writer.table(
            "successful_examples", examples.set_index("task"), caption="Successful distractors and the models they tricked."
        )
