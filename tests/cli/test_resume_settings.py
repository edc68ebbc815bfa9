"""A run folder resumed with other settings: `clsd generate` says which, one setting a line, and changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from clsd_cli.app import main
from tests.helpers.corpora import llm_generate_args, write_parallel_csv
from tests.helpers.fake_openai import FakeOpenAI

ROWS = [
    ("Der Zug fährt morgen um acht Uhr ab.", "Le train part demain à huit heures."),
    ("Die Stadt baut eine neue Brücke über den Fluss.", "La ville construit un nouveau pont sur le fleuve."),
]


def test_other_settings_on_resume_are_listed_one_a_line_nested_ones_by_their_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    corpus = write_parallel_csv(tmp_path / "pairs.csv", ROWS)
    with FakeOpenAI() as fake:
        command = llm_generate_args(corpus, tmp_path / "run", fake.base_url, "--quiet")
        main(command)
        capsys.readouterr()
        asked = len(fake.requests)
        with pytest.raises(SystemExit) as done:
            main([*command, "--temperature", "0.5", "--min-jaccard", "0.2"])
        assert len(fake.requests) == asked  # refused before anything is asked
    lines = capsys.readouterr().err.strip().splitlines()
    assert done.value.code == 2
    assert lines[0].startswith("error: checkpoint ") and lines[0].endswith(
        "was made with different settings; results would be mixed:"
    )
    assert lines[1:-1] == [
        "  temperature: checkpoint has 1.0, this run has 0.5",
        "  validation.min_jaccard: checkpoint has 0.1, this run has 0.2",
    ]
    assert lines[-1] == "Use another --run-dir for the new settings, or repeat the original command to resume."
