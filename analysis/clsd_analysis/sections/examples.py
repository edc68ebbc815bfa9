"""Section 4: examples of successful distractors, the changed words marked, the report's model first."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from clsd_analysis.sections.base import Section
from clsd_analysis.success_rules import SUCCESS_RULES, TOP
from clsd_format.declared_settings import setting

if TYPE_CHECKING:
    from clsd_analysis.report_context import ReportContext


@dataclass(frozen=True)
class Examples(Section):
    title = "Examples of successful distractors"
    order = 40
    n: int = setting(10, help="Successful-distractor examples to sample.", flag="--examples", minimum=0)
    seed: int = setting(0, help="Seed of the example sample.")
    rule: str = setting(
        TOP,
        help="Successful distractors in the examples: 'top' (the paper's) or 'ties-or-beats'.",
        flag="--success-rule",
        choices=tuple(SUCCESS_RULES),
    )

    def write(self, report: ReportContext) -> None:
        from clsd_analysis.examples import successful_examples

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
