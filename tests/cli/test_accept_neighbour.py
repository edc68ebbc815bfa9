"""`clsd generate --accept-neighbour TARGET:NEIGHBOUR`: read before anything is asked, and carried to the language check."""

from __future__ import annotations

from pathlib import Path

import pytest

from clsd_cli.app import main
from clsd_generation.core.checkpoint import GENERATION_KEY, Checkpoint
from tests.helpers.corpora import llm_generate_args, write_parallel_csv
from tests.helpers.fake_openai import FakeOpenAI

PAIRS = [
    ("Die Regierung baut nächstes Jahr eine neue Straße in dem Dorf.", "Le gouvernement construira une route dans ce village."),
    ("Der Zug nach Berlin fährt morgen früh um acht Uhr ab.", "Le train pour Berlin part demain matin à huit heures."),
]


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("de-nl", "write TARGET:NEIGHBOUR"),
        ("de:tlh", "does not know 'tlh'"),
        ("ru:bg", "ru is not a language of this run (de, fr)"),
    ],
)
def test_a_neighbour_that_cannot_be_accepted_is_one_line_before_any_request(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], spec: str, says: str
) -> None:
    corpus = write_parallel_csv(tmp_path / "pairs.csv", PAIRS)
    with FakeOpenAI() as fake, pytest.raises(SystemExit) as done:
        main(llm_generate_args(corpus, tmp_path / "run", fake.base_url, "--accept-neighbour", spec, "--quiet"))
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert done.value.code == 2 and says in line, line
    assert fake.requests == [] and not (tmp_path / "run").exists()


@pytest.mark.slow
def test_the_accepted_neighbours_are_the_runs_reading_settings(tmp_path: Path) -> None:
    """Given by any code of each language and more than once, they are kept once, as the identifier writes them, in the
    settings the run is bound to (a resumed run with other neighbours is another run); without any, the settings are
    as a run's without the option."""
    corpus = write_parallel_csv(tmp_path / "pairs.csv", PAIRS)
    accept = ["--accept-neighbour", "de:nl", "--accept-neighbour", "deu:nld", "--accept-neighbour", "fr:ca"]
    with FakeOpenAI() as fake:
        main(llm_generate_args(corpus, tmp_path / "run", fake.base_url, *accept, "--quiet"))
        main(llm_generate_args(corpus, tmp_path / "plain", fake.base_url, "--quiet"))
    with Checkpoint.existing(tmp_path / "run") as checkpoint:
        assert checkpoint.get_meta(GENERATION_KEY)["validation"]["reading"]["accepted_neighbours"] == ["de:nl", "fr:ca"]
    with Checkpoint.existing(tmp_path / "plain") as checkpoint:
        assert "accepted_neighbours" not in checkpoint.get_meta(GENERATION_KEY)["validation"]["reading"]
