"""Which rules a rule run applies, with which seed, and whether it runs where they would make nothing:
:class:`RuleChoices`, declared beside the rules so that their messages name its options.
"""

from __future__ import annotations

from dataclasses import dataclass

from clsd_format.declared_settings import DeclaredSettings, option_name, setting
from clsd_format.errors import CLSDError
from clsd_generation.core.settings import DEFAULT_RULES_SEED, RULES_PANEL
from clsd_generation.rules.registry import ALL_RULES, DEFAULT_RULES, OPT_IN_RULES, RULES


@dataclass(frozen=True)
class RuleChoices(DeclaredSettings):
    """The rule backend's rules and seed."""

    PANEL = RULES_PANEL

    seed: int = setting(DEFAULT_RULES_SEED, help="Seed of the rule backend.")
    rules: str = setting(
        "default",
        help=f"Rules of the rule backend: {'; '.join(f'{r.name} ({r.description})' for r in RULES)}; or 'all'. "
        f"Default: {', '.join(DEFAULT_RULES)}; {', '.join(OPT_IN_RULES)} are opt-in (read strictly, too few of their "
        "distractors were valid; see docs/generation.md).",
        metavar="NAME[,NAME...]|all",
    )
    run_anyway: bool = setting(
        False,
        help="Run the rules on every sentence although they would give no sentence of a language its distractors, "
        "measured on its first 200 still to do (without it such a run stops there, exit status 2, saying why).",
        flag="--run-anyway",
    )

    def names(self) -> tuple[str, ...]:
        """The rules asked for, in the registry's order whatever order they were typed in."""
        if self.rules == "default":
            return DEFAULT_RULES
        if self.rules == "all":
            return ALL_RULES
        names = tuple(dict.fromkeys(name.strip() for name in self.rules.split(",") if name.strip()))
        unknown = [name for name in names if name not in ALL_RULES]
        if unknown or not names:
            raise CLSDError(
                f"{option_name(RuleChoices, 'rules')}: unknown rule(s) {unknown or [self.rules]}; the rules are {', '.join(ALL_RULES)}, or 'all'."
            )
        return tuple(rule for rule in ALL_RULES if rule in names)


__all__ = ["RuleChoices"]
