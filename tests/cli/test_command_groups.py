"""`clsd --help` lists the commands in the groups a user meets them in, and the renamed commands keep their old names.

The old names are hidden aliases for one release: each runs the command of its new name after one line on stderr that
gives the new name; neither `clsd --help` nor the names the docs may use (tests/project/test_public_names.py) show them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from clsd_cli.app import app

GROUPS = {
    "Evaluate models and analyse results": ["evaluate", "analyze", "plan", "compare-sources", "mteb"],
    "Make a dataset": ["generate", "answer-requests", "translate", "judge", "build"],
    "Check by hand": ["check-sample", "check-import"],
    "Publish": ["push-dataset", "export-release", "push-results", "export-results", "export-training"],
}
RENAMED = {"push": "push-dataset", "sample": "check-sample", "import-sample": "check-import"}


def _sections(help_text: str) -> dict[str, list[str]]:
    """Each heading of a click help and the first word of each of its entries (continuation lines are indented deeper)."""
    sections: dict[str, list[str]] = {}
    for block in re.split(r"\n\s*\n", help_text):
        heading, _, body = block.partition("\n")
        if re.fullmatch(r"\S[^:]*:", heading):
            sections[heading[:-1]] = re.findall(r"^  (\S+)", body, flags=re.M)
    return sections


def test_help_lists_the_commands_in_groups_a_user_reads_in_order() -> None:
    result = CliRunner().invoke(app, ["--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    sections = _sections(result.output)
    assert list(sections) == ["Options", *GROUPS], list(sections)
    assert {title: sections[title] for title in GROUPS} == GROUPS
    visible = {name for name, command in typer.main.get_command(app).commands.items() if not command.hidden}  # type: ignore[attr-defined]
    assert visible == {name for names in GROUPS.values() for name in names}
    rows = [line for line in result.output.splitlines() if re.match(rf"  ({'|'.join(visible)}) ", line)]
    assert len({len(re.match(r"  \S+ +", row).group(0)) for row in rows}) == 1, rows  # type: ignore[union-attr]  # one column


def _attempts(old: str, new: str, folder: Path) -> dict[str, list[str]]:
    """The same arguments after the old and the new name: bad input the command itself refuses once it runs."""
    rest = {
        "push-dataset": [str(folder), "--repo-id", "noslash"],
        "check-sample": ["--run-dir", str(folder), "--sheet", str(folder / "sheet.csv")],
        "check-import": [str(folder / "missing.csv")],
    }[new]
    return {old: [old, *rest], new: [new, *rest]}


@pytest.mark.parametrize(("old", "new"), RENAMED.items())
def test_an_old_name_runs_its_new_command_after_one_deprecation_line(old: str, new: str, tmp_path: Path) -> None:
    runs = {name: CliRunner().invoke(app, args) for name, args in _attempts(old, new, tmp_path).items()}
    assert runs[new].stderr == ""
    assert runs[old].stderr == f"`clsd {old}` is now `clsd {new}`; the old name goes in the next release.\n"
    assert runs[old].stdout == runs[new].stdout
    refused = [runs[name].exception for name in (old, new)]
    assert type(refused[0]) is type(refused[1]) and str(refused[0]) == str(refused[1]), refused  # one command ran twice


@pytest.mark.parametrize(("old", "new"), RENAMED.items())
def test_an_old_name_is_hidden_from_the_help_but_answers_its_own(old: str, new: str) -> None:
    top = CliRunner().invoke(app, ["--help"], terminal_width=200).output
    assert not re.search(rf"^  {re.escape(old)} ", top, flags=re.M) and re.search(rf"^  {re.escape(new)} ", top, flags=re.M)
    helps = {name: CliRunner().invoke(app, [name, "--help"], terminal_width=200, prog_name="clsd") for name in (old, new)}
    assert helps[old].exit_code == 0 and helps[old].stderr == "", helps[old].output
    assert helps[old].stdout.replace(f"clsd {old} ", f"clsd {new} ", 1) == helps[new].stdout


def test_a_mistyped_name_is_answered_with_the_names_of_the_help_only() -> None:
    near_old = CliRunner().invoke(app, ["sampl"], terminal_width=200)
    assert near_old.exit_code == 2 and "No such command 'sampl'." in near_old.output
    assert "Did you mean" not in near_old.output, near_old.output  # never the old name `sample`
    near_new = CliRunner().invoke(app, ["push-datset"], terminal_width=200)
    assert "Did you mean 'push-dataset', 'push-results'?" in near_new.output, near_new.output
