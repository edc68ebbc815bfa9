"""The four steps as library calls (clsd_generation.run): each takes the settings object its command builds, whole, and
returns a typed result whose lines are what the command prints; generate -> translate -> judge -> build, through the
stand-in OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

from pathlib import Path

import pytest

from clsd_format import hub
from clsd_format.errors import CLSDError
from clsd_generation.core.inputs import CorpusInput
from clsd_generation.core.run_folder import RunFolder
from clsd_generation.core.settings import LLMSettings, TranslationSettings
from clsd_generation.dataset.builder import BuildSummary
from clsd_generation.dataset.description import DatasetDescription
from clsd_generation.dataset.options import BuildOptions
from clsd_generation.llm.judge_settings import JudgeSettings
from clsd_generation.run import (
    GenerationResult,
    JudgeResult,
    TranslationResult,
    build,
    generate,
    judge,
    translate,
)
from clsd_generation.run.options import JudgeOptions
from clsd_generation.run.settings import GenerationSettings, RunChoices
from tests.helpers.cli_runner import invoke
from tests.helpers.corpora import DE_FR_OPTIONS, write_parallel_csv
from tests.helpers.fake_openai import FakeOpenAI

ROWS = [(f"Der Hund Nummer {i} beißt den Mann", f"Le chien numéro {i} mord l'homme") for i in range(3)]


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")


def _settings(corpus: Path, run_dir: Path, base_url: str) -> GenerationSettings:
    return GenerationSettings(
        input=CorpusInput(str(corpus), source_column="de", target_column="fr", source_lang="de", target_lang="fr"),
        run=RunChoices(run_dir=run_dir, backend="llm", quiet=True),
        llm=LLMSettings(model="fake-model", base_url=base_url),
    )


def test_the_four_steps_take_their_settings_whole_and_return_what_the_commands_print(tmp_path: Path) -> None:
    corpus = write_parallel_csv(tmp_path / "p.csv", ROWS)
    announced: list[str] = []
    with FakeOpenAI() as fake:
        made = generate(_settings(corpus, tmp_path / "run", fake.base_url), announce=announced.append)
        printed = invoke(
            "generate", str(corpus), "--run-dir", str(tmp_path / "cli-run"), *DE_FR_OPTIONS, "--backend", "llm",
            "--model", "fake-model", "--base-url", fake.base_url, "--quiet",
        )  # fmt: skip
        folder = RunFolder(run_dir=tmp_path / "run", quiet=True)
        endpoint = LLMSettings(base_url=fake.base_url)
        translated = translate(folder, TranslationSettings(backend="llm", model="fake-model"), endpoint)
        judged = judge(folder, JudgeSettings(llm=LLMSettings(model="fake-model", base_url=fake.base_url, max_tokens=16)))
    assert isinstance(made, GenerationResult) and made.problem() is None and made.run_dir == tmp_path / "run"
    assert made.report.ok == 6 and made.report.requests >= 6  # both languages of three pairs, each request paid for
    assert [line.replace(str(tmp_path / "run"), "RUN") for line in made.lines()] == [
        line.replace(str(tmp_path / "cli-run"), "RUN") for line in printed.splitlines()
    ]
    assert isinstance(translated, TranslationResult) and translated.translated == {"de": 15, "fr": 15}
    assert translated.problem() is None and "de->en: 15 texts translated in this run" in translated.lines()
    assert isinstance(judged, JudgeResult) and judged.share is not None and judged.asked > 0 and judged.problem() is None
    built = build(BuildOptions(description=DatasetDescription(name="steps"), run_dir=tmp_path / "run", out=tmp_path / "out"))
    assert isinstance(built, BuildSummary) and built.rows == {"de-fr": 3, "fr-de": 3, "de-fr-pivot-en": 3, "fr-de-pivot-en": 3}
    assert built.lines()[-1] == f"next: clsd evaluate --data-dir {tmp_path / 'out'}"
    assert (tmp_path / "out" / hub.CARD_FILE).is_file()


def test_a_judge_without_a_model_and_a_sample_of_none_are_refused_as_they_are_built() -> None:
    with pytest.raises(CLSDError, match="the judge needs --model"):
        JudgeSettings()
    with pytest.raises(CLSDError, match="--sample must be at least 1"):
        JudgeOptions(sample=0)
    with pytest.raises(CLSDError, match="give both --date-from and --date-to"):
        DatasetDescription(name="x", date_from="2020-01-01")


DOC = Path(__file__).resolve().parents[3] / "docs" / "generation.md"


@pytest.mark.slow  # the rule backend on 30 news sentences, in a fresh interpreter
def test_the_docs_python_recipe_runs_as_written(small_release: Path, tmp_path: Path) -> None:
    """docs/generation.md's Python block, read from the doc (never copied), on the release's first WMT19 sentences."""
    import csv
    import re
    import subprocess
    import sys

    (code,) = [b for b in re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL) if "generate(" in b]
    with (small_release / "CLSD_wmt2019_adversarial_dataset.csv").open(encoding="utf-8", newline="") as handle:
        rows = [(row["German"], row["French"]) for row, _ in zip(csv.DictReader(handle), range(30), strict=False)]
    with (tmp_path / "parallel.csv").open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows([("de", "fr"), *rows])
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "this run:" in done.stdout and "next: clsd evaluate --data-dir datasets/mynews" in done.stdout, done.stdout
    assert (tmp_path / "datasets" / "mynews" / hub.CARD_FILE).is_file()
