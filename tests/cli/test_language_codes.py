"""`clsd generate` reads every language code, and the script of each column, before anything is asked of an LLM."""

from __future__ import annotations

from pathlib import Path

import pytest

from clsd_cli.app import main
from tests.helpers.corpora import write_parallel_csv
from tests.helpers.fake_openai import FakeOpenAI

LONG_TAG = "en-x-" + "-".join(["abcdefgh"] * 33)  # 301 characters, each subtag well-formed
GERMAN_SERBIAN = [("Guten Tag, wie geht es?", "Добар дан, како сте?"), ("Das ist Belgrad.", "Ово је Београд.")]


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")


@pytest.mark.parametrize(
    ("source", "target", "says"),
    [
        ("de", "de-AT", "name one language"),
        ("en", "en_US", "name one language"),
        ("zh-Hant", "zh-Hant-TW", "name one language"),
        ("de", LONG_TAG, "301 characters"),
        ("de", "en-Zzzz", "script 'Zzzz'"),
        ("de", "en-QM", "region 'QM'"),
        ("de", "de-CH-1996", "'1996' would be lost"),
        ("de", "sr-Latn", "most of them Cyrillic"),  # the column holds Serbian in Cyrillic
        ("de", "greek", "did you mean 'el' (Greek)?"),  # a language's name for its code
    ],
)
def test_a_pair_or_script_that_cannot_be_is_one_line_before_any_request(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str, target: str, says: str
) -> None:
    corpus = write_parallel_csv(tmp_path / "pairs.csv", GERMAN_SERBIAN)
    options = ["--source-column", "de", "--target-column", "fr", "--source-lang", source, "--target-lang", target]
    with FakeOpenAI() as fake, pytest.raises(SystemExit) as done:
        endpoint = ["--backend", "llm", "--model", "fake-model", "--base-url", fake.base_url, "--quiet"]
        main(["generate", str(corpus), "--run-dir", str(tmp_path / "run"), *options, *endpoint])
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert done.value.code == 2 and says in line and len(line) < 500, line
    assert fake.requests == [] and not (tmp_path / "run").exists()  # nothing asked, nothing written
