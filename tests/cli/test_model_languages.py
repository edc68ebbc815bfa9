"""``clsd evaluate`` on a task in a language the model declares no training in: one warning line per model and language."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clsd_format import hub
from clsd_mteb.encoders import usem3
from clsd_mteb.model_languages import untrained_in_results
from tests.helpers.corpora import script_sentences


def _script_folder(folder: Path, pairs: list[tuple[str, str, str, str]]) -> Path:
    """A Hub-format dataset of the project's six sentences per language (tests/data/scripts), one config per pair of
    (code, mteb code) languages; each row's distractors are two other sentences of the target language."""
    sentences = script_sentences()
    specs = []
    for source, source_mteb, target, target_mteb in pairs:
        spec = hub.DirectionSpec(f"x-{source}-{target}", f"CLSD-X-{source.upper()}-{target.upper()}", source_mteb, target_mteb)
        texts, targets = sentences[source], sentences[target]
        rows = [
            {
                "id": f"x-{i}",
                "source": texts[i],
                "target": targets[i],
                "distractors": [targets[(i + 1) % len(targets)], targets[(i + 2) % len(targets)]],
                "source_lang": source_mteb,
                "target_lang": target_mteb,
            }
            for i in range(len(texts))
        ]
        hub.write_config(folder, spec, rows)
        specs.append(spec)
    (folder / hub.CARD_FILE).write_text(hub.render_card(hub.front_matter(specs, pretty_name="x"), "x\n"), encoding="utf-8")
    return folder


@pytest.mark.slow
def test_a_language_the_model_never_saw_is_warned_about_once_and_its_languages_are_in_the_results(tmp_path, capsys):
    from clsd_cli.app import main

    greek, hebrew = ("el", "ell-Grek"), ("he", "heb-Hebr")
    folder = _script_folder(
        tmp_path / "data",
        [(*greek, *hebrew), (*hebrew, *greek), ("th", "tha-Thai", "en", "eng-Latn")],  # USE knows Thai and English only
    )
    out = tmp_path / "out"
    main(["evaluate", "--model", usem3.NAME, "--data-dir", str(folder), "--output", str(out)])

    warnings = [line for line in capsys.readouterr().err.splitlines() if line.startswith("warning:")]
    assert warnings == [
        f"warning: {usem3.NAME} declares no training in Greek (ell-Grek); its scores on CLSD-X-EL-HE, CLSD-X-HE-EL say little about that language (they may rest on shared names, numbers and words)",
        f"warning: {usem3.NAME} declares no training in Hebrew (heb-Hebr); its scores on CLSD-X-EL-HE, CLSD-X-HE-EL say little about that language (they may rest on shared names, numbers and words)",
    ]
    (meta,) = out.glob("results/*/*/model_meta.json")  # what the analysis reads, without loading the model
    assert json.loads(meta.read_text(encoding="utf-8"))["languages"] == usem3.LANGUAGES
    assert untrained_in_results(out) == {
        usem3.NAME: {"CLSD-X-EL-HE": ["ell-Grek", "heb-Hebr"], "CLSD-X-HE-EL": ["heb-Hebr", "ell-Grek"]}
    }
