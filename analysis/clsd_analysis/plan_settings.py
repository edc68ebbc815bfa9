"""What ``clsd plan`` is asked, declared once: :class:`PlanSettings`.

``clsd plan`` is made from its fields (:mod:`clsd_cli.declared`) and :func:`clsd_analysis.set_size.plan_for_folders`
takes the same object, so a script and a command line are refused alike (a difference of 0 points, a level above
0.5), each refusal naming the option. Plain ``clsd_format`` only: ``clsd plan --help`` imports none of the analysis.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from clsd_format.declared_settings import DeclaredSettings, option_name, setting
from clsd_format.errors import CLSDError
from clsd_format.evaluation_settings import EvaluationSettings
from clsd_format.folders import folder_callback

DEFAULT_DIFFERENCES = (1.0, 2.0, 3.0)  # points of P@1, when none is asked


@dataclass(frozen=True)
class PlanSettings(DeclaredSettings):
    """The results to measure the discordance on, and the differences, level and power to plan for."""

    results_dir: tuple[Path, ...] = setting(
        help=f"Results folder(s) of `clsd evaluate {option_name(EvaluationSettings, 'output')}` (several are read as "
        "one), with two or more models.",
        argument=True,
        metavar="RESULTS_DIR...",
        check=folder_callback("results folder"),
    )
    difference: tuple[float, ...] = setting(
        (),
        help="P@1 difference(s) in points to detect, above 0 and below 100 (repeat for several).",
        flag="--difference,-d",
        metavar="POINTS",
    )
    alpha: float = setting(0.05, help="Significance level.", metavar="LEVEL", minimum=0.0001, maximum=0.5)
    power: float = setting(0.8, help="Power.", metavar="SHARE", minimum=0.5, maximum=0.9999)

    def check(self) -> None:
        for points in self.difference:  # nan passes every comparison but this one
            if not 0 < points < 100:
                raise CLSDError(
                    f"{option_name(PlanSettings, 'difference')} {points:g}: a difference in P@1 is a number of points "
                    "above 0 and below 100"
                )

    def differences(self) -> tuple[float, ...]:
        """The differences asked, else :data:`DEFAULT_DIFFERENCES`."""
        return self.difference or DEFAULT_DIFFERENCES


__all__ = ["DEFAULT_DIFFERENCES", "PlanSettings"]
