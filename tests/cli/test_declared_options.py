"""A command's options are made from its settings' declared fields: one field, one option, nothing written twice."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from clsd_cli.declared import declared_command, parameters
from clsd_cli.generate import app as generate_app
from clsd_format.declared_settings import declared_fields, setting
from clsd_format.errors import CLSDError
from clsd_generation.core.inputs import CorpusInput
from clsd_generation.core.settings import GENERATE_PANELS, LLMSettings, ReadingChecks, TranslationSettings, ValidationBounds
from clsd_generation.run.settings import GenerationSettings, RunChoices
from tests.helpers.cli_runner import invoke


@dataclass(frozen=True)
class Checks:
    edits: int = setting(2, help="Character edits of a near copy.", panel="Checks")
    neighbours: tuple[str, ...] = setting((), help="A neighbour (repeatable).", panel="Checks", flag="--neighbour")


@dataclass(frozen=True)
class Toy:
    source: str = setting(help="The input.", panel="Input", argument=True)
    mb: int = setting(2_000_000, help="Megabytes.", panel="Batch", flag="--max-mb", unit=1_000_000)
    checks: Checks = field(default_factory=Checks)


def _toy_app(seen: list[Toy]) -> typer.Typer:
    app = typer.Typer()

    @declared_command(app, panels=("Input", "Checks", "Batch"))
    def toy(settings: Toy) -> None:
        seen.append(settings)

    @app.callback()
    def main() -> None:
        """Several commands: the toy's name is its own."""

    return app


def test_a_declared_field_is_an_option_and_the_settings_come_back_built() -> None:
    seen: list[Toy] = []
    result = CliRunner().invoke(
        _toy_app(seen), ["toy", "in.csv", "--edits", "0", "--neighbour", "ru:bg", "--neighbour", "sr:hr", "--max-mb", "1.5"]
    )
    assert result.exit_code == 0, result.output
    assert seen == [Toy("in.csv", 1_500_000, Checks(0, ("ru:bg", "sr:hr")))]
    help_text = CliRunner().invoke(_toy_app([]), ["toy", "--help"]).output
    assert "Character edits of a near copy." in help_text and "--neighbour" in help_text


def test_defaults_are_the_dataclasses_own() -> None:
    seen: list[Toy] = []
    assert CliRunner().invoke(_toy_app(seen), ["toy", "in.csv"]).exit_code == 0
    assert seen == [Toy("in.csv")]


def test_a_help_names_another_option_of_its_command_from_the_declaration() -> None:
    @dataclass(frozen=True)
    class Pointing:
        limit: int = setting(1, help="Per {--neighbours} given, and with {--mb}.", panel="Checks")

    parameter = next(p for p in parameters({"toy": Toy, "pointing": Pointing}) if p.name == "limit")
    assert parameter.annotation.__metadata__[0].help == "Per --neighbour given, and with --max-mb."
    with pytest.raises(TypeError, match=r"\{--neighbours\}, which the command does not offer"):
        parameters({"pointing": Pointing})


def test_two_fields_that_would_make_one_option_are_refused() -> None:
    @dataclass(frozen=True)
    class Twice:
        edits: int = setting(1, help="Again.", panel="Checks")

    with pytest.raises(TypeError, match="edits"):
        parameters({"a": Checks, "b": Twice})


def test_clsd_generate_has_one_option_per_declared_field_of_its_settings() -> None:
    command = typer.main.get_command(generate_app)
    options = {param.name for param in command.params} - {"install_completion", "show_completion"}
    declared = {item.name for item in declared_fields(GenerationSettings)}
    assert options == declared
    assert len(declared) == 44  # the argument and the 43 options `clsd generate` had, none lost on the way
    for cls in (CorpusInput, RunChoices, LLMSettings, ValidationBounds, ReadingChecks):
        assert any(item.path[-1] in {f.name for f in cls.__dataclass_fields__.values()} for item in declared_fields(cls))


def test_clsd_generate_lists_its_panels_in_the_declared_order() -> None:
    from clsd_cli.app import app

    text = CliRunner().invoke(app, ["generate", "--help"], env={"COLUMNS": "200"}).output
    positions = [text.index(f"{panel}:") for panel in GENERATE_PANELS]
    assert positions == sorted(positions)


def test_a_bad_setting_is_refused_by_its_dataclass_on_the_command_line(tmp_path: Path) -> None:
    args = ["generate", str(tmp_path / "in.csv"), "--source-column", "de", "--target-column", "fr"]
    args += ["--source-lang", "de", "--target-lang", "fr", "--run-dir", str(tmp_path / "run"), "--accept-neighbour", "ru"]
    with pytest.raises(CLSDError, match="--accept-neighbour 'ru': write TARGET:NEIGHBOUR"):
        invoke(*args)


@pytest.mark.parametrize(
    ("build", "option"),
    [
        (lambda: LLMSettings(concurrency=-5), "--concurrency must be at least 1"),
        (lambda: LLMSettings(timeout=-1), "--timeout must be at least 0.001"),
        (lambda: LLMSettings(max_retries=-3), "--max-retries must be at least 0"),
        (lambda: ReadingChecks(near_copy_edits=-1), "--near-copy-edits must be at least 0"),
        (lambda: TranslationSettings(max_new_tokens=0), "--max-new-tokens must be at least 1"),
        (lambda: TranslationSettings(backend="gpt"), "--backend 'gpt' is unknown; use one of m2m, llm"),
        (lambda: ValidationBounds(protocol="strict"), "--protocol 'strict' is unknown; use one of validated, paper"),
    ],
)
def test_a_declared_minimum_or_choice_is_checked_when_the_object_is_built_from_python(build: object, option: str) -> None:
    """The minimum the option declares holds for the object too, and the refusal names the option as declared."""
    with pytest.raises(CLSDError, match=re.escape(option)):
        build()  # type: ignore[operator]
