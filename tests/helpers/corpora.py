"""Small German-French parallel files on disk, the `clsd generate` options that read them, and a toy Hub-format dataset."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from clsd_format import hub

# Columns "de" and "fr" of a file written by write_parallel_csv, as German and French.
DE_FR_OPTIONS = ("--source-column", "de", "--target-column", "fr", "--source-lang", "de", "--target-lang", "fr")


def llm_generate_args(corpus: Path, run_dir: Path, base_url: str, *extra: str, model: str = "fake-model") -> list[str]:
    """The arguments of ``clsd generate`` for a German-French corpus against an OpenAI-compatible server at ``base_url``."""
    endpoint = ("--backend", "llm", "--model", model, "--base-url", base_url)
    return ["generate", str(corpus), "--run-dir", str(run_dir), *DE_FR_OPTIONS, *endpoint, *extra]


def write_parallel_csv(path: Path, rows: Sequence[tuple[str, str]]) -> Path:
    """A CSV with the columns de and fr, every field quoted (sentences may hold commas)."""
    path.write_text("de,fr\n" + "".join(f'"{a}","{b}"\n' for a, b in rows), encoding="utf-8")
    return path


def toy_hub_folder(folder: Path, *, other: bool = False) -> Path:
    """A two-row Hub-format dataset of a task the release does not have, as `clsd build` would write one.

    ``other``: another dataset of the same name and row ids, whose second row speaks of red apples.
    """
    spec = hub.DirectionSpec("en-de", "CLSD-TOY-EN-DE", "eng-Latn", "deu-Latn")
    rows = [
        {"id": f"toy-{i}", "source": s, "target": t, "distractors": d, "source_lang": "eng-Latn", "target_lang": "deu-Latn"}
        for i, (s, t, d) in enumerate(
            [
                ("The weather is nice today.", "Das Wetter ist heute schön.", ["Das Wetter war gestern schön."]),
                (
                    "I bought three apples.",
                    "Ich habe drei Äpfel gekauft.",
                    ["Ich habe drei Birnen gekauft.", "Ich habe vier Äpfel gekauft."],
                )
                if not other
                else (
                    "I bought three red apples.",
                    "Ich habe drei rote Äpfel gekauft.",
                    ["Ich habe drei rote Birnen gekauft.", "Ich habe vier rote Äpfel gekauft."],
                ),
            ]
        )
    ]
    hub.write_config(folder, spec, rows)
    (folder / hub.CARD_FILE).write_text(hub.render_card(hub.front_matter([spec], pretty_name="toy"), "toy\n"), encoding="utf-8")
    return folder


SCRIPTS_TSV = Path(__file__).resolve().parents[1] / "data" / "scripts" / "sentences.tsv"


def script_sentences() -> dict[str, list[str]]:
    """The project's own six sentences in eleven languages over eleven scripts (tests/data/scripts), by language code."""
    import csv

    with SCRIPTS_TSV.open(encoding="utf-8", newline="") as handle:
        rows = [row for row in csv.reader(handle, delimiter="\t") if row and not row[0].startswith("#")]
    header, *body = rows
    return {code: [row[i] for row in body] for i, code in enumerate(header)}
